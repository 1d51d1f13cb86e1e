package scalar

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
	"github.com/gqlkit/gqlkit/internal/jsonnum"
	"github.com/vektah/gqlparser/v2/ast"
)

// This file reads input values and literals as built-in scalars, and
// writes resolved values as them, with graphql-js's messages.

// int32Of converts a number to a 32-bit integer; integral reports whether it
// was integral, inRange whether it fits.
func int32Of(v any) (n int, isNumber, integral, inRange bool) {
	switch x := v.(type) {
	case int:
		return x, true, true, x >= math.MinInt32 && x <= math.MaxInt32
	case int32:
		return int(x), true, true, true
	case int64:
		return int(x), true, true, x >= math.MinInt32 && x <= math.MaxInt32
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return int(i), true, true, i >= math.MinInt32 && i <= math.MaxInt32
		}
	}
	f, ok := response.NumberOf(v)
	if !ok {
		return 0, false, false, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return 0, true, false, false
	}
	if f < math.MinInt32 || f > math.MaxInt32 {
		return 0, true, true, false
	}
	return int(f), true, true, true
}

// intValue returns a number as an Int, or graphql-js's error for one that
// is not an integer or does not fit in 32 bits.
func intValue(v any) (int, error) {
	n, isNum, integral, inRange := int32Of(v)
	switch {
	case !isNum || !integral:
		return 0, fmt.Errorf("Int cannot represent non-integer value: %s", response.Inspect(v))
	case !inRange:
		return 0, fmt.Errorf("Int cannot represent non 32-bit signed integer value: %s", response.Inspect(v))
	}
	return n, nil
}

// floatValue returns a number as a Float, or graphql-js's error for a
// value that is not a finite number.
func floatValue(v any) (float64, error) {
	f, ok := response.NumberOf(v)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("Float cannot represent non numeric value: %s", response.Inspect(v))
	}
	return f, nil
}

// Parse coerces an input value (variables) to a built-in scalar.
func Parse(kind Kind, v any) (any, error) {
	switch kind {
	case Int:
		n, err := intValue(v)
		if err != nil {
			return nil, err
		}
		return n, nil
	case Float:
		f, err := floatValue(v)
		if err != nil {
			return nil, err
		}
		return f, nil
	case String:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("String cannot represent a non string value: %s", response.Inspect(v))
		}
		return s, nil
	case Boolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("Boolean cannot represent a non boolean value: %s", response.Inspect(v))
		}
		return b, nil
	case ID:
		if s, ok := v.(string); ok {
			return s, nil
		}
		if n, ok := idInt(v); ok {
			return n, nil
		}
		return nil, fmt.Errorf("ID cannot represent value: %s", response.Inspect(v))
	}
	return nil, fmt.Errorf("unknown scalar")
}

// idInt formats an integral number as an ID string.
func idInt(v any) (string, bool) {
	if s, ok := response.ExactInt(v); ok {
		return s, true
	}
	if x, ok := v.(json.Number); ok && jsonnum.IsInteger(string(x)) {
		return string(x), true // exactly the digits sent, however many
	}
	f, ok := response.NumberOf(v)
	if !ok || f != math.Trunc(f) || math.IsInf(f, 0) {
		return "", false
	}
	return strconv.FormatFloat(f, 'f', -1, 64), true
}

// ParseLiteral coerces a literal (already checked for its kind by
// validation) to a built-in scalar.
func ParseLiteral(kind Kind, v *ast.Value) (any, error) {
	switch kind {
	case Int:
		if v.Kind != ast.IntValue {
			return nil, fmt.Errorf("Int cannot represent non-integer value: %s", v.String())
		}
		n, ok := syntax.Int32Literal(v.Raw)
		if !ok {
			return nil, fmt.Errorf("Int cannot represent non 32-bit signed integer value: %s", v.Raw)
		}
		return n, nil
	case Float:
		if v.Kind != ast.IntValue && v.Kind != ast.FloatValue {
			return nil, fmt.Errorf("Float cannot represent non numeric value: %s", v.String())
		}
		f, err := strconv.ParseFloat(v.Raw, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("Float cannot represent non numeric value: %s", v.Raw)
		}
		return f, nil
	case String:
		if v.Kind != ast.StringValue && v.Kind != ast.BlockValue {
			return nil, fmt.Errorf("String cannot represent a non string value: %s", v.String())
		}
		return v.Raw, nil
	case Boolean:
		if v.Kind != ast.BooleanValue {
			return nil, fmt.Errorf("Boolean cannot represent a non boolean value: %s", v.String())
		}
		return v.Raw == "true", nil
	case ID:
		switch v.Kind {
		case ast.StringValue, ast.BlockValue, ast.IntValue:
			return v.Raw, nil
		}
		return nil, fmt.Errorf("ID cannot represent a non-string and non-integer value: %s", v.String())
	}
	return nil, fmt.Errorf("unknown scalar")
}

// Append serialises a resolved value as a built-in scalar.
func Append(dst []byte, kind Kind, v any) ([]byte, error) {
	switch kind {
	case String:
		switch x := v.(type) {
		case string:
			return response.AppendString(dst, x), nil
		case bool:
			return strconv.AppendQuote(dst, strconv.FormatBool(x)), nil
		case fmt.Stringer:
			return response.AppendString(dst, x.String()), nil
		}
		if n, ok := v.(json.Number); ok {
			return response.AppendString(dst, string(n)), nil
		}
		if f, ok := response.NumberOf(v); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return response.AppendString(dst, response.NumberString(v, f)), nil
		}
		return dst, fmt.Errorf("String cannot represent value: %s", response.Inspect(v))
	case Int:
		n, err := intValue(numericResult(v))
		if err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(n), 10), nil
	case Float:
		f, err := floatValue(numericResult(v))
		if err != nil {
			return dst, err
		}
		return response.AppendFloat(dst, f), nil
	case Boolean:
		if b, ok := v.(bool); ok {
			return strconv.AppendBool(dst, b), nil
		}
		if f, ok := response.NumberOf(v); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return strconv.AppendBool(dst, f != 0), nil
		}
		return dst, fmt.Errorf("Boolean cannot represent a non boolean value: %s", response.Inspect(v))
	case ID:
		switch x := v.(type) {
		case string:
			return response.AppendString(dst, x), nil
		case fmt.Stringer:
			return response.AppendString(dst, x.String()), nil
		}
		if s, ok := idInt(v); ok {
			return response.AppendString(dst, s), nil
		}
		return dst, fmt.Errorf("ID cannot represent value: %s", response.Inspect(v))
	}
	return dst, fmt.Errorf("unknown scalar")
}

// numericResult prepares a resolved value for Int and Float as graphql-js's
// serializers do: true and false count as 1 and 0, and a string holding a
// number as that number. Any other value is returned as it is.
func numericResult(v any) any {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil { // "" is no number
			return f
		}
	}
	return v
}

// AppendValue serialises a basic-kind reflect.Value without boxing it.
// handled is false when rv is not of a basic kind.
func AppendValue(dst []byte, kind Kind, rv reflect.Value) (out []byte, handled bool, err error) {
	switch rv.Kind() {
	case reflect.String:
		if kind == String || kind == ID {
			return response.AppendString(dst, rv.String()), true, nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := rv.Int()
		switch kind {
		case Int:
			if n < math.MinInt32 || n > math.MaxInt32 {
				return dst, true, fmt.Errorf("Int cannot represent non 32-bit signed integer value: %d", n)
			}
			return strconv.AppendInt(dst, n, 10), true, nil
		case ID, String:
			dst = append(dst, '"')
			dst = strconv.AppendInt(dst, n, 10)
			return append(dst, '"'), true, nil
		case Float:
			return response.AppendFloat(dst, float64(n)), true, nil
		}
	case reflect.Bool:
		if kind == Boolean {
			return strconv.AppendBool(dst, rv.Bool()), true, nil
		}
	case reflect.Float32, reflect.Float64:
		if kind == Float {
			f := rv.Float()
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return dst, true, fmt.Errorf("Float cannot represent non numeric value: %s", response.FormatFloat(f))
			}
			return response.AppendFloat(dst, f), true, nil
		}
	}
	return dst, false, nil
}
