package exec

import (
	"errors"
	"reflect"

	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file runs batch resolvers (Field.Batch). Before the executor
// completes a list of objects whose selection holds batched fields (or an
// object outside such a list), it opens a batch level: the objects, in the
// order completion will visit them. Each batched field of the level's
// selection is resolved for all of them in one call, and the objects its
// results hold become the next level, if their selection holds batched
// fields too, and so on down. Completion then visits the objects in the
// same order, each taking its index at the level as it enters its
// selection (execSelection), and reads its results there instead of
// calling a resolver. An object finds its level through the item being
// executed around it: the level below the batched field (of that item's
// level) whose value holds it. A level opened for a list outside any
// level is registered by the field and plan for the list's completion.
// Nothing runs on another goroutine.

// A batchLevel is the objects of one selection plan resolved together.
type batchLevel struct {
	sp      *plan.Selection
	parents []reflect.Value
	next    int // index of the next object to enter its selection
	fields  []batchField
}

// A batchField is one batched field of a level: its results, and the
// next level that its results' objects make.
type batchField struct {
	fp   *plan.Field
	args map[string]any
	// vals and errs: each parent's value or error (errs nil: none
	// failed), shared by aliases with the same arguments.
	vals []reflect.Value
	errs []error
	err  error // the call's error, for every parent
	// child: the level of the objects the results hold, when their
	// selection has batched fields; start[i] is the index there of the
	// first object of parent i's result.
	child *batchLevel
	start []int
}

// batchItem is the object whose selection is being executed, as an
// index of its level.
type batchItem struct {
	lvl *batchLevel
	idx int
}

// errBatchMissing is an internal error that cannot happen: a batched
// field whose results the level lacks.
var errBatchMissing = errors.New("graphql: internal error: a batched field was not resolved with its level")

// errBatchResult is the error of a batch call whose middleware returned
// something else than the batch's result.
var errBatchResult = errors.New("graphql: the middleware of a batched field returned a value that is not the batch's result")

// execBatched executes the selection of parent, an object of a selection
// with batched fields and the value (or an item of the value) of field via,
// as an item of its level: the level found for it, or one opened for
// parent alone.
func (e *executor) execBatched(via *plan.Field, sp *plan.Selection, parent reflect.Value) bool {
	lvl := e.levelOf(via, sp)
	if lvl == nil {
		lvl = e.openLevel(sp, []reflect.Value{parent})
		e.register(lvl)
		defer e.closeLevel(lvl)
	}
	saved := e.item
	e.item = batchItem{lvl: lvl, idx: lvl.next}
	lvl.next++
	ok := e.execFields(sp, parent)
	e.item = saved
	return ok
}

// completeBatchedList completes the list v of field fp (of type t) with
// its objects resolved as one level, unless a level of their selection is
// open already (the list is inside a level's results, or inside another
// list of the level).
func (e *executor) completeBatchedList(fp *plan.Field, t *schema.Type, v reflect.Value) (ok, done bool) {
	sp := fp.ChildPlan(&e.cond, &e.dynPlans)
	if sp == nil || !sp.Batched || e.levelOf(fp, sp) != nil {
		return false, false
	}
	lvl := e.openLevel(sp, gatherObjects(t, v, nil))
	e.register(lvl)
	ok = e.completeList(fp, t, v)
	e.closeLevel(lvl)
	return ok, true
}

// levelOf returns the level that objects of sp in the value of field via
// belong to: the one below via in the level of the item being executed,
// else the one registered for sp, else nil.
func (e *executor) levelOf(via *plan.Field, sp *plan.Selection) *batchLevel {
	if it := e.item.lvl; it != nil && via != nil {
		for i := range it.fields {
			bf := &it.fields[i]
			if bf.fp != via {
				continue
			}
			if bf.child != nil && bf.child.sp == sp {
				return bf.child
			}
			if via.Abs != nil {
				if b := e.belows[belowKey{it, via}]; b != nil {
					for _, l := range b.levels {
						if l.sp == sp {
							return l
						}
					}
				}
			}
		}
	}
	return e.batches[sp]
}

// register records lvl, a level opened for a list (or a single object)
// outside any level, until closeLevel. Registrations nest as the
// completions that make them, and a plan has one place in the response,
// below itself nowhere: one plan has one registration at a time.
func (e *executor) register(lvl *batchLevel) {
	if e.batches == nil {
		e.batches = make(map[*plan.Selection]*batchLevel)
	}
	e.batches[lvl.sp] = lvl
}

// gatherObjects appends the objects v holds as a value of type t to out,
// in the order completion visits them, leaving out what it would not
// visit (nulls, and what is not a list where t is one).
func gatherObjects(t *schema.Type, v reflect.Value, out []reflect.Value) []reflect.Value {
	t = t.Nullable()
	dv, null := deref(v)
	if null {
		return out
	}
	switch t.Kind {
	case schema.KindList:
		if dv.Kind() != reflect.Slice && dv.Kind() != reflect.Array {
			return out
		}
		for i := range dv.Len() {
			out = gatherObjects(t.Of, dv.Index(i), out)
		}
	case schema.KindObject, schema.KindInterface, schema.KindUnion:
		out = append(out, dv)
	}
	return out
}

// openLevel resolves the batched fields of sp for parents, and the levels
// below, and registers them.
func (e *executor) openLevel(sp *plan.Selection, parents []reflect.Value) *batchLevel {
	lvl := &batchLevel{sp: sp, parents: parents}
	fields := sp.Fields
	if sp.Conditional {
		fields = sp.ActiveFields(&e.cond)
		if e.cond.Err != nil {
			// execSelection reports it, and executes no field.
			e.cond.Err = nil
			return lvl
		}
	}
	for _, fp := range fields {
		if fp.Kind == plan.KindBatchPath {
			lvl.fields = append(lvl.fields, e.readAhead(lvl, fp, parents))
			continue
		}
		if fp.Kind != plan.KindBatch {
			continue
		}
		bf := batchField{fp: fp}
		args, err := fp.Args, fp.ArgsErr
		if err == nil && fp.DynArgs {
			args, err = coerce.ArgumentValues(fp.Info, fp.ArgNodes, e.cond.Vars)
		}
		bf.args = args
		if err == nil {
			if same := lvl.sameCall(fp, args); same != nil {
				bf.vals, bf.errs, bf.err = same.vals, same.errs, same.err
			} else {
				var out *schema.BatchOut
				out, bf.err = e.callBatch(fp, parents, args)
				if out != nil {
					bf.vals, bf.errs = make([]reflect.Value, len(parents)), out.Errs
					for i := range bf.vals {
						bf.vals[i] = out.Vals.Index(i)
					}
				}
			}
		}
		if err != nil {
			bf.err = err
		}
		e.openBelow(lvl, &bf, len(parents))
		lvl.fields = append(lvl.fields, bf)
	}
	return lvl
}

// readAhead reads fp, a field without resolver, from each of parents, and
// opens the level below.
func (e *executor) readAhead(lvl *batchLevel, fp *plan.Field, parents []reflect.Value) batchField {
	bf := batchField{fp: fp, vals: make([]reflect.Value, len(parents))}
	for i, p := range parents {
		v, err := fp.Info.Read.Read(&e.ctx, p)
		if err != nil {
			if bf.errs == nil {
				bf.errs = make([]error, len(parents))
			}
			bf.errs[i] = err
		}
		bf.vals[i] = v
	}
	e.openBelow(lvl, &bf, len(parents))
	return bf
}

// openBelow opens the level of the objects bf's values hold, when their
// selection has batched fields; bf is a field of lvl.
func (e *executor) openBelow(lvl *batchLevel, bf *batchField, n int) {
	if bf.err != nil {
		return
	}
	if bf.fp.Abs != nil {
		e.openBelowAbstract(lvl, bf, n)
		return
	}
	csp := bf.fp.ChildPlan(&e.cond, &e.dynPlans)
	if csp == nil || !csp.Batched {
		return
	}
	bf.child = e.openLevel(csp, bf.gatherObjects(n))
}

// gatherObjects returns the objects that the values of bf's n parents
// hold, in order, skipping the parents that failed, and notes in bf.start
// where each parent's objects begin.
func (bf *batchField) gatherObjects(n int) []reflect.Value {
	var objs []reflect.Value
	bf.start = make([]int, n)
	for i := range n {
		bf.start[i] = len(objs)
		if bf.errs == nil || bf.errs[i] == nil {
			objs = gatherObjects(bf.fp.Type, bf.vals[i], objs)
		}
	}
	return objs
}

// sameCall returns the batched field of lvl already resolved for the
// same schema field with equal arguments (an alias), or nil.
func (lvl *batchLevel) sameCall(fp *plan.Field, args map[string]any) *batchField {
	for i := range lvl.fields {
		bf := &lvl.fields[i]
		if bf.fp.Kind == plan.KindBatch && bf.fp.Info == fp.Info && bf.err == nil && reflect.DeepEqual(bf.args, args) {
			return bf
		}
	}
	return nil
}

// closeLevel ends the registration of lvl (the levels below it, found
// through it, end with it).
func (e *executor) closeLevel(lvl *batchLevel) {
	delete(e.batches, lvl.sp)
}

// callBatch calls the batch resolver of fp, wrapped in its middleware,
// once for parents.
func (e *executor) callBatch(fp *plan.Field, parents []reflect.Value, args map[string]any) (*schema.BatchOut, error) {
	ctx := e.ctx
	if e.rootCtx != nil && fp.Owner == e.op.Root {
		ctx = e.rootCtx
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	box, ps := e.s.BatchParents(len(parents))
	for i, p := range parents {
		if p.IsValid() && p.CanInterface() {
			ps[i] = p.Interface()
		}
	}
	info := schema.Info{Field: fp, Op: e.pub, Vars: e.cond.Vars, Idx: e.pathIndexes()}
	var res any
	var err error
	if e.tracer != nil {
		tctx := e.s.StartField(e.tracer, ctx, info)
		res, err = invoke(tctx, fp.Info.Resolve, box, args, info)
		e.s.EndField(e.tracer, tctx, info, err)
	} else {
		res, err = invoke(ctx, fp.Info.Resolve, box, args, info)
	}
	if err != nil {
		if PastDeadline(ctx) {
			return nil, errTimedOut
		}
		return nil, fault.BoundedError(err)
	}
	out, ok := res.(*schema.BatchOut)
	if !ok || out == nil || out.Vals.Len() != len(parents) {
		return nil, errBatchResult
	}
	return out, nil
}

// batchResult returns the value of batched field fp for the object being
// executed, and readies the level below for its objects.
func (e *executor) batchResult(fp *plan.Field, parent reflect.Value) (reflect.Value, error) {
	it := e.item
	if it.lvl == nil || it.idx >= len(it.lvl.parents) {
		if fp.Kind == plan.KindBatchPath {
			return fp.Info.Read.Read(&e.ctx, parent)
		}
		return reflect.Value{}, errBatchMissing
	}
	for i := range it.lvl.fields {
		bf := &it.lvl.fields[i]
		if bf.fp != fp {
			continue
		}
		if bf.err != nil {
			return reflect.Value{}, bf.err
		}
		if bf.errs != nil && bf.errs[it.idx] != nil {
			if fp.Kind == plan.KindBatchPath {
				return reflect.Value{}, bf.errs[it.idx]
			}
			err := fault.BoundedError(bf.errs[it.idx])
			if PastDeadline(e.ctx) {
				err = errTimedOut
			}
			return reflect.Value{}, err
		}
		if bf.child != nil {
			bf.child.next = bf.start[it.idx]
		}
		if fp.Abs != nil {
			if b := e.belows[belowKey{it.lvl, fp}]; b != nil {
				e.enterBelow(b, bf, it.idx)
			}
		}
		return bf.vals[it.idx], nil
	}
	if fp.Kind == plan.KindBatchPath {
		return fp.Info.Read.Read(&e.ctx, parent)
	}
	return reflect.Value{}, errBatchMissing
}
