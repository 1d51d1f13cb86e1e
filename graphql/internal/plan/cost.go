package plan

import "math"

// This file is the cost of an operation (see graphql.Cost) once its plan
// is folded: constants where the variables change nothing, and the fields
// whose size a variable gives, evaluated for each execution without an
// allocation. Package graphql folds its plans into a CostSet.

// CostSet is the cost of a selection set: a constant, for the fields whose
// cost the variables do not change, plus the fields whose cost they do,
// plus the largest cost of Max, when it is not empty: the selection set
// of a field of an interface or union type costs as much as its most
// costly possible object's (an upper bound, whichever object the value
// turns out to be).
type CostSet struct {
	Constant int
	Fields   []CostField
	Max      []CostSet
}

// IsConstant reports whether s costs the same under any variables.
func (s *CostSet) IsConstant() bool { return len(s.Fields) == 0 && len(s.Max) == 0 }

// MaxOf returns the cost set of the most costly of alts: a constant when
// each of them is one.
func MaxOf(alts []CostSet) CostSet {
	most := 0
	for i := range alts {
		if !alts[i].IsConstant() {
			return CostSet{Max: alts}
		}
		most = max(most, alts[i].Constant)
	}
	return CostSet{Constant: most}
}

// CostField is a field whose cost depends on the variables: Weight plus
// Size × the cost of Sub.
type CostField struct {
	Weight int
	Size   CostSize
	Sub    CostSet
}

// CostSize is a field's size: the value of the variable called Variable
// when the field's SizeArg is one, else (or when the variable is absent)
// Fallback; never more than Max when Max is not 0 (Fallback is clamped
// already).
type CostSize struct {
	Variable   string
	Fallback   int
	Max        int
	NullAbsent bool // a null variable counts as absent (Fallback)
}

// Clamp returns n, or Max when n is larger and Max is set.
func (s CostSize) Clamp(n int) int {
	if s.Max > 0 && n > s.Max {
		return s.Max
	}
	return n
}

// MaxCostDepth bounds the recursion of folding and of evaluating: Prepare
// refuses operations that nest more than MaxDepth fields deep, so no
// plan gets here; a deeper one costs the most an int holds.
const MaxCostDepth = MaxDepth + 1

// SizeOf returns a coerced Int value as a size: null or negative is 0.
// Anything else, which coercion does not produce, is other.
func SizeOf(v any, other int) int {
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

// Eval returns the cost of s under the coerced variables vars.
func (s *CostSet) Eval(vars map[string]any, depth int) int {
	if depth > MaxCostDepth {
		return math.MaxInt
	}
	total := s.Constant
	for i := range s.Fields {
		f := &s.Fields[i]
		size := f.Size.Fallback
		if f.Size.Variable != "" {
			if v, ok := vars[f.Size.Variable]; ok && (v != nil || !f.Size.NullAbsent) {
				size = f.Size.Clamp(SizeOf(v, f.Size.Fallback))
			}
		}
		cost := f.Weight
		if size > 0 {
			cost = AddSat(cost, MulSat(size, f.Sub.Eval(vars, depth+1)))
		}
		total = AddSat(total, cost)
	}
	if len(s.Max) > 0 {
		most := 0
		for i := range s.Max {
			most = max(most, s.Max[i].Eval(vars, depth)) // a field's Sub: its depth counted
		}
		total = AddSat(total, most)
	}
	return total
}

// AddSat returns a+b for a, b ≥ 0, or math.MaxInt when it does not fit.
func AddSat(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// MulSat returns a×b for a, b ≥ 0, or math.MaxInt when it does not fit.
func MulSat(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}
