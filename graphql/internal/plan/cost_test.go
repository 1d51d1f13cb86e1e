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
