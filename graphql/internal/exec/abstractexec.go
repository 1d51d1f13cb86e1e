package exec

import (
	"context"
	"fmt"
	"reflect"

	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file completes values of interface and union types: it finds the
// object of each value, in the order graphql.ResolveTypeFunc documents, and
// executes the field's sub-selection as planned for that object
// (package plan, abstract.go). A value whose object cannot be found is a field
// error, masked as an internal error, at the field's path.

// completeAbstract writes v, a value of fp's interface or union type,
// as its object.
func (e *executor) completeAbstract(fp *plan.Field, v reflect.Value) bool {
	if fp.Abs == nil {
		e.fieldError(fp, errNoPlan)
		return false
	}
	var i int
	var err error
	if pre := &e.resolved; pre.fp == fp && pre.next < len(pre.objs) {
		i, err = pre.objs[pre.next], pre.errs[pre.next]
		pre.next++
	} else {
		i, err = e.resolveObject(fp, v)
	}
	if err != nil {
		e.fieldError(fp, err)
		return false
	}
	sp := fp.ObjectPlan(i, &e.cond, &e.objPlans)
	if sp == nil {
		e.fieldError(fp, errNoPlan)
		return false
	}
	return e.execSelection(fp, sp, v)
}

// resolveObject returns the index, among the possible objects of fp's
// abstract type, of v's object: the first of these rules that applies
// decides (see graphql.ResolveTypeFunc).
func (e *executor) resolveObject(fp *plan.Field, v reflect.Value) (int, error) {
	ai := fp.Abs.Info
	// 1. The abstract type's ResolveType.
	if ai.ResolveType != nil {
		value := interfaceOf(v)
		ctx := e.ctx
		if e.rootCtx != nil && fp.Owner == e.op.Root {
			ctx = e.rootCtx
		}
		name, err := callResolveType(ctx, ai.ResolveType, value)
		if err != nil {
			return -1, &resolveTypeError{abstract: ai.Name, coord: fieldCoord(fp), err: err}
		}
		return namedObject(ai, name, fp)
	}
	// 2. The Go type NewSchema learned for one possible object.
	if v.IsValid() {
		if o, ok := ai.ByGoType[v.Type()]; ok {
			if o == nil {
				return -1, fmt.Errorf("graphql: the Go type %s of a value of abstract type %q for field %q stands for several of its possible types: give %q a ResolveType",
					v.Type(), ai.Name, fieldCoord(fp), ai.Name)
			}
			if i := ai.IndexOf(o); i >= 0 {
				return i, nil
			}
		}
	}
	// 3. A map's "__typename". (The value is made an interface only now:
	// that copies a struct that is not behind a pointer.)
	value := interfaceOf(v)
	if name, ok := mapTypename(v, value); ok {
		return namedObject(ai, name, fp)
	}
	// 4. The possible objects' IsTypeOf, in order.
	for i, o := range ai.Possible {
		if o.IsTypeOf == nil {
			continue
		}
		is, err := callIsTypeOf(o.IsTypeOf, value)
		if err != nil {
			return -1, &resolveTypeError{abstract: ai.Name, coord: fieldCoord(fp), object: o.Name, err: err}
		}
		if is {
			return i, nil
		}
	}
	return -1, fmt.Errorf("graphql: abstract type %q must resolve to an object type at runtime for field %q: the value of Go type %s has no ResolveType, learned Go type, __typename or IsTypeOf that names one of its possible types",
		ai.Name, fieldCoord(fp), goTypeName(v))
}

// interfaceOf returns v as an interface, nil when it cannot be one.
func interfaceOf(v reflect.Value) any {
	if v.IsValid() && v.CanInterface() {
		return v.Interface()
	}
	return nil
}

// namedObject returns the index of the possible object called name.
func namedObject(ai *schema.Abstract, name string, fp *plan.Field) (int, error) {
	if o := ai.ByName[name]; o != nil {
		if i := ai.IndexOf(o); i >= 0 {
			return i, nil
		}
	}
	return -1, fmt.Errorf("graphql: abstract type %q was resolved to %q for field %q, which is not one of its possible types",
		ai.Name, name, fieldCoord(fp))
}

// mapTypename returns the "__typename" entry of v when v is a map with
// string keys and the entry is a string.
func mapTypename(v reflect.Value, value any) (string, bool) {
	if m, ok := value.(map[string]any); ok {
		name, ok := m["__typename"].(string)
		return name, ok
	}
	if !v.IsValid() || v.Kind() != reflect.Map || v.Type().Key().Kind() != reflect.String {
		return "", false
	}
	entry := v.MapIndex(reflect.ValueOf("__typename").Convert(v.Type().Key()))
	for entry.IsValid() && entry.Kind() == reflect.Interface && !entry.IsNil() {
		entry = entry.Elem()
	}
	if !entry.IsValid() || entry.Kind() != reflect.String {
		return "", false
	}
	return entry.String(), true
}

// callResolveType calls a ResolveType, turning its panic into an error.
func callResolveType(ctx context.Context, resolve func(context.Context, any) (string, error), value any) (name string, err error) {
	defer func() {
		if r := recover(); r != nil {
			name, err = "", fault.Recovered(r)
		}
	}()
	return resolve(ctx, value)
}

// callIsTypeOf calls an IsTypeOf, turning its panic into an error.
func callIsTypeOf(isTypeOf func(any) bool, value any) (is bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			is, err = false, fault.Recovered(r)
		}
	}()
	return isTypeOf(value), nil
}

// resolveTypeError is the error of a ResolveType or IsTypeOf: it keeps
// the function's error (for logs) without letting its code or message
// through, so that it is masked as an internal error whatever it is.
type resolveTypeError struct {
	abstract, coord, object string
	err                     error
}

func (e *resolveTypeError) Error() string {
	if e.object != "" {
		return fmt.Sprintf("graphql: IsTypeOf of %q, for abstract type %q at field %q: %s", e.object, e.abstract, e.coord, fault.ErrorText(e.err))
	}
	return fmt.Sprintf("graphql: ResolveType of %q at field %q: %s", e.abstract, e.coord, fault.ErrorText(e.err))
}

func fieldCoord(fp *plan.Field) string {
	if fp.Info == nil {
		return fp.Key
	}
	return fp.Info.Coord
}

func goTypeName(v reflect.Value) string {
	if !v.IsValid() {
		return "<nil>"
	}
	return v.Type().String()
}

// resolvedObjects are the objects of the values of a list of an abstract
// type, found before the list is completed (completeAbstractList), in the
// order completion visits them: completeAbstract takes them in turn
// instead of finding them again.
type resolvedObjects struct {
	fp   *plan.Field
	objs []int
	errs []error
	next int
}

// completeAbstractList completes v, the list of fp (of type t), a list of
// an abstract type some of whose possible objects have batched fields:
// it finds the object of every value first, then opens one batch level
// for each object's plan with the values of that object, in list order,
// so that a batched field is called once for all the values of its
// object, and then completes the list.
func (e *executor) completeAbstractList(fp *plan.Field, t *schema.Type, v reflect.Value) bool {
	values := gatherObjects(t, v, nil)
	pre := resolvedObjects{fp: fp, objs: make([]int, len(values)), errs: make([]error, len(values))}
	byObj := make([][]reflect.Value, len(fp.Abs.Info.Possible))
	for k, val := range values {
		i, err := e.resolveObject(fp, val)
		pre.objs[k], pre.errs[k] = i, err
		if err == nil {
			byObj[i] = append(byObj[i], val)
		}
	}
	var opened []*batchLevel
	for i, parents := range byObj {
		if len(parents) == 0 {
			continue
		}
		sp := fp.ObjectPlan(i, &e.cond, &e.objPlans)
		if sp == nil || !sp.Batched || e.levelOf(fp, sp) != nil {
			continue
		}
		lvl := e.openLevel(sp, parents)
		e.register(lvl)
		opened = append(opened, lvl)
	}
	saved := e.resolved
	e.resolved = pre
	ok := e.completeList(fp, t, v)
	e.resolved = saved
	for _, lvl := range opened {
		e.closeLevel(lvl)
	}
	return ok
}

// abstractBelow is what a level keeps for a batched field of an abstract
// type (or a field read ahead), whose values' objects have batched
// fields: the object found for each value, in the order completion visits
// them (the values of parent i from batchField.start[i]), and one level
// for each object's plan with batched fields, holding that object's
// values of every parent (those of parent i from starts[k][i]).
type abstractBelow struct {
	objs   []int
	errs   []error
	levels []*batchLevel
	starts [][]int
}

// openBelowAbstract opens the levels of the objects that bf's values
// hold, bf being a field of lvl of an abstract type, for each possible
// object whose plan has batched fields. Each value's object is found
// here, once: completion takes it from below.objs.
func (e *executor) openBelowAbstract(lvl *batchLevel, bf *batchField, n int) {
	fp := bf.fp
	if !fp.Abs.Batched() {
		return
	}
	vals := bf.gatherObjects(n)
	below := &abstractBelow{objs: make([]int, len(vals)), errs: make([]error, len(vals))}
	slot := make([]int, len(fp.Abs.Info.Possible)) // 1 + the object's level, 0: none yet, -1: not batched
	var plans []*plan.Selection
	for k, v := range vals {
		j, err := e.resolveObject(fp, v)
		below.objs[k], below.errs[k] = j, err
		if err != nil || slot[j] != 0 {
			continue
		}
		slot[j] = -1
		if sp := fp.ObjectPlan(j, &e.cond, &e.objPlans); sp != nil && sp.Batched {
			plans = append(plans, sp)
			slot[j] = len(plans)
		}
	}
	if e.belows == nil {
		e.belows = make(map[belowKey]*abstractBelow)
	}
	e.belows[belowKey{lvl, fp}] = below
	if len(plans) == 0 {
		return
	}
	parents := make([][]reflect.Value, len(plans))
	below.starts = make([][]int, len(plans))
	for s := range plans {
		below.starts[s] = make([]int, n)
	}
	for i := range n {
		end := len(vals)
		if i+1 < n {
			end = bf.start[i+1]
		}
		for s := range plans {
			below.starts[s][i] = len(parents[s])
		}
		for k := bf.start[i]; k < end; k++ {
			if below.errs[k] == nil && slot[below.objs[k]] > 0 {
				s := slot[below.objs[k]] - 1
				parents[s] = append(parents[s], vals[k])
			}
		}
	}
	below.levels = make([]*batchLevel, len(plans))
	for s, sp := range plans {
		below.levels[s] = e.openLevel(sp, parents[s])
	}
}

// belowKey finds the abstractBelow of a batched field of an abstract type
// in a level.
type belowKey struct {
	lvl *batchLevel
	fp  *plan.Field
}

// enterBelow readies the completion of the value of bf, a field of an
// abstract type, for parent idx of its level: the objects found for its
// values, and each object's level at the parent's first value.
func (e *executor) enterBelow(b *abstractBelow, bf *batchField, idx int) {
	e.resolved = resolvedObjects{fp: bf.fp, objs: b.objs, errs: b.errs, next: bf.start[idx]}
	for s, lvl := range b.levels {
		lvl.next = b.starts[s][idx]
	}
}

// execAbstractBatched executes fp, a batched field (or one read ahead)
// of an abstract type: its value taken from its level, completed with
// the objects found for the level (see enterBelow).
func (e *executor) execAbstractBatched(fp *plan.Field, parent reflect.Value) bool {
	saved := e.resolved
	e.resolved = resolvedObjects{}
	v, err := e.batchResult(fp, parent)
	ok := true
	if err != nil {
		e.fieldError(fp, err)
		if fp.Type.Kind == schema.KindNonNull {
			ok = false
		} else {
			e.buf = append(e.buf, "null"...)
		}
	} else {
		ok = e.complete(fp, fp.Type, v)
	}
	e.resolved = saved
	return ok
}
