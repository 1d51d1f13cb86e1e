package validation

import (
	"errors"
	"math"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// literalValuesRule checks what gqlparser's ValuesOfCorrectType leaves out:
// Int literals beyond 32 bits and literals of custom scalars.
func (s *Validator) literalValuesRule(run ruleRun) core.RuleFunc {
	return func(observers *core.Events, addError core.AddErrFunc) {
		observers.OnValue(func(_ *core.Walker, value *ast.Value) {
			if *run.left > 0 {
				s.checkLiteral(value, addError)
			}
		})
	}
}

// checkLiteral is literalValuesRule at one value.
func (s *Validator) checkLiteral(value *ast.Value, addError core.AddErrFunc) {
	if value.Definition == nil || value.Definition.Kind != ast.Scalar || value.ExpectedType == nil {
		return
	}
	if value.Definition.Name == "Int" {
		if value.Kind != ast.IntValue {
			return
		}
		n, err := strconv.ParseInt(value.Raw, 10, 64)
		if err == nil && (n < math.MinInt32 || n > math.MaxInt32) { // beyond 64 bits, gqlparser reports it
			addError(core.Message("Int cannot represent non 32-bit signed integer value: %s", value.Raw), core.At(value.Position))
		}
		return
	}
	if !s.customLiteral(value, value.ExpectedType, value.Definition) {
		return
	}
	if err := s.parseLiteral(value.Definition.Name, value); err != nil {
		var f *Fault
		if errors.As(err, &f) {
			// A server bug, not a bad document: kept as the cause,
			// for Validate to return as its fault.
			addError(core.Message("Expected value of type %q, found %s.", value.ExpectedType.String(), value.String()),
				core.At(value.Position), func(e *gqlerror.Error) { e.Err = f })
			return
		}
		if errors.Is(err, ErrNoValue) {
			addError(core.Message("Expected value of type %q, found %s.", value.ExpectedType.String(), value.String()),
				core.At(value.Position))
			return
		}
		var ge *gqlerror.Error
		if errors.As(err, &ge) {
			// graphql-js reports a GraphQLError from parseLiteral
			// as it is: its message and its extensions.
			addError(core.Message("%s", ge.Message), core.At(value.Position),
				func(e *gqlerror.Error) { e.Extensions = ge.Extensions })
			return
		}
		addError(core.Message("Expected value of type %q, found %s; %s", value.ExpectedType.String(), value.String(), err.Error()),
			core.At(value.Position))
	}
}

// customLiteral reports whether literalValuesRule parses v as the custom
// scalar def, where the walker gives v the type expected (def, its named
// type).
func (s *Validator) customLiteral(v *ast.Value, expected *ast.Type, def *ast.Definition) bool {
	if def == nil || def.Kind != ast.Scalar || expected == nil {
		return false
	}
	if isBuiltinScalar(def.Name) || !s.custom[def.Name] || v.Kind == ast.NullValue || syntax.HasVariables(v) {
		return false
	}
	if expected.Elem != nil && v.Kind == ast.ListValue {
		// The walker visits each item at the item type. (A single value
		// at a list position stands for a list of one, so it is parsed
		// as the item.)
		return false
	}
	return true
}

// literalPanics reports whether some custom scalar's parser panics on a
// literal of doc that literalValuesRule parses, or whether it cannot tell
// (the document is nested too deeply to be searched). It parses each such
// literal once, and follows only values whose type can hold a custom
// scalar.
func (s *Validator) literalPanics(doc *ast.QueryDocument) bool {
	if len(s.customInputs) == 0 {
		return false
	}
	found := false
	complete := s.eachArgValue(doc, func(v *ast.Value, typ *ast.Type) {
		found = found || s.panicsIn(v, typ, s.ast.Types[typ.Name()], 0)
	})
	return found || !complete
}

// panicsIn is literalPanics for v, given the type expected by the walker
// (def, its named type), and what the walker gives a type inside v.
func (s *Validator) panicsIn(v *ast.Value, expected *ast.Type, def *ast.Definition, depth int) bool {
	switch {
	case v == nil || def == nil || !s.customInputs[def]:
		return false
	case depth > maxWalkDepth:
		return true // cannot tell
	}
	if s.customLiteral(v, expected, def) {
		var f *Fault
		if err := s.parseLiteral(def.Name, v); err != nil && errors.As(err, &f) {
			return true
		}
	}
	switch v.Kind {
	case ast.ObjectValue:
		for _, ch := range v.Children {
			if fd := def.Fields.ForName(ch.Name); fd != nil && s.panicsIn(ch.Value, fd.Type, s.ast.Types[fd.Type.Name()], depth+1) {
				return true
			}
		}
	case ast.ListValue:
		if expected.Elem != nil {
			for _, ch := range v.Children {
				if s.panicsIn(ch.Value, expected.Elem, def, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// customInputTypes returns the input types whose literals can hold a
// custom scalar's: the custom scalars, and the input objects with a field
// of such a type, directly or through lists and other input objects.
func (s *Validator) customInputTypes() map[*ast.Definition]bool {
	out := map[*ast.Definition]bool{}
	for _, d := range s.ast.Types {
		if s.custom[d.Name] && d.Kind == ast.Scalar {
			out[d] = true
		}
	}
	for changed := len(out) > 0; changed; { // each pass only adds, so it ends
		changed = false
		for _, d := range s.ast.Types {
			if d.Kind != ast.InputObject || out[d] {
				continue
			}
			for _, f := range d.Fields {
				if out[s.ast.Types[f.Type.Name()]] {
					out[d], changed = true, true
					break
				}
			}
		}
	}
	return out
}
