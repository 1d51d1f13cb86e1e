package graphql

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// A selectionPlan is a selection set collected for one object type: the
// fields to execute, in response order, with fragments expanded and static
// @skip/@include applied. It is computed once per document and shared by
// every execution of it, so it is read-only after planning.
type selectionPlan struct {
	obj         *objectInfo
	fields      []*fieldPlan
	conditional bool // some field depends on a variable's @skip/@include

	namesOnce sync.Once
	names     []string
}

type fieldKind uint8

const (
	kindField fieldKind = iota
	kindTypename
	kindSchema
	kindType
)

// occurrence is one field node selected under a response key. The same node
// may be reached several times (a fragment spread twice), each time under
// its own conditions and at its own place in the collection order.
type occurrence struct {
	field *ast.Field
	alts  []alt
	uncon bool // some alternative has no condition: it always counts
}

// alt is one way an occurrence was reached: the variable conditions that
// must all hold, and its place in the collection order.
type alt struct {
	conds []*ast.Directive
	seq   int
}

// counts reports whether the occurrence counts under vars, and its first
// place in the collection order when it does.
func (o *occurrence) counts(e *executor) (ok bool, seq int) {
	seq = -1
	for _, a := range o.alts {
		if e.holds(a.conds) && (seq < 0 || a.seq < seq) {
			seq = a.seq
		}
	}
	return seq >= 0, seq
}

type fieldPlan struct {
	key     string
	keyJSON []byte // `"key":`
	kind    fieldKind
	info    *fieldInfo
	typ     Type
	occ     []*occurrence
	dynamic bool // which occurrences count depends on variables

	args    Args
	argsErr error // a literal that could not be coerced
	dynArgs bool  // arguments refer to variables

	child *selectionPlan // sub-selection when every occurrence counts
	locs  []gqlerror.Location

	planner  *planner
	dynCache sync.Map     // bitmask of counted occurrences -> *selectionPlan
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
	fragments fragmentIndex
}

// fragmentIndex finds a document's fragments by name without scanning the
// list for every spread (a document may hold hundreds).
type fragmentIndex map[string]*ast.FragmentDefinition

func (ix *fragmentIndex) get(doc *ast.QueryDocument, name string) *ast.FragmentDefinition {
	if *ix == nil {
		*ix = make(fragmentIndex, len(doc.Fragments))
		for _, f := range doc.Fragments {
			if _, dup := (*ix)[f.Name]; !dup { // the first, as ForName finds
				(*ix)[f.Name] = f
			}
		}
	}
	return (*ix)[name]
}

// condition evaluates the @skip/@include directives of a selection without
// variables: true/false when static, or dynamic with the directives to
// check at execution time.
func staticCondition(dirs ast.DirectiveList) (include bool, dynamic []*ast.Directive) {
	for _, d := range dirs {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		arg := d.Arguments.ForName("if")
		if arg == nil || arg.Value == nil {
			continue
		}
		if arg.Value.Kind == ast.Variable {
			dynamic = append(dynamic, d)
			continue
		}
		v := arg.Value.Kind == ast.BooleanValue && arg.Value.Raw == "true"
		if d.Name == "skip" && v || d.Name == "include" && !v {
			return false, nil
		}
	}
	return true, dynamic
}

type collector struct {
	p      *planner
	obj    *objectInfo
	byKey  map[string]*fieldPlan
	order  []*fieldPlan
	seq    int
	static map[string]bool // fragments already expanded unconditionally
}

func (p *planner) plan(obj *objectInfo, sets []*ast.Field) *selectionPlan {
	c := &collector{p: p, obj: obj, byKey: map[string]*fieldPlan{}, static: map[string]bool{}}
	for _, f := range sets {
		c.collect(f.SelectionSet, nil, 0)
	}
	return c.finish()
}

func (p *planner) planRoot(obj *objectInfo, set ast.SelectionSet) *selectionPlan {
	c := &collector{p: p, obj: obj, byKey: map[string]*fieldPlan{}, static: map[string]bool{}}
	c.collect(set, nil, 0)
	return c.finish()
}

const maxFragmentNesting = 256

func (c *collector) collect(set ast.SelectionSet, conds []*ast.Directive, depth int) {
	if depth > maxFragmentNesting {
		return
	}
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			ok, dyn := staticCondition(x.Directives)
			if !ok {
				continue
			}
			c.add(x, joinConds(conds, dyn))
		case *ast.FragmentSpread:
			ok, dyn := staticCondition(x.Directives)
			if !ok {
				continue
			}
			all := joinConds(conds, dyn)
			if len(all) == 0 {
				if c.static[x.Name] {
					continue
				}
				c.static[x.Name] = true
			}
			frag := c.p.fragments.get(c.p.doc, x.Name)
			if frag == nil || frag.TypeCondition != c.obj.name {
				continue
			}
			c.collect(frag.SelectionSet, all, depth+1)
		case *ast.InlineFragment:
			ok, dyn := staticCondition(x.Directives)
			if !ok {
				continue
			}
			if x.TypeCondition != "" && x.TypeCondition != c.obj.name {
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

func (c *collector) add(f *ast.Field, conds []*ast.Directive) {
	key := f.Alias
	if key == "" {
		key = f.Name
	}
	fp := c.byKey[key]
	if fp == nil {
		fp = &fieldPlan{key: key, keyJSON: append(appendString(nil, key), ':'), planner: c.p}
		c.byKey[key] = fp
		c.order = append(c.order, fp)
	}
	seq := c.seq
	c.seq++
	for _, o := range fp.occ {
		if o.field == f {
			o.alts = append(o.alts, alt{conds: conds, seq: seq})
			o.uncon = o.uncon || len(conds) == 0
			return
		}
	}
	fp.occ = append(fp.occ, &occurrence{field: f, alts: []alt{{conds: conds, seq: seq}}, uncon: len(conds) == 0})
}

func (c *collector) finish() *selectionPlan {
	sp := &selectionPlan{obj: c.obj, fields: c.order}
	for _, fp := range c.order {
		first := fp.occ[0].field
		for _, o := range fp.occ {
			// A condition anywhere makes the field's presence, its place
			// or its sub-selection depend on the variables.
			for _, a := range o.alts {
				if len(a.conds) > 0 {
					fp.dynamic = true
				}
			}
			fp.locs = append(fp.locs, gqlerror.Location{Line: o.field.Position.Line, Column: o.field.Position.Column})
		}
		if fp.dynamic {
			sp.conditional = true
		}
		switch {
		case first.Name == "__typename":
			fp.kind, fp.typ = kindTypename, NewNonNull(String)
			continue
		case first.Name == "__schema" && c.obj == c.p.s.query:
			fp.kind, fp.typ = kindSchema, NewNonNull(c.p.s.schemaObj.obj)
		case first.Name == "__type" && c.obj == c.p.s.query:
			fp.kind, fp.typ = kindType, c.p.s.typeObj.obj
			fp.info = &fieldInfo{name: "__type", typ: fp.typ, coord: "Query.__type",
				args: []*argInfo{{name: "name", typ: NewNonNull(String)}}}
		default:
			fp.info = c.obj.byName[first.Name]
			if fp.info == nil {
				// Validation rejects unknown fields; a document that was
				// not validated gets the field skipped.
				fp.kind = kindTypename
				fp.typ = nil
				continue
			}
			fp.typ = fp.info.typ
		}
		if fp.info != nil && len(fp.info.args) > 0 {
			if argsUseVariables(first.Arguments) {
				fp.dynArgs = true
			} else {
				fp.args, fp.argsErr = c.p.s.argumentValues(fp.info, first.Arguments, nil)
			}
		}
		if !fp.dynamic {
			if obj := c.p.objectOf(fp.typ); obj != nil {
				fields := make([]*ast.Field, len(fp.occ))
				for i, o := range fp.occ {
					fields[i] = o.field
				}
				fp.child = c.p.plan(obj, fields)
			}
		}
	}
	return sp
}

func (p *planner) objectOf(t Type) *objectInfo {
	if o, ok := namedOf(t).(*Object); ok {
		return p.s.objects[o]
	}
	return nil
}

func argsUseVariables(args ast.ArgumentList) bool {
	for _, a := range args {
		if a.Value != nil && hasVariables(a.Value) {
			return true
		}
	}
	return false
}

// argumentValues coerces the arguments of a field.
func (s *Schema) argumentValues(fi *fieldInfo, args ast.ArgumentList, vars map[string]any) (Args, error) {
	out := make(Args, len(fi.args))
	for _, a := range fi.args {
		var lit *ast.Value
		if arg := args.ForName(a.name); arg != nil {
			lit = arg.Value
		}
		v, err := s.valueFromAST(lit, a.typ, vars)
		if err == errAbsent {
			if a.hasDefault {
				out[a.name] = a.def
			} else if _, nonNull := a.typ.(*NonNull); nonNull {
				if lit != nil && lit.Kind == ast.Variable {
					return nil, fmt.Errorf("Argument %q of required type %q was provided the variable \"$%s\" which was not provided a runtime value.", a.name, a.typ.String(), lit.Raw)
				}
				return nil, fmt.Errorf("Argument %q of required type %q was not provided.", a.name, a.typ.String())
			}
			continue
		}
		if err != nil {
			if lit != nil && lit.Kind == ast.Variable {
				return nil, &argumentError{msg: fmt.Sprintf("Argument %q of non-null type %q must not be null.", a.name, a.typ.String()), at: lit.Position}
			}
			return nil, &argumentError{msg: fmt.Sprintf("Argument %q has invalid value %s: %s", a.name, lit.String(), err.Error()), at: lit.Position}
		}
		out[a.name] = v
	}
	return out, nil
}

// counted returns the occurrences of fp that count under the executor's
// variables, as a bitmask (bit i for occurrence i). It is only used for
// fields with at most 64 occurrences.
func (fp *fieldPlan) counted(e *executor) (mask uint64) {
	for i, o := range fp.occ {
		if ok, _ := o.counts(e); ok {
			mask |= 1 << i
		}
	}
	return mask
}

// dynamicChild plans the sub-selection of a conditional field from the
// occurrences that count. Which ones count depends only on the variables,
// so one plan serves a whole execution. Across executions, plans are kept
// by the set of occurrences that count (a bitmask, for fields with at most
// 64 occurrences), up to maxDynPlans per field.
func (fp *fieldPlan) dynamicChild(e *executor) *selectionPlan {
	if sp, ok := e.dynPlans[fp]; ok {
		return sp
	}
	obj := fp.planner.objectOf(fp.typ)
	if obj == nil {
		return nil
	}
	cacheable := len(fp.occ) <= 64
	var mask uint64
	if cacheable {
		mask = fp.counted(e)
		if v, ok := fp.dynCache.Load(mask); ok {
			return v.(*selectionPlan)
		}
	}
	sp := fp.planner.plan(obj, fp.countingFields(e))
	if cacheable && fp.dynCount.Load() < maxDynPlans {
		if _, loaded := fp.dynCache.LoadOrStore(mask, sp); !loaded {
			fp.dynCount.Add(1)
		}
		return sp
	}
	if e.dynPlans == nil {
		e.dynPlans = make(map[*fieldPlan]*selectionPlan)
	}
	e.dynPlans[fp] = sp
	return sp
}

// countingFields returns the nodes of the occurrences of fp that count
// under the executor's variables.
func (fp *fieldPlan) countingFields(e *executor) []*ast.Field {
	fields := make([]*ast.Field, 0, len(fp.occ))
	for _, o := range fp.occ {
		if ok, _ := o.counts(e); ok {
			fields = append(fields, o.field)
		}
	}
	return fields
}

// activeFields returns the fields of a conditional plan that count under
// the executor's variables, in the order graphql-js would collect them.
func (sp *selectionPlan) activeFields(e *executor) []*fieldPlan {
	type keyed struct {
		fp  *fieldPlan
		seq int
	}
	out := make([]keyed, 0, len(sp.fields))
	for _, fp := range sp.fields {
		first := -1
		for _, o := range fp.occ {
			if ok, seq := o.counts(e); ok && (first < 0 || seq < first) {
				first = seq
			}
		}
		if first >= 0 {
			out = append(out, keyed{fp, first})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	fps := make([]*fieldPlan, len(out))
	for i, k := range out {
		fps[i] = k.fp
	}
	return fps
}

func (sp *selectionPlan) selectedNames(e *executor) []string {
	build := func(fields []*fieldPlan) []string {
		seen := map[string]bool{}
		names := []string{}
		for _, fp := range fields {
			if fp.kind == kindTypename || fp.info == nil {
				continue
			}
			if !seen[fp.info.name] {
				seen[fp.info.name] = true
				names = append(names, fp.info.name)
			}
		}
		return names
	}
	if sp.conditional {
		return build(sp.activeFields(e))
	}
	sp.namesOnce.Do(func() { sp.names = build(sp.fields) })
	return append([]string(nil), sp.names...)
}

func (sp *selectionPlan) findField(e *executor, name string) *fieldPlan {
	fields := sp.fields
	if sp.conditional {
		fields = sp.activeFields(e)
	}
	for _, fp := range fields {
		if fp.info != nil && fp.kind == kindField && fp.info.name == name {
			return fp
		}
	}
	return nil
}

// argumentError is an argument that cannot be coerced, located at its value.
type argumentError struct {
	msg string
	at  *ast.Position
}

func (e *argumentError) Error() string { return e.msg }
