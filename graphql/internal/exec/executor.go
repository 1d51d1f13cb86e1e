package exec

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file is the state of one execution (an executor, pooled), the
// bounds its data grows within, and how field errors are recorded.

type executor struct {
	ctx context.Context
	// rootCtx, when set, is the context of the root fields: those of a
	// mutation under a deadline, which ctx carries and they ignore.
	rootCtx context.Context
	// tracer sees the fields that run a resolver, and the others too
	// when traceAll.
	tracer   any
	traceAll bool
	s        *schema.Schema
	op       *plan.Operation
	pub      any // handed to resolvers as the operation (schema.Info.Op)
	buf      []byte
	errs     gqlerror.List
	path     []response.PathSeg
	indexes  int             // the list indexes in path
	cond     plan.Conditions // the variables' @skip/@include, and the first null one
	// done: ctx ended and one field error saying so has been reported;
	// the resolvers left are not called, and report nothing more.
	done bool
	// dynPlans: sub-selection plans of conditional fields made for this
	// execution only (see plan.Field.ChildPlan).
	dynPlans map[*plan.Field]*plan.Selection
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
	batches map[*plan.Selection]*batchLevel
	item    batchItem
	// objPlans: plans of conditional abstract fields for one object, made
	// for this execution only (see plan.Field.ObjectPlan); resolved: the
	// objects of the list being completed (abstractexec.go).
	objPlans map[plan.ObjectPlanKey]*plan.Selection
	resolved resolvedObjects
	// belows: the levels below the batched fields of abstract types, by
	// level and field (abstractexec.go).
	belows map[belowKey]*abstractBelow
}

// executors recycles executors (and their path stacks) between requests.
var executors = sync.Pool{New: func() any { return &executor{path: make([]response.PathSeg, 0, 16)} }}

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
	if e.room == nil { // an executor{} that Execute did not set up: no bound
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
		if PastDeadline(e.ctx) {
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
	e.errs = append(e.errs, TimeoutError(e.astPath(), locs))
}

// responseTooLarge is the one error of data past max bytes: clients see
// its message and code, and Err wraps ErrResponseTooLarge.
func responseTooLarge(max int) *gqlerror.Error {
	msg := fmt.Sprintf("The response is larger than the limit of %d bytes.", max)
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": errcode.CodeResponseTooLarge},
		Err: &errcode.Error{Code: errcode.CodeResponseTooLarge, Message: msg, Err: ErrResponseTooLarge}}
}

func (e *executor) astPath() ast.Path { return response.ASTPath(e.path) }

func (e *executor) fieldError(fp *plan.Field, err error) {
	if ctxErr := e.ctx.Err(); ctxErr != nil && (err == errTimedOut || errors.Is(err, ctxErr)) {
		if e.done {
			return // reported once
		}
		if context.Cause(e.ctx) == ErrDeadline {
			e.timedOut(e.locations(fp))
			return
		}
		e.done = true
	}
	ge := &gqlerror.Error{Path: e.astPath(), Locations: e.locations(fp), Err: err}
	if ae, ok := err.(*coerce.ArgumentError); ok {
		ge.Message, ge.Extensions, ge.Err = ae.Msg, ae.Ext, nil
		if ae.Panic != nil {
			ge.Err = ae.Panic
		}
		if ae.At != nil {
			ge.Locations = []gqlerror.Location{{Line: ae.At.Line, Column: ae.At.Column}}
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
		ge.Message = fault.ErrorText(err)
	}
	e.errs = append(e.errs, ge)
}

func (e *executor) nullError(fp *plan.Field) {
	coord := ""
	if fp.Info != nil {
		coord = fp.Info.Coord
	}
	e.errs = append(e.errs, &gqlerror.Error{
		Message:   "Cannot return null for non-nullable field " + coord + ".",
		Path:      e.astPath(),
		Locations: e.locations(fp),
	})
}

// locations returns the locations of fp's nodes for an error: those of
// the occurrences that count in this execution (graphql-js's field
// nodes, after @skip and @include).
func (e *executor) locations(fp *plan.Field) []gqlerror.Location {
	if !fp.Dynamic {
		return fp.Locs
	}
	var out []gqlerror.Location
	for i, o := range fp.Occ {
		if ok, _ := o.Counts(&e.cond); ok && i < len(fp.Locs) {
			out = append(out, fp.Locs[i])
		}
	}
	if len(out) == len(fp.Locs) {
		return fp.Locs
	}
	return out
}

// pathIndexes returns the list indexes of the current path, for a
// resolver's Info; most fields have none above them.
func (e *executor) pathIndexes() response.PathIndexes {
	if e.indexes == 0 {
		return response.PathIndexes{}
	}
	return response.IndexesOf(e.path)
}
