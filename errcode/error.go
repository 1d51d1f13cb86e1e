package errcode

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/gqlkit/gqlkit/validate"
)

// ErrNotFound is the kit's "no such thing" sentinel. Stores and resolvers
// return it, usually wrapped with %w, and clients see NOT_FOUND with the
// message "Not found." (404 in REST). [database/sql.ErrNoRows], and
// therefore pgx.ErrNoRows, which matches it, are treated the same way.
var ErrNotFound = errors.New("not found")

// StatusCoder is implemented by HTTP-style errors. When the first decisive
// error in a chain is a StatusCoder whose status is in 400..499, clients see
// its Error text as the message and its status (in extensions.status for
// GraphQL, as the response status for REST). Any other status is treated as
// an unknown error: masked and logged.
type StatusCoder interface {
	StatusCode() int
}

// Error is a client-safe error: Message is what clients see, while
// [Error.Error] is log text that also carries the cause. The zero value of
// each field has a meaning, so a literal is as good as a constructor:
//
//	return &errcode.Error{Code: errcode.CodeForbidden, Err: reason}
//
// An Error whose status (explicit or derived from Code) is 500 or more is
// treated as unknown: its message is masked and it is logged.
type Error struct {
	// Code is the machine-readable kind; it goes to extensions.code. When
	// empty, the code follows the status (see [CodeForStatus]): a bare
	// &Error{Message: "…"} is a 400 BAD_REQUEST.
	Code Code
	// Message is shown to clients; when empty, a default for Code is used
	// ("Not found." for NOT_FOUND, and so on).
	Message string
	// Status is the HTTP status of REST answers. When set, it is also shown
	// in extensions.status of GraphQL errors. 0 (or anything outside
	// 400..599) means Code.Status().
	Status int
	// Fields holds per-field messages, keyed by field path
	// ("input.title" in GraphQL, "title" in REST). They are shown in
	// extensions.validation, or in the "errors" member of a REST body. The
	// map is not copied; do not change it after returning the error.
	Fields map[string][]string
	// Extensions holds extra entries for the extensions of a GraphQL error.
	// "code", "status" and "validation" belong to the presenter: entries
	// with these keys are replaced, or dropped where the presenter sets
	// none.
	Extensions map[string]any
	// Err is the cause. It is logged (at info level, once, by the
	// presenter) and never shown to clients.
	Err error
}

var _ StatusCoder = (*Error)(nil)

// New returns an Error with the given code and client message; an empty
// message selects the code's default.
func New(code Code, msg string) *Error {
	if msg == "" {
		msg = code.DefaultMessage()
	}
	return &Error{Code: code, Message: msg}
}

// Forbidden returns a FORBIDDEN error (403). An empty msg gives
// "This action is unauthorized.", Laravel's wording.
func Forbidden(msg string) *Error { return New(CodeForbidden, msg) }

// NotFound returns a NOT_FOUND error (404). An empty msg gives "Not found.".
func NotFound(msg string) *Error { return New(CodeNotFound, msg) }

// Unauthenticated returns an UNAUTHENTICATED error (401). An empty msg gives
// "Unauthenticated.".
func Unauthenticated(msg string) *Error { return New(CodeUnauthenticated, msg) }

// ValidationFailed returns a VALIDATION_FAILED error (422) carrying
// per-field messages. An empty msg gives the summary that
// [Summarize](fields, nil) builds, for example
// "The body field is required. (and 1 more error)".
func ValidationFailed(msg string, fields map[string][]string) *Error {
	if msg == "" {
		msg = Summarize(fields, nil)
	}
	return &Error{Code: CodeValidationFailed, Message: msg, Fields: fields}
}

// Summarize builds Laravel's summary of a validation failure: the first
// message, followed by " (and 1 more error)" or " (and N more errors)" when
// there are more, N counting every other message of every field. Fields are
// taken in the given order first, then the remaining ones in sorted order.
// With no message at all it returns "The given data was invalid.".
func Summarize(fields map[string][]string, order []string) string {
	ordered := make(validate.Failures, 0, len(fields))
	seen := make(map[string]bool, len(fields))
	for _, k := range order {
		if msgs, ok := fields[k]; ok && !seen[k] {
			seen[k] = true
			ordered = append(ordered, validate.Failure{Path: k, Messages: msgs})
		}
	}
	rest := make([]string, 0, len(fields))
	for k := range fields {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		ordered = append(ordered, validate.Failure{Path: k, Messages: fields[k]})
	}
	return ordered.Summary()
}

// Error returns log text: the code, the client message in quotes and, after
// a colon, the cause, as in
// `NOT_FOUND "Post not found.": sql: no rows in result set`.
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString(string(e.Code))
	b.WriteByte(' ')
	b.WriteString(strconv.Quote(e.ClientMessage()))
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// Is reports whether e is a NOT_FOUND error when target is [ErrNotFound], so
// that errors.Is(errcode.NotFound("Post not found."), errcode.ErrNotFound)
// holds.
func (e *Error) Is(target error) bool {
	return e != nil && target == ErrNotFound && e.Code == CodeNotFound
}

// StatusCode returns the HTTP status of e: Status when it is in 400..599,
// otherwise the status of its code.
func (e *Error) StatusCode() int {
	if e == nil {
		return 500
	}
	if e.Status >= 400 && e.Status <= 599 {
		return e.Status
	}
	return e.Code.Status()
}

// ClientMessage is the message clients see for e: Message, or the
// default message of its code when Message is empty.
func (e *Error) ClientMessage() string {
	if e.Message != "" {
		return e.Message
	}
	return e.Code.DefaultMessage()
}

// Panic is the behaviour of an error that carries a recovered panic: the
// presenter recognises it by these methods, masks it and logs the value
// with its stack. [*PanicError] is the kit's own; an error type of another
// package may implement Panic too.
type Panic interface {
	error
	// PanicValue returns what was passed to panic.
	PanicValue() any
	// StackTrace returns the stack at the time of recovery.
	StackTrace() []byte
}

// PanicError is a recovered panic, the kit's one [Panic] type: the engine
// and the HTTP layers wrap what recover returns in one (see [Recovered]),
// so that the presenter can mask it and log it with its stack. Clients
// always see an internal error.
type PanicError struct {
	// Value is what was passed to panic.
	Value any
	// Stack is the goroutine's stack at the time of recovery, as
	// [runtime/debug.Stack] formats it.
	Stack []byte
	// Text, when set, is the value's text for Error and the log, made by
	// whoever recovered the panic. The GraphQL engine sets it: a value
	// that contains itself cannot be printed with %v.
	Text string
}

// Recovered returns a PanicError for v, the value recover returned, with the
// current stack. Call it in the deferred function that recovers, so that the
// stack still shows where the panic happened:
//
//	defer func() {
//		if v := recover(); v != nil {
//			err = errcode.Recovered(v)
//		}
//	}()
func Recovered(v any) *PanicError {
	return &PanicError{Value: v, Stack: debug.Stack()}
}

// Error returns "panic: " followed by Text, or else the value.
func (e *PanicError) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.Text != "" {
		return "panic: " + e.Text
	}
	return fmt.Sprintf("panic: %v", e.Value)
}

// PanicValue returns e.Value.
func (e *PanicError) PanicValue() any {
	if e == nil {
		return nil
	}
	return e.Value
}

// StackTrace returns e.Stack.
func (e *PanicError) StackTrace() []byte {
	if e == nil {
		return nil
	}
	return e.Stack
}

var _ Panic = (*PanicError)(nil)

// Unwrap returns the value when it is an error (http.ErrAbortHandler, for
// instance), and nil otherwise.
func (e *PanicError) Unwrap() error {
	if e == nil {
		return nil
	}
	err, _ := e.Value.(error)
	return err
}
