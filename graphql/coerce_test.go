package graphql_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql"
)

// color is the internal type of the Color enum: resolvers see these values,
// clients see the names.
type color int

const (
	red color = iota + 1
	green
	blue
)

// coerceSchema has one field, echo, with an argument of every input kind.
// echo records the arguments it received; before records that it ran. Both
// are selected by every query, before first, so a coercion failure found
// lazily (after execution started) would show up as a call of before.
type coerceSchema struct {
	schema *graphql.Schema
	calls  calls
	args   graphql.Args
}

var dateScalar = &graphql.Scalar{
	Name:           "Date",
	Description:    "A calendar date, written YYYY-MM-DD.",
	SpecifiedByURL: "https://www.rfc-editor.org/rfc/rfc3339#section-5.6",
	Serialize: func(v any) (any, error) {
		t, ok := v.(time.Time)
		if !ok {
			return nil, fmt.Errorf("Date cannot represent %T", v)
		}
		return t.Format(time.DateOnly), nil
	},
	ParseValue: func(v any) (any, error) {
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("Date must be a string")
		}
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return nil, errors.New("Date must be written YYYY-MM-DD")
		}
		return t, nil
	},
}

func newCoerceSchema(t *testing.T) *coerceSchema {
	t.Helper()
	cs := &coerceSchema{}
	colorEnum := &graphql.Enum{Name: "Color", Values: []graphql.EnumValue{
		{Name: "RED", Value: red}, {Name: "GREEN", Value: green}, {Name: "BLUE", Value: blue},
	}}
	sizeEnum := &graphql.Enum{Name: "Size", Values: []graphql.EnumValue{{Name: "SMALL"}, {Name: "LARGE"}}}
	// upper has its own ParseLiteral, which must win over ParseValue for
	// literals (and only for literals).
	upper := &graphql.Scalar{
		Name:      "Upper",
		Serialize: func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) {
			s, ok := v.(string)
			if !ok {
				return nil, errors.New("Upper must be a string")
			}
			return "value:" + strings.ToUpper(s), nil
		},
		ParseLiteral: func(v *ast.Value) (any, error) {
			if v.Kind != ast.StringValue {
				return nil, errors.New("Upper must be a string")
			}
			return "literal:" + strings.ToUpper(v.Raw), nil
		},
	}
	// nothing parses no value at all, and panics on "panic".
	nothing := &graphql.Scalar{
		Name:      "Nothing",
		Serialize: func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) {
			if v == "panic" {
				panic("parse")
			}
			return nil, nil
		},
	}
	point := &graphql.InputObject{Name: "Point", Fields: []graphql.InputField{
		{Name: "x", Type: graphql.NewNonNull(graphql.Int)},
		{Name: "y", Type: graphql.Int, Default: 0},
	}}
	filter := &graphql.InputObject{Name: "Filter", Fields: []graphql.InputField{
		{Name: "name", Type: graphql.String},
		{Name: "limit", Type: graphql.Int, Default: 10},
		{Name: "color", Type: colorEnum, Default: green},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
		{Name: "point", Type: point},
	}}
	echo := func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
		cs.calls.add("echo")
		cs.args = args
		return "ok", nil
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "before", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			cs.calls.add("before")
			return "ok", nil
		}},
		{Name: "echo", Type: graphql.String, Resolve: echo, Args: []graphql.Argument{
			{Name: "i", Type: graphql.Int},
			{Name: "f", Type: graphql.Float},
			{Name: "s", Type: graphql.String},
			{Name: "b", Type: graphql.Boolean},
			{Name: "id", Type: graphql.ID},
			{Name: "c", Type: colorEnum},
			{Name: "z", Type: sizeEnum},
			{Name: "d", Type: dateScalar},
			{Name: "u", Type: upper},
			{Name: "filter", Type: filter},
			{Name: "ints", Type: graphql.NewList(graphql.NewNonNull(graphql.Int))},
			{Name: "matrix", Type: graphql.NewList(graphql.NewList(graphql.Int))},
			{Name: "nn", Type: graphql.NewNonNull(graphql.Int), Default: 1},
			{Name: "nothing", Type: nothing},
		}},
		{Name: "defaults", Type: graphql.String, Resolve: echo, Args: []graphql.Argument{
			{Name: "n", Type: graphql.Int, Default: 7},
			{Name: "c", Type: colorEnum, Default: blue},
			{Name: "filter", Type: filter, Default: map[string]any{"name": "d"}},
			{Name: "ints", Type: graphql.NewList(graphql.Int), Default: []int{1, 2}},
			{Name: "none", Type: graphql.String, Default: graphql.Null},
			{Name: "absent", Type: graphql.String},
		}},
	}}
	cs.schema = newSchema(t, graphql.SchemaConfig{Query: query})
	return cs
}

// typedArgs renders arguments with the Go type of every value, keys sorted.
func typedArgs(args graphql.Args) string {
	b, err := json.Marshal(typedValue(args.Map()))
	if err != nil {
		return "!" + err.Error()
	}
	return string(b)
}

func typedValue(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = typedValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = typedValue(e)
		}
		return out
	case time.Time:
		return "time.Time:" + x.Format(time.DateOnly)
	}
	return fmt.Sprintf("%T:%v", v, v)
}

const okResponse = `{"data":{"before":"ok","echo":"ok"}}`

func TestVariableCoercion(t *testing.T) {
	tests := []struct {
		name     string
		decl     string // variable definitions
		args     string // arguments of echo
		vars     string // JSON
		wantArgs string // when the request succeeds
		want     string // the response, when it fails
	}{
		// Int is 32-bit, integral, and a number.
		{name: "Int max", decl: "$v: Int", args: "i: $v", vars: `{"v": 2147483647}`, wantArgs: `{"i":"int:2147483647","nn":"int:1"}`},
		{name: "Int min", decl: "$v: Int", args: "i: $v", vars: `{"v": -2147483648}`, wantArgs: `{"i":"int:-2147483648","nn":"int:1"}`},
		{name: "Int 1.0 is integral", decl: "$v: Int", args: "i: $v", vars: `{"v": 1.0}`, wantArgs: `{"i":"int:1","nn":"int:1"}`},
		{name: "Int exponent", decl: "$v: Int", args: "i: $v", vars: `{"v": 1e3}`, wantArgs: `{"i":"int:1000","nn":"int:1"}`},
		{name: "Int null", decl: "$v: Int", args: "i: $v", vars: `{"v": null}`, wantArgs: `{"i":null,"nn":"int:1"}`},
		{name: "Int omitted", decl: "$v: Int", args: "i: $v", vars: `{}`, wantArgs: `{"nn":"int:1"}`},
		{name: "Int above 32 bits", decl: "$v: Int", args: "i: $v", vars: `{"v": 2147483648}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":7}]}]}`},
		{name: "Int below 32 bits", decl: "$v: Int", args: "i: $v", vars: `{"v": -2147483649}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value -2147483649; Int cannot represent non 32-bit signed integer value: -2147483649","locations":[{"line":1,"column":7}]}]}`},
		{name: "Int from a string", decl: "$v: Int", args: "i: $v", vars: `{"v": "12"}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value \"12\"; Int cannot represent non-integer value: \"12\"","locations":[{"line":1,"column":7}]}]}`},
		{name: "Int fraction", decl: "$v: Int", args: "i: $v", vars: `{"v": 1.5}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value 1.5; Int cannot represent non-integer value: 1.5","locations":[{"line":1,"column":7}]}]}`},
		{name: "Int boolean", decl: "$v: Int", args: "i: $v", vars: `{"v": true}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value true; Int cannot represent non-integer value: true","locations":[{"line":1,"column":7}]}]}`},

		// Float accepts integers, not strings.
		{name: "Float from an integer", decl: "$v: Float", args: "f: $v", vars: `{"v": 3}`, wantArgs: `{"f":"float64:3","nn":"int:1"}`},
		{name: "Float", decl: "$v: Float", args: "f: $v", vars: `{"v": -2.5e-3}`, wantArgs: `{"f":"float64:-0.0025","nn":"int:1"}`},
		{name: "Float from a string", decl: "$v: Float", args: "f: $v", vars: `{"v": "2.5"}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value \"2.5\"; Float cannot represent non numeric value: \"2.5\"","locations":[{"line":1,"column":7}]}]}`},

		// String accepts only strings.
		{name: "String", decl: "$v: String", args: "s: $v", vars: `{"v": "héllo"}`, wantArgs: `{"nn":"int:1","s":"string:héllo"}`},
		{name: "String from a number", decl: "$v: String", args: "s: $v", vars: `{"v": 12}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value 12; String cannot represent a non string value: 12","locations":[{"line":1,"column":7}]}]}`},
		{name: "String from a boolean", decl: "$v: String", args: "s: $v", vars: `{"v": false}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value false; String cannot represent a non string value: false","locations":[{"line":1,"column":7}]}]}`},

		// Boolean accepts only booleans.
		{name: "Boolean", decl: "$v: Boolean", args: "b: $v", vars: `{"v": true}`, wantArgs: `{"b":"bool:true","nn":"int:1"}`},
		{name: "Boolean from a string", decl: "$v: Boolean", args: "b: $v", vars: `{"v": "true"}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value \"true\"; Boolean cannot represent a non boolean value: \"true\"","locations":[{"line":1,"column":7}]}]}`},

		// ID accepts a string or an integer, and resolvers get a string.
		{name: "ID from a string", decl: "$v: ID", args: "id: $v", vars: `{"v": "abc"}`, wantArgs: `{"id":"string:abc","nn":"int:1"}`},
		{name: "ID from an integer", decl: "$v: ID", args: "id: $v", vars: `{"v": 12}`, wantArgs: `{"id":"string:12","nn":"int:1"}`},
		{name: "ID from a large integer", decl: "$v: ID", args: "id: $v", vars: `{"v": 9007199254740993}`, wantArgs: `{"id":"string:9007199254740993","nn":"int:1"}`},
		{name: "ID from a fraction", decl: "$v: ID", args: "id: $v", vars: `{"v": 1.5}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value 1.5; ID cannot represent value: 1.5","locations":[{"line":1,"column":7}]}]}`},
		{name: "ID from a boolean", decl: "$v: ID", args: "id: $v", vars: `{"v": true}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value true; ID cannot represent value: true","locations":[{"line":1,"column":7}]}]}`},

		// Enums: exact names, mapped to internal values.
		{name: "enum", decl: "$v: Color", args: "c: $v", vars: `{"v": "BLUE"}`, wantArgs: `{"c":"graphql_test.color:3","nn":"int:1"}`},
		{name: "enum without internal values", decl: "$v: Size", args: "z: $v", vars: `{"v": "LARGE"}`, wantArgs: `{"nn":"int:1","z":"string:LARGE"}`},
		{name: "enum name in another case", decl: "$v: Color", args: "c: $v", vars: `{"v": "blue"}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value \"blue\"; Value \"blue\" does not exist in \"Color\" enum.","locations":[{"line":1,"column":7}]}]}`},
		{name: "enum internal value", decl: "$v: Color", args: "c: $v", vars: `{"v": 3}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value 3; Enum \"Color\" cannot represent non-string value: 3.","locations":[{"line":1,"column":7}]}]}`},

		// Custom scalars: ParseValue decides.
		{name: "custom scalar", decl: "$v: Date", args: "d: $v", vars: `{"v": "2024-02-29"}`, wantArgs: `{"d":"time.Time:2024-02-29","nn":"int:1"}`},
		{name: "custom scalar ParseValue even with ParseLiteral", decl: "$v: Upper", args: "u: $v", vars: `{"v": "abc"}`, wantArgs: `{"nn":"int:1","u":"string:value:ABC"}`},
		{name: "custom scalar ParseValue returns nil", decl: "$v: Nothing", args: "nothing: $v", vars: `{"v": "x"}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value \"x\"; Expected type \"Nothing\".","locations":[{"line":1,"column":7}]}]}`},
		{name: "custom scalar null is not parsed", decl: "$v: Nothing", args: "nothing: $v", vars: `{"v": null}`, wantArgs: `{"nn":"int:1","nothing":null}`},
		{name: "custom scalar refused", decl: "$v: Date", args: "d: $v", vars: `{"v": "2023-02-29"}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value \"2023-02-29\"; Expected type \"Date\". Date must be written YYYY-MM-DD","locations":[{"line":1,"column":7}]}]}`},

		// Input objects: defaults applied, unknown fields refused, nested
		// values coerced, every problem reported.
		{name: "input object defaults", decl: "$v: Filter", args: "filter: $v", vars: `{"v": {"name": "x"}}`,
			wantArgs: `{"filter":{"color":"graphql_test.color:2","limit":"int:10","name":"string:x"},"nn":"int:1"}`},
		{name: "input object explicit null beats default", decl: "$v: Filter", args: "filter: $v", vars: `{"v": {"limit": null, "color": "RED"}}`,
			wantArgs: `{"filter":{"color":"graphql_test.color:1","limit":null},"nn":"int:1"}`},
		{name: "input object nested", decl: "$v: Filter", args: "filter: $v", vars: `{"v": {"tags": "one", "point": {"x": 1}}}`,
			wantArgs: `{"filter":{"color":"graphql_test.color:2","limit":"int:10","point":{"x":"int:1","y":"int:0"},"tags":["string:one"]},"nn":"int:1"}`},
		{name: "input object unknown field", decl: "$v: Filter", args: "filter: $v", vars: `{"v": {"nope": 1}}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value { nope: 1 }; Field \"nope\" is not defined by type \"Filter\".","locations":[{"line":1,"column":7}]}]}`},
		{name: "input object __typename", decl: "$v: Filter", args: "filter: $v", vars: `{"v": {"__typename": "Filter"}}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value { __typename: \"Filter\" }; Field \"__typename\" is not defined by type \"Filter\".","locations":[{"line":1,"column":7}]}]}`},
		{name: "input object required field missing", decl: "$v: Filter", args: "filter: $v", vars: `{"v": {"point": {"y": 1}}}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value { y: 1 } at \"v.point\"; Field \"x\" of required type \"Int!\" was not provided.","locations":[{"line":1,"column":7}]}]}`},
		{name: "input object nested Int above 32 bits", decl: "$v: Filter", args: "filter: $v", vars: `{"v": {"point": {"x": 2147483648}}}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value 2147483648 at \"v.point.x\"; Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":7}]}]}`},
		{name: "input object not an object", decl: "$v: Filter", args: "filter: $v", vars: `{"v": "x"}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value \"x\"; Expected type \"Filter\" to be an object.","locations":[{"line":1,"column":7}]}]}`},
		{name: "input object every problem", decl: "$v: Filter", args: "filter: $v", vars: `{"v": {"limit": "ten", "tags": [null], "zzz": 1}}`,
			want: `{"errors":[` +
				`{"message":"Variable \"$v\" got invalid value \"ten\" at \"v.limit\"; Int cannot represent non-integer value: \"ten\"","locations":[{"line":1,"column":7}]},` +
				`{"message":"Variable \"$v\" got invalid value null at \"v.tags[0]\"; Expected non-nullable type \"String!\" not to be null.","locations":[{"line":1,"column":7}]},` +
				`{"message":"Variable \"$v\" got invalid value { limit: \"ten\", tags: [null], zzz: 1 }; Field \"zzz\" is not defined by type \"Filter\".","locations":[{"line":1,"column":7}]}]}`},

		// Lists: a single value is wrapped, items are checked.
		{name: "list of one value", decl: "$v: [Int!]", args: "ints: $v", vars: `{"v": 5}`, wantArgs: `{"ints":["int:5"],"nn":"int:1"}`},
		{name: "list", decl: "$v: [Int!]", args: "ints: $v", vars: `{"v": [1, 2]}`, wantArgs: `{"ints":["int:1","int:2"],"nn":"int:1"}`},
		{name: "empty list", decl: "$v: [Int!]", args: "ints: $v", vars: `{"v": []}`, wantArgs: `{"ints":[],"nn":"int:1"}`},
		{name: "nested list of one value", decl: "$v: [[Int]]", args: "matrix: $v", vars: `{"v": 5}`, wantArgs: `{"matrix":[["int:5"]],"nn":"int:1"}`},
		{name: "nested list", decl: "$v: [[Int]]", args: "matrix: $v", vars: `{"v": [[1], 2, null]}`, wantArgs: `{"matrix":[["int:1"],["int:2"],null],"nn":"int:1"}`},
		{name: "list with null item", decl: "$v: [Int!]", args: "ints: $v", vars: `{"v": [1, null]}`,
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value null at \"v[1]\"; Expected non-nullable type \"Int!\" not to be null.","locations":[{"line":1,"column":7}]}]}`},
		{name: "list with bad items", decl: "$v: [Int!]", args: "ints: $v", vars: `{"v": ["1", 2, 2.5]}`,
			want: `{"errors":[` +
				`{"message":"Variable \"$v\" got invalid value \"1\" at \"v[0]\"; Int cannot represent non-integer value: \"1\"","locations":[{"line":1,"column":7}]},` +
				`{"message":"Variable \"$v\" got invalid value 2.5 at \"v[2]\"; Int cannot represent non-integer value: 2.5","locations":[{"line":1,"column":7}]}]}`},

		// Nullability.
		{name: "non-null provided", decl: "$v: Int!", args: "i: $v", vars: `{"v": 4}`, wantArgs: `{"i":"int:4","nn":"int:1"}`},
		{name: "non-null missing", decl: "$v: Int!", args: "i: $v", vars: `{}`,
			want: `{"errors":[{"message":"Variable \"$v\" of required type \"Int!\" was not provided.","locations":[{"line":1,"column":7}]}]}`},
		{name: "non-null with no variables at all", decl: "$v: Int!", args: "i: $v", vars: ``,
			want: `{"errors":[{"message":"Variable \"$v\" of required type \"Int!\" was not provided.","locations":[{"line":1,"column":7}]}]}`},
		{name: "non-null null", decl: "$v: Int!", args: "i: $v", vars: `{"v": null}`,
			want: `{"errors":[{"message":"Variable \"$v\" of non-null type \"Int!\" must not be null.","locations":[{"line":1,"column":7}]}]}`},

		// Variable defaults.
		{name: "default used", decl: "$v: Int = 7", args: "i: $v", vars: `{}`, wantArgs: `{"i":"int:7","nn":"int:1"}`},
		{name: "default overridden", decl: "$v: Int = 7", args: "i: $v", vars: `{"v": 3}`, wantArgs: `{"i":"int:3","nn":"int:1"}`},
		{name: "default overridden by null", decl: "$v: Int = 7", args: "i: $v", vars: `{"v": null}`, wantArgs: `{"i":null,"nn":"int:1"}`},
		{name: "enum default", decl: "$v: Color = RED", args: "c: $v", vars: ``, wantArgs: `{"c":"graphql_test.color:1","nn":"int:1"}`},
		{name: "input default gets field defaults", decl: `$v: Filter = {name: "d"}`, args: "filter: $v", vars: ``,
			wantArgs: `{"filter":{"color":"graphql_test.color:2","limit":"int:10","name":"string:d"},"nn":"int:1"}`},
		{name: "custom scalar default", decl: `$v: Date = "2000-01-01"`, args: "d: $v", vars: ``, wantArgs: `{"d":"time.Time:2000-01-01","nn":"int:1"}`},
		{name: "list default of one value", decl: `$v: [Int!] = 3`, args: "ints: $v", vars: ``, wantArgs: `{"ints":["int:3"],"nn":"int:1"}`},
		{name: "non-null argument from a variable with a default", decl: `$v: Int = 5`, args: "nn: $v", vars: ``, wantArgs: `{"nn":"int:5"}`},

		// Several variables: every failure is reported, in order.
		{name: "several invalid variables", decl: "$a: Int, $b: String!, $c: Color", args: "i: $a, s: $b, c: $c", vars: `{"a": "x", "c": "PINK"}`,
			want: `{"errors":[` +
				`{"message":"Variable \"$a\" got invalid value \"x\"; Int cannot represent non-integer value: \"x\"","locations":[{"line":1,"column":7}]},` +
				`{"message":"Variable \"$b\" of required type \"String!\" was not provided.","locations":[{"line":1,"column":16}]},` +
				`{"message":"Variable \"$c\" got invalid value \"PINK\"; Value \"PINK\" does not exist in \"Color\" enum.","locations":[{"line":1,"column":29}]}]}`},
		{name: "undeclared variables are ignored", decl: "$v: Int", args: "i: $v", vars: `{"v": 1, "other": "x"}`, wantArgs: `{"i":"int:1","nn":"int:1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := newCoerceSchema(t)
			query := fmt.Sprintf("query(%s) { before echo(%s) }", tt.decl, tt.args)
			res := cs.schema.Do(context.Background(), graphql.Request{Query: query, Variables: decodeVariables(t, tt.vars), Present: graphql.Unmasked})
			got, err := res.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" {
				if string(got) != tt.want {
					t.Errorf("response:\n got %s\nwant %s", got, tt.want)
				}
				if res.Data != nil {
					t.Errorf("Data = %s, want nil", res.Data)
				}
				for _, e := range res.Errors {
					if !errors.Is(e, graphql.ErrInvalidVariables) {
						t.Errorf("error %q does not wrap ErrInvalidVariables", e.Message)
					}
				}
				if c := cs.calls.list(); len(c) > 0 {
					t.Errorf("resolvers ran: %v", c)
				}
				return
			}
			if string(got) != okResponse {
				t.Fatalf("response:\n got %s\nwant %s", got, okResponse)
			}
			if g := typedArgs(cs.args); g != tt.wantArgs {
				t.Errorf("arguments:\n got %s\nwant %s", g, tt.wantArgs)
			}
		})
	}
}

func TestVariablesFromGoValues(t *testing.T) {
	// Go callers may pass Go values instead of decoded JSON.
	tests := []struct {
		name     string
		decl     string
		args     string
		vars     map[string]any
		wantArgs string
		want     string
	}{
		{name: "int", decl: "$v: Int", args: "i: $v", vars: map[string]any{"v": 12}, wantArgs: `{"i":"int:12","nn":"int:1"}`},
		{name: "int64 above 32 bits", decl: "$v: Int", args: "i: $v", vars: map[string]any{"v": int64(1) << 31},
			want: `{"errors":[{"message":"Variable \"$v\" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":7}]}]}`},
		{name: "float64 integral for Int", decl: "$v: Int", args: "i: $v", vars: map[string]any{"v": float64(3)}, wantArgs: `{"i":"int:3","nn":"int:1"}`},
		{name: "int for Float", decl: "$v: Float", args: "f: $v", vars: map[string]any{"v": 2}, wantArgs: `{"f":"float64:2","nn":"int:1"}`},
		{name: "int for ID", decl: "$v: ID", args: "id: $v", vars: map[string]any{"v": 42}, wantArgs: `{"id":"string:42","nn":"int:1"}`},
		{name: "typed slice", decl: "$v: [Int!]", args: "ints: $v", vars: map[string]any{"v": []int{1, 2}}, wantArgs: `{"ints":["int:1","int:2"],"nn":"int:1"}`},
		{name: "string slice", decl: "$v: Filter", args: "filter: $v", vars: map[string]any{"v": map[string]any{"tags": []string{"a"}}},
			wantArgs: `{"filter":{"color":"graphql_test.color:2","limit":"int:10","tags":["string:a"]},"nn":"int:1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := newCoerceSchema(t)
			query := fmt.Sprintf("query(%s) { before echo(%s) }", tt.decl, tt.args)
			res := cs.schema.Do(context.Background(), graphql.Request{Query: query, Variables: tt.vars, Present: graphql.Unmasked})
			got, _ := res.MarshalJSON()
			want := tt.want
			if want == "" {
				want = okResponse
			}
			if string(got) != want {
				t.Fatalf("response:\n got %s\nwant %s", got, want)
			}
			if tt.want == "" {
				if g := typedArgs(cs.args); g != tt.wantArgs {
					t.Errorf("arguments:\n got %s\nwant %s", g, tt.wantArgs)
				}
			}
		})
	}
}

func TestVariablesNotModified(t *testing.T) {
	cs := newCoerceSchema(t)
	vars := decodeVariables(t, `{"v": {"tags": "one", "name": "x"}}`)
	before := jsonText(vars)
	res := cs.schema.Do(context.Background(), graphql.Request{Query: `query($v: Filter) { before echo(filter: $v) }`, Variables: vars, Present: graphql.Unmasked})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	if after := jsonText(vars); after != before {
		t.Errorf("variables changed:\n got %s\nwant %s", after, before)
	}
}

func TestArgumentLiteralCoercion(t *testing.T) {
	tests := []struct {
		name     string
		query    string
		vars     string
		wantArgs string
		want     string
	}{
		{name: "Int max", query: `{ before echo(i: 2147483647) }`, wantArgs: `{"i":"int:2147483647","nn":"int:1"}`},
		{name: "Int negative", query: `{ before echo(i: -5) }`, wantArgs: `{"i":"int:-5","nn":"int:1"}`},
		{name: "Float from an Int literal", query: `{ before echo(f: 4) }`, wantArgs: `{"f":"float64:4","nn":"int:1"}`},
		{name: "Float", query: `{ before echo(f: 1.5e3) }`, wantArgs: `{"f":"float64:1500","nn":"int:1"}`},
		{name: "String with escapes", query: `{ before echo(s: "a\"b\u00e9") }`, wantArgs: `{"nn":"int:1","s":"string:a\"bé"}`},
		{name: "block string", query: "{ before echo(s: \"\"\"\n  two\n  lines\n\"\"\") }", wantArgs: `{"nn":"int:1","s":"string:two\nlines"}`},
		{name: "Boolean", query: `{ before echo(b: false) }`, wantArgs: `{"b":"bool:false","nn":"int:1"}`},
		{name: "ID from a string", query: `{ before echo(id: "x1") }`, wantArgs: `{"id":"string:x1","nn":"int:1"}`},
		{name: "ID from an integer", query: `{ before echo(id: 12) }`, wantArgs: `{"id":"string:12","nn":"int:1"}`},
		{name: "enum", query: `{ before echo(c: GREEN) }`, wantArgs: `{"c":"graphql_test.color:2","nn":"int:1"}`},
		{name: "custom scalar derived literal parsing", query: `{ before echo(d: "2024-02-29") }`, wantArgs: `{"d":"time.Time:2024-02-29","nn":"int:1"}`},
		{name: "custom scalar ParseLiteral", query: `{ before echo(u: "abc") }`, wantArgs: `{"nn":"int:1","u":"string:literal:ABC"}`},
		{name: "null", query: `{ before echo(i: null) }`, wantArgs: `{"i":null,"nn":"int:1"}`},
		{name: "list of one value", query: `{ before echo(ints: 3) }`, wantArgs: `{"ints":["int:3"],"nn":"int:1"}`},
		{name: "nested list of one value", query: `{ before echo(matrix: 3) }`, wantArgs: `{"matrix":[["int:3"]],"nn":"int:1"}`},
		{name: "input object with defaults", query: `{ before echo(filter: {name: "x", point: {x: 1}}) }`,
			wantArgs: `{"filter":{"color":"graphql_test.color:2","limit":"int:10","name":"string:x","point":{"x":"int:1","y":"int:0"}},"nn":"int:1"}`},
		{name: "input object with explicit null", query: `{ before echo(filter: {limit: null}) }`,
			wantArgs: `{"filter":{"color":"graphql_test.color:2","limit":null},"nn":"int:1"}`},
		{name: "argument defaults", query: `{ before echo: defaults }`,
			wantArgs: `{"c":"graphql_test.color:3","filter":{"color":"graphql_test.color:2","limit":"int:10","name":"string:d"},"ints":["int:1","int:2"],"n":"int:7","none":null}`},
		{name: "variables inside literals", query: `query($n: Int, $m: Int!, $t: String!) { before echo(filter: {limit: $n, tags: [$t, "b"]}, ints: [$m, 4]) }`, vars: `{"n": 3, "m": 2, "t": "a"}`,
			wantArgs: `{"filter":{"color":"graphql_test.color:2","limit":"int:3","tags":["string:a","string:b"]},"ints":["int:2","int:4"],"nn":"int:1"}`},
		{name: "absent variable inside a literal takes the field default", query: `query($n: Int) { before echo(filter: {limit: $n}) }`, vars: `{}`,
			wantArgs: `{"filter":{"color":"graphql_test.color:2","limit":"int:10"},"nn":"int:1"}`},
		{name: "absent variable for an argument takes its default", query: `query($n: Int) { before echo: defaults(n: $n) }`, vars: `{}`,
			wantArgs: `{"c":"graphql_test.color:3","filter":{"color":"graphql_test.color:2","limit":"int:10","name":"string:d"},"ints":["int:1","int:2"],"n":"int:7","none":null}`},

		{name: "Int above 32 bits", query: `{ before echo(i: 2147483648) }`,
			want: `{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":18}]}]}`},
		{name: "Int below 32 bits", query: `{ before echo(i: -2147483649) }`,
			want: `{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: -2147483649","locations":[{"line":1,"column":18}]}]}`},
		{name: "Int above 32 bits in a list", query: `{ before echo(ints: [1, 2147483648]) }`,
			want: `{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":25}]}]}`},
		{name: "Int above 32 bits in an input object", query: `{ before echo(filter: {point: {x: 2147483648}}) }`,
			want: `{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":35}]}]}`},
		{name: "Int from a string", query: `{ before echo(i: "12") }`,
			want: `{"errors":[{"message":"Int cannot represent non-integer value: \"12\"","locations":[{"line":1,"column":19}]}]}`},
		{name: "Int from a float", query: `{ before echo(i: 1.0) }`,
			want: `{"errors":[{"message":"Int cannot represent non-integer value: 1.0","locations":[{"line":1,"column":18}]}]}`},
		{name: "String from a number", query: `{ before echo(s: 12) }`,
			want: `{"errors":[{"message":"String cannot represent a non string value: 12","locations":[{"line":1,"column":18}]}]}`},
		{name: "enum in another case", query: `{ before echo(c: green) }`,
			want: `{"errors":[{"message":"Value \"green\" does not exist in \"Color\" enum. Did you mean the enum value \"GREEN\" or \"RED\"?","locations":[{"line":1,"column":18}]}]}`},
		{name: "enum as a string", query: `{ before echo(c: "GREEN") }`,
			want: `{"errors":[{"message":"Enum \"Color\" cannot represent non-enum value: \"GREEN\". Did you mean the enum value \"GREEN\" or \"RED\"?","locations":[{"line":1,"column":19}]}]}`},
		{name: "custom scalar refused", query: `{ before echo(d: "soon") }`,
			want: `{"errors":[{"message":"Expected value of type \"Date\", found \"soon\"; Date must be written YYYY-MM-DD","locations":[{"line":1,"column":19}]}]}`},
		{name: "unknown input field", query: `{ before echo(filter: {nope: 1}) }`,
			want: `{"errors":[{"message":"Field \"nope\" is not defined by type \"Filter\". Did you mean \"name\"?","locations":[{"line":1,"column":24}]}]}`},
		{name: "missing required input field", query: `{ before echo(filter: {point: {y: 1}}) }`,
			want: `{"errors":[{"message":"Field \"Point.x\" of required type \"Int!\" was not provided.","locations":[{"line":1,"column":31}]}]}`},
		{name: "null for non-null", query: `{ before echo(nn: null) }`,
			want: `{"errors":[{"message":"Expected value of type \"Int!\", found null.","locations":[{"line":1,"column":19}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := newCoerceSchema(t)
			res := cs.schema.Do(context.Background(), graphql.Request{Query: tt.query, Variables: decodeVariables(t, tt.vars), Present: graphql.Unmasked})
			got, _ := res.MarshalJSON()
			if tt.want != "" {
				if string(got) != tt.want {
					t.Errorf("response:\n got %s\nwant %s", got, tt.want)
				}
				if res.Data != nil {
					t.Errorf("Data = %s, want nil", res.Data)
				}
				if c := cs.calls.list(); len(c) > 0 {
					t.Errorf("resolvers ran: %v", c)
				}
				return
			}
			if string(got) != okResponse {
				t.Fatalf("response:\n got %s\nwant %s", got, okResponse)
			}
			if g := typedArgs(cs.args); g != tt.wantArgs {
				t.Errorf("arguments:\n got %s\nwant %s", g, tt.wantArgs)
			}
		})
	}
}

func TestCoercionFailsBeforeAnyResolver(t *testing.T) {
	// A request error leaves no trace of execution: no data, and not one
	// resolver called, even those selected before the faulty argument.
	cs := newCoerceSchema(t)
	res := cs.schema.Do(context.Background(), graphql.Request{Query: `query($v: Int) { before a: echo(i: 1) b: echo(i: $v) }`, Variables: map[string]any{"v": "1"}, Present: graphql.Unmasked})
	if res.Data != nil {
		t.Errorf("Data = %s, want nil", res.Data)
	}
	if len(res.Errors) != 1 || !errors.Is(res.Errors[0], graphql.ErrInvalidVariables) {
		t.Errorf("Errors = %v, want one wrapping ErrInvalidVariables", res.Errors)
	}
	if c := cs.calls.list(); len(c) > 0 {
		t.Errorf("resolvers ran: %v", c)
	}
}
