package errors

import (
	"context"

	"github.com/vektah/gqlparser/v2/ast"
)

// Hooks lets an application see and shape the errors a [Presenter]
// answers with, in one place for GraphQL and REST alike: pass the same
// Hooks to graphqlhttp.Config.ErrorHooks and articles.Config.ErrorHooks.
// The zero value does nothing.
//
// A hook cannot drop an error or break an answer: a Map that returns nil
// leaves the error as it was, and a hook that panics is recovered, logged,
// and treated as if it had not been set.
type Hooks struct {
	// Report is called once for every masked error (an unknown error, a
	// panic, an Error with a status of 500 or more), at the point where
	// the presenter logs it: the place to send it to an error tracker.
	// It runs on the request's goroutine, after the log line is written.
	Report func(ctx context.Context, r Report)

	// Map turns an error a handler or resolver returned into the error to
	// present, before it is classified: the one place to turn domain
	// errors (a unique violation, a row lock timeout) into coded ones. It
	// is given the resolver's or handler's own error (not the engine's
	// wrapper around it, whose path and locations are kept); returning err
	// itself or nil leaves it unchanged. Errors the engine, the parser or
	// the validator made are not passed to it.
	Map func(ctx context.Context, err error) error
}

// Report describes one masked error, for [Hooks.Report].
type Report struct {
	// Code is the code the client was given: INTERNAL_SERVER_ERROR, or
	// the code of an Error whose status is 500 or more.
	Code Code
	// Status is the HTTP status of the answer to it (500 for GraphQL
	// field errors, which answer 200 as a whole).
	Status int
	// Path is the GraphQL response path of a field error; nil in REST.
	Path ast.Path
	// RequestID is the id reqlog gave the request, "" without reqlog.
	RequestID string
	// Err is the error itself (after Map), with its whole chain.
	Err error
	// Stack is the stack of a recovered panic, nil for other errors.
	Stack []byte
}
