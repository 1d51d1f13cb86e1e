package graphql

import (
	"math"
	"strconv"
	"sync"

	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/vektah/gqlparser/v2/ast"
)

// The cost of an operation (see [Cost]) is computed in two steps. Once per
// Operation, the first time it is asked for, its plan is folded into a
// costSet: every field whose cost the variables cannot change (its size
// and the sizes below it are literals, defaults or Size) is added into a
// constant, and only the fields whose size is a variable, or that hold
// such a field, are kept as a tree. Then, for each execution, that tree is
// evaluated under the coerced variables. A document whose sizes are all
// literal costs a load per request; one whose sizes are variables walks
// only the fields on the way to them. Neither allocates.

// fieldCost is a field's [Cost] as the schema compiled it.
type fieldCost struct {
	weight  int      // 0 for a negative Weight, 1 for a zero one
	sizeArg *argInfo // the Int argument that gives the size, or nil
	size    int      // Size: 1 for a zero one, 0 for a negative one
	maxSize int      // MaxSize: 0 for none
}

// compileCost checks a field's Cost and keeps it in fi: SizeArg must name
// an argument of the field, of type Int or Int!.
func (b *builder) compileCost(fi *fieldInfo, f Field) {
	c := f.Cost
	fi.cost = fieldCost{weight: c.Weight, size: c.Size, maxSize: c.MaxSize}
	if c.MaxSize < 0 {
		b.errorf("graphql: field %s: Cost.MaxSize is %d; it must not be negative (0 means no maximum)", fi.coord, c.MaxSize)
	}
	switch {
	case c.Weight == 0:
		fi.cost.weight = 1
	case c.Weight < 0:
		fi.cost.weight = 0
	}
	switch {
	case c.Size == 0:
		fi.cost.size = 1
	case c.Size < 0:
		fi.cost.size = 0
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
		b.errorf("graphql: field %s: Cost.SizeArg %q is not an argument of the field", fi.coord, c.SizeArg)
		return
	}
	if !isIntType(declared.Type) {
		b.errorf("graphql: field %s: Cost.SizeArg %q is of type %s; it must be Int or Int!", fi.coord, c.SizeArg, typeString(declared.Type))
		return
	}
	for _, a := range fi.args {
		if a.name == c.SizeArg {
			fi.cost.sizeArg = a
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
	root costSet
}

// costSet is the cost of a selection set: a constant, for the fields whose
// cost the variables do not change, plus the fields whose cost they do.
type costSet struct {
	constant int
	fields   []costField
}

// costField is a field whose cost depends on the variables: weight plus
// size × the cost of sub.
type costField struct {
	weight int
	size   costSize
	sub    costSet
}

// costSize is a field's size: the value of the variable called variable
// when the field's SizeArg is one, else (or when the variable is absent)
// fallback; never more than max when max is not 0 (fallback is clamped
// already).
type costSize struct {
	variable string
	fallback int
	max      int
}

// clamp returns n, or max when n is larger and max is set.
func (s costSize) clamp(n int) int {
	if s.max > 0 && n > s.max {
		return s.max
	}
	return n
}

// maxCostDepth bounds the recursion of folding and of evaluating: Prepare
// refuses operations that nest more than plan.MaxDepth fields deep, so no
// plan gets here; a deeper one costs the most an int holds.
const maxCostDepth = plan.MaxDepth + 1

// cost returns the operation's cost under the coerced variables vars.
func (op *Operation) cost(vars map[string]any) int {
	op.costs.once.Do(op.foldCost)
	root := &op.costs.root
	if len(root.fields) == 0 {
		return root.constant
	}
	return root.eval(vars, 0)
}

// foldCost computes op.costs.root, once. Folding plans conditional fields
// as execution would; should it panic all the same, the operation costs
// the most an int holds, so that a cost limit refuses it rather than let
// it run unmeasured.
func (op *Operation) foldCost() {
	defer func() {
		if recover() != nil {
			op.costs.root = costSet{constant: math.MaxInt}
		}
	}()
	op.costs.root = foldSet(op.plan, 0)
}

// foldSet folds the plan of a selection set. Introspection fields and
// __typename cost nothing and are not followed. A field planned for each
// execution, because @skip or @include with a variable decides which of
// its occurrences count, is planned here over all its occurrences: the
// cost is an upper bound, whatever the conditions.
func foldSet(sp *selectionPlan, depth int) costSet {
	if depth > maxCostDepth {
		return costSet{constant: math.MaxInt}
	}
	var out costSet
	if sp == nil {
		return out
	}
	for _, fp := range sp.fields {
		if fp.kind != kindField || fp.info == nil {
			continue
		}
		c := &fp.info.cost
		child := fp.child
		if child == nil && fp.dynamic {
			child = fp.planAll()
		}
		if child == nil {
			out.constant = addSat(out.constant, c.weight)
			continue
		}
		sub := foldSet(child, depth+1)
		size := fp.costSize()
		if len(sub.fields) == 0 && (size.variable == "" || sub.constant == 0) {
			out.constant = addSat(out.constant, addSat(c.weight, mulSat(size.fallback, sub.constant)))
			continue
		}
		if size.variable == "" && size.fallback == 0 {
			out.constant = addSat(out.constant, c.weight)
			continue
		}
		out.fields = append(out.fields, costField{weight: c.weight, size: size, sub: sub})
	}
	return out
}

// planAll plans the sub-selection of a conditional field over all its
// occurrences, whatever their conditions; nil for a leaf.
func (fp *fieldPlan) planAll() *selectionPlan {
	obj := fp.planner.objectOf(fp.typ)
	if obj == nil {
		return nil
	}
	fields := make([]*ast.Field, len(fp.occ))
	for i, o := range fp.occ {
		fields[i] = o.field
	}
	return fp.planner.plan(obj, fields, fp)
}

// costSize returns how fp's size is found: from a variable, or a constant
// (a literal, the argument's default, or Size), with the field's MaxSize
// as its maximum and the constant clamped to it.
func (fp *fieldPlan) costSize() costSize {
	s := fp.declaredSize()
	s.max = fp.info.cost.maxSize
	s.fallback = s.clamp(s.fallback)
	return s
}

// declaredSize returns fp's size as the document and the schema declare
// it, before MaxSize. Validation has every occurrence of a response key
// carry the same arguments, so the first one's are read, as execution
// does.
func (fp *fieldPlan) declaredSize() costSize {
	c := &fp.info.cost
	if c.sizeArg == nil {
		return costSize{fallback: c.size}
	}
	absent := c.size
	if c.sizeArg.hasDefault {
		absent = sizeOf(c.sizeArg.def, c.size)
	}
	arg := fp.occ[0].field.Arguments.ForName(c.sizeArg.name)
	if arg == nil || arg.Value == nil {
		return costSize{fallback: absent}
	}
	switch v := arg.Value; v.Kind {
	case ast.Variable:
		return costSize{variable: v.Raw, fallback: absent}
	case ast.NullValue:
		return costSize{}
	case ast.IntValue:
		n, err := strconv.ParseInt(v.Raw, 10, 64)
		switch {
		case err == nil:
			return costSize{fallback: sizeOf(n, c.size)}
		case len(v.Raw) > 0 && v.Raw[0] == '-':
			return costSize{}
		default: // out of range: validation refuses it
			return costSize{fallback: math.MaxInt}
		}
	}
	return costSize{fallback: absent} // not an Int: validation refuses it
}

// sizeOf returns a coerced Int value as a size: null or negative is 0.
// Anything else, which coercion does not produce, is other.
func sizeOf(v any, other int) int {
	switch n := v.(type) {
	case nil:
		return 0
	case int:
		return max(n, 0)
	case int64:
		if n > math.MaxInt {
			return math.MaxInt
		}
		return int(max(n, 0))
	case int32:
		return int(max(n, 0))
	}
	return other
}

// eval returns the cost of s under the coerced variables vars.
func (s *costSet) eval(vars map[string]any, depth int) int {
	if depth > maxCostDepth {
		return math.MaxInt
	}
	total := s.constant
	for i := range s.fields {
		f := &s.fields[i]
		size := f.size.fallback
		if f.size.variable != "" {
			if v, ok := vars[f.size.variable]; ok {
				size = f.size.clamp(sizeOf(v, f.size.fallback))
			}
		}
		cost := f.weight
		if size > 0 {
			cost = addSat(cost, mulSat(size, f.sub.eval(vars, depth+1)))
		}
		total = addSat(total, cost)
	}
	return total
}

// addSat returns a+b for a, b ≥ 0, or math.MaxInt when it does not fit.
func addSat(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// mulSat returns a×b for a, b ≥ 0, or math.MaxInt when it does not fit.
func mulSat(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}
