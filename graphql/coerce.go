package graphql

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/scalar"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// typeFromAST turns a validated document's type reference into a schema type.
func (s *Schema) typeFromAST(t *ast.Type) *schema.Type {
	var out *schema.Type
	if t.Elem != nil {
		inner := s.typeFromAST(t.Elem)
		if inner == nil {
			return nil
		}
		out = &schema.Type{Kind: schema.KindList, Of: inner}
	} else {
		nt := s.named[t.NamedType]
		if nt == nil {
			return nil
		}
		out = s.nodes[nt]
	}
	if t.NonNull {
		out = &schema.Type{Kind: schema.KindNonNull, Of: out}
	}
	return out
}

// inputError is one failure found while coercing an input value.
type inputError struct {
	path  []any // field names and list indexes below the root value
	msg   string
	val   any                 // the offending value
	ext   map[string]any      // the extensions of a custom scalar's *gqlerror.Error
	panic *errcode.PanicError // a custom scalar's ParseValue panicked
}

func printPath(root string, path []any) string {
	var b strings.Builder
	b.WriteString(root)
	for _, p := range path {
		switch x := p.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(x) + "]")
		default:
			b.WriteString("." + fmt.Sprint(x))
		}
	}
	return b.String()
}

func extendPath(path []any, p any) []any {
	out := make([]any, len(path)+1)
	copy(out, path)
	out[len(path)] = p
	return out
}

// maxInputDepth bounds how deeply a variable's value may nest.
const maxInputDepth = 256

// coercion is the state of coercing one variable's value: the errors
// found, and the parts (values, at every level) visited.
type coercion struct {
	errs  []inputError
	nodes int
}

// maxInputNodes bounds the parts of one variable's value.
const maxInputNodes = 1 << 20

// maxInputErrors bounds the errors coercing one variable collects, as
// validation bounds each rule's: a value with thousands of unknown fields
// must not cost thousands of messages.
const maxInputErrors = 100

// coerceInput coerces an external input value (from JSON variables) to type
// t, reporting every failure in st.
func (s *Schema) coerceInput(v any, t *schema.Type, path []any, st *coercion) any {
	if len(st.errs) >= maxInputErrors {
		return nil // the answer lists no more; do not spend more on it
	}
	if st.nodes++; st.nodes > maxInputNodes {
		// A Go caller's value whose maps share sub-maps unfolds to a tree
		// of 2^depth nodes; JSON cannot share.
		if st.nodes == maxInputNodes+1 {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("The value has more than %d parts.", maxInputNodes)})
		}
		return nil
	}
	if len(path) > maxInputDepth {
		// JSON cannot nest this deep through graphqlhttp; a Go caller's
		// map that contains itself can.
		st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("The value is nested more than %d levels deep.", maxInputDepth)})
		return nil
	}
	if t.Kind == schema.KindNonNull {
		if v == nil {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Expected non-nullable type %q not to be null.", t.String())})
			return nil
		}
		before := len(st.errs)
		out := s.coerceInput(v, t.Of, path, st)
		if out == nil && len(st.errs) == before {
			// A custom scalar's ParseValue said null.
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Expected non-nullable type %q not to be null.", t.String())})
		}
		return out
	}
	if v == nil {
		return nil
	}
	switch t.Kind {
	case schema.KindList:
		if items, ok := v.([]any); ok {
			out := make([]any, len(items))
			for i, item := range items {
				out[i] = s.coerceInput(item, t.Of, extendPath(path, i), st)
			}
			return out
		}
		if rv := reflect.ValueOf(v); (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) && rv.Type().Elem().Kind() != reflect.Uint8 {
			out := make([]any, rv.Len())
			for i := range out {
				out[i] = s.coerceInput(rv.Index(i).Interface(), t.Of, extendPath(path, i), st)
			}
			return out
		}
		return []any{s.coerceInput(v, t.Of, path, st)}
	case schema.KindInputObject:
		m, ok := v.(map[string]any)
		if !ok {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Expected type %q to be an object.", t.Name)})
			return nil
		}
		info := t.Input
		out := make(map[string]any, len(info.Fields))
		for _, f := range info.Fields {
			fv, present := m[f.Name]
			if !present {
				if f.HasDefault {
					out[f.Name] = s.defaultOf(f)
				} else if f.Type.Kind == schema.KindNonNull {
					st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Field %q of required type %q was not provided.", f.Name, f.Type.String())})
				}
				continue
			}
			out[f.Name] = s.coerceInput(fv, f.Type, extendPath(path, f.Name), st)
		}
		for _, k := range sortedKeys(m) {
			if len(st.errs) >= maxInputErrors {
				break
			}
			if info.ByName[k] == nil {
				st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Field %q is not defined by type %q.", k, t.Name)})
			}
		}
		return out
	case schema.KindEnum:
		name, ok := v.(string)
		if !ok {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Enum %q cannot represent non-string value: %s.", t.Name, response.Inspect(v))})
			return nil
		}
		val, ok := t.Enum.ByName[name]
		if !ok {
			st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Value %q does not exist in %q enum.", name, t.Name)})
			return nil
		}
		return val
	case schema.KindScalar:
		if t.Builtin != 0 {
			out, err := scalar.Parse(t.Builtin, v)
			if err != nil {
				st.errs = append(st.errs, inputError{path: path, val: v, msg: err.Error()})
				return nil
			}
			return out
		}
		out, err := s.parseScalarValue(t, v)
		if err != nil {
			ie := inputError{path: path, val: v}
			ge := graphQLError(err)
			pe, panicked := err.(*errcode.PanicError)
			switch {
			case panicked || err == errNoValue:
				// As graphql-js says for a parser that returns nothing;
				// a panic's text is for the log, not the client.
				ie.msg = fmt.Sprintf("Expected type %q.", t.Name)
				ie.panic = pe
			case ge != nil:
				// A GraphQL error speaks for itself, as in graphql-js.
				ie.msg, ie.ext = ge.Message, ge.Extensions
			default:
				ie.msg = fmt.Sprintf("Expected type %q. %s", t.Name, fault.ErrorText(err))
			}
			st.errs = append(st.errs, ie)
			return nil
		}
		if out == Null {
			return nil
		}
		return out
	}
	st.errs = append(st.errs, inputError{path: path, val: v, msg: fmt.Sprintf("Expected an input type, found %s.", t)})
	return nil
}

// parseScalarValue calls a custom scalar's ParseValue. It returns
// errNoValue for a nil result (graphql-js's undefined: the input is
// invalid), and Null when the scalar says the input stands for null.
func (s *Schema) parseScalarValue(sc *schema.Type, v any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fault.Recovered(r)
		}
	}()
	out, err = sc.Scalar.ParseValue(v)
	if err != nil {
		return nil, fault.BoundedError(err)
	}
	if out == nil {
		return nil, errNoValue
	}
	if out == Null {
		return Null, nil
	}
	return out, nil
}

// errNoValue reports a custom scalar's ParseValue returning nil.
var errNoValue = errors.New("no value")

// errAbsent reports a variable that was not provided, inside a literal.
var errAbsent = errors.New("absent")

// valueFromAST coerces a literal (which may contain variables whose coerced
// values are in vars) to type t. It returns errAbsent when the literal is a
// variable that was not provided.
func (s *Schema) valueFromAST(v *ast.Value, t *schema.Type, vars map[string]any) (any, error) {
	return s.literalValue(v, t, vars, true)
}

// literalValue is valueFromAST; defaults says whether to fill in the
// defaults of input-object fields the literal leaves out (a default's own
// literal, which has them filled in already, is read without).
func (s *Schema) literalValue(v *ast.Value, t *schema.Type, vars map[string]any, defaults bool) (any, error) {
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
		out, err := s.literalValue(v, t.Of, vars, defaults)
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
			item, err := s.literalValue(v, t.Of, vars, defaults)
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
			item, err := s.literalValue(c.Value, t.Of, vars, defaults)
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
			val, err := s.literalValue(lit, f.Type, vars, defaults)
			if err == errAbsent {
				if f.HasDefault {
					if defaults {
						out[f.Name] = s.defaultOf(f)
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
		out, err := s.parseScalarLiteral(t, v, vars)
		if out == Null {
			out = nil
		}
		return out, err
	}
	return nil, fmt.Errorf("Expected an input type, found %s.", t)
}

func (s *Schema) parseScalarLiteral(sc *schema.Type, v *ast.Value, vars map[string]any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fault.Recovered(r)
		}
	}()
	if sc.Scalar.ParseLiteral != nil && !syntax.HasVariables(v) {
		out, err = sc.Scalar.ParseLiteral(plan.CopyLiteral(v)) // the callback's own
	} else {
		out, err = sc.Scalar.ParseValue(untypedValue(v, vars))
	}
	if err != nil {
		return nil, fault.BoundedError(err)
	}
	if out == nil {
		return nil, noValueError{fmt.Sprintf("Expected value of type %q, found %s.", sc.Name, v.String())}
	}
	return out, nil
}

// noValueError reports a custom scalar's parser that gave nil without an
// error: its message is complete, and validation does not add to it.
type noValueError struct{ msg string }

func (e noValueError) Error() string { return e.msg }

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

// coerceVariables coerces the raw variables of a request for the variable
// definitions defs; defaults, when not nil, holds by index the copies of
// the defaults to read instead of the definitions' own (literalcopies.go). Every
// failure is reported, each located at its variable definition; fault is
// the first panic of a custom scalar's parser, a server bug rather than bad
// input, which the caller answers apart.
func (s *Schema) coerceVariables(defs ast.VariableDefinitionList, defaults []*ast.Value, raw map[string]any) (_ map[string]any, errs gqlerror.List, fault error) {
	if len(defs) == 0 {
		return nil, nil, nil
	}
	out := make(map[string]any, len(defs))
	for i, def := range defs {
		t := s.typeFromAST(def.Type)
		locs := []gqlerror.Location{{Line: def.Position.Line, Column: def.Position.Column}}
		if t == nil || !t.IsInput() {
			errs = append(errs, variableError(locs, fmt.Sprintf("Variable \"$%s\" expected value of type %q which cannot be used as an input type.", def.Variable, def.Type.String())))
			continue
		}
		v, present := raw[def.Variable]
		if !present {
			if def.DefaultValue != nil {
				lit := def.DefaultValue
				if defaults != nil && defaults[i] != nil {
					lit = defaults[i]
				}
				val, err := s.valueFromAST(lit, t, nil)
				if err != nil {
					errs = append(errs, variableError(locs, fmt.Sprintf("Variable \"$%s\" has an invalid default value: %s", def.Variable, err.Error())))
					continue
				}
				out[def.Variable] = val
			} else if def.Type.NonNull {
				errs = append(errs, variableError(locs, fmt.Sprintf("Variable \"$%s\" of required type %q was not provided.", def.Variable, def.Type.String())))
			}
			continue
		}
		if v == nil && def.Type.NonNull {
			errs = append(errs, variableError(locs, fmt.Sprintf("Variable \"$%s\" of non-null type %q must not be null.", def.Variable, def.Type.String())))
			continue
		}
		var st coercion
		val := s.coerceInput(v, t, nil, &st)
		ierrs := st.errs
		for _, ie := range ierrs {
			at := ""
			if len(ie.path) > 0 {
				at = fmt.Sprintf(" at %q", printPath(def.Variable, ie.path))
			}
			ve := variableError(locs, fmt.Sprintf("Variable \"$%s\" got invalid value %s%s; %s", def.Variable, response.Inspect(ie.val), at, ie.msg))
			ve.Extensions = ie.ext
			if ie.panic != nil && fault == nil {
				fault = ie.panic
			}
			errs = append(errs, ve)
		}
		if len(ierrs) == 0 {
			out[def.Variable] = val
		}
	}
	if fault != nil {
		return nil, nil, fault
	}
	return out, errs, nil
}

func variableError(locs []gqlerror.Location, msg string) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Locations: locs, Err: ErrInvalidVariables}
}
