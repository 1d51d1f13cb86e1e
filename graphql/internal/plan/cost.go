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
	// Nodes counts the sets and fields Eval visits (saturating): what
	// evaluating s costs. Whoever builds a set keeps it (Add, MaxOf).
	Nodes int
}

// MaxEvalNodes bounds the Nodes of the sets MaxOf builds. The cost sets
// of cousins (the same field of the response reached through different
// objects) are shared, so an operation nesting abstract fields n deep
// folds into n × possible sets, but Eval would walk them as a tree of
// possible^n: past the bound, MaxOf gives a coarser upper bound that Eval
// walks once.
const MaxEvalNodes = 10_000

// Add adds f to s.
func (s *CostSet) Add(f CostField) {
	s.Fields = append(s.Fields, f)
	s.Nodes = AddSat(s.Nodes, AddSat(1, f.Sub.Nodes))
}

// IsConstant reports whether s costs the same under any variables.
func (s *CostSet) IsConstant() bool { return len(s.Fields) == 0 && len(s.Max) == 0 }

// MaxOf returns the cost set of the most costly of alts: a constant when
// each of them is one. When evaluating the largest of them would visit
// more than MaxEvalNodes, it returns a coarser upper bound instead: the
// largest constant plus the variable fields of all of them, each field
// that several share (the same size and the same sub-selection's set)
// counted once, with its largest weight; the most an int holds when even
// that is too large.
func MaxOf(alts []CostSet) CostSet {
	most, nodes, constant := 0, 1, true
	for i := range alts {
		constant = constant && alts[i].IsConstant()
		most = max(most, alts[i].Constant)
		nodes = AddSat(nodes, alts[i].Nodes)
	}
	switch {
	case constant:
		return CostSet{Constant: most}
	case nodes <= MaxEvalNodes:
		return CostSet{Max: alts, Nodes: nodes}
	}
	out := CostSet{Constant: most, Nodes: 1}
	// The fields of out by size and sub-selection. An alternative's n-th
	// field of a key matches the n-th of out: two equal fields of one
	// alternative both count.
	byKey := map[fieldKey][]int{}
	seen := map[fieldKey]int{} // the current alternative's fields, by key
	for i := range alts {
		clear(seen)
		for _, f := range alts[i].Fields {
			k := keyOf(f)
			n := seen[k]
			seen[k] = n + 1
			if at := byKey[k]; n < len(at) {
				out.Fields[at[n]].Weight = max(out.Fields[at[n]].Weight, f.Weight)
				continue
			}
			byKey[k] = append(byKey[k], len(out.Fields))
			if out.Add(f); out.Nodes > MaxEvalNodes {
				return CostSet{Constant: math.MaxInt}
			}
		}
		for _, m := range alts[i].Max {
			if !out.hasMax(m) {
				out.Max = append(out.Max, m)
				if out.Nodes = AddSat(out.Nodes, m.Nodes); out.Nodes > MaxEvalNodes {
					return CostSet{Constant: math.MaxInt}
				}
			}
		}
	}
	return out
}

// fieldKey identifies a field by its size and its sub-selection's set.
type fieldKey struct {
	size            CostSize
	constant, nodes int
	fields          *CostField
	max             *CostSet
	nFields, nMax   int
}

func keyOf(f CostField) fieldKey {
	k := fieldKey{size: f.Size, constant: f.Sub.Constant, nodes: f.Sub.Nodes, nFields: len(f.Sub.Fields), nMax: len(f.Sub.Max)}
	if len(f.Sub.Fields) > 0 {
		k.fields = &f.Sub.Fields[0]
	}
	if len(f.Sub.Max) > 0 {
		k.max = &f.Sub.Max[0]
	}
	return k
}

func (s *CostSet) hasMax(m CostSet) bool {
	for i := range s.Max {
		if s.Max[i].same(&m) {
			return true
		}
	}
	return false
}

// same reports whether s and o are the one set (copies of it): what a
// fold gives for cousins.
func (s *CostSet) same(o *CostSet) bool {
	return s.Constant == o.Constant && s.Nodes == o.Nodes &&
		len(s.Fields) == len(o.Fields) && len(s.Max) == len(o.Max) &&
		(len(s.Fields) == 0 || &s.Fields[0] == &o.Fields[0]) &&
		(len(s.Max) == 0 || &s.Max[0] == &o.Max[0])
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
