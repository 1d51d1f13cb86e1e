package graphql

import (
	"sort"

	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/vektah/gqlparser/v2/ast"
)

// This file is what a plan selects under @skip and @include directives
// whose condition is a variable: the occurrences of a field that count in
// one execution, and the sub-plans such fields get.

// counted returns the occurrences of fp that count under the executor's
// variables, as a bitmask (bit i for occurrence i). It is only used for
// fields with at most 64 occurrences.
func (fp *fieldPlan) counted(c *plan.Conditions) (mask uint64) {
	for i, o := range fp.occ {
		if ok, _ := o.Counts(c); ok {
			mask |= 1 << i
		}
	}
	return mask
}

// childPlan returns the plan of fp's sub-selection (nil for a leaf).
//
// A conditional field's is planned from the occurrences that count. Which
// ones count depends only on the variables, so one plan serves a whole
// execution (kept in *perExec when perExec is not nil). Across executions,
// plans are kept by the set of occurrences that count (a bitmask, for
// fields with at most 64 occurrences), up to maxDynPlans per field.
func (fp *fieldPlan) childPlan(c *plan.Conditions, perExec *map[*fieldPlan]*selectionPlan) *selectionPlan {
	if fp.child != nil || !fp.dynamic {
		return fp.child
	}
	if perExec != nil {
		if sp, ok := (*perExec)[fp]; ok {
			return sp
		}
	}
	obj := objectOf(fp.typ)
	if obj == nil {
		return nil
	}
	sp, kept := fp.dynamicPlan(c, obj)
	if kept {
		return sp
	}
	if perExec != nil {
		if *perExec == nil {
			*perExec = make(map[*fieldPlan]*selectionPlan)
		}
		(*perExec)[fp] = sp
	}
	return sp
}

// dynamicPlan plans the sub-selection of fp, a conditional object field,
// for obj from the occurrences that count under c, or finds it in fp's
// cache, where plans are kept by the occurrences that count (a bitmask)
// for fields with at most 64 occurrences, up to maxDynPlans. kept reports
// whether the plan is in the cache.
func (fp *fieldPlan) dynamicPlan(c *plan.Conditions, obj *objectInfo) (sp *selectionPlan, kept bool) {
	cacheable := len(fp.occ) <= 64
	var mask uint64
	if cacheable {
		mask = fp.counted(c)
		if v, ok := fp.dynCache.Load(mask); ok {
			return v.(*selectionPlan), true
		}
	}
	sp = fp.planner.plan(obj, fp.countingFields(c), fp)
	if cacheable && fp.dynCount.Load() < maxDynPlans {
		if _, loaded := fp.dynCache.LoadOrStore(mask, sp); !loaded {
			fp.dynCount.Add(1)
		}
		return sp, true
	}
	return sp, false
}

// countingFields returns the nodes of the occurrences of fp that count
// under the conditions.
func (fp *fieldPlan) countingFields(c *plan.Conditions) []*ast.Field {
	fields := make([]*ast.Field, 0, len(fp.occ))
	for _, o := range fp.occ {
		if ok, _ := o.Counts(c); ok {
			fields = append(fields, o.Field)
		}
	}
	return fields
}

// activeFields returns the fields of a conditional plan that count under
// the executor's variables, in the order graphql-js would collect them.
func (sp *selectionPlan) activeFields(c *plan.Conditions) []*fieldPlan {
	type keyed struct {
		fp  *fieldPlan
		seq int
	}
	out := make([]keyed, 0, len(sp.fields))
	for _, fp := range sp.fields {
		first := -1
		for _, o := range fp.occ {
			if ok, seq := o.Counts(c); ok && (first < 0 || seq < first) {
				first = seq
			}
		}
		if first >= 0 {
			out = append(out, keyed{fp, first})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	fps := make([]*fieldPlan, len(out))
	for i, k := range out {
		fps[i] = k.fp
	}
	return fps
}

func (sp *selectionPlan) selectedNames(c *plan.Conditions) []string {
	build := func(fields []*fieldPlan) []string {
		seen := map[string]bool{}
		names := []string{}
		for _, fp := range fields {
			if fp.kind == kindTypename || fp.info == nil {
				continue
			}
			if !seen[fp.info.Name] {
				seen[fp.info.Name] = true
				names = append(names, fp.info.Name)
			}
		}
		return names
	}
	if sp.conditional {
		return build(sp.activeFields(c))
	}
	sp.namesOnce.Do(func() { sp.names = build(sp.fields) })
	return append([]string(nil), sp.names...)
}

func (sp *selectionPlan) findField(c *plan.Conditions, name string) *fieldPlan {
	fields := sp.fields
	if sp.conditional {
		fields = sp.activeFields(c)
	}
	for _, fp := range fields {
		if fp.info != nil && fp.kind.isField() && fp.info.Name == name {
			return fp
		}
	}
	return nil
}
