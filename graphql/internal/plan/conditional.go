package plan

import (
	"sort"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

// This file is what a plan selects under @skip and @include directives
// whose condition is a variable: the occurrences of a field that count in
// one execution, and the sub-plans such fields get.

// counted returns the occurrences of fp that count under the executor's
// variables, as a bitmask (bit i for occurrence i). It is only used for
// fields with at most 64 occurrences.
func (fp *Field) counted(c *Conditions) (mask uint64) {
	for i, o := range fp.Occ {
		if ok, _ := o.Counts(c); ok {
			mask |= 1 << i
		}
	}
	return mask
}

// ChildPlan returns the plan of fp's sub-selection (nil for a leaf).
//
// A conditional field's is planned from the occurrences that count. Which
// ones count depends only on the variables, so one plan serves a whole
// execution (kept in *perExec when perExec is not nil). Across executions,
// plans are kept by the set of occurrences that count (a bitmask, for
// fields with at most 64 occurrences), up to MaxDynPlans per field.
func (fp *Field) ChildPlan(c *Conditions, perExec *map[*Field]*Selection) *Selection {
	if fp.Child != nil || !fp.Dynamic {
		return fp.Child
	}
	if perExec != nil {
		if sp, ok := (*perExec)[fp]; ok {
			return sp
		}
	}
	obj := ObjectOf(fp.Type)
	if obj == nil {
		return nil
	}
	sp, kept := fp.dynamicPlan(c, obj)
	if kept {
		return sp
	}
	if perExec != nil {
		if *perExec == nil {
			*perExec = make(map[*Field]*Selection)
		}
		(*perExec)[fp] = sp
	}
	return sp
}

// dynamicPlan plans the sub-selection of fp, a conditional object field,
// for obj from the occurrences that count under c, or finds it in fp's
// cache, where plans are kept by the occurrences that count (a bitmask)
// for fields with at most 64 occurrences, up to MaxDynPlans. kept reports
// whether the plan is in the cache.
func (fp *Field) dynamicPlan(c *Conditions, obj *schema.Object) (sp *Selection, kept bool) {
	cacheable := len(fp.Occ) <= 64
	var mask uint64
	if cacheable {
		mask = fp.counted(c)
		if v, ok := fp.dynCache.Load(mask); ok {
			return v.(*Selection), true
		}
	}
	sp = fp.planner.plan(obj, fp.countingFields(c), fp)
	if cacheable && fp.dynCount.Load() < MaxDynPlans {
		if _, loaded := fp.dynCache.LoadOrStore(mask, sp); !loaded {
			fp.dynCount.Add(1)
		}
		return sp, true
	}
	return sp, false
}

// countingFields returns the nodes of the occurrences of fp that count
// under the conditions.
func (fp *Field) countingFields(c *Conditions) []*ast.Field {
	fields := make([]*ast.Field, 0, len(fp.Occ))
	for _, o := range fp.Occ {
		if ok, _ := o.Counts(c); ok {
			fields = append(fields, o.Field)
		}
	}
	return fields
}

// ActiveFields returns the fields of a conditional plan that count under
// the executor's variables, in the order graphql-js would collect them.
func (sp *Selection) ActiveFields(c *Conditions) []*Field {
	type keyed struct {
		fp  *Field
		seq int
	}
	out := make([]keyed, 0, len(sp.Fields))
	for _, fp := range sp.Fields {
		first := -1
		for _, o := range fp.Occ {
			if ok, seq := o.Counts(c); ok && (first < 0 || seq < first) {
				first = seq
			}
		}
		if first >= 0 {
			out = append(out, keyed{fp, first})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	fps := make([]*Field, len(out))
	for i, k := range out {
		fps[i] = k.fp
	}
	return fps
}

// SelectedNames returns the names of sp's fields that count under c, in
// selection order and without duplicates, __typename left out.
func (sp *Selection) SelectedNames(c *Conditions) []string {
	build := func(fields []*Field) []string {
		seen := map[string]bool{}
		names := []string{}
		for _, fp := range fields {
			if fp.Kind == KindTypename || fp.Info == nil {
				continue
			}
			if !seen[fp.Info.Name] {
				seen[fp.Info.Name] = true
				names = append(names, fp.Info.Name)
			}
		}
		return names
	}
	if sp.Conditional {
		return build(sp.ActiveFields(c))
	}
	sp.namesOnce.Do(func() { sp.names = build(sp.Fields) })
	return append([]string(nil), sp.names...)
}

// FindField returns the first of sp's fields that count under c whose
// schema field is called name (an alias does not count), nil when there
// is none.
func (sp *Selection) FindField(c *Conditions, name string) *Field {
	fields := sp.Fields
	if sp.Conditional {
		fields = sp.ActiveFields(c)
	}
	for _, fp := range fields {
		if fp.Info != nil && fp.Kind.IsField() && fp.Info.Name == name {
			return fp
		}
	}
	return nil
}
