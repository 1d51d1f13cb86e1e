package plan

import (
	"math"
	"strconv"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
)

// costState is what an Operation keeps to compute its cost (graphql.Cost
// says how a field counts): its plan folded once, on first use.
type costState struct {
	once sync.Once
	root CostSet
}

// Cost returns the operation's cost under the coerced variables vars.
func (op *Operation) Cost(vars map[string]any) int {
	op.costs.once.Do(op.foldCost)
	root := &op.costs.root
	if len(root.Fields) == 0 {
		return root.Constant
	}
	return root.Eval(vars, 0)
}

// foldCost computes op.costs.root, once. Folding plans conditional fields
// as execution would; should it panic all the same, the operation costs
// the most an int holds, so that a cost limit refuses it rather than let
// it run unmeasured.
func (op *Operation) foldCost() {
	defer func() {
		if recover() != nil {
			op.costs.root = CostSet{Constant: math.MaxInt}
		}
	}()
	f := folder{left: MaxSelections}
	op.costs.root = f.set(op.Root, 0)
}

// folder folds plans into cost sets. left is the field plans it may still
// fold: conditional fields and the possible objects of abstract ones are
// planned as it goes, which a hostile document could make exponential in
// its depth, so past MaxSelections of them the cost is the most an
// int holds.
//
// folded holds the cost sets of the per-object plans of abstract fields,
// which cousins share (see sharedPlanKey): each is folded once.
type folder struct {
	left   int
	folded map[*Selection]CostSet
}

// set folds the plan of a selection set. Introspection fields and
// __typename cost nothing and are not followed. A field planned for each
// execution, because @skip or @include with a variable decides which of
// its occurrences count, is planned here over all its occurrences: the
// cost is an upper bound, whatever the conditions.
//
// A field of an interface or union type costs its weight plus its size
// times the cost of its most costly possible object's selection.
func (f *folder) set(sp *Selection, depth int) CostSet {
	if depth > MaxCostDepth {
		return CostSet{Constant: math.MaxInt}
	}
	var out CostSet
	if sp == nil {
		return out
	}
	if f.left -= len(sp.Fields); f.left < 0 {
		return CostSet{Constant: math.MaxInt}
	}
	for _, fp := range sp.Fields {
		if !fp.Kind.IsField() || fp.Info == nil {
			continue
		}
		c := &fp.Info.Cost
		var sub CostSet
		if fp.Abs != nil {
			plans := fp.ObjectPlans()
			subs := make([]CostSet, len(plans))
			for i, osp := range plans {
				cs, ok := f.folded[osp]
				if !ok {
					cs = f.set(osp, depth+1)
					if f.folded == nil {
						f.folded = map[*Selection]CostSet{}
					}
					f.folded[osp] = cs
				}
				subs[i] = cs
			}
			sub = MaxOf(subs)
		} else {
			child := fp.Child
			if child == nil && fp.Dynamic {
				child = fp.planAll()
			}
			if child == nil {
				out.Constant = AddSat(out.Constant, c.Weight)
				continue
			}
			sub = f.set(child, depth+1)
		}
		size := fp.costSize()
		if sub.IsConstant() && (size.Variable == "" || sub.Constant == 0) {
			out.Constant = AddSat(out.Constant, AddSat(c.Weight, MulSat(size.Fallback, sub.Constant)))
			continue
		}
		if size.Variable == "" && size.Fallback == 0 {
			out.Constant = AddSat(out.Constant, c.Weight)
			continue
		}
		out.Add(CostField{Weight: c.Weight, Size: size, Sub: sub})
	}
	return out
}

// planAll plans the sub-selection of a conditional field over all its
// occurrences, whatever their conditions; nil for a leaf.
func (fp *Field) planAll() *Selection {
	obj := ObjectOf(fp.Type)
	if obj == nil {
		return nil
	}
	fields := make([]*ast.Field, len(fp.Occ))
	for i, o := range fp.Occ {
		fields[i] = o.Field
	}
	return fp.planner.plan(obj, fields, fp)
}

// costSize returns how fp's size is found: from a variable, or a constant
// (a literal, the argument's default, or Size), with the field's MaxSize
// as its maximum and the constant clamped to it.
func (fp *Field) costSize() CostSize {
	s := fp.declaredSize()
	s.Max = fp.Info.Cost.MaxSize
	s.Fallback = s.Clamp(s.Fallback)
	return s
}

// declaredSize returns fp's size as the document and the schema declare
// it, before MaxSize. Validation has every occurrence of a response key
// carry the same arguments, so the first one's are read, as execution
// does.
func (fp *Field) declaredSize() CostSize {
	c := &fp.Info.Cost
	if c.SizeArg == nil {
		return CostSize{Fallback: c.Size}
	}
	absent := c.Size
	if c.SizeArg.HasDefault {
		absent = SizeOf(c.SizeArg.Default, c.Size)
	}
	arg := fp.Occ[0].Field.Arguments.ForName(c.SizeArg.Name)
	if arg == nil || arg.Value == nil {
		return CostSize{Fallback: absent}
	}
	switch v := arg.Value; v.Kind {
	case ast.Variable:
		return CostSize{Variable: v.Raw, Fallback: absent, NullAbsent: c.NullAbsent}
	case ast.NullValue:
		if c.NullAbsent {
			return CostSize{Fallback: absent}
		}
		return CostSize{}
	case ast.IntValue:
		n, err := strconv.ParseInt(v.Raw, 10, 64)
		switch {
		case err == nil:
			return CostSize{Fallback: SizeOf(n, c.Size)}
		case len(v.Raw) > 0 && v.Raw[0] == '-':
			return CostSize{}
		default: // out of range: validation refuses it
			return CostSize{Fallback: math.MaxInt}
		}
	}
	return CostSize{Fallback: absent} // not an Int: validation refuses it
}
