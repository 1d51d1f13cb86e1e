package graphql

import (
	"slices"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// This file is the fast path of [Schema.Validate]. Running gqlparser's
// rules costs tens of microseconds even for a three-field query: some thirty
// rules register closures on a walker for every document, and the rule set
// is copied and sorted on every call. Most documents a server sees are
// valid and use a small part of the language, so quickValid first checks,
// in one walk with no closures and few allocations, whether the document
// certainly passes every rule. When it does, validation is done. When it
// finds anything wrong, or anything it does not know how to judge, it says
// so and the full rules run as before, so every error a client sees still
// comes from them, message for message.
//
// The one promise of quickValid: when it returns true, the full rules
// report nothing. It may return false for a valid document (then only time
// is lost). It accepts:
//
//   - queries and mutations (subscriptions go to the full rules), named and
//     unique when there are several, without directives;
//   - variables of known input types, unique, each used by its operation
//     (fragments it spreads included) and every use defined, of a type that
//     fits the place exactly (the spec's relaxations for defaults go to the
//     full rules); defaults that are correct constants;
//   - fields of the parent object with their known, unique arguments, every
//     required one given; sub-selections exactly on object fields;
//     __typename; no other introspection field (the depth and the
//     introspection-disabled rules stay with the full rules);
//   - @skip and @include, once each, with a Boolean! "if";
//   - fragments on object types, each unique, used, on the type of the place
//     it is spread, without cycles; inline fragments on the parent's type;
//   - literals of the built-in scalars, enums, lists and input objects (a
//     custom scalar's literal goes to the full rules, which ask ParseLiteral);
//   - fields sharing a response key only when they are the same field with
//     the same arguments (then their sub-selections are merged and checked
//     in turn), which is all OverlappingFieldsCanBeMerged allows where every
//     composite type is an object.
//
// Every walk is bounded: nesting by quickMaxDepth, and the whole by a
// budget of steps proportional to the document, past which the full rules
// take over.

// quickMaxDepth bounds the nesting of selections and values quickValid
// follows; deeper documents go to the full rules.
const quickMaxDepth = 128

// quickBudget is the number of steps quickValid takes at most: fields,
// values and spreads visited, fields compared for a shared response key,
// and literals compared between them.
const quickBudget = 1 << 17

// quickFragment is what quickValid learns about one fragment definition.
type quickFragment struct {
	def   *ast.FragmentDefinition
	uses  []varUse // variables used in its selection set, spreads excluded
	sprds []string // fragments it spreads
	state uint8    // for the cycle search: 0 new, 1 on the path, 2 done
	used  bool     // spread from some operation
	mark  int      // last operation that reached it
}

// varUse is one use of a variable: its name and the type of its place.
type varUse struct {
	name string
	typ  *ast.Type
}

type quickChecker struct {
	s      *Schema
	doc    *ast.QueryDocument
	budget int
	frags  map[string]*quickFragment
	// uses and sprds collect, for the operation or fragment being walked,
	// the variables it uses and the fragments it spreads.
	uses  []varUse
	sprds []string
	keys  []quickKey         // scratch for the overlap check
	sets  []ast.SelectionSet // the same
}

// quickValid reports whether doc certainly passes every validation rule;
// see the comment at the top of this file.
func (s *Schema) quickValid(doc *ast.QueryDocument) bool {
	if len(doc.Operations) == 0 || s.ast == nil {
		return false
	}
	c := quickChecker{s: s, doc: doc, budget: quickBudget}
	if !c.operationNames() || !c.fragments() {
		return false
	}
	for i, op := range doc.Operations {
		if !c.operation(i+1, op) {
			return false
		}
	}
	for _, f := range c.frags {
		if !f.used {
			return false
		}
	}
	return c.noCycles() && c.overlaps()
}

// spend takes n steps from the budget and reports whether any were left.
func (c *quickChecker) spend(n int) bool {
	c.budget -= n
	return c.budget >= 0
}

func (c *quickChecker) operationNames() bool {
	ops := c.doc.Operations
	if len(ops) == 1 {
		return true
	}
	if len(ops) > 64 {
		return false
	}
	for i, op := range ops {
		if op.Name == "" {
			return false
		}
		for _, other := range ops[:i] {
			if other.Name == op.Name {
				return false
			}
		}
	}
	return true
}

// fragments checks each fragment definition once, on its type condition,
// and records what it uses and spreads.
func (c *quickChecker) fragments() bool {
	if len(c.doc.Fragments) == 0 {
		return true
	}
	c.frags = make(map[string]*quickFragment, len(c.doc.Fragments))
	for _, f := range c.doc.Fragments {
		if _, dup := c.frags[f.Name]; dup || len(f.Directives) > 0 || len(f.VariableDefinition) > 0 {
			return false
		}
		c.frags[f.Name] = &quickFragment{def: f}
	}
	for _, f := range c.doc.Fragments {
		parent := c.s.ast.Types[f.TypeCondition]
		if parent == nil || parent.Kind != ast.Object {
			return false
		}
		c.uses, c.sprds = nil, nil
		if !c.selections(f.SelectionSet, parent, 0) {
			return false
		}
		qf := c.frags[f.Name]
		qf.uses, qf.sprds = c.uses, c.sprds
	}
	c.uses, c.sprds = nil, nil
	return true
}

func (c *quickChecker) operation(n int, op *ast.OperationDefinition) bool {
	var root *ast.Definition
	switch op.Operation {
	case ast.Query:
		root = c.s.ast.Query
	case ast.Mutation:
		root = c.s.ast.Mutation
	}
	if root == nil || len(op.Directives) > 0 || len(op.VariableDefinitions) > 64 {
		return false
	}
	vars := op.VariableDefinitions
	for i, v := range vars {
		if len(v.Directives) > 0 || !c.inputType(v.Type) {
			return false
		}
		for _, other := range vars[:i] {
			if other.Variable == v.Variable {
				return false
			}
		}
		if v.DefaultValue != nil && !c.constant(v.DefaultValue, v.Type, 0) {
			return false
		}
	}
	c.uses, c.sprds = c.uses[:0], c.sprds[:0]
	if !c.selections(op.SelectionSet, root, 0) {
		return false
	}
	var used uint64 // bit i: variable i is used
	check := func(uses []varUse) bool {
		for _, u := range uses {
			i := slices.IndexFunc(vars, func(v *ast.VariableDefinition) bool { return v.Variable == u.name })
			if i < 0 || !vars[i].Type.IsCompatible(u.typ) {
				return false
			}
			used |= 1 << i
		}
		return true
	}
	if !check(c.uses) {
		return false
	}
	// The fragments the operation reaches, each once.
	stack := append([]string(nil), c.sprds...)
	for len(stack) > 0 {
		name := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f := c.frags[name]
		if f == nil {
			return false
		}
		if f.mark == n {
			continue
		}
		if !c.spend(1) {
			return false
		}
		f.mark, f.used = n, true
		if !check(f.uses) {
			return false
		}
		stack = append(stack, f.sprds...)
	}
	return used == 1<<len(vars)-1
}

// inputType reports whether t names a scalar, an enum or an input object.
func (c *quickChecker) inputType(t *ast.Type) bool {
	d := c.s.ast.Types[t.Name()]
	return d != nil && (d.Kind == ast.Scalar || d.Kind == ast.Enum || d.Kind == ast.InputObject)
}

// selections checks a selection set on the object type parent.
func (c *quickChecker) selections(set ast.SelectionSet, parent *ast.Definition, depth int) bool {
	if depth > quickMaxDepth || len(set) == 0 || !c.spend(len(set)) {
		return false
	}
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			if !c.field(x, parent, depth) {
				return false
			}
		case *ast.InlineFragment:
			if x.TypeCondition != "" && x.TypeCondition != parent.Name ||
				!c.directives(x.Directives) || !c.selections(x.SelectionSet, parent, depth+1) {
				return false
			}
		case *ast.FragmentSpread:
			f := c.frags[x.Name]
			if f == nil || f.def.TypeCondition != parent.Name || !c.directives(x.Directives) {
				return false
			}
			c.sprds = append(c.sprds, x.Name)
		default:
			return false
		}
	}
	return true
}

func (c *quickChecker) field(f *ast.Field, parent *ast.Definition, depth int) bool {
	if !c.directives(f.Directives) {
		return false
	}
	if f.Name == "__typename" {
		return len(f.Arguments) == 0 && len(f.SelectionSet) == 0
	}
	if len(f.Name) >= 2 && f.Name[0] == '_' && f.Name[1] == '_' {
		return false // introspection: the full rules judge it
	}
	def := c.s.quick.field(parent, f.Name)
	if def == nil || !c.arguments(f.Arguments, def.Arguments, depth) {
		return false
	}
	target := c.s.ast.Types[def.Type.Name()]
	switch {
	case target == nil:
		return false
	case target.Kind == ast.Object:
		return c.selections(f.SelectionSet, target, depth+1)
	case target.Kind == ast.Scalar || target.Kind == ast.Enum:
		return len(f.SelectionSet) == 0
	}
	return false
}

// arguments checks the arguments given to a field against its definitions.
func (c *quickChecker) arguments(args ast.ArgumentList, defs ast.ArgumentDefinitionList, depth int) bool {
	if len(args) > 64 {
		return false
	}
	for i, a := range args {
		d := defs.ForName(a.Name)
		if d == nil || !c.value(a.Value, d.Type, depth) {
			return false
		}
		for _, other := range args[:i] {
			if other.Name == a.Name {
				return false
			}
		}
	}
	for _, d := range defs {
		if d.Type.NonNull && d.DefaultValue == nil && args.ForName(d.Name) == nil {
			return false
		}
	}
	return true
}

// directives accepts @skip and @include, each at most once, with exactly
// an "if" of type Boolean!.
func (c *quickChecker) directives(ds ast.DirectiveList) bool {
	if len(ds) == 0 {
		return true
	}
	if len(ds) > 2 || len(ds) == 2 && ds[0].Name == ds[1].Name {
		return false
	}
	for _, d := range ds {
		if d.Name != "skip" && d.Name != "include" || len(d.Arguments) != 1 || d.Arguments[0].Name != "if" {
			return false
		}
		v := d.Arguments[0].Value
		switch {
		case v == nil:
			return false
		case v.Kind == ast.Variable:
			c.uses = append(c.uses, varUse{name: v.Raw, typ: c.s.quick.ifType})
		case v.Kind != ast.BooleanValue:
			return false
		}
	}
	return true
}

// value checks a literal, which may hold variables, at a place of type t.
func (c *quickChecker) value(v *ast.Value, t *ast.Type, depth int) bool {
	if v == nil || depth > quickMaxDepth || !c.spend(1) {
		return false
	}
	if v.Kind == ast.Variable {
		c.uses = append(c.uses, varUse{name: v.Raw, typ: t})
		return true
	}
	return c.literal(v, t, depth, true)
}

// constant checks a variable's default value: no variables in it.
func (c *quickChecker) constant(v *ast.Value, t *ast.Type, depth int) bool {
	return v != nil && depth <= quickMaxDepth && c.spend(1) && v.Kind != ast.Variable && c.literal(v, t, depth, false)
}

func (c *quickChecker) literal(v *ast.Value, t *ast.Type, depth int, vars bool) bool {
	if v.Kind == ast.NullValue {
		return !t.NonNull
	}
	if t.Elem != nil {
		if v.Kind != ast.ListValue {
			return c.next(v, t.Elem, depth+1, vars)
		}
		return c.items(v.Children, t.Elem, depth+1, vars)
	}
	d := c.s.ast.Types[t.NamedType]
	if d == nil {
		return false
	}
	switch d.Kind {
	case ast.Scalar, ast.Enum:
		return cleanLeaf(v, d)
	case ast.InputObject:
		if v.Kind != ast.ObjectValue || len(v.Children) > 64 {
			return false
		}
		for i, ch := range v.Children {
			fd := d.Fields.ForName(ch.Name)
			if fd == nil || !c.next(ch.Value, fd.Type, depth+1, vars) {
				return false
			}
			for _, other := range v.Children[:i] {
				if other.Name == ch.Name {
					return false
				}
			}
		}
		for _, fd := range d.Fields {
			if fd.Type.NonNull && fd.DefaultValue == nil && v.Children.ForName(fd.Name) == nil {
				return false
			}
		}
		return true
	}
	return false
}

// next checks v, inside a literal, at a place of type t: a value that may
// hold variables when vars is set, a constant otherwise.
func (c *quickChecker) next(v *ast.Value, t *ast.Type, depth int, vars bool) bool {
	if vars {
		return c.value(v, t, depth)
	}
	return c.constant(v, t, depth)
}

// items checks the items of a list literal at a place of item type t,
// charging the budget once for all of them: a list of 10,000 items is
// most of the largest documents.
func (c *quickChecker) items(items ast.ChildValueList, t *ast.Type, depth int, vars bool) bool {
	if depth > quickMaxDepth || !c.spend(len(items)) {
		return false
	}
	// Items of a scalar type are checked here, with the type looked up
	// once; the others by literal.
	scalar := ""
	if t.Elem == nil {
		d := c.s.ast.Types[t.NamedType]
		if d == nil {
			return false
		}
		if d.Kind == ast.Scalar {
			scalar = d.Name
		}
	}
	for _, ch := range items {
		v := ch.Value
		switch {
		case v == nil:
			return false
		case v.Kind == ast.Variable:
			if !vars {
				return false
			}
			c.uses = append(c.uses, varUse{name: v.Raw, typ: t})
		case scalar == "":
			if !c.literal(v, t, depth, vars) {
				return false
			}
		case v.Kind == ast.NullValue:
			if t.NonNull {
				return false
			}
		case !builtinLiteral(scalar, v):
			return false
		}
	}
	return true
}

// builtinLiteral reports whether v is a correct literal of the built-in
// scalar name; a custom scalar's literal is the full rules' to judge.
func builtinLiteral(name string, v *ast.Value) bool {
	switch name {
	case "Int":
		if v.Kind != ast.IntValue {
			return false
		}
		_, ok := int32Literal(v.Raw)
		return ok
	case "Float":
		switch v.Kind {
		case ast.IntValue:
			_, err := strconv.ParseInt(v.Raw, 10, 64)
			return err == nil
		case ast.FloatValue:
			_, err := strconv.ParseFloat(v.Raw, 64)
			return err == nil
		}
	case "String":
		return v.Kind == ast.StringValue || v.Kind == ast.BlockValue
	case "Boolean":
		return v.Kind == ast.BooleanValue
	case "ID":
		switch v.Kind {
		case ast.StringValue, ast.BlockValue:
			return true
		case ast.IntValue:
			_, err := strconv.ParseInt(v.Raw, 10, 64)
			return err == nil
		}
	}
	return false
}

// noCycles reports whether no fragment spreads itself, directly or not.
func (c *quickChecker) noCycles() bool {
	var visit func(f *quickFragment, depth int) bool
	visit = func(f *quickFragment, depth int) bool {
		switch {
		case f.state == 2:
			return true
		case f.state == 1 || depth > quickMaxDepth:
			return false
		}
		f.state = 1
		for _, name := range f.sprds {
			if !visit(c.frags[name], depth+1) {
				return false
			}
		}
		f.state = 2
		return true
	}
	for _, f := range c.frags {
		if !visit(f, 0) {
			return false
		}
	}
	return true
}

// quickKey is a field met while collecting a merged selection set.
type quickKey struct {
	key string
	f   *ast.Field
}

// overlaps checks each operation's merged selection sets: fields that share
// a response key must be the same field with the same arguments; their
// sub-selections are then merged and checked in turn. Every composite type
// is an object and every fragment is on the type where it is spread (both
// checked before), so this is what OverlappingFieldsCanBeMerged requires.
func (c *quickChecker) overlaps() bool {
	c.keys = make([]quickKey, 0, 16)
	c.sets = make([]ast.SelectionSet, 0, 16)
	for _, op := range c.doc.Operations {
		c.sets = append(c.sets[:0], op.SelectionSet)
		if !c.merged(0, 1, 0) {
			return false
		}
	}
	return true
}

// merged checks the union of the selection sets c.sets[lo:hi], which are
// selections on one type. The sub-selections to merge next are pushed on
// c.sets after hi, and popped again.
func (c *quickChecker) merged(lo, hi, depth int) bool {
	if depth > quickMaxDepth {
		return false
	}
	start := len(c.keys)
	defer func() { c.keys = c.keys[:start] }()
	var seen fragmentSet // fragments already collected into this set
	for i := lo; i < hi; i++ {
		if !c.collect(c.sets[i], 0, &seen) {
			return false
		}
	}
	keys := c.keys[start:]
	sameKey := c.sameKeyChains(keys)
	for i, k := range keys {
		if k.f == nil {
			continue // merged into an earlier field of its key
		}
		base := len(c.sets)
		if len(k.f.SelectionSet) > 0 {
			c.sets = append(c.sets, k.f.SelectionSet)
		}
		for j := sameKey.next(keys, i); j >= 0; j = sameKey.next(keys, j) {
			if !c.spend(1) {
				return false
			}
			o := keys[j]
			if o.f == nil {
				continue
			}
			if o.f.Name != k.f.Name || !c.sameArguments(o.f.Arguments, k.f.Arguments) {
				return false
			}
			if len(o.f.SelectionSet) > 0 {
				c.sets = append(c.sets, o.f.SelectionSet)
			}
			keys[j].f = nil
		}
		if len(c.sets) > base {
			ok := c.merged(base, len(c.sets), depth+1)
			c.sets = c.sets[:base]
			if !ok {
				return false
			}
		}
	}
	return true
}

// keyChains links the fields of a merged selection set that share a
// response key: each to the next, so that comparing each field with the
// later ones of its key costs a step a field, not a step a pair. Small
// sets are searched in place instead (nil links).
type keyChains []int32

// sameKeyChains returns the links of keys when it has more than
// collectorScan fields.
func (c *quickChecker) sameKeyChains(keys []quickKey) keyChains {
	if len(keys) <= collectorScan {
		return nil
	}
	links := make(keyChains, len(keys))
	last := make(map[string]int32, len(keys))
	for i := len(keys) - 1; i >= 0; i-- {
		links[i] = -1
		if j, ok := last[keys[i].key]; ok {
			links[i] = j
		}
		last[keys[i].key] = int32(i)
	}
	return links
}

// next returns the index of the next field after i with the response key
// of keys[i], or -1.
func (l keyChains) next(keys []quickKey, i int) int {
	if l != nil {
		return int(l[i])
	}
	for j := i + 1; j < len(keys); j++ {
		if keys[j].key == keys[i].key {
			return j
		}
	}
	return -1
}

// fragmentSet holds the names of the fragments collected into a selection
// set: a few in a slice, more in a map.
type fragmentSet struct {
	few  []string
	many map[string]bool
}

// add adds name and reports whether it was not in the set yet.
func (s *fragmentSet) add(name string) bool {
	switch {
	case s.many != nil:
		if s.many[name] {
			return false
		}
		s.many[name] = true
		return true
	case slices.Contains(s.few, name):
		return false
	case len(s.few) < collectorScan:
		s.few = append(s.few, name)
		return true
	}
	s.many = make(map[string]bool, 4*collectorScan)
	for _, n := range s.few {
		s.many[n] = true
	}
	s.many[name] = true
	return true
}

// collect appends the fields of set to c.keys, through inline fragments
// and the fragments it spreads, each fragment once (seen).
func (c *quickChecker) collect(set ast.SelectionSet, nest int, seen *fragmentSet) bool {
	if nest > quickMaxDepth || !c.spend(len(set)) {
		return false
	}
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			c.keys = append(c.keys, quickKey{key: responseKey(x), f: x})
		case *ast.InlineFragment:
			if !c.collect(x.SelectionSet, nest+1, seen) {
				return false
			}
		case *ast.FragmentSpread:
			if !seen.add(x.Name) {
				continue
			}
			if !c.collect(c.frags[x.Name].def.SelectionSet, nest+1, seen) {
				return false
			}
		}
	}
	return true
}

// responseKey is the key of a field in the response: its alias, or its
// name.
func responseKey(f *ast.Field) string {
	if f.Alias != "" {
		return f.Alias
	}
	return f.Name
}

// sameArguments reports whether a and b are the same arguments, written
// the same way apart from their order.
func (c *quickChecker) sameArguments(a, b ast.ArgumentList) bool {
	if len(a) != len(b) || !c.spend(len(a)*len(b)) {
		return false
	}
	for _, x := range a {
		y := b.ForName(x.Name)
		if y == nil || !c.sameValue(x.Value, y.Value, 0) {
			return false
		}
	}
	return true
}

// sameValue compares two literals exactly, object fields in order.
func (c *quickChecker) sameValue(a, b *ast.Value, depth int) bool {
	if a == nil || b == nil || depth > quickMaxDepth || !c.spend(1) {
		return false
	}
	if a.Kind != b.Kind || a.Raw != b.Raw || len(a.Children) != len(b.Children) {
		return false
	}
	for i, ch := range a.Children {
		if ch.Name != b.Children[i].Name || !c.sameValue(ch.Value, b.Children[i].Value, depth+1) {
			return false
		}
	}
	return true
}

// quickIndex is what quickValid looks up in the schema, built once.
type quickIndex struct {
	fields map[fieldKey]*ast.FieldDefinition
	ifType *ast.Type // Boolean!, the type of @skip's and @include's "if"
}

type fieldKey struct {
	parent *ast.Definition
	name   string
}

func newQuickIndex(sch *ast.Schema) *quickIndex {
	ix := &quickIndex{fields: map[fieldKey]*ast.FieldDefinition{},
		ifType: &ast.Type{NamedType: "Boolean", NonNull: true}}
	for _, d := range sch.Types {
		if d.Kind != ast.Object {
			continue
		}
		for _, f := range d.Fields {
			if _, dup := ix.fields[fieldKey{d, f.Name}]; !dup { // the first, as ForName finds
				ix.fields[fieldKey{d, f.Name}] = f
			}
		}
	}
	return ix
}

func (ix *quickIndex) field(parent *ast.Definition, name string) *ast.FieldDefinition {
	return ix.fields[fieldKey{parent, name}]
}
