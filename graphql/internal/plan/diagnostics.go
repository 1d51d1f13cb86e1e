package plan

import "sync/atomic"

// This file shows tests what an operation's planning kept: they hold the
// bounds on sharing and on late planning to numbers.

// Folded returns the operation's cost folded once: its constant part and
// the fields whose size a variable gives.
func (op *Operation) Folded() CostSet {
	op.costs.once.Do(op.foldCost)
	return op.costs.root
}

// Kept reports how many per-object plans the operation's planner keeps
// for sharing between cousins, and how many field plans it made after
// Prepare (for conditional fields).
func (op *Operation) Kept() (shared, late int) {
	if op.planner == nil || op.planner.prep == nil {
		return 0, 0
	}
	return len(op.planner.prep.shared), op.planner.prep.late
}

// KeptObjectPlans returns the slots of fp's per-object plans kept under
// the conditions c (see ObjectPlan).
func (fp *Field) KeptObjectPlans(c *Conditions) []atomic.Pointer[Selection] {
	return fp.objectPlanSet(c)
}

// DynamicPlans reports how many sub-selection plans fp keeps for
// combinations of @skip and @include outcomes, as counted and as held;
// both are at most MaxDynPlans.
func (fp *Field) DynamicPlans() (counted, held int) {
	fp.dynCache.Range(func(any, any) bool { held++; return true })
	return int(fp.dynCount.Load()), held
}
