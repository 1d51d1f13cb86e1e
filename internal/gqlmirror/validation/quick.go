package validation

import (
	"slices"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// This file is the fast path of [Validator.Validate]. Running gqlparser's
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

// smallScan is the number of response keys or fragment names up to which
// the fast path searches a set in place; past it, it indexes the set.
const smallScan = 8

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
	s      *Validator
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
func (s *Validator) quickValid(doc *ast.QueryDocument) bool {
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
		_, ok := syntax.Int32Literal(v.Raw)
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
