package plan

import "math"

// This file is the cost of an operation (see graphql.Cost) once its plan
// is folded: constants where the variables change nothing, and the fields
// whose size a variable gives, evaluated for each execution without an
// allocation. Package graphql folds its plans into a CostSet.

// CostSet is the cost of a selection set: a constant, for the fields whose
// cost the variables do not change, plus the fields whose cost they do.
type CostSet struct {
	Constant int
	Fields   []CostField
}

// CostField is a field whose cost depends on the variables: Weight plus
// Size × the cost of Sub. A field with Alts is instead the largest cost
// of Alts (Weight, Size and Sub unused): the selection set of a field of
// an interface or union type costs as much as its most costly possible
// object's, an upper bound whichever object its value turns out to be.
type CostField struct {
	Weight int
	Size   CostSize
	Sub    CostSet
	Alts   []CostSet
	// Nodes counts the fields Eval visits for this one, itself included
	// (saturating): what evaluating it costs. Add and MaxOf set it.
	Nodes int
}

// MaxEvalNodes bounds the nodes (CostField.Nodes) of the sets MaxOf
// builds. The cost sets of cousins (the same field of the response
// reached through different objects) are shared, so an operation nesting
// abstract fields n deep folds into n × possible sets, but Eval would walk
// them as a tree of possible^n: past the bound, MaxOf gives a coarser
// upper bound that Eval walks once.
const MaxEvalNodes = 10_000

// Add adds f, a field with a Sub, to s.
func (s *CostSet) Add(f CostField) {
	f.Nodes = AddSat(1, f.Sub.nodes())
	s.Fields = append(s.Fields, f)
}

// nodes counts the fields Eval visits for s.
func (s *CostSet) nodes() int {
	n := 0
	for i := range s.Fields {
		n = AddSat(n, s.Fields[i].Nodes)
	}
	return n
}

// IsConstant reports whether s costs the same under any variables.
func (s *CostSet) IsConstant() bool { return len(s.Fields) == 0 }

// MaxOf returns the cost set of the most costly of alts: a constant when
// each of them is one. When evaluating the largest of them would visit
// more than MaxEvalNodes, it returns a coarser upper bound instead: the
// largest constant plus the variable fields of all of them, each field
// that several share (the same size and the same sub-selection's or
// alternatives' sets) counted once, with its largest weight; the most an
// int holds when even that is too large.
func MaxOf(alts []CostSet) CostSet {
	most, nodes, constant := 0, 1, true
	for i := range alts {
		constant = constant && alts[i].IsConstant()
		most = max(most, alts[i].Constant)
		nodes = AddSat(nodes, alts[i].nodes())
	}
	switch {
	case constant:
		return CostSet{Constant: most}
	case nodes <= MaxEvalNodes:
		return CostSet{Fields: []CostField{{Alts: alts, Nodes: nodes}}}
	}
	out := CostSet{Constant: most}
	total := 0
	// The fields of out by key. An alternative's n-th field of a key
	// matches the n-th of out: two equal fields of one alternative both
	// count.
	byKey := map[fieldKey][]int{}
	seen := map[fieldKey]int{} // the current alternative's fields, by key
	for i := range alts {
		clear(seen)
		for _, f := range alts[i].Fields {
			k := keyOf(&f)
			n := seen[k]
			seen[k] = n + 1
			if at := byKey[k]; n < len(at) {
				out.Fields[at[n]].Weight = max(out.Fields[at[n]].Weight, f.Weight)
				continue
			}
			byKey[k] = append(byKey[k], len(out.Fields))
			out.Fields = append(out.Fields, f)
			if total = AddSat(total, f.Nodes); total > MaxEvalNodes {
				return CostSet{Constant: math.MaxInt}
			}
		}
	}
	return out
}

// fieldKey identifies a field by its size and the sets below it.
type fieldKey struct {
	size            CostSize
	constant, nodes int
	fields          *CostField
	alts            *CostSet
	nFields, nAlts  int
}

func keyOf(f *CostField) fieldKey {
	k := fieldKey{size: f.Size, constant: f.Sub.Constant, nodes: f.Nodes, nFields: len(f.Sub.Fields), nAlts: len(f.Alts)}
	if len(f.Sub.Fields) > 0 {
		k.fields = &f.Sub.Fields[0]
	}
	if len(f.Alts) > 0 {
		k.alts = &f.Alts[0]
	}
	return k
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
		if f.Alts != nil {
			most := 0
			for j := range f.Alts {
				most = max(most, f.Alts[j].Eval(vars, depth)) // a field's Sub: its depth counted
			}
			total = AddSat(total, most)
			continue
		}
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
