// Package fault is what a panic or an error from user code (a resolver, a
// custom scalar, a method the default resolver calls) becomes once it
// enters the engine: a panic error with its stack ([Recovered]), and an
// error whose chain cannot loop ([BoundedError], [ErrorText]).
package fault

import (
	"fmt"
	"reflect"
	"runtime/debug"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
)

// Recovered wraps what recover returned, in a resolver, a custom scalar
// or the executor, in the kit's one panic error type, with the current
// stack, for the presenter to mask and log. Its text is rendered with the
// bounds of error messages (a value that contains itself is not followed
// for ever), and an error value whose chain leads back to itself is
// reduced to its text.
func Recovered(r any) *errcode.PanicError {
	var text string
	switch x := r.(type) {
	case string:
		text = x
	case error:
		r = BoundedError(x)
		text = ErrorText(x)
	default:
		text = response.Inspect(r)
	}
	return &errcode.PanicError{Value: r, Stack: debug.Stack(), Text: text}
}

// ErrorText is err.Error(), or a description of err when err is a typed
// nil pointer (a resolver's "return nil, errOfSomeType" slip) or its Error
// method panics.
func ErrorText(err error) (s string) {
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

// maxErrorChain bounds the errors a chain may hold (the error and all it
// unwraps to, through Unwrap() error and Unwrap() []error). errors.Is and
// errors.As follow a chain to its end, so an error from user code whose
// Unwrap leads back to itself would make them loop for ever, or recurse
// until the stack runs out; such an error is replaced, where it enters the
// engine, by one that keeps only its text.
const maxErrorChain = 64

// BoundedError returns err, or an error with err's text and no chain when
// err's chain is longer than maxErrorChain (a cycle) or an Unwrap panics.
func BoundedError(err error) error {
	if err == nil || chainWithin(err, maxErrorChain) {
		return err
	}
	return opaqueError{ErrorText(err)}
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
