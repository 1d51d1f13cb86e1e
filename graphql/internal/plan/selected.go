package plan

import (
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/response"
)

// This file answers what a resolver asks of its field's plan
// (graphql.ResolveInfo): its response path, and what the client selected
// below it under an execution's variables.

// Path returns fp's response path, with the list indexes idx of the
// items on the way.
func (fp *Field) Path(idx response.PathIndexes) ast.Path {
	var chain []*Field // the field and its ancestors, innermost first
	for f := fp; f != nil; f = f.ParentField() {
		chain = append(chain, f)
	}
	out := make(ast.Path, 0, len(chain)+idx.Len())
	k := 0
	for i := len(chain) - 1; i >= 0; i-- {
		out = append(out, ast.PathName(chain[i].Key))
		if i == 0 {
			break
		}
		for range chain[i].Lists {
			if k < idx.Len() {
				out = append(out, ast.PathIndex(idx.At(k)))
				k++
			}
		}
	}
	return out
}

// SelectedFields returns the names of the fields selected on fp's value
// under the variables vars, in selection order and without duplicates;
// for a field of an abstract type, those of every possible object, in the
// order of the objects.
func (fp *Field) SelectedFields(vars map[string]any) []string {
	c := Conditions{Vars: vars}
	if fp.Abs != nil {
		var out []string
		for _, p := range fp.possiblePlans(&c) {
			for _, name := range p.SelectedNames(&c) {
				if !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
		return out
	}
	p := fp.ChildPlan(&c, nil)
	if p == nil {
		return nil
	}
	return p.SelectedNames(&c)
}

// IsSelected reports whether the dot-separated path of field names is
// selected below fp under the variables vars; below a field of an
// abstract type, a field selected for any possible object counts.
func (fp *Field) IsSelected(vars map[string]any, path string) bool {
	c := Conditions{Vars: vars}
	var walked map[walkedPlan]bool
	return isSelected(fp, &c, path, 0, &walked)
}

// walkedPlan is a plan isSelected has looked in for the rest of the path
// at depth.
type walkedPlan struct {
	sp    *Selection
	depth int
}

// isSelected reports whether path is selected below fp; depth bounds the
// walk (a path names at most one field per level). Below fields of
// abstract types, the plans of the possible objects are each looked in
// once per level (*walked, made on first use): cousins share theirs
// (sharedPlanKey), so the walk is not multiplied by the possible objects
// at each level, and a plan that did not have the rest of the path at
// a level does not have it when reached again.
func isSelected(fp *Field, c *Conditions, path string, depth int, walked *map[walkedPlan]bool) bool {
	name, rest, more := strings.Cut(path, ".")
	if name == "" || more && rest == "" || depth > MaxDepth {
		return false
	}
	for _, p := range fp.possiblePlans(c) {
		if fp.Abs != nil {
			k := walkedPlan{p, depth}
			if (*walked)[k] {
				continue
			}
			if *walked == nil {
				*walked = make(map[walkedPlan]bool)
			}
			(*walked)[k] = true
		}
		sub := p.FindField(c, name)
		if sub == nil {
			continue
		}
		if rest == "" || isSelected(sub, c, rest, depth+1, walked) {
			return true
		}
	}
	return false
}

// possiblePlans returns the plans of fp's sub-selection under the
// conditions: its child plan, or for a field of an abstract type one per
// possible object; none for a leaf.
func (fp *Field) possiblePlans(c *Conditions) []*Selection {
	if fp.Abs == nil {
		if p := fp.ChildPlan(c, nil); p != nil {
			return []*Selection{p}
		}
		return nil
	}
	out := make([]*Selection, 0, len(fp.Abs.Info.Possible))
	for i := range fp.Abs.Info.Possible {
		if p := fp.ObjectPlan(i, c, nil); p != nil {
			out = append(out, p)
		}
	}
	return out
}
