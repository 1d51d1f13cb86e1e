package errors

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/errclass"
	"github.com/gqlkit/gqlkit/reqlog"
)

// Hooks lets an application see and shape the errors a [Presenter]
// answers with, in one place for GraphQL and REST alike: pass one
// Presenter holding them to graphqlhttp.Config.Presenter,
// articles.Config.Presenter and idempotency.Config.Presenter. The zero
// value does nothing.
//
// A hook cannot drop an error or break an answer: a Map that returns nil
// leaves the error as it was, and a hook that panics is recovered, logged
// at error level with its stack, and treated as if it had not been set.
// Both hooks run on the request's goroutine and must be safe for
// concurrent use.
type Hooks struct {
	// Report is called once for every masked error (an unknown error, a
	// panic, an Error with a status of 500 or more), at the point where
	// the presenter logs it: the place to send it to an error tracker.
	// It runs on the request's goroutine, after the log line is written,
	// and is called even when the logger is disabled. Known errors (4xx)
	// and requests whose client went away (CLIENT_CLOSED_REQUEST) are not
	// reported.
	Report func(ctx context.Context, r Report)

	// Map turns an error a handler or resolver returned into the error to
	// present, before it is classified: the one place to turn domain
	// errors (a unique violation, a row lock timeout) into coded ones. It
	// is given the resolver's or handler's own error (not the engine's
	// wrapper around it, whose path and locations are kept); returning err
	// itself or nil leaves it unchanged. Errors the engine, the parser or
	// the validator made are not passed to it.
	//
	// Keep the original in the chain of what Map returns (as the Err of an
	// [errcode.Error], say): a known error with a cause has the cause logged at
	// info level, and an unknown one is logged and reported in full.
	Map func(ctx context.Context, err error) error
}

// Report describes one masked error, for [Hooks.Report].
type Report struct {
	// Code is INTERNAL_SERVER_ERROR, the code the client was given, or
	// the own code of an Error whose status is 500 or more (which the
	// client sees as INTERNAL_SERVER_ERROR all the same).
	Code errcode.Code
	// Status is 500, or the status of an Error whose status is 500 or
	// more (answered 500 all the same). A GraphQL field error counts as
	// 500, although the response as a whole is a 200.
	Status int
	// Path is the GraphQL response path of a field error; nil in REST.
	Path ast.Path
	// RequestID is the id reqlog gave the request, "" without reqlog.
	RequestID string
	// Err is the error itself (after Map), with its whole chain; for a
	// GraphQL field error, the resolver's error without the engine's
	// wrapper.
	Err error
	// Stack is the stack of a recovered panic, nil for other errors.
	Stack []byte
}

// Map returns the error p classifies in place of err: what [Hooks.Map]
// makes of a resolver's or handler's error, or err itself when there is
// no Map, when it returns nil or panics, and for an error the GraphQL
// engine made. Its code ([CodeOf]) is the code p presents err with. It
// logs and reports nothing: graphqlhttp gives its Tracer the errors of
// the fields so, for the tracer to record the code the client sees.
func (p Presenter) Map(ctx context.Context, err error) error {
	if p.Hooks.Map == nil || err == nil {
		return err
	}
	return p.mapError(ctx, err)
}

// mapError returns the error to present in place of err: what Hooks.Map
// makes of the resolver's or handler's error, or err itself when Map
// returns nil or panics, and for an error the GraphQL engine made.
func (p Presenter) mapError(ctx context.Context, err error) error {
	cause, ok := resolverError(err)
	if !ok {
		return err
	}
	if mapped := p.callMap(ctx, cause); mapped != nil {
		return mapped
	}
	return err
}

// callMap calls Hooks.Map, recovering a panic in it (then nil).
func (p Presenter) callMap(ctx context.Context, err error) (mapped error) {
	defer func() {
		if v := recover(); v != nil {
			p.hookPanicked(ctx, "Map", v)
			mapped = nil
		}
	}()
	return p.Hooks.Map(hookContext(ctx), err)
}

// report calls Hooks.Report for the masked error err, recovering a panic in
// it.
func (p Presenter) report(ctx context.Context, err error, v errclass.Verdict, path ast.Path) {
	defer func() {
		if r := recover(); r != nil {
			p.hookPanicked(ctx, "Report", r)
		}
	}()
	ctx = hookContext(ctx)
	r := Report{Code: v.Code, Status: v.Status, Path: path, Err: err}
	if v.OwnCode != "" {
		r.Code, r.Status = v.OwnCode, v.OwnStatus
	}
	if cause, ok := resolverError(err); ok {
		r.Err = cause
	}
	r.RequestID, _ = reqlog.ID(ctx)
	if v.Panic != nil {
		r.Stack = v.Panic.StackTrace()
	}
	p.Hooks.Report(ctx, r)
}

// hookContext is the context hooks receive: ctx, or the background context
// when the presenter was called without one.
func hookContext(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// hookPanicked logs, at error level, the panic with value v of the hook
// named hook, with the stack of the panic.
func (p Presenter) hookPanicked(ctx context.Context, hook string, v any) {
	stack := debug.Stack() // still the panicking goroutine's, below the deferred call
	ctxlog.Log(ctx, p.Logger, slog.LevelError, "error hook panicked",
		slog.String("hook", hook),
		slog.String("panic", fmt.Sprint(v)), // fmt survives a String method that panics
		slog.String("stack", string(stack)))
}
