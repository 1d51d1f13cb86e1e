package graphql

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
)

// ErrSyntax is the cause of the error [ParseQuery] returns for text that is
// not a GraphQL document.
var ErrSyntax = errors.New("graphql: syntax error")

// ErrTokenLimit is the cause of the error [ParseQuery] returns when the
// document has more lexical tokens than allowed.
var ErrTokenLimit = errors.New("graphql: too many tokens")

// ErrInvalidDocument is the cause of errors in a validated document that the
// engine finds while preparing it, such as a literal that cannot be coerced
// to its argument's type.
var ErrInvalidDocument = errors.New("graphql: invalid document")

// ErrInvalidOperation is the cause of errors reported when no operation can
// be selected: an empty document, an unknown operation name, or several
// operations and no name.
var ErrInvalidOperation = errors.New("graphql: no operation to execute")

// ErrInvalidVariables is the cause (errors.Is) of every error reported for
// variable values that cannot be coerced to their declared types.
var ErrInvalidVariables = errors.New("graphql: invalid variables")

// RequestError returns e, an error the engine reports before execution
// (from [ParseQuery], [Schema.Validate], [Schema.Prepare] or the variables
// of [Operation.Execute]), as clients see it: its message and locations,
// without its cause (one of this package's sentinels, no secret), and with
// extensions.code set: BAD_USER_INPUT for variables and operation
// selection, GRAPHQL_PARSE_FAILED for syntax and the token limit,
// GRAPHQL_VALIDATION_FAILED otherwise. Extensions a custom scalar's parser
// added are kept beside the code, which always wins, unless they cannot be
// written as JSON. graphqlhttp and [Schema.Do] present request errors so.
func RequestError(e *gqlerror.Error) *gqlerror.Error {
	code := errcode.CodeGraphQLValidation
	switch {
	case errors.Is(e.Err, ErrInvalidVariables), errors.Is(e.Err, ErrInvalidOperation):
		code = errcode.CodeBadUserInput
	case errors.Is(e.Err, ErrSyntax), errors.Is(e.Err, ErrTokenLimit):
		code = errcode.CodeParseFailed
	}
	ext := make(map[string]any, len(e.Extensions)+1)
	for k, v := range e.Extensions {
		ext[k] = v
	}
	ext["code"] = code
	if len(e.Extensions) > 0 {
		if _, err := json.Marshal(ext); err != nil {
			ext = map[string]any{"code": code}
		}
	}
	return &gqlerror.Error{Message: e.Message, Locations: e.Locations, Extensions: ext}
}

// recovered wraps what recover returned, in a resolver, a custom scalar
// or the executor, in the kit's one panic error type, with the current
// stack, for the presenter to mask and log. Its text is rendered with the
// bounds of error messages (a value that contains itself is not followed
// for ever), and an error value whose chain leads back to itself is
// reduced to its text.
func recovered(r any) *errcode.PanicError {
	var text string
	switch x := r.(type) {
	case string:
		text = x
	case error:
		r = boundedError(x)
		text = errorText(x)
	default:
		text = response.Inspect(r)
	}
	return &errcode.PanicError{Value: r, Stack: debug.Stack(), Text: text}
}

// errorText is err.Error(), or a description of err when err is a typed
// nil pointer (a resolver's "return nil, errOfSomeType" slip) or its Error
// method panics.
func errorText(err error) (s string) {
	if v := reflect.ValueOf(err); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Sprintf("a nil %T returned as an error", err)
	}
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("the Error method of %T panicked", err)
		}
	}()
	return err.Error()
}

// graphQLError returns the *gqlerror.Error in a parser's error, or nil.
// graphql-js keeps a GraphQLError's message and extensions as they are;
// its Message is used, not its Error method, which adds "input:".
func graphQLError(err error) *gqlerror.Error {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return ge
	}
	return nil
}

// maxErrorChain bounds the errors a chain may hold (the error and all it
// unwraps to, through Unwrap() error and Unwrap() []error). errors.Is and
// errors.As follow a chain to its end, so an error from user code whose
// Unwrap leads back to itself would make them loop for ever, or recurse
// until the stack runs out; such an error is replaced, where it enters the
// engine, by one that keeps only its text.
const maxErrorChain = 64

// boundedError returns err, or an error with err's text and no chain when
// err's chain is longer than maxErrorChain (a cycle) or an Unwrap panics.
func boundedError(err error) error {
	if err == nil || chainWithin(err, maxErrorChain) {
		return err
	}
	return opaqueError{errorText(err)}
}

// chainWithin reports whether err's chain holds at most budget errors.
func chainWithin(err error, budget int) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	stack := []error{err}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if budget--; budget < 0 {
			return false
		}
		switch x := e.(type) {
		case interface{ Unwrap() error }:
			if u := x.Unwrap(); u != nil {
				stack = append(stack, u)
			}
		case interface{ Unwrap() []error }:
			for _, u := range x.Unwrap() {
				if u != nil {
					stack = append(stack, u)
				}
			}
		}
	}
	return true
}

// opaqueError is an error reduced to its text.
type opaqueError struct{ msg string }

func (e opaqueError) Error() string { return e.msg }
