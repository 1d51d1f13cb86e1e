package graphql

import (
	"context"
	"fmt"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/exec"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/limits"
)

// Operation is one operation of a validated document, prepared for
// execution: fragments are expanded, fields looked up and literal arguments
// coerced once. An Operation is safe for concurrent use; cache it together
// with its document.
type Operation struct {
	p plan.Operation
	s *Schema
}

// Prepare selects the operation called name (it may be empty when the
// document has exactly one operation) from a document that
// [Schema.Validate] accepted, and plans it. Its errors wrap
// [ErrInvalidOperation] or [ErrInvalidDocument]. It ends quickly on any
// document: one that spreads a fragment within itself, nests more than
// 1000 fields deep once its fragments are expanded, or expands to more than
// 100,000 field selections is refused with ErrInvalidDocument (validation
// refuses the first, and graphqlhttp's limits the others, earlier).
func (s *Schema) Prepare(doc *ast.QueryDocument, name string) (op *Operation, errs gqlerror.List) {
	defer func() {
		if r := recover(); r != nil {
			op, errs = nil, gqlerror.List{{Message: fmt.Sprintf("The document could not be prepared: %v", r), Err: ErrInvalidDocument}}
		}
	}()
	var def *ast.OperationDefinition
	switch {
	case len(doc.Operations) == 0:
		return nil, gqlerror.List{{Message: "Must provide an operation.", Err: ErrInvalidOperation}}
	case name == "" && len(doc.Operations) > 1:
		return nil, gqlerror.List{{Message: "Must provide operation name if query contains multiple operations.", Err: ErrInvalidOperation}}
	default:
		def = doc.Operations.ForName(name)
		if def == nil {
			return nil, gqlerror.List{{Message: fmt.Sprintf("Unknown operation named %q.", name), Err: ErrInvalidOperation}}
		}
	}
	var root *schema.Object
	switch def.Operation {
	case ast.Query:
		root = s.c.Query
	case ast.Mutation:
		root = s.c.Mutation
	}
	if root == nil {
		return nil, gqlerror.List{{Message: fmt.Sprintf("Schema is not configured to execute %s operation.", def.Operation),
			Locations: []gqlerror.Location{{Line: def.Position.Line, Column: def.Position.Column}}, Err: ErrInvalidOperation}}
	}
	op = &Operation{s: s}
	if err := plan.Prepare(&op.p, s.c, doc, def, root); err != nil {
		err.Err = ErrInvalidDocument
		return nil, gqlerror.List{err}
	}
	return op, nil
}

// Kind returns the operation's type: ast.Query or ast.Mutation.
func (op *Operation) Kind() ast.Operation { return op.p.Def.Operation }

// Name returns the operation's name, "" for an anonymous one.
func (op *Operation) Name() string { return op.p.Def.Name }

// ExecParams are the inputs of one execution of an [Operation]. The zero
// value executes with no variables, a nil root value and a new buffer,
// under the default bounds: responses of at most DefaultMaxResponseBytes
// and operations costing at most limits.DefaultMaxCost. A negative bound
// turns it off.
type ExecParams struct {
	// Variables are the raw variable values, as decoded from JSON
	// (preferably with UseNumber); nil when there are none. They are
	// coerced to the declared types first: defaults applied, Int checked
	// to 32 bits, enum names mapped to internal values, custom scalars
	// parsed, unknown input fields refused.
	Variables map[string]any

	// Root is the value the root fields are resolved against (their
	// resolvers' parent); nil is fine.
	Root any

	// Dst is the buffer the data is appended to, so that a pooled buffer
	// can be reused; Result.Data then aliases it.
	Dst []byte

	// MaxResponseBytes stops execution once the data grows past it: the
	// data is then null and the one error says so, with extensions.code
	// RESPONSE_TOO_LARGE; it wraps [ErrResponseTooLarge] (errors.Is). The
	// query limits bound a document's fields, not the rows its lists
	// return, so a few aliases over a list can otherwise ask for
	// gigabytes. 0 means DefaultMaxResponseBytes; a negative value, no
	// bound.
	MaxResponseBytes int

	// Room, when set, lends the data its room in steps below
	// MaxResponseBytes, from memory that other executions share
	// (graphqlhttp's response budget): execution asks Room.Grow for the
	// data's first room (need 0) once the cost is checked and before
	// BeforeExecute, and for more each time the data would outgrow the
	// room granted so far: before a string that would pass it is
	// written, or once another value has passed it. An error from Grow ends the execution:
	// Execute returns it, with a Result empty but for Cost; but when the
	// execution's Deadline has passed by then, the answer is the
	// deadline's (data null and the one TIMEOUT error), whatever kept
	// the Room from granting. Either way each resolver runs once: the
	// data is never built again in a larger room. nil means the data's
	// room is MaxResponseBytes.
	Room Room

	// BeforeExecute, when set, runs once the variables are coerced and
	// before any resolver: the place for a policy such as graphqlhttp's
	// mutation gate. An error it returns ends the execution and is
	// Execute's error.
	BeforeExecute func(ctx context.Context, op *Operation) error

	// MaxCost refuses an operation whose cost (see [Cost]), computed
	// once the variables are coerced, is over it: Execute then returns a
	// *limits.Error (Limit limits.Cost) before any resolver runs. 0 means
	// limits.DefaultMaxCost; a negative value, no bound.
	MaxCost int

	// Deadline, when not zero, bounds the execution: resolvers get it in
	// their context, none is called once it has passed, and the fields
	// not resolved by then are null with one error, extensions.code
	// TIMEOUT. The root fields of a mutation are the exception: each runs
	// in turn with ctx itself, so that a sequence of writes is never
	// abandoned halfway; the fields below them are bound.
	Deadline time.Time

	// Tracer, when set, is told of the coerce and execute phases and of
	// the fields that run a resolver (see [Tracer]); TraceDefaultFields
	// adds the fields read from their parent value.
	Tracer             Tracer
	TraceDefaultFields bool
}

// Room lends the data of an execution the room it grows into (see
// ExecParams.Room).
type Room interface {
	// Grow is called for the data's first room with need 0, before
	// ExecParams.BeforeExecute and any resolver, and each time the data,
	// once need bytes long, would outgrow the room granted so far; need is at most
	// ExecParams.MaxResponseBytes when that is set. Grow returns the
	// room granted now, at least need (less is an error wrapping
	// ErrShortRoom), or an error, which ends the execution. It may wait
	// for the room, and should then give up when ctx (the execution's
	// context, which carries ExecParams.Deadline) ends.
	Grow(ctx context.Context, need int) (room int, err error)
}

// ErrShortRoom is the cause (errors.Is) of the error Execute returns when
// Room.Grow granted less room than the data needed.
var ErrShortRoom = exec.ErrShortRoom

// ErrResponseTooLarge is the cause (errors.Is) of the one error of an
// execution whose data outgrew ExecParams.MaxResponseBytes; clients see
// its message and the code RESPONSE_TOO_LARGE.
var ErrResponseTooLarge = exec.ErrResponseTooLarge

// MessageTimeout is the message of the one error of an execution past its
// deadline (see ExecParams.Deadline), whose extensions.code is
// errcode.CodeTimeout.
const MessageTimeout = "The operation did not complete in time: the fields it had not resolved are null."

// DefaultMaxResponseBytes is the bound on the data of one execution when
// ExecParams.MaxResponseBytes is 0.
const DefaultMaxResponseBytes = 16 << 20

// orDefault is a bound as ExecParams holds it: v, or def when v is 0.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Execute coerces the variables and runs the operation.
//
// Result holds what the client is told: the data and the field errors, or,
// when a variable is invalid, no data and one error per problem (each wraps
// [ErrInvalidVariables] and is located at its variable definition).
//
// The error is set, and the Result empty (but for Cost), only when the
// request cannot be answered with a GraphQL result: the operation costs
// more than MaxCost (a *limits.Error, a client error), BeforeExecute
// refused it, ExecParams.Room refused the data room (its error, unless
// the Deadline had passed: see ExecParams.Room), or a
// custom scalar's ParseValue panicked while coercing the variables (an
// *errcode.PanicError, a server fault to answer with a 500). A panic in a
// resolver is a field error in Result, like any resolver error.
func (op *Operation) Execute(ctx context.Context, p ExecParams) (Result, error) {
	// From here on a bound is on when positive.
	p.MaxCost = orDefault(p.MaxCost, limits.DefaultMaxCost)
	p.MaxResponseBytes = orDefault(p.MaxResponseBytes, DefaultMaxResponseBytes)
	var start time.Time
	if p.Tracer != nil {
		start = time.Now()
	}
	var vars map[string]any
	if len(op.p.Def.VariableDefinitions) > 0 {
		var errs gqlerror.List
		var fault error
		vars, errs, fault = coerce.Variables(op.s.c.Named, op.p.Def.VariableDefinitions, op.p.Defaults, p.Variables)
		switch {
		case fault != nil:
			return Result{}, fault
		case len(errs) > 0:
			op.tracePhase(ctx, &p, PhaseCoerce, start)
			return Result{Errors: errs}, nil
		}
	}
	cost := 0
	if p.MaxCost > 0 || p.Tracer != nil {
		cost = op.p.Cost(vars)
	}
	op.tracePhase(ctx, &p, PhaseCoerce, start)
	if p.MaxCost > 0 && cost > p.MaxCost {
		return Result{Cost: cost}, &limits.Error{Limit: limits.Cost, Max: p.MaxCost, Found: cost}
	}
	// The deadline bounds the execution from here on: the wait for the
	// first room, then the resolvers.
	ectx := ctx
	if !p.Deadline.IsZero() {
		var cancel context.CancelFunc
		ectx, cancel = context.WithDeadlineCause(ctx, p.Deadline, exec.ErrDeadline)
		defer cancel()
	}
	room := 0
	if p.Room != nil {
		var err error
		if room, err = p.Room.Grow(ectx, 0); err != nil {
			if exec.PastDeadline(ectx) {
				data := append(p.Dst, "null"...)[len(p.Dst):]
				return Result{Data: data, Errors: gqlerror.List{exec.TimeoutError(nil, nil)}, Cost: cost}, nil
			}
			return Result{Cost: cost}, err
		}
	}
	if p.BeforeExecute != nil {
		if err := p.BeforeExecute(ctx, op); err != nil {
			return Result{Cost: cost}, err
		}
	}
	if p.Tracer != nil {
		start = time.Now()
	}
	// A nil Room or Tracer stays a nil interface in exec.Params.
	ep := exec.Params{Vars: vars, Root: p.Root, Dst: p.Dst, MaxResponseBytes: p.MaxResponseBytes, FirstRoom: room,
		TraceAll: p.TraceDefaultFields, Op: op, Room: p.Room, Tracer: p.Tracer}
	if !p.Deadline.IsZero() {
		ep.Unbound = ctx
	}
	data, errs, err := exec.Execute(ectx, op.s.c, &op.p, &ep)
	op.tracePhase(ctx, &p, PhaseExecute, start)
	if err != nil {
		return Result{Cost: cost}, err
	}
	return Result{Data: data, Errors: errs, Cost: cost}, nil
}

// tracePhase reports a phase that began at start to p's tracer, if any.
func (op *Operation) tracePhase(ctx context.Context, p *ExecParams, ph Phase, start time.Time) {
	if p.Tracer != nil {
		p.Tracer.Phase(ctx, PhaseInfo{Phase: ph, Start: start, Duration: time.Since(start)})
	}
}
