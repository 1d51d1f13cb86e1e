package coerce

import (
	"errors"
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file coerces the argument values of a field, and locates the
// errors of those that cannot be coerced.

// ArgumentValues coerces the arguments of field fi, given as args in the
// document, whose variables' coerced values are in vars. An argument that
// cannot be coerced is an error (an *ArgumentError when it is located at
// its value).
func ArgumentValues(fi *schema.Field, args ast.ArgumentList, vars map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(fi.Args))
	for _, a := range fi.Args {
		var lit *ast.Value
		if arg := args.ForName(a.Name); arg != nil {
			lit = arg.Value
		}
		v, err := Literal(lit, a.Type, vars)
		if err == errAbsent {
			if a.HasDefault {
				out[a.Name] = Default(a)
			} else if a.Type.Kind == schema.KindNonNull {
				if lit != nil && lit.Kind == ast.Variable {
					return nil, fmt.Errorf("Argument %q of required type %q was provided the variable \"$%s\" which was not provided a runtime value.", a.Name, a.Type.String(), lit.Raw)
				}
				return nil, fmt.Errorf("Argument %q of required type %q was not provided.", a.Name, a.Type.String())
			}
			continue
		}
		if err != nil {
			if lit != nil && lit.Kind == ast.Variable {
				return nil, &ArgumentError{Msg: fmt.Sprintf("Argument %q of non-null type %q must not be null.", a.Name, a.Type.String()), At: lit.Position}
			}
			return nil, literalError(a, lit, err)
		}
		out[a.Name] = v
	}
	return out, nil
}

// ArgumentError is an argument that cannot be coerced, located at its
// value.
type ArgumentError struct {
	Msg string
	// Ext carries the extensions of a custom scalar's *gqlerror.Error.
	Ext map[string]any
	At  *ast.Position
	// Panic is a custom scalar's panic, which the presenter masks and
	// logs.
	Panic *errcode.PanicError
}

// Error returns the message.
func (e *ArgumentError) Error() string { return e.Msg }

// literalError reports a literal argument that its type refuses.
func literalError(a *schema.Arg, lit *ast.Value, err error) *ArgumentError {
	var pe *errcode.PanicError
	if errors.As(err, &pe) {
		return &ArgumentError{Msg: fmt.Sprintf("Argument %q has invalid value %s.", a.Name, lit.String()), At: lit.Position, Panic: pe}
	}
	msg, ext := parserMessage(err)
	return &ArgumentError{Msg: fmt.Sprintf("Argument %q has invalid value %s: %s", a.Name, lit.String(), msg), Ext: ext, At: lit.Position}
}

// parserMessage returns the text of an error a custom scalar's ParseValue
// or ParseLiteral returned, with its extensions (see GraphQLError).
func parserMessage(err error) (string, map[string]any) {
	if ge := GraphQLError(err); ge != nil {
		return ge.Message, ge.Extensions
	}
	return fault.ErrorText(err), nil
}

// GraphQLError returns the *gqlerror.Error in a parser's error, or nil.
// graphql-js keeps a GraphQLError's message and extensions as they are;
// its Message is used, not its Error method, which adds "input:".
func GraphQLError(err error) *gqlerror.Error {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return ge
	}
	return nil
}
