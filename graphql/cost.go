package graphql

import (
	"math"
	"strconv"
	"sync"

	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

// The cost of an operation (see [Cost]) is computed in two steps. Once per
// Operation, the first time it is asked for, its plan is folded into a
// plan.CostSet: every field whose cost the variables cannot change (its size
// and the sizes below it are literals, defaults or Size) is added into a
// constant, and only the fields whose size is a variable, or that hold
// such a field, are kept as a tree. Then, for each execution, that tree is
// evaluated under the coerced variables. A document whose sizes are all
// literal costs a load per request; one whose sizes are variables walks
// only the fields on the way to them. Neither allocates.

// fieldCost is a field's [Cost] as the schema compiled it.
type fieldCost = schema.Cost

// compileCost checks a field's Cost and keeps it in fi: SizeArg must name
// an argument of the field, of type Int or Int!.
func (b *builder) compileCost(fi *fieldInfo, f Field) {
	c := f.Cost
	fi.Cost = fieldCost{Weight: c.Weight, Size: c.Size, MaxSize: c.MaxSize, NullAbsent: c.NullSizeAsAbsent}
	if c.MaxSize < 0 {
		b.errorf("graphql: field %s: Cost.MaxSize is %d; it must not be negative (0 means no maximum)", fi.Coord, c.MaxSize)
	}
	switch {
	case c.Weight == 0:
		fi.Cost.Weight = 1
	case c.Weight < 0:
		fi.Cost.Weight = 0
	}
	switch {
	case c.Size == 0:
		fi.Cost.Size = 1
	case c.Size < 0:
		fi.Cost.Size = 0
	}
	if c.SizeArg == "" {
		return
	}
	var declared *Argument
	for i := range f.Args {
		if f.Args[i].Name == c.SizeArg {
			declared = &f.Args[i]
			break
		}
	}
	if declared == nil {
		b.errorf("graphql: field %s: Cost.SizeArg %q is not an argument of the field", fi.Coord, c.SizeArg)
		return
	}
	if !isIntType(declared.Type) {
		b.errorf("graphql: field %s: Cost.SizeArg %q is of type %s; it must be Int or Int!", fi.Coord, c.SizeArg, typeString(declared.Type))
		return
	}
	for _, a := range fi.Args {
		if a.Name == c.SizeArg {
			fi.Cost.SizeArg = a
		}
	}
	// An argument that did not compile was reported already.
}

// isIntType reports whether t is Int or Int!.
func isIntType(t Type) bool {
	if nn, ok := t.(*NonNull); ok && nn != nil {
		t = nn.OfType
	}
	k, ok := t.(BuiltinScalar)
	return ok && k == Int
}

// costState is what an Operation keeps to compute its cost (see [Cost]):
// its plan folded once, on first use.
type costState struct {
	once sync.Once
	root plan.CostSet
}

// cost returns the operation's cost under the coerced variables vars.
func (op *Operation) cost(vars map[string]any) int {
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
			op.costs.root = plan.CostSet{Constant: math.MaxInt}
		}
	}()
	f := folder{left: plan.MaxSelections}
	op.costs.root = f.set(op.plan, 0)
}

// folder folds plans into cost sets. left is the field plans it may still
// fold: conditional fields and the possible objects of abstract ones are
// planned as it goes, which a hostile document could make exponential in
// its depth, so past plan.MaxSelections of them the cost is the most an
// int holds.
//
// folded holds the cost sets of the per-object plans of abstract fields,
// which cousins share (see sharedPlanKey): each is folded once.
type folder struct {
	left   int
	folded map[*selectionPlan]plan.CostSet
}

// set folds the plan of a selection set. Introspection fields and
// __typename cost nothing and are not followed. A field planned for each
// execution, because @skip or @include with a variable decides which of
// its occurrences count, is planned here over all its occurrences: the
// cost is an upper bound, whatever the conditions.
//
// A field of an interface or union type costs its weight plus its size
// times the cost of its most costly possible object's selection.
func (f *folder) set(sp *selectionPlan, depth int) plan.CostSet {
	if depth > plan.MaxCostDepth {
		return plan.CostSet{Constant: math.MaxInt}
	}
	var out plan.CostSet
	if sp == nil {
		return out
	}
	if f.left -= len(sp.Fields); f.left < 0 {
		return plan.CostSet{Constant: math.MaxInt}
	}
	for _, fp := range sp.Fields {
		if !fp.Kind.IsField() || fp.Info == nil {
			continue
		}
		c := &fp.Info.Cost
		var sub plan.CostSet
		if fp.Abs != nil {
			plans := fp.ObjectPlans()
			subs := make([]plan.CostSet, len(plans))
			for i, osp := range plans {
				cs, ok := f.folded[osp]
				if !ok {
					cs = f.set(osp, depth+1)
					if f.folded == nil {
						f.folded = map[*selectionPlan]plan.CostSet{}
					}
					f.folded[osp] = cs
				}
				subs[i] = cs
			}
			sub = plan.MaxOf(subs)
		} else {
			child := fp.Child
			if child == nil && fp.Dynamic {
				child = fp.planAll()
			}
			if child == nil {
				out.Constant = plan.AddSat(out.Constant, c.Weight)
				continue
			}
			sub = f.set(child, depth+1)
		}
		size := fp.costSize()
		if sub.IsConstant() && (size.Variable == "" || sub.Constant == 0) {
			out.Constant = plan.AddSat(out.Constant, plan.AddSat(c.Weight, plan.MulSat(size.Fallback, sub.Constant)))
			continue
		}
		if size.Variable == "" && size.Fallback == 0 {
			out.Constant = plan.AddSat(out.Constant, c.Weight)
			continue
		}
		out.Add(plan.CostField{Weight: c.Weight, Size: size, Sub: sub})
	}
	return out
}

// planAll plans the sub-selection of a conditional field over all its
// occurrences, whatever their conditions; nil for a leaf.
func (fp *fieldPlan) planAll() *selectionPlan {
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
func (fp *fieldPlan) costSize() plan.CostSize {
	s := fp.declaredSize()
	s.Max = fp.Info.Cost.MaxSize
	s.Fallback = s.Clamp(s.Fallback)
	return s
}

// declaredSize returns fp's size as the document and the schema declare
// it, before MaxSize. Validation has every occurrence of a response key
// carry the same arguments, so the first one's are read, as execution
// does.
func (fp *fieldPlan) declaredSize() plan.CostSize {
	c := &fp.Info.Cost
	if c.SizeArg == nil {
		return plan.CostSize{Fallback: c.Size}
	}
	absent := c.Size
	if c.SizeArg.HasDefault {
		absent = plan.SizeOf(c.SizeArg.Default, c.Size)
	}
	arg := fp.Occ[0].Field.Arguments.ForName(c.SizeArg.Name)
	if arg == nil || arg.Value == nil {
		return plan.CostSize{Fallback: absent}
	}
	switch v := arg.Value; v.Kind {
	case ast.Variable:
		return plan.CostSize{Variable: v.Raw, Fallback: absent, NullAbsent: c.NullAbsent}
	case ast.NullValue:
		if c.NullAbsent {
			return plan.CostSize{Fallback: absent}
		}
		return plan.CostSize{}
	case ast.IntValue:
		n, err := strconv.ParseInt(v.Raw, 10, 64)
		switch {
		case err == nil:
			return plan.CostSize{Fallback: plan.SizeOf(n, c.Size)}
		case len(v.Raw) > 0 && v.Raw[0] == '-':
			return plan.CostSize{}
		default: // out of range: validation refuses it
			return plan.CostSize{Fallback: math.MaxInt}
		}
	}
	return plan.CostSize{Fallback: absent} // not an Int: validation refuses it
}
