package exec

import (
	"reflect"

	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file keeps a list's batch levels and found objects in step with its
// values when completion stops the list early. Before a list of objects
// (or of an interface or union) is completed, the objects its values hold
// are gathered, in the order completion visits them: the batch level of
// their plan, and for an abstract type the object found for each value,
// hold them at consecutive indexes, which completion takes in turn
// (batchLevel.next, resolvedObjects.next). An inner list whose completion
// stops at a failed item (null in a non-null position, or an error that
// bubbles up to it) leaves the items after it unvisited; the objects they
// hold are passed over here, so that the next inner list's values take
// their own indexes, not those of the values skipped.

// skipItems passes over the objects that items from..len-1 of v, the
// value of list type x of field fp, hold: completion stopped before them.
func (e *executor) skipItems(fp *plan.Field, x *schema.Type, v reflect.Value, from int) {
	for i := from; i < v.Len(); i++ {
		e.skipValue(fp, x.Of, v.Index(i))
	}
}

// skipValue passes over the objects v, a value of type t of field fp,
// holds, in the order gatherObjects gathered them.
func (e *executor) skipValue(fp *plan.Field, t *schema.Type, v reflect.Value) {
	t = t.Nullable()
	dv, null := deref(v)
	if null {
		return
	}
	switch t.Kind {
	case schema.KindList:
		if dv.Kind() == reflect.Slice || dv.Kind() == reflect.Array {
			e.skipItems(fp, t, dv, 0)
		}
	case schema.KindObject:
		if sp := fp.ChildPlan(&e.cond, &e.dynPlans); sp != nil && sp.Batched {
			e.skipLevelItem(fp, sp)
		}
	case schema.KindInterface, schema.KindUnion:
		pre := &e.resolved
		if pre.fp != fp || pre.next >= len(pre.objs) {
			return
		}
		i, err := pre.objs[pre.next], pre.errs[pre.next]
		pre.next++
		if err != nil {
			return // not in any level
		}
		if sp := fp.ObjectPlan(i, &e.cond, &e.objPlans); sp != nil && sp.Batched {
			e.skipLevelItem(fp, sp)
		}
	}
}

// skipLevelItem passes over the next object of the level that objects of
// sp in the value of fp belong to, if there is one (otherwise each object
// has a level of its own: nothing to pass over).
func (e *executor) skipLevelItem(fp *plan.Field, sp *plan.Selection) {
	if lvl := e.levelOf(fp, sp); lvl != nil {
		lvl.next++
	}
}
