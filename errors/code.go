package errors

import (
	"net/http"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/errclass"
)

// The error values live in package errcode, which imports neither net/http
// nor a logger, so that the GraphQL engine can make them; they are
// declared here again so that handlers and resolvers need one import.

// Code is the machine-readable kind of an error (see [errcode.Code]).
type Code = errcode.Code

// Codes produced by the kit (see package errcode).
const (
	CodeParseFailed         = errcode.CodeParseFailed
	CodeGraphQLValidation   = errcode.CodeGraphQLValidation
	CodeBadUserInput        = errcode.CodeBadUserInput
	CodeQueryLimitExceeded  = errcode.CodeQueryLimitExceeded
	CodeUnauthenticated     = errcode.CodeUnauthenticated
	CodeForbidden           = errcode.CodeForbidden
	CodeNotFound            = errcode.CodeNotFound
	CodeValidationFailed    = errcode.CodeValidationFailed
	CodeInternal            = errcode.CodeInternal
	CodeClientClosedRequest = errcode.CodeClientClosedRequest
	CodeTimeout             = errcode.CodeTimeout
	CodeUnavailable         = errcode.CodeUnavailable
	CodeResponseTooLarge    = errcode.CodeResponseTooLarge
)

// Default client messages, used when an [Error] has no Message of its own.
const (
	MessageUnauthenticated  = errcode.MessageUnauthenticated
	MessageForbidden        = errcode.MessageForbidden
	MessageNotFound         = errcode.MessageNotFound
	MessageValidationFailed = errcode.MessageValidationFailed
	MessageInternal         = errcode.MessageInternal
	MessageUnavailable      = errcode.MessageUnavailable
)

// StatusClientClosedRequest is the status recorded when the client went away
// before its answer was ready (nginx's 499).
const StatusClientClosedRequest = errcode.StatusClientClosedRequest

// CodeForStatus returns the code of an HTTP-style error with the given
// status (see [errcode.CodeForStatus]).
func CodeForStatus(status int) Code { return errcode.CodeForStatus(status) }

// ErrNotFound is the kit's "no such thing" sentinel (see
// [errcode.ErrNotFound]); it is the same value.
var ErrNotFound = errcode.ErrNotFound

// StatusCoder is implemented by HTTP-style errors (see [errcode.StatusCoder]).
type StatusCoder = errcode.StatusCoder

// Error is a client-safe error (see [errcode.Error]).
type Error = errcode.Error

// Panic is the behaviour of an error that carries a recovered panic (see
// [errcode.Panic]).
type Panic = errcode.Panic

// PanicError is a recovered panic (see [errcode.PanicError]).
type PanicError = errcode.PanicError

// New returns an Error with the given code and client message; an empty
// message selects the code's default.
func New(code Code, msg string) *Error { return errcode.New(code, msg) }

// Forbidden returns a FORBIDDEN error (403). An empty msg gives
// "This action is unauthorized.", Laravel's wording.
func Forbidden(msg string) *Error { return errcode.Forbidden(msg) }

// NotFound returns a NOT_FOUND error (404). An empty msg gives "Not found.".
func NotFound(msg string) *Error { return errcode.NotFound(msg) }

// Unauthenticated returns an UNAUTHENTICATED error (401). An empty msg gives
// "Unauthenticated.".
func Unauthenticated(msg string) *Error { return errcode.Unauthenticated(msg) }

// ValidationFailed returns a VALIDATION_FAILED error (422) carrying
// per-field messages (see [errcode.ValidationFailed]).
func ValidationFailed(msg string, fields map[string][]string) *Error {
	return errcode.ValidationFailed(msg, fields)
}

// Summarize builds Laravel's summary of a validation failure (see
// [errcode.Summarize]).
func Summarize(fields map[string][]string, order []string) string {
	return errcode.Summarize(fields, order)
}

// Recovered returns a PanicError for v, the value recover returned, with
// the current stack (see [errcode.Recovered]). Call it in the deferred
// function that recovers.
func Recovered(v any) *PanicError { return errcode.Recovered(v) }

// Status returns the HTTP status a REST answer to err has; see the package
// documentation for the rules. A nil err gives 500.
func Status(err error) int { return classify(err).Status }

// CodeOf returns the code clients see for err; see the package
// documentation for the rules. A nil err gives [CodeInternal].
func CodeOf(err error) Code { return classify(err).Code }

// bodyTooLarge is the client message of an [http.MaxBytesError].
const bodyTooLarge = "The request body is too large."

// classify decides what clients see of err (see the package documentation),
// an *http.MaxBytesError being an HTTP-style 413.
func classify(err error) errclass.Verdict { return errclass.Classify(err, httpErrors) }

// httpErrors decides the net/http errors classify knows.
func httpErrors(err error) (errclass.Verdict, bool) {
	if _, ok := err.(*http.MaxBytesError); ok {
		return errclass.HTTPStyle(http.StatusRequestEntityTooLarge, bodyTooLarge), true
	}
	return errclass.Verdict{}, false
}
