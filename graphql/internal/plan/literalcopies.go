package plan

import (
	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/vektah/gqlparser/v2/ast"
)

// This file copies, while Prepare runs, the literals a plan may coerce
// after it (see package coerce's literalcopy.go for why).

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
	if !p.preparing || !coerce.HasInterior(args) {
		return args
	}
	if own, ok := p.owned[f]; ok {
		return own
	}
	own := coerce.CopyArgs(args)
	if p.owned == nil {
		p.owned = map[*ast.Field]ast.ArgumentList{}
	}
	p.owned[f] = own
	return own
}

// keepConditional copies, while Prepare runs, the arguments of every field
// that executions may plan: those below the fields of sp, and of its
// sub-plans, whose sub-selection depends on a variable's @skip or
// @include. seen holds the fragments walked already: each is walked once;
// walked, the per-object plans of abstract fields, which cousins share
// (see sharedPlanKey).
func (p *planner) keepConditional(sp *Selection, seen map[string]bool, walked map[*Selection]bool, depth int) {
	if sp == nil || depth > MaxDepth {
		return
	}
	for _, fp := range sp.Fields {
		switch {
		case fp.Child != nil:
			p.keepConditional(fp.Child, seen, walked, depth+1)
		case fp.Abs != nil && !fp.Dynamic:
			for i := range fp.Abs.Plans {
				if osp := fp.Abs.Plans[i].Load(); !walked[osp] {
					walked[osp] = true
					p.keepConditional(osp, seen, walked, depth+1)
				}
			}
		case fp.Dynamic:
			for _, o := range fp.Occ {
				p.keepBelow(o.Field.SelectionSet, seen, 0)
			}
		}
	}
}

// keepBelow keeps the arguments of every field in set and below it. depth
// counts fields only: planning follows any number of fragments in all (up
// to NestingGuard within one field's selection set), and Prepare has
// refused fragment cycles and fields nested past MaxDepth, so the walk
// ends and is never cut (a fragment cut once would be skipped where seen
// again).
func (p *planner) keepBelow(set ast.SelectionSet, seen map[string]bool, depth int) {
	if depth > MaxDepth {
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
