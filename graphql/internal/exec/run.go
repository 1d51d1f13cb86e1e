package exec

import (
	"context"
	"math"
	"reflect"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// Params are what one execution needs besides its operation: the
// coerced variables, the root value, the buffer and the bounds of the
// data, the tracer. The caller has checked the cost and granted the
// first room.
type Params struct {
	Vars map[string]any
	Root any
	// Dst is the buffer the data is appended to.
	Dst []byte
	// MaxResponseBytes bounds the data when positive.
	MaxResponseBytes int
	// Room, when set, lends the data its room, FirstRoom bytes of which
	// it granted already.
	Room      Room
	FirstRoom int
	// Tracer, when set, sees the fields that run a resolver, and the
	// others too when TraceAll, through the schema's StartField and
	// EndField.
	Tracer   any
	TraceAll bool
	// Op is what resolvers are handed as the operation (schema.Info.Op).
	Op any
	// Unbound, when set, is the context of the root fields of a mutation
	// under a deadline: each runs in turn with it, not with the context
	// that carries the deadline.
	Unbound context.Context
}

// Room lends the data of an execution the room it grows into; see
// graphql.ExecParams.Room.
type Room interface {
	Grow(ctx context.Context, need int) (room int, err error)
}

// Execute runs op of schema s under ctx (which carries the deadline, if
// any). It returns the data (appended to p.Dst) and the field errors; its
// error is the Room's refusal to grow, and the data and errors are then
// nil.
func Execute(ctx context.Context, s *schema.Schema, op *plan.Operation, p *Params) (data []byte, errs gqlerror.List, err error) {
	e := executors.Get().(*executor)
	start := len(p.Dst)
	*e = executor{ctx: ctx, s: s, op: op, pub: p.Op, buf: p.Dst, path: e.path[:0], cond: plan.Conditions{Vars: p.Vars},
		tracer: p.Tracer, traceAll: p.TraceAll && p.Tracer != nil, roomEnd: math.MaxInt}
	if p.MaxResponseBytes > 0 {
		e.maxBytes, e.maxEnd = p.MaxResponseBytes, start+p.MaxResponseBytes
		e.roomEnd = e.maxEnd
	}
	if p.Room != nil {
		e.room, e.start, e.roomEnd = p.Room, start, min(start+p.FirstRoom, e.roomEnd)
	}
	if p.Unbound != nil && op.Def.Operation == ast.Mutation {
		e.rootCtx = p.Unbound // root fields of a mutation are not bound
	}
	defer func() {
		if r := recover(); r != nil {
			e.errs = append(e.errs, &gqlerror.Error{Message: "Internal error.", Path: e.astPath(), Err: fault.Recovered(r)})
			data, errs, err = append(e.buf[:start], "null"...)[start:], e.errs, nil
		}
		e.release()
	}()
	// overLimit again at the end: the checks during execution come before
	// each field and item, so the last value written (one huge string)
	// has not been measured yet.
	if !e.execSelection(nil, op.Root, reflect.ValueOf(p.Root)) || e.overLimit() {
		e.buf = append(e.buf[:start], "null"...)
	}
	switch {
	case e.roomErr != nil:
		return nil, nil, e.roomErr
	case e.tooLarge:
		// What went wrong on the way out is no error of its own.
		e.errs = e.errs[:e.limitErr+1]
	}
	return e.buf[start:], e.errs, nil
}
