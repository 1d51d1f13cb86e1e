package graphql_test

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
)

// completionSchema returns values of many Go types under each GraphQL type.
func completionSchema(t *testing.T, fields ...graphql.Field) *graphql.Schema {
	t.Helper()
	return newSchema(t, graphql.SchemaConfig{Query: queryWith(fields...)})
}

func TestScalarSerialisation(t *testing.T) {
	colorEnum := &graphql.Enum{Name: "Color", Values: []graphql.EnumValue{{Name: "RED", Value: red}, {Name: "GREEN", Value: green}}}
	sizeEnum := &graphql.Enum{Name: "Size", Values: []graphql.EnumValue{{Name: "SMALL"}, {Name: "LARGE"}}}
	tests := []struct {
		name  string
		typ   graphql.Type
		value any
		want  string // the response
	}{
		{name: "Int from int", typ: graphql.Int, value: 42, want: `{"data":{"v":42}}`},
		{name: "Int from int8", typ: graphql.Int, value: int8(-8), want: `{"data":{"v":-8}}`},
		{name: "Int from uint16", typ: graphql.Int, value: uint16(65535), want: `{"data":{"v":65535}}`},
		{name: "Int from int64 max 32-bit", typ: graphql.Int, value: int64(math.MaxInt32), want: `{"data":{"v":2147483647}}`},
		{name: "Int from an integral float", typ: graphql.Int, value: 3.0, want: `{"data":{"v":3}}`},
		{name: "Int from a numeric string", typ: graphql.Int, value: "12", want: `{"data":{"v":12}}`},
		{name: "Int from a boolean", typ: graphql.Int, value: true, want: `{"data":{"v":1}}`},
		{name: "Int from a pointer", typ: graphql.Int, value: ptr(7), want: `{"data":{"v":7}}`},
		{name: "Int from a nil pointer", typ: graphql.Int, value: (*int)(nil), want: `{"data":{"v":null}}`},
		{name: "Int above 32 bits", typ: graphql.Int, value: int64(math.MaxInt32) + 1,
			want: `{"data":{"v":null},"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{name: "Int below 32 bits", typ: graphql.Int, value: math.MinInt32 - 1,
			want: `{"data":{"v":null},"errors":[{"message":"Int cannot represent non 32-bit signed integer value: -2147483649","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{name: "Int above 32 bits from uint64", typ: graphql.Int, value: uint64(1) << 40,
			want: `{"data":{"v":null},"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 1099511627776","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{name: "Int from a fraction", typ: graphql.Int, value: 1.5,
			want: `{"data":{"v":null},"errors":[{"message":"Int cannot represent non-integer value: 1.5","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{name: "Int from text", typ: graphql.Int, value: "many",
			want: `{"data":{"v":null},"errors":[{"message":"Int cannot represent non-integer value: \"many\"","locations":[{"line":1,"column":3}],"path":["v"]}]}`},

		{name: "Float 1.5", typ: graphql.Float, value: 1.5, want: `{"data":{"v":1.5}}`},
		{name: "Float from int", typ: graphql.Float, value: 2, want: `{"data":{"v":2}}`},
		{name: "Float from float32", typ: graphql.Float, value: float32(0.5), want: `{"data":{"v":0.5}}`},
		{name: "Float 1e21", typ: graphql.Float, value: 1e21, want: `{"data":{"v":1e+21}}`},
		{name: "Float below 1e21", typ: graphql.Float, value: 123456789012345680000.0, want: `{"data":{"v":123456789012345680000}}`},
		{name: "Float 1e-7", typ: graphql.Float, value: 1e-7, want: `{"data":{"v":1e-7}}`},
		{name: "Float 1e-6", typ: graphql.Float, value: 1e-6, want: `{"data":{"v":0.000001}}`},
		{name: "Float -1.5e-10", typ: graphql.Float, value: -1.5e-10, want: `{"data":{"v":-1.5e-10}}`},
		{name: "Float -0", typ: graphql.Float, value: math.Copysign(0, -1), want: `{"data":{"v":0}}`},
		{name: "Float 0.1+0.2", typ: graphql.Float, value: tenth + 0.2, want: `{"data":{"v":0.30000000000000004}}`},
		{name: "Float max", typ: graphql.Float, value: math.MaxFloat64, want: `{"data":{"v":1.7976931348623157e+308}}`},
		{name: "Float smallest", typ: graphql.Float, value: 5e-324, want: `{"data":{"v":5e-324}}`},
		{name: "Float NaN", typ: graphql.Float, value: math.NaN(),
			want: `{"data":{"v":null},"errors":[{"message":"Float cannot represent non numeric value: NaN","locations":[{"line":1,"column":3}],"path":["v"]}]}`},

		{name: "String", typ: graphql.String, value: "plain", want: `{"data":{"v":"plain"}}`},
		{name: "String escapes", typ: graphql.String, value: "q\"b\\s/n\nt\tr\rb\bf\fc\x01\x1f del\x7f <&> é \u2028",
			want: `{"data":{"v":"q\"b\\s/n\nt\tr\rb\bf\fc\u0001\u001f del` + "\x7f" + ` <&> é ` + "\u2028" + `"}}`},
		{name: "String invalid UTF-8", typ: graphql.String, value: "a\xffb\xc3", want: `{"data":{"v":"a\ufffdb\ufffd"}}`},
		{name: "String from int", typ: graphql.String, value: 12, want: `{"data":{"v":"12"}}`},
		{name: "String from float", typ: graphql.String, value: 1.5, want: `{"data":{"v":"1.5"}}`},
		{name: "String from bool", typ: graphql.String, value: true, want: `{"data":{"v":"true"}}`},
		{name: "String from a Stringer", typ: graphql.String, value: stringer("told"), want: `{"data":{"v":"told"}}`},
		{name: "String from a named string type", typ: graphql.String, value: named("n"), want: `{"data":{"v":"n"}}`},
		{name: "String from a struct", typ: graphql.String, value: struct{ A int }{1},
			want: `{"data":{"v":null},"errors":[{"message":"String cannot represent value: { A: 1 }","locations":[{"line":1,"column":3}],"path":["v"]}]}`},

		{name: "Int from a json.Number", typ: graphql.Int, value: json.Number("12"), want: `{"data":{"v":12}}`},
		{name: "Int from an empty string", typ: graphql.Int, value: "",
			want: `{"data":{"v":null},"errors":[{"message":"Int cannot represent non-integer value: \"\"","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{name: "Float from a numeric string", typ: graphql.Float, value: "1.5", want: `{"data":{"v":1.5}}`},
		{name: "String from a json.Number", typ: graphql.String, value: json.Number("1e3"), want: `{"data":{"v":"1e3"}}`},
		{name: "Boolean", typ: graphql.Boolean, value: false, want: `{"data":{"v":false}}`},
		{name: "Boolean from a number", typ: graphql.Boolean, value: 2, want: `{"data":{"v":true}}`},
		{name: "Boolean from a string", typ: graphql.Boolean, value: "true",
			want: `{"data":{"v":null},"errors":[{"message":"Boolean cannot represent a non boolean value: \"true\"","locations":[{"line":1,"column":3}],"path":["v"]}]}`},

		{name: "ID from string", typ: graphql.ID, value: "u1", want: `{"data":{"v":"u1"}}`},
		{name: "ID from int64", typ: graphql.ID, value: int64(1) << 40, want: `{"data":{"v":"1099511627776"}}`},
		{name: "ID from uint64", typ: graphql.ID, value: uint64(math.MaxUint64), want: `{"data":{"v":"18446744073709551615"}}`},
		{name: "ID from a boolean", typ: graphql.ID, value: true,
			want: `{"data":{"v":null},"errors":[{"message":"ID cannot represent value: true","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{name: "ID from a fraction", typ: graphql.ID, value: 1.5,
			want: `{"data":{"v":null},"errors":[{"message":"ID cannot represent value: 1.5","locations":[{"line":1,"column":3}],"path":["v"]}]}`},

		{name: "enum", typ: colorEnum, value: green, want: `{"data":{"v":"GREEN"}}`},
		{name: "enum without internal values", typ: sizeEnum, value: "LARGE", want: `{"data":{"v":"LARGE"}}`},
		{name: "enum unknown value", typ: colorEnum, value: color(9),
			want: `{"data":{"v":null},"errors":[{"message":"Enum \"Color\" cannot represent value: 9","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{name: "enum value of another Go type", typ: colorEnum, value: 1,
			want: `{"data":{"v":null},"errors":[{"message":"Enum \"Color\" cannot represent value: 1","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{name: "enum name is not a value", typ: colorEnum, value: "RED",
			want: `{"data":{"v":null},"errors":[{"message":"Enum \"Color\" cannot represent value: \"RED\"","locations":[{"line":1,"column":3}],"path":["v"]}]}`},

		{name: "custom scalar", typ: dateScalar, value: mustDate(t, "2024-02-29"), want: `{"data":{"v":"2024-02-29"}}`},
		{name: "custom scalar error", typ: dateScalar, value: "2024-02-29",
			want: `{"data":{"v":null},"errors":[{"message":"Date cannot represent string","locations":[{"line":1,"column":3}],"path":["v"]}]}`},

		{name: "custom scalar Serialize panics", typ: &graphql.Scalar{Name: "Fragile",
			Serialize:  func(any) (any, error) { panic("cannot serialise") },
			ParseValue: func(v any) (any, error) { return v, nil }}, value: 1,
			want: `{"data":{"v":null},"errors":[{"message":"panic: cannot serialise","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{name: "custom scalar writes JSON", typ: &graphql.Scalar{Name: "JSON",
			Serialize:  func(v any) (any, error) { return v, nil },
			ParseValue: func(v any) (any, error) { return v, nil }}, value: map[string]any{"b": []any{1, "x<y", nil, 2.5}, "a": true},
			want: `{"data":{"v":{"a":true,"b":[1,"x<y",null,2.5]}}}`},
		{name: "list of Int", typ: graphql.NewList(graphql.Int), value: []int{1, 2}, want: `{"data":{"v":[1,2]}}`},
		{name: "list from an array", typ: graphql.NewList(graphql.String), value: [2]string{"a", "b"}, want: `{"data":{"v":["a","b"]}}`},
		{name: "list with nulls", typ: graphql.NewList(graphql.Int), value: []any{1, nil, 3}, want: `{"data":{"v":[1,null,3]}}`},
		{name: "list of lists", typ: graphql.NewList(graphql.NewList(graphql.Int)), value: [][]int{{1}, nil, {}}, want: `{"data":{"v":[[1],null,[]]}}`},
		{name: "list of enums", typ: graphql.NewList(colorEnum), value: []color{red, green}, want: `{"data":{"v":["RED","GREEN"]}}`},
		{name: "list item error", typ: graphql.NewList(graphql.Int), value: []any{1, "x", 3},
			want: `{"data":{"v":[1,null,3]},"errors":[{"message":"Int cannot represent non-integer value: \"x\"","locations":[{"line":1,"column":3}],"path":["v",1]}]}`},
		{name: "list from a non-list", typ: graphql.NewList(graphql.Int), value: 5,
			want: `{"data":{"v":null},"errors":[{"message":"Expected Iterable, but did not find one for field \"Query.v\".","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := completionSchema(t, graphql.Field{Name: "v", Type: tt.typ, Resolve: constant(tt.value)})
			if got := response(t, s, `{ v }`, "", ""); got != tt.want {
				t.Errorf("response:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

var tenth = 0.1 // a variable, so that tenth+0.2 is computed in float64

type stringer string

func (s stringer) String() string { return string(s) }

type named string

func mustDate(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func ptr[T any](v T) *T { return &v }
