package coerce

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/scalar"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// This file coerces the literals of a document (arguments, defaults of
// variables, the defaults of the schema's arguments and input fields).

// errAbsent reports a variable that was not provided, inside a literal.
var errAbsent = errors.New("absent")

// Literal coerces a literal (which may contain variables whose coerced
// values are in vars) to type t, filling in the defaults of the
// input-object fields it leaves out. Its error is errAbsent when the
// literal is nil or a variable that was not provided.
func Literal(v *ast.Value, t *schema.Type, vars map[string]any) (any, error) {
	return literalValue(v, t, vars, true)
}

// literalValue is Literal; defaults says whether to fill in the
// defaults of input-object fields the literal leaves out (a default's own
// literal, which has them filled in already, is read without).
func literalValue(v *ast.Value, t *schema.Type, vars map[string]any, defaults bool) (any, error) {
	if v == nil {
		return nil, errAbsent
	}
	if v.Kind == ast.Variable {
		val, ok := vars[v.Raw]
		if !ok {
			return nil, errAbsent
		}
		if t.Kind == schema.KindNonNull && val == nil {
			return nil, fmt.Errorf("Expected non-nullable type %q not to be null.", t.String())
		}
		return val, nil
	}
	if t.Kind == schema.KindNonNull {
		if v.Kind == ast.NullValue {
			return nil, fmt.Errorf("Expected non-nullable type %q not to be null.", t.String())
		}
		out, err := literalValue(v, t.Of, vars, defaults)
		if err == nil && out == nil {
			// A custom scalar's parser said null.
			return nil, fmt.Errorf("Expected non-nullable type %q not to be null.", t.String())
		}
		return out, err
	}
	if v.Kind == ast.NullValue {
		return nil, nil
	}
	switch t.Kind {
	case schema.KindList:
		if v.Kind != ast.ListValue {
			item, err := literalValue(v, t.Of, vars, defaults)
			if err != nil {
				return nil, err
			}
			return []any{item}, nil
		}
		if len(v.Children) == 0 {
			return emptyList, nil
		}
		out := make([]any, len(v.Children))
		bs := t.Of.Nullable().Builtin
		builtin := bs != 0
		for i, c := range v.Children {
			if builtin && c.Value != nil && c.Value.Kind != ast.Variable && c.Value.Kind != ast.NullValue {
				// The common case of long lists, without the steps
				// above that do not apply to it.
				item, err := scalar.ParseLiteral(bs, c.Value)
				if err != nil {
					return nil, err
				}
				out[i] = item
				continue
			}
			item, err := literalValue(c.Value, t.Of, vars, defaults)
			if err == errAbsent {
				if t.Of.Kind == schema.KindNonNull {
					return nil, fmt.Errorf("Expected non-nullable type %q not to be null.", t.Of.String())
				}
				item, err = nil, nil
			}
			if err != nil {
				return nil, err
			}
			out[i] = item
		}
		return out, nil
	case schema.KindInputObject:
		if v.Kind != ast.ObjectValue {
			return nil, fmt.Errorf("Expected type %q to be an object.", t.Name)
		}
		info := t.Input
		out := make(map[string]any, len(info.Fields))
		for _, c := range v.Children {
			if info.ByName[c.Name] == nil {
				return nil, fmt.Errorf("Field %q is not defined by type %q.", c.Name, t.Name)
			}
		}
		for _, f := range info.Fields {
			var lit *ast.Value
			for _, c := range v.Children {
				if c.Name == f.Name {
					lit = c.Value
					break
				}
			}
			val, err := literalValue(lit, f.Type, vars, defaults)
			if err == errAbsent {
				if f.HasDefault {
					if defaults {
						out[f.Name] = Default(f)
					}
				} else if f.Type.Kind == schema.KindNonNull {
					return nil, fmt.Errorf("Field %q of required type %q was not provided.", f.Name, f.Type.String())
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			out[f.Name] = val
		}
		return out, nil
	case schema.KindEnum:
		if v.Kind != ast.EnumValue {
			return nil, fmt.Errorf("Enum %q cannot represent non-enum value: %s.", t.Name, v.String())
		}
		val, ok := t.Enum.ByName[v.Raw]
		if !ok {
			return nil, fmt.Errorf("Value %q does not exist in %q enum.", v.Raw, t.Name)
		}
		return val, nil
	case schema.KindScalar:
		if t.Builtin != 0 {
			return scalar.ParseLiteral(t.Builtin, v)
		}
		out, err := ParseScalarLiteral(t, v, vars)
		if out == schema.Null {
			out = nil
		}
		return out, err
	}
	return nil, fmt.Errorf("Expected an input type, found %s.", t)
}

// ParseScalarLiteral parses the literal v (whose variables' coerced values
// are in vars) as the custom scalar sc: with its ParseLiteral, given a
// copy of v, when it has one and v holds no variables, else with its
// ParseValue, given v as JSON would give it. A panic is recovered as an
// *errcode.PanicError; a nil result without an error is a NoValueError;
// graphql.Null is returned as it is.
func ParseScalarLiteral(sc *schema.Type, v *ast.Value, vars map[string]any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fault.Recovered(r)
		}
	}()
	if sc.Scalar.ParseLiteral != nil && !syntax.HasVariables(v) {
		out, err = sc.Scalar.ParseLiteral(CopyLiteral(v)) // the callback's own
	} else {
		out, err = sc.Scalar.ParseValue(untypedValue(v, vars))
	}
	if err != nil {
		return nil, fault.BoundedError(err)
	}
	if out == nil {
		return nil, NoValueError{fmt.Sprintf("Expected value of type %q, found %s.", sc.Name, v.String())}
	}
	return out, nil
}

// NoValueError reports a custom scalar's parser that gave nil without an
// error: its message is complete, and validation does not add to it.
type NoValueError struct{ msg string }

// Error returns the complete message.
func (e NoValueError) Error() string { return e.msg }

// untypedValue converts a literal to the value encoding/json would produce
// for the same JSON (numbers as json.Number).
func untypedValue(v *ast.Value, vars map[string]any) any {
	switch v.Kind {
	case ast.Variable:
		return vars[v.Raw]
	case ast.IntValue, ast.FloatValue:
		return json.Number(v.Raw)
	case ast.StringValue, ast.BlockValue, ast.EnumValue:
		return v.Raw
	case ast.BooleanValue:
		return v.Raw == "true"
	case ast.NullValue:
		return nil
	case ast.ListValue:
		out := make([]any, len(v.Children))
		for i, c := range v.Children {
			out[i] = untypedValue(c.Value, vars)
		}
		return out
	case ast.ObjectValue:
		out := make(map[string]any, len(v.Children))
		for _, c := range v.Children {
			out[c.Name] = untypedValue(c.Value, vars)
		}
		return out
	}
	return nil
}

// Default returns the value of a's default for one use. A default that
// holds custom scalar values is parsed again from its literal, so that
// every execution gets values of its own; maps and lists of others are
// copied (for a scalar default, copying costs nothing).
func Default(a *schema.Arg) any {
	if !a.Fresh {
		// A copy: coerced variables are handed to the caller of
		// Variables, who may change them.
		return Clone(a.Default)
	}
	v, err := literalValue(a.DefaultAST, a.Type, nil, false)
	if err != nil {
		return a.Default // it parsed when the schema was built
	}
	return v
}
