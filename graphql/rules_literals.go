package graphql

import (
	"errors"
	"math"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"

	apierror "github.com/gqlkit/gqlkit/errors"
)

// valuesOfCorrectType wraps gqlparser's rule, which refuses an Int literal
// beyond 64 bits even where graphql-js accepts it: as a Float (1e20) or as
// an ID (the digits as a string). It also drops what the rule reports at a
// variable: gqlparser checks the variable's default there again (graphql-js
// checks it once, where it is written), and a default it cannot read, such
// as a 20-digit ID, was refused at every use.
func valuesOfCorrectType(inner core.RuleFunc) core.RuleFunc {
	return func(observers *core.Events, addError core.AddErrFunc) {
		allowed := map[*ast.Position]bool{}
		observers.OnValue(func(_ *core.Walker, value *ast.Value) {
			if value.Kind == ast.Variable && value.Position != nil {
				allowed[value.Position] = true
				return
			}
			if value.Kind == ast.IntValue && value.Definition != nil && value.Definition.Kind == ast.Scalar &&
				(value.Definition.Name == "Float" || value.Definition.Name == "ID") && value.Position != nil {
				if _, err := strconv.ParseInt(value.Raw, 10, 64); err != nil {
					allowed[value.Position] = true
				}
			}
		})
		inner(observers, func(options ...core.ErrorOption) {
			var probe gqlerror.Error
			var at *ast.Position
			for _, o := range options {
				o(&probe)
			}
			for pos := range allowed {
				if len(probe.Locations) == 1 && probe.Locations[0].Line == pos.Line && probe.Locations[0].Column == pos.Column {
					at = pos
				}
			}
			if at != nil {
				return
			}
			addError(options...)
		})
	}
}

// literalValuesRule checks what gqlparser's ValuesOfCorrectType leaves out:
// Int literals beyond 32 bits and literals of custom scalars.
func (s *Schema) literalValuesRule(observers *core.Events, addError core.AddErrFunc) {
	observers.OnValue(func(_ *core.Walker, value *ast.Value) {
		if value.Definition == nil || value.Definition.Kind != ast.Scalar || value.ExpectedType == nil {
			return
		}
		switch value.Definition.Name {
		case "Int":
			if value.Kind != ast.IntValue {
				return
			}
			n, err := strconv.ParseInt(value.Raw, 10, 64)
			if err == nil && (n < math.MinInt32 || n > math.MaxInt32) { // beyond 64 bits, gqlparser reports it
				addError(core.Message("Int cannot represent non 32-bit signed integer value: %s", value.Raw), core.At(value.Position))
			}
		case "Float", "String", "Boolean", "ID":
		default:
			sc, ok := s.named[value.Definition.Name].(*Scalar)
			if !ok || value.Kind == ast.NullValue || hasVariables(value) {
				return
			}
			if value.ExpectedType.Elem != nil && value.Kind == ast.ListValue {
				// The walker visits each item at the item type. (A single
				// value at a list position stands for a list of one, so it
				// is parsed as the item.)
				return
			}
			if _, err := s.parseScalarLiteral(sc, value, nil); err != nil {
				var pe *apierror.PanicError
				if errors.As(err, &pe) {
					// A server bug, not a bad document: kept as the cause
					// so that the HTTP layer masks and logs it.
					addError(core.Message("Expected value of type %q, found %s.", value.ExpectedType.String(), value.String()),
						core.At(value.Position), func(e *gqlerror.Error) { e.Err = pe })
					return
				}
				var nv noValueError
				if errors.As(err, &nv) {
					addError(core.Message("Expected value of type %q, found %s.", value.ExpectedType.String(), value.String()),
						core.At(value.Position))
					return
				}
				if ge := graphQLError(err); ge != nil {
					// graphql-js reports a GraphQLError from parseLiteral
					// as it is: its message and its extensions.
					addError(core.Message("%s", ge.Message), core.At(value.Position),
						func(e *gqlerror.Error) { e.Extensions = ge.Extensions })
					return
				}
				addError(core.Message("Expected value of type %q, found %s; %s", value.ExpectedType.String(), value.String(), errorText(err)),
					core.At(value.Position))
			}
		}
	})
}
