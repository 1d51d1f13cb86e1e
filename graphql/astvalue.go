package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/scalar"
	"github.com/gqlkit/gqlkit/internal/jsonnum"
)

// This file turns Go values back into literals of a type: the defaults
// that validation, introspection and the SDL read.

// astFromValue turns an internal value into a literal of type t (used for
// defaults: validation, introspection and SDL all read the literal). A
// value nested more than coerce.MaxInputDepth levels deep (a default map that
// contains itself) is an error.
func (s *Schema) astFromValue(v any, t Type) (*ast.Value, error) {
	nodes := 0
	return s.astFromValueAt(v, t, 0, &nodes)
}

func (s *Schema) astFromValueAt(v any, t Type, depth int, nodes *int) (*ast.Value, error) {
	if depth > coerce.MaxInputDepth {
		return nil, fmt.Errorf("the value is nested more than %d levels deep", coerce.MaxInputDepth)
	}
	if *nodes++; *nodes > coerce.MaxInputNodes {
		return nil, fmt.Errorf("the value has more than %d parts (do its maps share sub-maps?)", coerce.MaxInputNodes)
	}
	if nn, ok := t.(*NonNull); ok {
		if v == Null || v == nil {
			return nil, fmt.Errorf("null is not allowed for %s", t.String())
		}
		return s.astFromValueAt(v, nn.OfType, depth+1, nodes)
	}
	if v == Null || v == nil {
		return &ast.Value{Kind: ast.NullValue, Raw: "null"}, nil
	}
	switch x := t.(type) {
	case *List:
		rv := reflect.ValueOf(v)
		if (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) && rv.Type().Elem().Kind() != reflect.Uint8 {
			out := &ast.Value{Kind: ast.ListValue}
			for i := 0; i < rv.Len(); i++ {
				c, err := s.astFromValueAt(rv.Index(i).Interface(), x.OfType, depth+1, nodes)
				if err != nil {
					return nil, fmt.Errorf("item %d: %w", i, err)
				}
				out.Children = append(out.Children, &ast.ChildValue{Value: c})
			}
			return out, nil
		}
		return s.astFromValueAt(v, x.OfType, depth+1, nodes)
	case *InputObject:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s needs a map[string]any, not %T", x.Name, v)
		}
		info := s.inputs[x]
		out := &ast.Value{Kind: ast.ObjectValue}
		for _, f := range info.Fields {
			fv, ok := m[f.Name]
			if !ok {
				continue
			}
			c, err := s.astFromValueAt(fv, defOf(f.Type), depth+1, nodes)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", f.Name, err)
			}
			out.Children = append(out.Children, &ast.ChildValue{Name: f.Name, Value: c})
		}
		for _, k := range sortedKeys(m) {
			if info.ByName[k] == nil {
				return nil, fmt.Errorf("field %q is not defined by %s", k, x.Name)
			}
		}
		return out, nil
	case *Enum:
		info := s.enums[x]
		if !reflect.TypeOf(v).Comparable() {
			return nil, fmt.Errorf("%T is not a value of enum %s", v, x.Name)
		}
		name, ok := info.ByValue[v]
		if !ok {
			return nil, fmt.Errorf("%s is not a value of enum %s", response.Inspect(v), x.Name)
		}
		return &ast.Value{Kind: ast.EnumValue, Raw: name}, nil
	case BuiltinScalar:
		raw, err := scalar.Append(nil, scalar.Kind(x), v)
		if err != nil {
			return nil, err
		}
		// Numbers stay json.Number, so that untypedAST keeps Int and
		// Float literals apart.
		var ser any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&ser); err != nil {
			return nil, err
		}
		return untypedAST(ser, x == ID, depth+1, nodes)
	case *Scalar:
		ser, err := x.Serialize(v)
		if err != nil {
			return nil, err
		}
		if ser == nil || ser == Null {
			return nil, fmt.Errorf("%s.Serialize returned null for %s", x.Name, response.Inspect(v))
		}
		return untypedAST(ser, false, depth+1, nodes)
	}
	return nil, fmt.Errorf("%s is not an input type", typeString(t))
}

// untypedAST turns a JSON-like value into a literal.
func untypedAST(v any, isID bool, depth int, nodes *int) (*ast.Value, error) {
	if depth > coerce.MaxInputDepth {
		return nil, fmt.Errorf("the value is nested more than %d levels deep", coerce.MaxInputDepth)
	}
	if *nodes++; *nodes > coerce.MaxInputNodes {
		return nil, fmt.Errorf("the value has more than %d parts (do its maps share sub-maps?)", coerce.MaxInputNodes)
	}
	switch x := v.(type) {
	case nil:
		return &ast.Value{Kind: ast.NullValue, Raw: "null"}, nil
	case bool:
		return &ast.Value{Kind: ast.BooleanValue, Raw: strconv.FormatBool(x)}, nil
	case string:
		if isID && jsonnum.IsInteger(x) {
			return &ast.Value{Kind: ast.IntValue, Raw: x}, nil
		}
		return &ast.Value{Kind: ast.StringValue, Raw: x}, nil
	case json.Number:
		if jsonnum.IsInteger(string(x)) {
			return &ast.Value{Kind: ast.IntValue, Raw: string(x)}, nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, err
		}
		return numberAST(f), nil
	case []any:
		out := &ast.Value{Kind: ast.ListValue}
		for _, e := range x {
			c, err := untypedAST(e, false, depth+1, nodes)
			if err != nil {
				return nil, err
			}
			out.Children = append(out.Children, &ast.ChildValue{Value: c})
		}
		return out, nil
	case map[string]any:
		out := &ast.Value{Kind: ast.ObjectValue}
		for _, k := range sortedKeys(x) {
			c, err := untypedAST(x[k], false, depth+1, nodes)
			if err != nil {
				return nil, err
			}
			out.Children = append(out.Children, &ast.ChildValue{Name: k, Value: c})
		}
		return out, nil
	}
	if f, ok := response.NumberOf(v); ok {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%v cannot be written as a literal", v)
		}
		if n, isInt := v.(int); isInt {
			return &ast.Value{Kind: ast.IntValue, Raw: strconv.Itoa(n)}, nil
		}
		return numberAST(f), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var generic any
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	if err := d.Decode(&generic); err != nil {
		return nil, err
	}
	return untypedAST(generic, false, depth+1, nodes)
}

func numberAST(f float64) *ast.Value {
	s := response.FormatFloat(f)
	if jsonnum.IsInteger(s) {
		return &ast.Value{Kind: ast.IntValue, Raw: s}
	}
	return &ast.Value{Kind: ast.FloatValue, Raw: s}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
