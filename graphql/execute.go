package graphql

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"unsafe"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/exec"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/scalar"
)

type executor struct {
	ctx context.Context
	// rootCtx, when set, is the context of the root fields: those of a
	// mutation under a deadline, which ctx carries and they ignore.
	rootCtx context.Context
	// tracer sees the fields that run a resolver, and the others too
	// when traceAll.
	tracer   Tracer
	traceAll bool
	s        *Schema
	op       *Operation
	buf      []byte
	errs     gqlerror.List
	path     []exec.PathSeg
	cond     plan.Conditions // the variables' @skip/@include, and the first null one
	// done: ctx ended and one field error saying so has been reported;
	// the resolvers left are not called, and report nothing more.
	done bool
	// dynPlans: sub-selection plans of conditional fields made for this
	// execution only (see fieldPlan.dynamicChild).
	dynPlans map[*fieldPlan]*selectionPlan
	// The data's bounds, as lengths of buf: maxEnd is the hard one
	// (ExecParams.MaxResponseBytes, maxBytes past start; 0: none), roomEnd
	// the room granted so far (math.MaxInt: none), which room, when set,
	// is asked to grow (see outgrown). Kept precomputed: the check runs
	// for every value written.
	maxEnd, maxBytes int
	roomEnd, start   int
	room             Room
	// stopped: the data outgrew its bound (tooLarge, with the error at
	// limitErr in errs), room refused to grow (roomErr), or did not
	// grant it before the deadline (the TIMEOUT error in errs);
	// execution stops, and its result is one of these.
	stopped  bool
	tooLarge bool
	limitErr int
	roomErr  error
	// batches: the open levels of batched fields, by selection plan;
	// item: the object being executed as an item of one (batchexec.go).
	batches map[*selectionPlan]*batchLevel
	item    batchItem
}

// executors recycles executors (and their path stacks) between requests.
var executors = sync.Pool{New: func() any { return &executor{path: make([]exec.PathSeg, 0, 16)} }}

// release returns e to the pool, keeping its path stack unless it grew
// large.
func (e *executor) release() {
	path := e.path[:0]
	if cap(path) > 256 {
		path = nil
	}
	*e = executor{path: path}
	executors.Put(e)
}

// overLimit reports whether execution must stop because the data has
// outgrown its bound, asking for more room when it has only outgrown the
// room granted so far.
func (e *executor) overLimit() bool {
	if e.stopped {
		return true
	}
	if len(e.buf) <= e.roomEnd {
		return false
	}
	return e.outgrown(len(e.buf))
}

// outgrown handles data that has grown, or is about to grow, to end
// bytes of buf, past its room: past MaxResponseBytes, it records the one
// RESPONSE_TOO_LARGE error; otherwise it asks ExecParams.Room for more
// room, and a refusal stops the execution with the Room's error, or with
// the TIMEOUT error when the deadline has passed. It reports whether
// execution stops. The hot paths call it only once end is past roomEnd.
func (e *executor) outgrown(end int) bool {
	if e.maxEnd != 0 && end > e.maxEnd {
		e.stopped, e.tooLarge, e.limitErr = true, true, len(e.errs)
		e.errs = append(e.errs, responseTooLarge(e.maxBytes))
		return true
	}
	if e.room == nil { // an executor{} that execute did not set up: no bound
		e.roomEnd = math.MaxInt
		return false
	}
	need := end - e.start
	room, err := e.room.Grow(e.ctx, need)
	if err == nil && room < need {
		err = fmt.Errorf("%w: %d bytes granted to data of %d", ErrShortRoom, room, need)
	}
	if err != nil {
		e.stopped = true
		if pastDeadline(e.ctx) {
			// The deadline came first: its answer, not the Room's.
			e.timedOut(nil)
		} else {
			e.roomErr = err
		}
		return true
	}
	e.roomEnd = e.start + room
	if e.maxEnd != 0 {
		e.roomEnd = min(e.roomEnd, e.maxEnd)
	}
	return false
}

// timedOut records the one TIMEOUT error, at the current path and locs,
// unless it is recorded already.
func (e *executor) timedOut(locs []gqlerror.Location) {
	if e.done {
		return
	}
	e.done = true
	e.errs = append(e.errs, timeoutError(e.astPath(), locs))
}

// timeoutError is the one error of an execution past its deadline.
func timeoutError(path ast.Path, locs []gqlerror.Location) *gqlerror.Error {
	return &gqlerror.Error{Message: MessageTimeout, Path: path, Locations: locs,
		Extensions: map[string]any{"code": errcode.CodeTimeout}}
}

// pastDeadline reports whether ctx, an execution's, ended because its
// deadline (ExecParams.Deadline) passed.
func pastDeadline(ctx context.Context) bool {
	return ctx.Err() != nil && context.Cause(ctx) == errTimeout
}

// responseTooLarge is the one error of data past max bytes: clients see
// its message and code, and Err wraps ErrResponseTooLarge.
func responseTooLarge(max int) *gqlerror.Error {
	msg := fmt.Sprintf("The response is larger than the limit of %d bytes.", max)
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": errcode.CodeResponseTooLarge},
		Err: &errcode.Error{Code: errcode.CodeResponseTooLarge, Message: msg, Err: ErrResponseTooLarge}}
}

func (e *executor) astPath() ast.Path { return exec.ASTPath(e.path) }

func (e *executor) fieldError(fp *fieldPlan, err error) {
	if ctxErr := e.ctx.Err(); ctxErr != nil && (err == errTimedOut || errors.Is(err, ctxErr)) {
		if e.done {
			return // reported once
		}
		if context.Cause(e.ctx) == errTimeout {
			e.timedOut(fp.locs)
			return
		}
		e.done = true
	}
	ge := &gqlerror.Error{Path: e.astPath(), Locations: fp.locs, Err: err}
	if ae, ok := err.(*argumentError); ok {
		ge.Message, ge.Extensions, ge.Err = ae.msg, ae.ext, nil
		if ae.panic != nil {
			ge.Err = ae.panic
		}
		if ae.at != nil {
			ge.Locations = []gqlerror.Location{{Line: ae.at.Line, Column: ae.at.Column}}
		}
		e.errs = append(e.errs, ge)
		return
	}
	var given *gqlerror.Error
	if errors.As(err, &given) && given != nil {
		ge.Message, ge.Extensions = given.Message, given.Extensions
		if given.Err != nil {
			ge.Err = given.Err
		}
	} else {
		ge.Message = exec.ErrorText(err)
	}
	e.errs = append(e.errs, ge)
}

func (e *executor) nullError(fp *fieldPlan) {
	coord := ""
	if fp.info != nil {
		coord = fp.info.coord
	}
	e.errs = append(e.errs, &gqlerror.Error{
		Message:   "Cannot return null for non-nullable field " + coord + ".",
		Path:      e.astPath(),
		Locations: fp.locs,
	})
}

// execSelection writes the object value of sp for parent.
func (e *executor) execSelection(sp *selectionPlan, parent reflect.Value) bool {
	if sp.batched {
		return e.execBatched(sp, parent)
	}
	return e.execFields(sp, parent)
}

// execFields writes the fields of sp for parent, as execSelection.
func (e *executor) execFields(sp *selectionPlan, parent reflect.Value) bool {
	fields := sp.fields
	var base unsafe.Pointer // the parent struct, when direct reads apply
	if !sp.conditional && !e.traceAll && parent.Kind() == reflect.Pointer {
		base = sp.directBase(parent)
	}
	if sp.conditional {
		fields = sp.activeFields(&e.cond)
		if ce := e.cond.Err; ce != nil {
			e.errs = append(e.errs, &gqlerror.Error{Message: ce.Msg, Path: e.astPath(), Locations: ce.Locs})
			e.cond.Err = nil
			return false
		}
	}
	e.buf = append(e.buf, '{')
	for i, fp := range fields {
		if e.overLimit() {
			return false
		}
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = append(e.buf, fp.keyJSON...)
		if base != nil && fp.direct.Leaf != exec.LeafNone {
			if handled, ok := e.writeDirect(&fp.direct, base); handled {
				if !ok {
					return false
				}
				continue
			}
		}
		e.path = append(e.path, exec.PathSeg{Key: fp.key, Index: -1})
		ok := e.execField(sp, fp, parent)
		e.path = e.path[:len(e.path)-1]
		if !ok {
			return false
		}
	}
	e.buf = append(e.buf, '}')
	return true
}

func (e *executor) execField(sp *selectionPlan, fp *fieldPlan, parent reflect.Value) bool {
	var v reflect.Value
	var err error
	switch fp.kind {
	case kindTypename:
		if fp.typ == nil {
			e.buf = append(e.buf, "null"...)
			return true
		}
		e.buf = response.AppendString(e.buf, sp.obj.name)
		return true
	case kindSchema:
		v = reflect.ValueOf(e.s)
	case kindBatch, kindBatchPath:
		v, err = e.batchResult(fp, parent)
	default:
		args := fp.args
		if fp.argsErr != nil {
			err = fp.argsErr
		} else if fp.dynArgs {
			args, err = e.s.argumentValues(fp.info, fp.argNodes, e.cond.Vars)
		}
		if err == nil {
			if fp.kind == kindType {
				if name, _ := args.String("name"); e.s.named[name] != nil {
					nt := e.s.named[name]
					v = reflect.ValueOf(typeRef{nt})
				}
			} else if fp.info.resolve != nil {
				v, err = e.callResolver(fp, parent, args)
			} else if e.traceAll {
				v, err = e.traceDefault(fp, parent, args)
			} else {
				if handled, ok := e.directLeaf(fp, parent); handled {
					return ok
				}
				v, err = fp.info.read.Read(&e.ctx, parent)
			}
		}
	}
	if err != nil {
		e.fieldError(fp, err)
		if _, nonNull := fp.typ.(*NonNull); nonNull {
			return false
		}
		e.buf = append(e.buf, "null"...)
		return true
	}
	return e.complete(fp, fp.typ, v)
}

func (e *executor) callResolver(fp *fieldPlan, parent reflect.Value, args Args) (reflect.Value, error) {
	ctx := e.ctx
	if e.rootCtx != nil && fp.owner == e.op.plan {
		ctx = e.rootCtx
	}
	if err := ctx.Err(); err != nil {
		// The caller is gone or out of time: resolvers, which are where
		// the work is, are not called any more.
		return reflect.Value{}, err
	}
	var p any
	if parent.IsValid() && parent.CanInterface() {
		p = parent.Interface()
	}
	info := ResolveInfo{fp: fp, op: e.op, vars: e.cond.Vars, idx: exec.IndexesOf(e.path)}
	var res any
	var err error
	if e.tracer != nil && (fp.info.traced || e.traceAll) {
		tctx := e.tracer.StartField(ctx, info)
		res, err = invoke(tctx, fp.info.resolve, p, args, info)
		e.tracer.EndField(tctx, info, err)
	} else {
		res, err = invoke(ctx, fp.info.resolve, p, args, info)
	}
	if err != nil {
		if ctx.Err() != nil && context.Cause(ctx) == errTimeout {
			// Whatever the resolver says, it ran out of time.
			return reflect.Value{}, errTimedOut
		}
		return reflect.Value{}, exec.BoundedError(err)
	}
	return reflect.ValueOf(res), nil
}

// errTimedOut is the error of a resolver that failed once its deadline
// had passed: fieldError reports it as the one TIMEOUT error.
var errTimedOut = errors.New("graphql: resolver timed out")

// errNoPlan is a field error that cannot happen: an object value with no
// plan for its sub-selection. It is masked like any error without a code.
var errNoPlan = errors.New("graphql: internal error: no plan for the sub-selection of an object field")

// invoke calls a resolver, turning its panic into a field error.
func invoke(ctx context.Context, resolve ResolveFunc, parent any, args Args, info ResolveInfo) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, exec.Recovered(r)
		}
	}()
	return resolve(ctx, parent, args, info)
}

// traceDefault resolves a field without a resolver from its parent value,
// telling the tracer (Config.TraceDefaultFields).
func (e *executor) traceDefault(fp *fieldPlan, parent reflect.Value, args Args) (reflect.Value, error) {
	info := ResolveInfo{fp: fp, op: e.op, vars: e.cond.Vars, idx: exec.IndexesOf(e.path)}
	ctx := e.tracer.StartField(e.ctx, info)
	v, err := fp.info.read.Read(&ctx, parent)
	e.tracer.EndField(ctx, info, err)
	return v, err
}

// deref unwraps interfaces and pointers to scalars, returning the value to
// complete and whether it is a GraphQL null. A chain of more than
// maxDerefs pointers and interfaces (a pointer that leads back to itself)
// counts as null rather than being followed for ever.
func deref(v reflect.Value) (reflect.Value, bool) {
	for range maxDerefs {
		switch v.Kind() {
		case reflect.Invalid:
			return v, true
		case reflect.Interface:
			if v.IsNil() {
				return v, true
			}
			v = v.Elem()
		case reflect.Pointer:
			if v.IsNil() {
				return v, true
			}
			if v.Elem().Kind() == reflect.Struct {
				return v, false // objects keep their pointer for methods and resolvers
			}
			v = v.Elem()
		case reflect.Map:
			return v, v.IsNil()
		default:
			// graphql.Null returned by a resolver means null too.
			return v, v.Kind() == reflect.Uint8 && v.Type() == nullType
		}
	}
	return reflect.Value{}, true
}

var nullType = reflect.TypeFor[nullValue]()

const maxDerefs = 64

// complete writes v as a value of type t. It returns false when a non-null
// position received null, so that the caller nulls its own value.
func (e *executor) complete(fp *fieldPlan, t Type, v reflect.Value) bool {
	if e.s.pointerEnums && e.enumPointer(t, v) {
		return true
	}
	if nn, ok := t.(*NonNull); ok {
		dv, null := deref(v)
		if null {
			if _, isList := nn.OfType.(*List); isList && v.Kind() == reflect.Slice {
				e.buf = append(e.buf, '[', ']') // a nil slice is an empty list in a non-null position
				return true
			}
			e.nullError(fp)
			return false
		}
		return e.completeValue(fp, nn.OfType, dv)
	}
	dv, null := deref(v)
	if null || dv.Kind() == reflect.Slice && dv.IsNil() {
		e.buf = append(e.buf, "null"...)
		return true
	}
	mark := len(e.buf)
	if !e.completeValue(fp, t, dv) {
		e.buf = append(e.buf[:mark], "null"...)
	}
	return true
}

// enumPointer writes v when t is an enum with pointer internal values and
// v is one of them, before deref follows the pointer.
func (e *executor) enumPointer(t Type, v reflect.Value) bool {
	if nn, ok := t.(*NonNull); ok {
		t = nn.OfType
	}
	en, ok := t.(*Enum)
	if !ok || !e.s.enums[en].pointers {
		return false
	}
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Pointer || v.IsNil() || !v.CanInterface() {
		return false
	}
	name, ok := e.s.enums[en].byValue[v.Interface()]
	if ok {
		e.buf = response.AppendString(e.buf, name)
	}
	return ok
}

func (e *executor) completeValue(fp *fieldPlan, t Type, v reflect.Value) bool {
	switch x := t.(type) {
	case BuiltinScalar:
		return e.completeBuiltin(fp, x, v)
	case *Scalar:
		if err := e.serializeCustom(x, v); err != nil {
			if err != errStopped {
				e.fieldError(fp, err)
			}
			return false
		}
		return true
	case *Object:
		sp := fp.childPlan(&e.cond, &e.dynPlans)
		if sp == nil || sp.obj.obj != x {
			// Prepare plans the sub-selection of every object field, or
			// keeps what planning it during executions needs (literalcopies.go),
			// for the field's own type: no other can come here. Planning
			// from the document now could read literals released since.
			e.fieldError(fp, errNoPlan)
			return false
		}
		return e.execSelection(sp, v)
	case *List:
		if fp.batchList {
			if ok, done := e.completeBatchedList(fp, x, v); done {
				return ok
			}
		}
		return e.completeList(fp, x, v)
	case *Enum:
		if !v.CanInterface() {
			e.fieldError(fp, fmt.Errorf("Enum %q cannot represent value of an unexported type.", x.Name))
			return false
		}
		iv := v.Interface()
		info := e.s.enums[x]
		if !v.Comparable() {
			e.fieldError(fp, fmt.Errorf("Enum %q cannot represent value: %s", x.Name, response.Inspect(iv)))
			return false
		}
		name, ok := info.byValue[iv]
		if !ok {
			e.fieldError(fp, fmt.Errorf("Enum %q cannot represent value: %s", x.Name, response.Inspect(iv)))
			return false
		}
		e.buf = response.AppendString(e.buf, name)
		return true
	}
	e.fieldError(fp, fmt.Errorf("field %s has an unsupported type", fp.info.coord))
	return false
}

// completeList writes v, a value of list type x.
func (e *executor) completeList(fp *fieldPlan, x *List, v reflect.Value) bool {
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		e.fieldError(fp, fmt.Errorf("Expected Iterable, but did not find one for field %q.", fp.info.coord))
		return false
	}
	n := v.Len()
	e.buf = append(e.buf, '[')
	for i := 0; i < n; i++ {
		if e.overLimit() {
			return false
		}
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.path = append(e.path, exec.PathSeg{Index: i})
		ok := e.complete(fp, x.OfType, v.Index(i))
		e.path = e.path[:len(e.path)-1]
		if !ok {
			return false
		}
	}
	e.buf = append(e.buf, ']')
	return true
}

func (e *executor) completeBuiltin(fp *fieldPlan, kind BuiltinScalar, v reflect.Value) bool {
	// A string is measured before it is copied: the room (or the bound)
	// is asked for first.
	if v.Kind() == reflect.String {
		if end := len(e.buf) + v.Len() + 2; end > e.roomEnd && e.outgrown(end) {
			return false
		}
	}
	var err error
	var handled bool
	e.buf, handled, err = scalar.AppendValue(e.buf, scalar.Kind(kind), v)
	if !handled && err == nil {
		if !v.CanInterface() {
			err = fmt.Errorf("%s cannot represent a value of an unexported type", kind)
		} else {
			e.buf, err = scalar.Append(e.buf, scalar.Kind(kind), v.Interface())
		}
	}
	if err != nil {
		e.fieldError(fp, err)
		return false
	}
	return true
}

func (e *executor) serializeCustom(sc *Scalar, v reflect.Value) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = exec.Recovered(r)
		}
	}()
	if !v.CanInterface() {
		return fmt.Errorf("%s cannot represent a value of an unexported type", sc.Name)
	}
	in := v.Interface()
	out, err := sc.Serialize(in)
	if err != nil {
		return exec.BoundedError(err)
	}
	if out == nil || out == Null {
		// graphql-js: a serializer must give a value; null is the field's
		// to decide (a null result is never passed to Serialize).
		return fmt.Errorf("Expected `%s.serialize(%s)` to return non-nullable value, returned: null", sc.Name, response.Inspect(in))
	}
	if s, ok := out.(string); ok {
		if end := len(e.buf) + len(s) + 2; end > e.roomEnd && e.outgrown(end) {
			return errStopped
		}
	}
	mark := len(e.buf)
	e.buf, err = response.AppendValue(e.buf, out)
	if err != nil {
		e.buf = e.buf[:mark]
	}
	return err
}

// errStopped is serializeCustom's error when the execution stopped
// before the value was written (see outgrown): no field error.
var errStopped = errors.New("graphql: execution stopped")
