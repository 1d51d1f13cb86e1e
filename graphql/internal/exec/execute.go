package exec

import (
	"context"
	"errors"
	"reflect"
	"unsafe"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql/internal/access"
	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file executes a selection: the fields of an object value, each
// resolved (by its resolver, a batch's results or a read of the parent)
// and handed to completion (complete.go).

// execSelection writes the object value of sp for parent, the value (or
// an item of the value) of field via (nil at the root).
func (e *executor) execSelection(via *plan.Field, sp *plan.Selection, parent reflect.Value) bool {
	if sp.Batched {
		return e.execBatched(via, sp, parent)
	}
	return e.execFields(sp, parent)
}

// execFields writes the fields of sp for parent, as execSelection.
func (e *executor) execFields(sp *plan.Selection, parent reflect.Value) bool {
	fields := sp.Fields
	var base unsafe.Pointer // the parent struct, when direct reads apply
	if !sp.Conditional && !e.traceAll && parent.Kind() == reflect.Pointer {
		base = directBase(sp, parent)
	}
	if sp.Conditional {
		fields = sp.ActiveFields(&e.cond)
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
		e.buf = append(e.buf, fp.KeyJSON...)
		if base != nil && fp.Direct.Leaf != access.LeafNone {
			if handled, ok := e.writeDirect(&fp.Direct, base); handled {
				if !ok {
					return false
				}
				continue
			}
		}
		e.path = append(e.path, response.PathSeg{Key: fp.Key, Index: -1})
		ok := e.execField(sp, fp, parent)
		e.path = e.path[:len(e.path)-1]
		if !ok {
			return false
		}
	}
	e.buf = append(e.buf, '}')
	return true
}

func (e *executor) execField(sp *plan.Selection, fp *plan.Field, parent reflect.Value) bool {
	var v reflect.Value
	var err error
	switch fp.Kind {
	case plan.KindTypename:
		if fp.Type == nil {
			e.buf = append(e.buf, "null"...)
			return true
		}
		e.buf = response.AppendString(e.buf, sp.Obj.Name)
		return true
	case plan.KindSchema:
		// The parents of introspection's objects (package introspection):
		// __Schema's are the compiled schema, a __Type's is its node.
		v = reflect.ValueOf(e.s)
	case plan.KindBatch, plan.KindBatchPath:
		if fp.Abs != nil {
			return e.execAbstractBatched(fp, parent)
		}
		v, err = e.batchResult(fp, parent)
	default:
		args := fp.Args
		if fp.ArgsErr != nil {
			err = fp.ArgsErr
		} else if fp.DynArgs {
			args, err = coerce.ArgumentValues(fp.Info, fp.ArgNodes, e.cond.Vars)
		}
		if err == nil {
			if fp.Kind == plan.KindType {
				if name, _ := args["name"].(string); name != "" {
					if t := e.s.Named[name]; t != nil {
						v = reflect.ValueOf(t)
					}
				}
			} else if fp.Info.Resolve != nil {
				v, err = e.callResolver(fp, parent, args)
			} else if e.traceAll {
				v, err = e.traceDefault(fp, parent, args)
			} else {
				if handled, ok := e.directLeaf(fp, parent); handled {
					return ok
				}
				v, err = fp.Info.Read.Read(&e.ctx, parent)
			}
		}
	}
	if err != nil {
		e.fieldError(fp, err)
		if fp.Type.Kind == schema.KindNonNull {
			return false
		}
		e.buf = append(e.buf, "null"...)
		return true
	}
	return e.complete(fp, fp.Type, v)
}

func (e *executor) callResolver(fp *plan.Field, parent reflect.Value, args map[string]any) (reflect.Value, error) {
	ctx := e.ctx
	if e.rootCtx != nil && fp.Owner == e.op.Root {
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
	info := schema.Info{Field: fp, Op: e.pub, Vars: e.cond.Vars, Idx: e.pathIndexes()}
	var res any
	var err error
	if e.tracer != nil && (fp.Info.Traced || e.traceAll) {
		tctx := e.s.StartField(e.tracer, ctx, info)
		res, err = invoke(tctx, fp.Info.Resolve, p, args, info)
		e.s.EndField(e.tracer, tctx, info, err)
	} else {
		res, err = invoke(ctx, fp.Info.Resolve, p, args, info)
	}
	if err != nil {
		if PastDeadline(ctx) {
			// Whatever the resolver says, it ran out of time.
			return reflect.Value{}, errTimedOut
		}
		return reflect.Value{}, fault.BoundedError(err)
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
func invoke(ctx context.Context, resolve schema.Resolver, parent any, args map[string]any, info schema.Info) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fault.Recovered(r)
		}
	}()
	return resolve(ctx, parent, args, info)
}

// traceDefault resolves a field without a resolver from its parent value,
// telling the tracer (Config.TraceDefaultFields).
func (e *executor) traceDefault(fp *plan.Field, parent reflect.Value, args map[string]any) (reflect.Value, error) {
	info := schema.Info{Field: fp, Op: e.pub, Vars: e.cond.Vars, Idx: e.pathIndexes()}
	ctx := e.s.StartField(e.tracer, e.ctx, info)
	v, err := fp.Info.Read.Read(&ctx, parent)
	e.s.EndField(e.tracer, ctx, info, err)
	return v, err
}
