package plan

import (
	"math"
	"testing"
)

// TestCostDeeperThanBound: a cost tree deeper than the bound (only built
// by hand: Prepare refuses such operations) costs the most an int holds.
func TestCostDeeperThanBound(t *testing.T) {
	deep := CostSet{}
	for range MaxCostDepth + 2 {
		deep = CostSet{Fields: []CostField{{Weight: 1, Size: CostSize{Variable: "n", Fallback: 1}, Sub: deep}}}
	}
	if got := deep.Eval(nil, 0); got != math.MaxInt {
		t.Errorf("a tree deeper than the bound costs %d, want math.MaxInt", got)
	}
}

// TestCostMaxOf: the selection of an abstract field costs as much as its
// most costly alternative, folded to a constant when every alternative is
// one, evaluated under the variables otherwise.
func TestCostMaxOf(t *testing.T) {
	if got := MaxOf([]CostSet{{Constant: 3}, {Constant: 7}, {}}); !got.IsConstant() || got.Constant != 7 {
		t.Errorf("MaxOf of constants = %+v, want the constant 7", got)
	}
	var byVar CostSet
	byVar.Add(CostField{Weight: 1, Size: CostSize{Variable: "n", Fallback: 2}, Sub: CostSet{Constant: 1}})
	set := MaxOf([]CostSet{{Constant: 5}, byVar})
	set.Constant = 1
	for _, tc := range []struct {
		vars map[string]any
		want int
	}{
		{nil, 1 + 5},                      // byVar: 1 + 2×1 = 3 < 5
		{map[string]any{"n": 10}, 1 + 11}, // byVar: 1 + 10×1 = 11 > 5
		{map[string]any{"n": 0}, 1 + 5},
	} {
		if got := set.Eval(tc.vars, 0); got != tc.want {
			t.Errorf("Eval(%v) = %d, want %d", tc.vars, got, tc.want)
		}
	}
	sat := MaxOf([]CostSet{byVar})
	sat.Constant = math.MaxInt - 1
	if got := sat.Eval(map[string]any{"n": 5}, 0); got != math.MaxInt {
		t.Errorf("a saturating sum = %d, want math.MaxInt", got)
	}
}

// TestCostMaxOfShared: alternatives that share their variable fields (the
// cousins of an operation nesting abstract fields) are not walked as a
// tree past MaxEvalNodes: MaxOf merges them into an upper bound that is
// exact when they differ only in their constants.
func TestCostMaxOfShared(t *testing.T) {
	level := CostSet{Constant: 1}
	for depth := range 12 {
		alts := make([]CostSet, 10)
		for i := range alts {
			alts[i] = CostSet{Constant: i}
			alts[i].Add(CostField{Weight: 1, Size: CostSize{Variable: "n", Fallback: 1}, Sub: level})
		}
		level = MaxOf(alts)
		if n := level.nodes(); n > MaxEvalNodes {
			t.Fatalf("depth %d: %d nodes", depth, n)
		}
	}
	// Each level costs 9 + 1 + n × (the level below), the last 1.
	want := 1
	for range 12 {
		want = 9 + 1 + 2*want
	}
	if got := level.Eval(map[string]any{"n": 2}, 0); got != want {
		t.Errorf("Eval = %d, want %d", got, want)
	}
	// Alternatives with different variable fields, past the bound, are
	// summed: an upper bound.
	big := CostSet{Constant: 3}
	for range MaxEvalNodes / 2 {
		big.Add(CostField{Weight: 1, Size: CostSize{Variable: "n", Fallback: 1}, Sub: CostSet{Constant: 1}})
	}
	other := CostSet{Constant: 5}
	other.Add(CostField{Weight: 1, Size: CostSize{Variable: "m", Fallback: 1}, Sub: CostSet{Constant: 1}})
	merged := MaxOf([]CostSet{big, other, big})
	vars := map[string]any{"n": 1, "m": 1}
	if got, exact := merged.Eval(vars, 0), max(big.Eval(vars, 0), other.Eval(vars, 0)); got < exact {
		t.Errorf("merged cost %d is below the exact %d", got, exact)
	}
}
