package validation

import "github.com/vektah/gqlparser/v2/ast"

// This file finds a document's argument values with the types that
// gqlparser's walker (validator/core) gives them, without walking the
// document with the rules: validation uses it to set aside the parts of
// literals no rule can fault (trim.go) and to look for custom scalar
// literals whose parser panics (literals.go).
//
// The walker gives every value node the same type each time it meets it:
// a node's type follows from its place in its operation or fragment
// definition (a fragment's type condition, not the place of a spread), so
// each node is visited once here, where the walker may visit a fragment's
// nodes at every spread.

// maxWalkDepth bounds the nesting of selections and values that the kit's
// own walks of validation follow (this file, trim.go,
// values.go, literalPanics). The parsers refuse documents nested
// more than 1000 levels, so only a document built in Go can reach it;
// what lies deeper is left whole, or counts as a possible fault.
const maxWalkDepth = 1100

// argWalk is the state of eachArgValue.
type argWalk struct {
	types    map[string]*ast.Definition
	dirs     map[string]*ast.DirectiveDefinition
	visit    func(v *ast.Value, typ *ast.Type)
	complete bool
}

// eachArgValue calls visit for every value the walker of the rules gives a
// type at its root: the defaults of variables and the arguments of fields
// and directives that it finds a definition for; typ is that type (the
// value's Definition is then the schema's type named typ.Name()). Values
// it gives no type to are left out. It reports false when some selections
// lie deeper than maxWalkDepth and were not searched.
func (s *Validator) eachArgValue(doc *ast.QueryDocument, visit func(v *ast.Value, typ *ast.Type)) bool {
	w := argWalk{types: s.ast.Types, dirs: s.ast.Directives, visit: visit, complete: true}
	for _, op := range doc.Operations {
		for _, vd := range op.VariableDefinitions {
			if vd.DefaultValue != nil && vd.Type != nil {
				visit(vd.DefaultValue, vd.Type)
			}
			w.directives(vd.Directives)
		}
		w.directives(op.Directives)
		var root *ast.Definition
		switch op.Operation {
		case ast.Query, "":
			root = s.ast.Query
		case ast.Mutation:
			root = s.ast.Mutation
		case ast.Subscription:
			root = s.ast.Subscription
		}
		w.selections(op.SelectionSet, root, 0)
	}
	for _, f := range doc.Fragments {
		w.directives(f.Directives)
		w.selections(f.SelectionSet, w.types[f.TypeCondition], 0)
	}
	return w.complete
}

// selections visits the arguments in set, selections on parent (nil when
// unknown). A fragment spread's selections are visited at the fragment's
// definition.
func (w *argWalk) selections(set ast.SelectionSet, parent *ast.Definition, depth int) {
	if len(set) == 0 {
		return
	}
	if depth > maxWalkDepth {
		w.complete = false
		return
	}
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			var def *ast.FieldDefinition
			if parent != nil && x.Name != "__typename" { // __typename has no arguments
				def = parent.Fields.ForName(x.Name)
			}
			var next *ast.Definition
			if def != nil {
				for _, a := range x.Arguments {
					if ad := def.Arguments.ForName(a.Name); ad != nil && a.Value != nil && ad.Type != nil {
						w.visit(a.Value, ad.Type)
					}
				}
				next = w.types[def.Type.Name()]
			}
			w.directives(x.Directives)
			w.selections(x.SelectionSet, next, depth+1)
		case *ast.InlineFragment:
			next := parent
			if x.TypeCondition != "" {
				next = w.types[x.TypeCondition]
			}
			w.directives(x.Directives)
			w.selections(x.SelectionSet, next, depth+1)
		case *ast.FragmentSpread:
			w.directives(x.Directives)
		}
	}
}

func (w *argWalk) directives(ds ast.DirectiveList) {
	for _, d := range ds {
		def := w.dirs[d.Name]
		if def == nil {
			continue
		}
		for _, a := range d.Arguments {
			if ad := def.Arguments.ForName(a.Name); ad != nil && a.Value != nil && ad.Type != nil {
				w.visit(a.Value, ad.Type)
			}
		}
	}
}
