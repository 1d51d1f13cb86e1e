package coerce

import (
	"github.com/vektah/gqlparser/v2/ast"
)

// This file holds what an Operation keeps of its document's literals.
//
// Once Prepare has returned, an Operation reads of its document the field
// nodes, selection sets, fragments and directives, and of each argument
// value and variable default only its top node (kind, raw text, position):
// never what a list or an object literal holds. Every literal it coerces
// later is its own copy, made while Prepare ran:
//
//   - the arguments of a field that refers to variables or holds custom
//     scalar values, coerced again for every execution;
//   - the arguments of every field below a field whose sub-selection
//     depends on @skip or @include with a variable, which executions (and
//     the cost) plan when they meet it;
//   - the defaults of the variables, coerced when a request leaves a
//     variable out.
//
// And a custom scalar's ParseLiteral is handed a copy of the literal, which
// is the callback's own. So once an Operation exists, the inside of its
// document's list and object literals may change or be reused without the
// Operation noticing: nothing that can outlive a request reads it.

// HasInterior reports whether a value of args is a list or an object with
// something in it.
func HasInterior(args ast.ArgumentList) bool {
	for _, a := range args {
		if a.Value != nil && len(a.Value.Children) > 0 {
			return true
		}
	}
	return false
}

// CopyArgs returns a copy of args whose values are copies.
func CopyArgs(args ast.ArgumentList) ast.ArgumentList {
	out := make(ast.ArgumentList, len(args))
	for i, a := range args {
		c := *a
		c.Value = CopyLiteral(a.Value)
		out[i] = &c
	}
	return out
}

// CopyLiteral returns a deep copy of v: its own nodes, positions and
// children. Definition, VariableDefinition and ExpectedType, which
// validation sets to the schema's and the document's nodes, are shared. A
// value nested more than maxLiteralNesting deep is copied down to there:
// the parser nests values at most 1000 deep, so only a value built by hand
// is (one that contains itself, for instance). The copy costs what
// coercing the value costs, which Prepare does anyway.
func CopyLiteral(v *ast.Value) *ast.Value {
	return copyValue(v, 0)
}

// maxLiteralNesting bounds the recursion of copyValue, past the parser's
// bound of 1000.
const maxLiteralNesting = 1024

func copyValue(v *ast.Value, depth int) *ast.Value {
	if v == nil {
		return nil
	}
	n := &struct {
		v   ast.Value
		pos ast.Position
	}{v: *v}
	if v.Position != nil {
		n.pos = *v.Position
		n.v.Position = &n.pos
	}
	if len(v.Children) == 0 || depth >= maxLiteralNesting {
		n.v.Children = nil
		return &n.v
	}
	children := make([]struct {
		ch  ast.ChildValue
		pos ast.Position
	}, len(v.Children))
	n.v.Children = make(ast.ChildValueList, len(v.Children))
	for i, c := range v.Children {
		children[i].ch = *c
		if c.Position != nil {
			children[i].pos = *c.Position
			children[i].ch.Position = &children[i].pos
		}
		children[i].ch.Value = copyValue(c.Value, depth+1)
		n.v.Children[i] = &children[i].ch
	}
	return &n.v
}

// OwnDefaults returns copies of the defaults of defs that hold a list or
// an object, by index; nil when none does (every default is then read
// where it is: its top node only).
func OwnDefaults(defs ast.VariableDefinitionList) []*ast.Value {
	var out []*ast.Value
	for i, d := range defs {
		if d.DefaultValue == nil || len(d.DefaultValue.Children) == 0 {
			continue
		}
		if out == nil {
			out = make([]*ast.Value, len(defs))
		}
		out[i] = CopyLiteral(d.DefaultValue)
	}
	return out
}
