package graphql

import (
	"slices"
	"strings"

	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

// ResolveInfo describes the field being resolved. A resolver receives its
// own copy, which holds nothing the engine reuses: it stays valid, and
// describes the same field, after the resolver has returned, so a batch
// loader may keep it. [ResolveInfo.ParentType] and [ResolveInfo.ReturnType]
// are the definitions given to [NewSchema], which must not be changed.
type ResolveInfo struct{ in schema.Info }

// plan returns the plan of the field, nil in a zero ResolveInfo.
func (info ResolveInfo) plan() *fieldPlan {
	fp, _ := info.in.Field.(*fieldPlan)
	return fp
}

// FieldName returns the field's name in the schema (not its alias).
func (info ResolveInfo) FieldName() string {
	if info.plan() == nil || info.plan().Info == nil {
		return ""
	}
	return info.plan().Info.Name
}

// ResponseKey returns the field's alias, or its name when it has none: the
// key of its value in the response.
func (info ResolveInfo) ResponseKey() string {
	if info.plan() == nil {
		return ""
	}
	return info.plan().Key
}

// ParentType returns the object type the field belongs to.
func (info ResolveInfo) ParentType() *Object {
	if info.plan() == nil || info.plan().Owner == nil {
		return nil
	}
	return objectDef(info.plan().Owner.Obj)
}

// ReturnType returns the field's declared type.
func (info ResolveInfo) ReturnType() Type {
	if info.plan() == nil {
		return nil
	}
	return defOf(info.plan().Type)
}

// Operation returns the operation being executed.
func (info ResolveInfo) Operation() *Operation { return operationOf(info.in) }

// Variables returns the operation's coerced variables, read-only.
func (info ResolveInfo) Variables() Args { return Args{m: info.in.Vars} }

// Path returns the response path of the field, for example
// ["posts", 3, "author"].
func (info ResolveInfo) Path() ast.Path {
	if info.plan() == nil {
		return nil
	}
	var chain []*fieldPlan // the field and its ancestors, innermost first
	for fp := info.plan(); fp != nil; fp = fp.ParentField() {
		chain = append(chain, fp)
	}
	out := make(ast.Path, 0, len(chain)+info.in.Idx.Len())
	k := 0
	for i := len(chain) - 1; i >= 0; i-- {
		out = append(out, ast.PathName(chain[i].Key))
		if i == 0 {
			break
		}
		for range chain[i].Lists {
			if k < info.in.Idx.Len() {
				out = append(out, ast.PathIndex(info.in.Idx.At(k)))
				k++
			}
		}
	}
	return out
}

// SelectedFields returns the names of the sub-fields the client selected on
// this field's value, after fragments, @skip and @include, in selection
// order and without duplicates (__typename is left out). It is empty for
// leaf fields. Resolvers use it to load related rows eagerly, for example
// to join authors only when "author" is selected.
//
// On a field of an interface or union type, whose value's object is not
// known yet, they are the sub-fields selected for any of its possible
// objects, in the order of the objects and then of selection.
func (info ResolveInfo) SelectedFields() []string {
	c := plan.Conditions{Vars: info.in.Vars}
	if info.plan() != nil && info.plan().Abs != nil {
		var out []string
		for _, p := range info.plan().possiblePlans(&c) {
			for _, name := range p.SelectedNames(&c) {
				if !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
		return out
	}
	p := info.childPlan(&c)
	if p == nil {
		return nil
	}
	return p.SelectedNames(&c)
}

// IsSelected reports whether the client selected the sub-field at path,
// a dot-separated list of field names below this field such as "author" or
// "author.name". Below a field of an interface or union type, a field
// selected for any of its possible objects counts.
func (info ResolveInfo) IsSelected(path string) bool {
	if info.plan() == nil {
		return false
	}
	c := plan.Conditions{Vars: info.in.Vars}
	var walked map[walkedPlan]bool
	return isSelected(info.plan(), &c, path, 0, &walked)
}

// walkedPlan is a plan isSelected has looked in for the rest of the path
// at depth.
type walkedPlan struct {
	sp    *selectionPlan
	depth int
}

// isSelected reports whether path is selected below fp; depth bounds the
// walk (a path names at most one field per level). Below fields of
// abstract types, the plans of the possible objects are each looked in
// once per level (*walked, made on first use): cousins share theirs
// (sharedPlanKey), so the walk is not multiplied by the possible objects
// at each level, and a plan that did not have the rest of the path at
// a level does not have it when reached again.
func isSelected(fp *fieldPlan, c *plan.Conditions, path string, depth int, walked *map[walkedPlan]bool) bool {
	name, rest, more := strings.Cut(path, ".")
	if name == "" || more && rest == "" || depth > plan.MaxDepth {
		return false
	}
	plans := fp.possiblePlans(c)
	for _, p := range plans {
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
func (fp *fieldPlan) possiblePlans(c *plan.Conditions) []*selectionPlan {
	if fp.Abs == nil {
		if p := fp.ChildPlan(c, nil); p != nil {
			return []*selectionPlan{p}
		}
		return nil
	}
	out := make([]*selectionPlan, 0, len(fp.Abs.Info.Possible))
	for i := range fp.Abs.Info.Possible {
		if p := fp.ObjectPlan(i, c, nil); p != nil {
			out = append(out, p)
		}
	}
	return out
}

func (info ResolveInfo) childPlan(c *plan.Conditions) *selectionPlan {
	if info.plan() == nil {
		return nil
	}
	return info.plan().ChildPlan(c, nil)
}

// operationOf returns the operation in, nil in a zero one.
func operationOf(in schema.Info) *Operation {
	op, _ := in.Op.(*Operation)
	return op
}
