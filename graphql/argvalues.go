package graphql

import (
	"errors"
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file coerces the argument values of a field, and locates the
// errors of those that cannot be coerced.

// argumentValues coerces the arguments of a field.
func (s *Schema) argumentValues(fi *fieldInfo, args ast.ArgumentList, vars map[string]any) (Args, error) {
	out := make(map[string]any, len(fi.Args))
	for _, a := range fi.Args {
		var lit *ast.Value
		if arg := args.ForName(a.Name); arg != nil {
			lit = arg.Value
		}
		v, err := s.valueFromAST(lit, a.Type, vars)
		if err == errAbsent {
			if a.HasDefault {
				out[a.Name] = s.defaultOf(a)
			} else if a.Type.Kind == schema.KindNonNull {
				if lit != nil && lit.Kind == ast.Variable {
					return Args{}, fmt.Errorf("Argument %q of required type %q was provided the variable \"$%s\" which was not provided a runtime value.", a.Name, a.Type.String(), lit.Raw)
				}
				return Args{}, fmt.Errorf("Argument %q of required type %q was not provided.", a.Name, a.Type.String())
			}
			continue
		}
		if err != nil {
			if lit != nil && lit.Kind == ast.Variable {
				return Args{}, &argumentError{msg: fmt.Sprintf("Argument %q of non-null type %q must not be null.", a.Name, a.Type.String()), at: lit.Position}
			}
			return Args{}, literalError(a, lit, err)
		}
		out[a.Name] = v
	}
	return Args{m: out}, nil
}

// argumentError is an argument that cannot be coerced, located at its
// value. ext carries the extensions of a custom scalar's *gqlerror.Error;
// panic, a custom scalar's panic, which the presenter masks and logs.
type argumentError struct {
	msg   string
	ext   map[string]any
	at    *ast.Position
	panic *errcode.PanicError
}

// literalError reports a literal argument that its type refuses.
func literalError(a *argInfo, lit *ast.Value, err error) *argumentError {
	var pe *errcode.PanicError
	if errors.As(err, &pe) {
		return &argumentError{msg: fmt.Sprintf("Argument %q has invalid value %s.", a.Name, lit.String()), at: lit.Position, panic: pe}
	}
	msg, ext := parserMessage(err)
	return &argumentError{msg: fmt.Sprintf("Argument %q has invalid value %s: %s", a.Name, lit.String(), msg), ext: ext, at: lit.Position}
}

// parserMessage returns the text of an error a custom scalar's ParseValue
// or ParseLiteral returned, with its extensions (see graphQLError).
func parserMessage(err error) (string, map[string]any) {
	if ge := graphQLError(err); ge != nil {
		return ge.Message, ge.Extensions
	}
	return fault.ErrorText(err), nil
}

func (e *argumentError) Error() string { return e.msg }
