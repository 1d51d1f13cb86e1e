package graphql

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
//     the cost, see cost.go) plan when they meet it;
//   - the defaults of the variables, coerced when a request leaves a
//     variable out.
//
// And a custom scalar's ParseLiteral is handed a copy of the literal, which
// is the callback's own. So once an Operation exists, the inside of its
// document's list and object literals may change or be reused without the
// Operation noticing: nothing that can outlive a request reads it.

// hasInterior reports whether a value of args is a list or an object with
// something in it.
func hasInterior(args ast.ArgumentList) bool {
	for _, a := range args {
		if a.Value != nil && len(a.Value.Children) > 0 {
			return true
		}
	}
	return false
}

// copyArgs returns a copy of args whose values are copies.
func copyArgs(args ast.ArgumentList) ast.ArgumentList {
	out := make(ast.ArgumentList, len(args))
	for i, a := range args {
		c := *a
		c.Value = copyLiteral(a.Value)
		out[i] = &c
	}
	return out
}

// copyLiteral returns a deep copy of v: its own nodes, positions and
// children. Definition, VariableDefinition and ExpectedType, which
// validation sets to the schema's and the document's nodes, are shared. A
// value nested more than maxLiteralNesting deep is copied down to there:
// the parser nests values at most 1000 deep, so only a value built by hand
// is (one that contains itself, for instance). The copy costs what
// coercing the value costs, which Prepare does anyway.
func copyLiteral(v *ast.Value) *ast.Value {
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

// ownArgs returns the arguments of f that plans coerce: the copy made for
// f while Prepare ran, if any, else f's own.
func (p *planner) ownArgs(f *ast.Field) ast.ArgumentList {
	if own, ok := p.owned[f]; ok {
		return own
	}
	return f.Arguments
}

// keepArgs returns args, the arguments of f, as the operation may read
// them after Prepare: while Prepare runs, a copy (kept for f) when a value
// holds a list or an object; args itself otherwise, and once Prepare has
// returned (args is then f's copy already, or holds neither).
func (p *planner) keepArgs(f *ast.Field, args ast.ArgumentList) ast.ArgumentList {
	if !p.preparing || !hasInterior(args) {
		return args
	}
	if own, ok := p.owned[f]; ok {
		return own
	}
	own := copyArgs(args)
	if p.owned == nil {
		p.owned = map[*ast.Field]ast.ArgumentList{}
	}
	p.owned[f] = own
	return own
}

// keepConditional copies, while Prepare runs, the arguments of every field
// that executions may plan: those below the fields of sp, and of its
// sub-plans, whose sub-selection depends on a variable's @skip or
// @include. seen holds the fragments walked already: each is walked once.
func (p *planner) keepConditional(sp *selectionPlan, seen map[string]bool, depth int) {
	if sp == nil || depth > maxPlanDepth {
		return
	}
	for _, fp := range sp.fields {
		switch {
		case fp.child != nil:
			p.keepConditional(fp.child, seen, depth+1)
		case fp.dynamic:
			for _, o := range fp.occ {
				p.keepBelow(o.field.SelectionSet, seen, 0)
			}
		}
	}
}

// keepBelow keeps the arguments of every field in set and below it. depth
// counts fields only: planning follows any number of fragments in all (up
// to planNestingGuard within one field's selection set), and Prepare has
// refused fragment cycles and fields nested past maxPlanDepth, so the walk
// ends and is never cut (a fragment cut once would be skipped where seen
// again).
func (p *planner) keepBelow(set ast.SelectionSet, seen map[string]bool, depth int) {
	if depth > maxPlanDepth {
		return
	}
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			p.keepArgs(x, x.Arguments)
			p.keepBelow(x.SelectionSet, seen, depth+1)
		case *ast.InlineFragment:
			p.keepBelow(x.SelectionSet, seen, depth)
		case *ast.FragmentSpread:
			if seen[x.Name] {
				continue
			}
			seen[x.Name] = true
			if f := p.fragments.Get(p.doc, x.Name); f != nil {
				p.keepBelow(f.SelectionSet, seen, depth)
			}
		}
	}
}

// ownDefaults returns copies of the defaults of defs that hold a list or
// an object, by index; nil when none does (every default is then read
// where it is: its top node only).
func ownDefaults(defs ast.VariableDefinitionList) []*ast.Value {
	var out []*ast.Value
	for i, d := range defs {
		if d.DefaultValue == nil || len(d.DefaultValue.Children) == 0 {
			continue
		}
		if out == nil {
			out = make([]*ast.Value, len(defs))
		}
		out[i] = copyLiteral(d.DefaultValue)
	}
	return out
}
