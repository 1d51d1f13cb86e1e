package plan

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql/internal/access"
	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/validation"
)

// A Selection is a selection set collected for one object type: the
// fields to execute, in response order, with fragments expanded and static
// @skip/@include applied. It is computed once per document and shared by
// every execution of it, so it is read-only after planning.
type Selection struct {
	Obj         *schema.Object
	Parent      *Field // the field whose sub-selection this is; nil at the root
	Fields      []*Field
	Conditional bool // some field depends on a variable's @skip/@include
	Batched     bool // some field has a batch resolver (package exec, batchexec.go)
	// DirectState and DirectTyp: the direct reads of the fields
	// (package exec, directread.go).
	DirectState atomic.Uint32
	DirectTyp   reflect.Type

	namesOnce sync.Once
	names     []string
}

// FieldKind says how a planned field is executed.
type FieldKind uint8

const (
	KindField FieldKind = iota
	KindTypename
	KindSchema
	KindType
	KindBatch // a field with a batch resolver (package exec, batchexec.go)
	// KindBatchPath: a field read from its parent value (no resolver) whose
	// sub-selection has batched fields: read ahead with its level, so that
	// the batches below it span every parent (package exec, batchexec.go).
	KindBatchPath
)

// IsField reports whether fp is a field of the schema's own (not
// __typename or introspection).
func (k FieldKind) IsField() bool { return k == KindField || k == KindBatch || k == KindBatchPath }

// Field is one response key of a Selection: the occurrences of the field
// that share it, their schema field, type and arguments, and the plan of
// their sub-selection.
type Field struct {
	Key     string
	KeyJSON []byte     // `"key":`
	Owner   *Selection // the plan this field belongs to
	Lists   uint8      // list wrappers of typ: indexes its items add to a path
	Kind    FieldKind
	// BatchList: the field is a list of objects with batched fields,
	// whose items may be resolved together (package exec, batchexec.go).
	BatchList bool
	// Dynamic: which occurrences count depends on variables.
	Dynamic bool
	// DynArgs: the arguments are coerced for every execution, from
	// ArgNodes, because they refer to variables or hold custom scalar
	// values (each execution gets its own, from ParseLiteral or
	// ParseValue). ArgNodes are the operation's own (see literalcopies.go).
	DynArgs bool
	Info    *schema.Field
	Type    *schema.Type
	Occ     []*Occurrence

	Args     map[string]any
	ArgsErr  error // a literal that could not be coerced
	ArgNodes ast.ArgumentList

	Child *Selection // sub-selection when every occurrence counts
	// Abs: for a field of an interface or union type, its sub-selection
	// for each possible object (abstract.go); nil otherwise.
	Abs *AbstractChild
	// Direct: the field's direct read from its parent (package exec,
	// directread.go), once the owner's DirectState is ready.
	Direct access.DirectRead
	Locs   []gqlerror.Location

	planner  *planner
	dynCache sync.Map     // bitmask of counted occurrences -> *Selection (*objectPlanSet for an abstract field)
	dynCount atomic.Int32 // entries in dynCache, at most MaxDynPlans
}

// MaxDynPlans bounds the sub-selection plans an operation keeps for one
// conditional field, one per combination of @skip/@include outcomes: a
// client that varies many conditions must not grow a cached operation
// without end. Combinations past it are planned once per execution.
const MaxDynPlans = 16

type planner struct {
	s         *schema.Schema
	doc       *ast.QueryDocument
	fragments validation.FragmentIndex
	// arena is the memory of the plans Prepare builds. It is the zero
	// arena, which allocates every piece on its own, except while Prepare
	// runs: plans built later, during executions (for conditional fields),
	// may be built by several at once.
	arena planArena
	// preparing is set while Prepare runs; owned holds the copies of
	// arguments that plans may coerce after it (literalcopies.go);
	// conditional is set, while Prepare runs, once a field depends on a
	// variable's @skip or @include. Plans built later, by executions at
	// once, write none of them.
	preparing, conditional bool
	owned                  map[*ast.Field]ast.ArgumentList
	// prep is what the planner keeps for an operation of a schema with
	// interfaces or unions (abstract.go), while Prepare runs and
	// after; nil otherwise.
	prep *abstractPrep
}

// planArena hands out the memory of an operation's plans a chunk at a
// time, instead of four allocations per selection set and one per field.
// Everything in it lives as long as the operation.
type planArena struct {
	plans  chunks[Selection]
	fields chunks[plannedField]
	order  chunks[*Field]
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
	obj   *schema.Object
	order []*Field
	// byKey indexes order by response key once it is longer than
	// collectorScan; shorter, it is searched in place.
	byKey  map[string]*Field
	seq    int
	static map[string]bool // fragments already expanded unconditionally
	// slab holds the field plans and occurrences of the common case, a
	// field selected once, allocated together.
	slab []plannedField
}

// plannedField is a field plan with its first occurrence, allocated as one.
type plannedField struct {
	fp  Field
	occ Occurrence
	one [1]*Occurrence
	alt [1]Alt
}

// collectorScan is the number of response keys up to which a collector
// finds a key by scanning instead of through a map.
const collectorScan = 8

// newCollector returns a collector for about size selections. The slab
// starts at no more than collectorSlab plans and grows by chunks, so that
// selections which share a key, or are skipped, leave little unused.
func (p *planner) newCollector(obj *schema.Object, size int) collector {
	return collector{p: p, obj: obj, order: p.arena.order.take(size), slab: p.arena.fields.take(min(size, collectorSlab))}
}

// collectorSlab is the most field plans a collector's slab holds at a time.
const collectorSlab = 16

// plan collects the sub-selections of the field nodes of parent for obj.
func (p *planner) plan(obj *schema.Object, sets []*ast.Field, parent *Field) *Selection {
	if p.preparing && p.prep != nil && p.prep.planned > MaxSelections {
		// Prepare refuses the operation (see abstractPrep.planned): the rest
		// is not planned.
		return &Selection{Obj: obj, Parent: parent}
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

func (p *planner) planRoot(obj *schema.Object, set ast.SelectionSet) *Selection {
	c := p.newCollector(obj, len(set))
	c.collect(set, nil, 0)
	return c.finish(nil)
}

func (c *collector) collect(set ast.SelectionSet, conds []*ast.Directive, depth int) {
	if depth > NestingGuard {
		return
	}
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			ok, dyn := StaticCondition(x.Directives)
			if !ok {
				continue
			}
			c.add(x, joinConds(conds, dyn))
		case *ast.FragmentSpread:
			ok, dyn := StaticCondition(x.Directives)
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
			ok, dyn := StaticCondition(x.Directives)
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
		pf.occ = Occurrence{Field: f, Uncon: len(conds) == 0}
		pf.alt[0] = Alt{Conds: conds, Seq: seq}
		pf.occ.Alts = pf.alt[:1:1]
		pf.one[0] = &pf.occ
		fp = &pf.fp
		fp.Key, fp.KeyJSON, fp.planner, fp.Occ = key, c.p.keyJSON(key), c.p, pf.one[:1:1]
		c.order = append(c.order, fp)
		if c.byKey != nil {
			c.byKey[key] = fp
		} else if len(c.order) > collectorScan {
			c.byKey = make(map[string]*Field, 2*len(c.order))
			for _, x := range c.order {
				c.byKey[x.Key] = x
			}
		}
		return
	}
	for _, o := range fp.Occ {
		if o.Field == f {
			o.Alts = append(o.Alts, Alt{Conds: conds, Seq: seq})
			o.Uncon = o.Uncon || len(conds) == 0
			return
		}
	}
	fp.Occ = append(fp.Occ, &Occurrence{Field: f, Alts: []Alt{{Conds: conds, Seq: seq}}, Uncon: len(conds) == 0})
}

// find returns the field collected under key, nil if none yet.
func (c *collector) find(key string) *Field {
	if c.byKey != nil {
		return c.byKey[key]
	}
	for _, fp := range c.order {
		if fp.Key == key {
			return fp
		}
	}
	return nil
}

func (c *collector) finish(parent *Field) *Selection {
	if c.p.preparing && c.p.prep != nil {
		c.p.prep.planned += len(c.order)
	}
	sp := &c.p.arena.plans.take(1)[:1][0]
	sp.Obj, sp.Parent, sp.Fields = c.obj, parent, c.order
	nodes := 0
	for _, fp := range c.order {
		nodes += len(fp.Occ)
	}
	locs := c.p.arena.locs.take(nodes) // every field's, in one
	for _, fp := range c.order {
		fp.Owner = sp
		first := fp.Occ[0].Field
		start := len(locs)
		for _, o := range fp.Occ {
			// A condition anywhere makes the field's presence, its place
			// or its sub-selection depend on the variables.
			for _, a := range o.Alts {
				if len(a.Conds) > 0 {
					fp.Dynamic = true
				}
			}
			locs = append(locs, gqlerror.Location{Line: o.Field.Position.Line, Column: o.Field.Position.Column})
		}
		fp.Locs = locs[start:len(locs):len(locs)]
		if fp.Dynamic {
			sp.Conditional = true
			if c.p.preparing { // a late plan's executions share the planner
				c.p.conditional = true
			}
		}
		switch {
		case first.Name == "__typename":
			fp.Kind, fp.Type = KindTypename, c.p.s.Typename
			continue
		case first.Name == "__schema" && c.obj == c.p.s.Query:
			fp.Kind, fp.Type = KindSchema, c.p.s.SchemaField.Type
		case first.Name == "__type" && c.obj == c.p.s.Query:
			fp.Kind, fp.Info = KindType, c.p.s.TypeField
			fp.Type = fp.Info.Type
		default:
			fp.Info = c.obj.ByName[first.Name]
			if fp.Info == nil {
				// Validation rejects unknown fields; a document that was
				// not validated gets the field skipped.
				fp.Kind = KindTypename
				fp.Type = nil
				continue
			}
			fp.Type = fp.Info.Type
			if fp.Info.Batch {
				fp.Kind, sp.Batched = KindBatch, true
			}
		}
		fp.Lists = listDepth(fp.Type)
		if obj := ObjectOf(fp.Type); obj != nil && fp.Lists > 0 && (obj.Batched || fp.Dynamic) {
			// Batched fields of their own; or, for a conditional field,
			// perhaps batched fields read ahead (each execution's plan
			// tells: completeBatchedList). Other fields are set below,
			// once their plan is made.
			fp.BatchList = true
		}
		if c.p.s.Abstract {
			c.p.abstractField(fp)
		}
		if fp.Info != nil && len(fp.Info.Args) > 0 {
			// Custom scalar values are parsed for every execution; the
			// literals are still checked once, here, so that a bad one is
			// refused before anything runs.
			args := c.p.ownArgs(first)
			if argsUseVariables(args) {
				fp.DynArgs = true
			} else {
				fp.Args, fp.ArgsErr = coerce.ArgumentValues(fp.Info, args, nil)
				if fp.Info.FreshArgs && fp.ArgsErr == nil {
					fp.Args, fp.DynArgs = nil, true
				}
			}
			if fp.DynArgs {
				fp.ArgNodes = c.p.keepArgs(first, args)
			}
		}
		if !fp.Dynamic {
			if obj := ObjectOf(fp.Type); obj != nil {
				var one [1]*ast.Field // plan keeps none of them
				fields := one[:]
				if len(fp.Occ) > 1 {
					fields = make([]*ast.Field, len(fp.Occ))
				}
				for i, o := range fp.Occ {
					fields[i] = o.Field
				}
				fp.Child = c.p.plan(obj, fields, fp)
				if fp.Child.Batched && fp.Lists > 0 {
					fp.BatchList = true // batched fields below, read ahead
				}
				if fp.Kind == KindField && fp.Info.Resolve == nil && fp.Child.Batched && c.obj != c.p.s.Mutation {
					fp.Kind, sp.Batched = KindBatchPath, true
				}
			} else if fp.Abs != nil {
				c.p.planObjects(fp)
				if fp.Lists > 0 && fp.Abs.Batched() {
					fp.BatchList = true
				}
				if fp.Kind == KindField && fp.Info.Resolve == nil && fp.Abs.Batched() && c.obj != c.p.s.Mutation {
					fp.Kind, sp.Batched = KindBatchPath, true
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

// ParentField returns the field whose sub-selection fp belongs to, nil
// for a root field.
func (fp *Field) ParentField() *Field {
	if fp.Owner == nil {
		return nil
	}
	return fp.Owner.Parent
}

// ObjectOf returns the object inside t's lists and non-nulls, nil when t
// is nil or of another kind.
func ObjectOf(t *schema.Type) *schema.Object {
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
