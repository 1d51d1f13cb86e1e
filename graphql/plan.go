package graphql

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql/internal/access"
	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/validation"
)

// A selectionPlan is a selection set collected for one object type: the
// fields to execute, in response order, with fragments expanded and static
// @skip/@include applied. It is computed once per document and shared by
// every execution of it, so it is read-only after planning.
type selectionPlan struct {
	obj         *objectInfo
	parent      *fieldPlan // the field whose sub-selection this is; nil at the root
	fields      []*fieldPlan
	conditional bool // some field depends on a variable's @skip/@include
	batched     bool // some field has a batch resolver (batchexec.go)
	// directState and directTyp: the direct reads of the fields (directread.go).
	directState atomic.Uint32
	directTyp   reflect.Type

	namesOnce sync.Once
	names     []string
}

type fieldKind uint8

const (
	kindField fieldKind = iota
	kindTypename
	kindSchema
	kindType
	kindBatch // a field with a batch resolver (batchexec.go)
	// kindBatchPath: a field read from its parent value (no resolver) whose
	// sub-selection has batched fields: read ahead with its level, so that
	// the batches below it span every parent (batchexec.go).
	kindBatchPath
)

// isField reports whether fp is a field of the schema's own (not
// __typename or introspection).
func (k fieldKind) isField() bool { return k == kindField || k == kindBatch || k == kindBatchPath }

type fieldPlan struct {
	key     string
	keyJSON []byte         // `"key":`
	owner   *selectionPlan // the plan this field belongs to
	lists   uint8          // list wrappers of typ: indexes its items add to a path
	kind    fieldKind
	// batchList: the field is a list of objects with batched fields,
	// whose items may be resolved together (batchexec.go).
	batchList bool
	// dynamic: which occurrences count depends on variables.
	dynamic bool
	// dynArgs: the arguments are coerced for every execution, from
	// argNodes, because they refer to variables or hold custom scalar
	// values (each execution gets its own, from ParseLiteral or
	// ParseValue). argNodes are the operation's own (see literalcopies.go).
	dynArgs bool
	info    *fieldInfo
	typ     *schema.Type
	occ     []*plan.Occurrence

	args     Args
	argsErr  error // a literal that could not be coerced
	argNodes ast.ArgumentList

	child *selectionPlan // sub-selection when every occurrence counts
	// abs: for a field of an interface or union type, its sub-selection
	// for each possible object (planabstract.go); nil otherwise.
	abs *abstractChild
	// direct: the field's direct read from its parent (directread.go), once the
	// owner's directState is directReady.
	direct access.DirectRead
	locs   []gqlerror.Location

	planner  *planner
	dynCache sync.Map     // bitmask of counted occurrences -> *selectionPlan (*objectPlanSet for an abstract field)
	dynCount atomic.Int32 // entries in dynCache, at most maxDynPlans
}

// maxDynPlans bounds the sub-selection plans an operation keeps for one
// conditional field, one per combination of @skip/@include outcomes: a
// client that varies many conditions must not grow a cached operation
// without end. Combinations past it are planned once per execution.
const maxDynPlans = 16

type planner struct {
	s         *Schema
	doc       *ast.QueryDocument
	fragments validation.FragmentIndex
	// arena is the memory of the plans Prepare builds. It is the zero
	// arena, which allocates every piece on its own, except while Prepare
	// runs: plans built later, during executions (for conditional fields),
	// may be built by several at once.
	arena planArena
	// preparing is set while Prepare runs; owned holds the copies of
	// arguments that plans may coerce after it (literalcopies.go); conditional is
	// set once a field depends on a variable's @skip or @include. All are
	// only read once Prepare has returned.
	preparing, conditional bool
	owned                  map[*ast.Field]ast.ArgumentList
	// prep is what the planner keeps for an operation of a schema with
	// interfaces or unions (planabstract.go), while Prepare runs and
	// after; nil otherwise.
	prep *abstractPrep
}

// planArena hands out the memory of an operation's plans a chunk at a
// time, instead of four allocations per selection set and one per field.
// Everything in it lives as long as the operation.
type planArena struct {
	plans  chunks[selectionPlan]
	fields chunks[plannedField]
	order  chunks[*fieldPlan]
	locs   chunks[gqlerror.Location]
	keys   chunks[byte]
}

// newPlanArena returns an arena sized for an operation that expands to
// about selections fields.
func newPlanArena(selections int) planArena {
	n := min(max(selections, 2), 64)
	var a planArena
	// A selection set for about every other field; a key of about 8 bytes.
	a.plans.min, a.fields.min, a.order.min, a.locs.min, a.keys.min = n/2+1, n, n, n, 12*n
	return a
}

// chunks hands out slices of T of the asked capacity, cut from chunks of
// at least min elements; with min 0 (the zero value), each is allocated on
// its own and chunks is only read. Each slice's capacity is its own:
// appending past it moves the slice out of the chunk, never into its
// neighbour.
type chunks[T any] struct {
	buf []T
	min int
}

func (c *chunks[T]) take(n int) []T {
	if c.min == 0 {
		return make([]T, 0, n)
	}
	if cap(c.buf)-len(c.buf) < n {
		c.buf = make([]T, 0, max(n, c.min))
	}
	start := len(c.buf)
	c.buf = c.buf[:start+n]
	return c.buf[start : start : start+n]
}

type collector struct {
	p     *planner
	obj   *objectInfo
	order []*fieldPlan
	// byKey indexes order by response key once it is longer than
	// collectorScan; shorter, it is searched in place.
	byKey  map[string]*fieldPlan
	seq    int
	static map[string]bool // fragments already expanded unconditionally
	// slab holds the field plans and occurrences of the common case, a
	// field selected once, allocated together.
	slab []plannedField
}

// plannedField is a field plan with its first occurrence, allocated as one.
type plannedField struct {
	fp  fieldPlan
	occ plan.Occurrence
	one [1]*plan.Occurrence
	alt [1]plan.Alt
}

// collectorScan is the number of response keys up to which a collector
// finds a key by scanning instead of through a map.
const collectorScan = 8

// newCollector returns a collector for about size selections. The slab
// starts at no more than collectorSlab plans and grows by chunks, so that
// selections which share a key, or are skipped, leave little unused.
func (p *planner) newCollector(obj *objectInfo, size int) collector {
	return collector{p: p, obj: obj, order: p.arena.order.take(size), slab: p.arena.fields.take(min(size, collectorSlab))}
}

// collectorSlab is the most field plans a collector's slab holds at a time.
const collectorSlab = 16

// plan collects the sub-selections of the field nodes of parent for obj.
func (p *planner) plan(obj *objectInfo, sets []*ast.Field, parent *fieldPlan) *selectionPlan {
	if p.preparing && p.prep != nil && p.prep.planned > plan.MaxSelections {
		// Prepare refuses the operation (see abstractPrep.planned): the rest
		// is not planned.
		return &selectionPlan{obj: obj, parent: parent}
	}
	size := 0
	for _, f := range sets {
		size += len(f.SelectionSet)
	}
	c := p.newCollector(obj, size)
	for _, f := range sets {
		c.collect(f.SelectionSet, nil, 0)
	}
	return c.finish(parent)
}

func (p *planner) planRoot(obj *objectInfo, set ast.SelectionSet) *selectionPlan {
	c := p.newCollector(obj, len(set))
	c.collect(set, nil, 0)
	return c.finish(nil)
}

func (c *collector) collect(set ast.SelectionSet, conds []*ast.Directive, depth int) {
	if depth > plan.NestingGuard {
		return
	}
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			ok, dyn := plan.StaticCondition(x.Directives)
			if !ok {
				continue
			}
			c.add(x, joinConds(conds, dyn))
		case *ast.FragmentSpread:
			ok, dyn := plan.StaticCondition(x.Directives)
			if !ok {
				continue
			}
			all := joinConds(conds, dyn)
			if len(all) == 0 {
				if c.static[x.Name] {
					continue
				}
				if c.static == nil {
					c.static = make(map[string]bool, len(c.p.doc.Fragments))
				}
				c.static[x.Name] = true
			}
			frag := c.p.fragments.Get(c.p.doc, x.Name)
			if frag == nil || frag.TypeCondition != c.obj.Name && !c.p.conditionMatches(frag.TypeCondition, c.obj) {
				continue
			}
			c.collect(frag.SelectionSet, all, depth+1)
		case *ast.InlineFragment:
			ok, dyn := plan.StaticCondition(x.Directives)
			if !ok {
				continue
			}
			if x.TypeCondition != "" && x.TypeCondition != c.obj.Name && !c.p.conditionMatches(x.TypeCondition, c.obj) {
				continue
			}
			c.collect(x.SelectionSet, joinConds(conds, dyn), depth+1)
		}
	}
}

func joinConds(a, b []*ast.Directive) []*ast.Directive {
	if len(b) == 0 {
		return a
	}
	out := make([]*ast.Directive, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// keyJSON returns key as a JSON string followed by a colon. A key is a
// name, which needs no escapes: its length is known.
func (p *planner) keyJSON(key string) []byte {
	return append(response.AppendString(p.arena.keys.take(len(key)+3), key), ':')
}

func (c *collector) add(f *ast.Field, conds []*ast.Directive) {
	key := validation.ResponseKey(f)
	fp := c.find(key)
	seq := c.seq
	c.seq++
	if fp == nil {
		if len(c.slab) == cap(c.slab) {
			c.slab = c.p.arena.fields.take(collectorSlab)
		}
		c.slab = c.slab[:len(c.slab)+1]
		pf := &c.slab[len(c.slab)-1]
		pf.occ = plan.Occurrence{Field: f, Uncon: len(conds) == 0}
		pf.alt[0] = plan.Alt{Conds: conds, Seq: seq}
		pf.occ.Alts = pf.alt[:1:1]
		pf.one[0] = &pf.occ
		fp = &pf.fp
		fp.key, fp.keyJSON, fp.planner, fp.occ = key, c.p.keyJSON(key), c.p, pf.one[:1:1]
		c.order = append(c.order, fp)
		if c.byKey != nil {
			c.byKey[key] = fp
		} else if len(c.order) > collectorScan {
			c.byKey = make(map[string]*fieldPlan, 2*len(c.order))
			for _, x := range c.order {
				c.byKey[x.key] = x
			}
		}
		return
	}
	for _, o := range fp.occ {
		if o.Field == f {
			o.Alts = append(o.Alts, plan.Alt{Conds: conds, Seq: seq})
			o.Uncon = o.Uncon || len(conds) == 0
			return
		}
	}
	fp.occ = append(fp.occ, &plan.Occurrence{Field: f, Alts: []plan.Alt{{Conds: conds, Seq: seq}}, Uncon: len(conds) == 0})
}

// find returns the field collected under key, nil if none yet.
func (c *collector) find(key string) *fieldPlan {
	if c.byKey != nil {
		return c.byKey[key]
	}
	for _, fp := range c.order {
		if fp.key == key {
			return fp
		}
	}
	return nil
}

func (c *collector) finish(parent *fieldPlan) *selectionPlan {
	if c.p.preparing && c.p.prep != nil {
		c.p.prep.planned += len(c.order)
	}
	sp := &c.p.arena.plans.take(1)[:1][0]
	sp.obj, sp.parent, sp.fields = c.obj, parent, c.order
	nodes := 0
	for _, fp := range c.order {
		nodes += len(fp.occ)
	}
	locs := c.p.arena.locs.take(nodes) // every field's, in one
	for _, fp := range c.order {
		fp.owner = sp
		first := fp.occ[0].Field
		start := len(locs)
		for _, o := range fp.occ {
			// A condition anywhere makes the field's presence, its place
			// or its sub-selection depend on the variables.
			for _, a := range o.Alts {
				if len(a.Conds) > 0 {
					fp.dynamic = true
				}
			}
			locs = append(locs, gqlerror.Location{Line: o.Field.Position.Line, Column: o.Field.Position.Column})
		}
		fp.locs = locs[start:len(locs):len(locs)]
		if fp.dynamic {
			sp.conditional, c.p.conditional = true, true
		}
		switch {
		case first.Name == "__typename":
			fp.kind, fp.typ = kindTypename, c.p.s.typename
			continue
		case first.Name == "__schema" && c.obj == c.p.s.query:
			fp.kind, fp.typ = kindSchema, c.p.s.schemaField.Type
		case first.Name == "__type" && c.obj == c.p.s.query:
			fp.kind, fp.info = kindType, c.p.s.typeField
			fp.typ = fp.info.Type
		default:
			fp.info = c.obj.ByName[first.Name]
			if fp.info == nil {
				// Validation rejects unknown fields; a document that was
				// not validated gets the field skipped.
				fp.kind = kindTypename
				fp.typ = nil
				continue
			}
			fp.typ = fp.info.Type
			if fp.info.Batch {
				fp.kind, sp.batched = kindBatch, true
			}
		}
		fp.lists = listDepth(fp.typ)
		if obj := objectOf(fp.typ); obj != nil && fp.lists > 0 && (obj.Batched || fp.dynamic) {
			// Batched fields of their own; or, for a conditional field,
			// perhaps batched fields read ahead (each execution's plan
			// tells: completeBatchedList). Other fields are set below,
			// once their plan is made.
			fp.batchList = true
		}
		if len(c.p.s.abstracts) > 0 {
			c.p.abstractField(fp)
		}
		if fp.info != nil && len(fp.info.Args) > 0 {
			// Custom scalar values are parsed for every execution; the
			// literals are still checked once, here, so that a bad one is
			// refused before anything runs.
			args := c.p.ownArgs(first)
			if argsUseVariables(args) {
				fp.dynArgs = true
			} else {
				fp.args, fp.argsErr = argsOf(coerce.ArgumentValues(fp.info, args, nil))
				if fp.info.FreshArgs && fp.argsErr == nil {
					fp.args, fp.dynArgs = Args{}, true
				}
			}
			if fp.dynArgs {
				fp.argNodes = c.p.keepArgs(first, args)
			}
		}
		if !fp.dynamic {
			if obj := objectOf(fp.typ); obj != nil {
				var one [1]*ast.Field // plan keeps none of them
				fields := one[:]
				if len(fp.occ) > 1 {
					fields = make([]*ast.Field, len(fp.occ))
				}
				for i, o := range fp.occ {
					fields[i] = o.Field
				}
				fp.child = c.p.plan(obj, fields, fp)
				if fp.child.batched && fp.lists > 0 {
					fp.batchList = true // batched fields below, read ahead
				}
				if fp.kind == kindField && fp.info.Resolve == nil && fp.child.batched && c.obj != c.p.s.mutation {
					fp.kind, sp.batched = kindBatchPath, true
				}
			} else if fp.abs != nil {
				c.p.planObjects(fp)
				if fp.lists > 0 && fp.abs.batched() {
					fp.batchList = true
				}
				if fp.kind == kindField && fp.info.Resolve == nil && fp.abs.batched() && c.obj != c.p.s.mutation {
					fp.kind, sp.batched = kindBatchPath, true
				}
			}
		}
	}
	return sp
}

// listDepth counts the list wrappers of t.
func listDepth(t *schema.Type) uint8 {
	if t == nil {
		return 0
	}
	return uint8(t.Lists())
}

// parentField returns the field whose sub-selection fp belongs to, nil
// for a root field.
func (fp *fieldPlan) parentField() *fieldPlan {
	if fp.owner == nil {
		return nil
	}
	return fp.owner.parent
}

// objectOf returns the object inside t's lists and non-nulls, nil when t
// is nil or of another kind.
func objectOf(t *schema.Type) *objectInfo {
	if t == nil {
		return nil
	}
	return t.Named().Object
}

func argsUseVariables(args ast.ArgumentList) bool {
	for _, a := range args {
		if a.Value != nil && syntax.HasVariables(a.Value) {
			return true
		}
	}
	return false
}

// Schema returns the schema's field fp plans (for the resolver's Info).
func (fp *fieldPlan) Schema() *fieldInfo { return fp.info }

// ResponseKey returns the field's alias, or its name.
func (fp *fieldPlan) ResponseKey() string { return fp.key }
