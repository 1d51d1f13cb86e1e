package graphql_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql"
)

func TestRegressionConditionalFragmentSpreadOrder(t *testing.T) {
	// graphql-js marks a fragment visited only when its spread is included,
	// so a spread that is skipped does not fix where the fragment's fields go.
	s := heroSchema(t)
	tests := []struct{ query, vars, want string }{
		{`query($v: Boolean!) { hero { ...F @include(if: $v) age ...F } } fragment F on Hero { name }`, `{"v": false}`,
			`{"data":{"hero":{"age":19,"name":"Luke"}}}`},
		{`query($a: Boolean!, $b: Boolean!) { hero { ...F @include(if: $a) age ...F @include(if: $b) } } fragment F on Hero { name }`, `{"a": false, "b": true}`,
			`{"data":{"hero":{"age":19,"name":"Luke"}}}`},
	}
	for _, tt := range tests {
		if got := response(t, s, tt.query, "", tt.vars); got != tt.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.query, tt.vars, got, tt.want)
		}
	}
}

func TestRegressionInputFieldDefaultOfLaterInputObject(t *testing.T) {
	// A is collected before B; B's fields must be known when A's default is checked.
	b := &graphql.InputObject{Name: "B", Fields: []graphql.InputField{{Name: "n", Type: graphql.Int}, {Name: "m", Type: graphql.Int, Default: 5}}}
	a := &graphql.InputObject{Name: "A", Fields: []graphql.InputField{{Name: "b", Type: b, Default: map[string]any{"n": 1}}}}
	var got string
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{{Name: "a", Type: a}},
		Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
			got = typedArgs(args)
			return "ok", nil
		}})})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	response(t, s, `{ f(a: {}) }`, "", "")
	if want := `{"a":{"b":{"m":"int:5","n":"int:1"}}}`; got != want {
		t.Errorf("arguments: got %s, want %s", got, want)
	}
}

func TestRegressionSchemaErrorsOfEveryKind(t *testing.T) {
	user := func() *graphql.Object {
		return &graphql.Object{Name: "User", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	}
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "a", Type: user()},
		graphql.Field{Name: "b", Type: user()},
		graphql.Field{Name: "c", Type: &graphql.Enum{Name: "E"}},
	)})
	want := "graphql: two different types are named \"User\" (Query.a and Query.b)\ngraphql: enum E has no values"
	if err == nil || err.Error() != want {
		t.Errorf("error:\n got %v\nwant %s", err, want)
	}
}

func TestRegressionDuplicateTypeNameReportedOnce(t *testing.T) {
	user := func() *graphql.Object {
		return &graphql.Object{Name: "User", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	}
	other := user()
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "a", Type: user()}, graphql.Field{Name: "b", Type: other}, graphql.Field{Name: "c", Type: other})})
	if err == nil || strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("two User types: got\n%v\nwant one error", err)
	}
	_, err = graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a",
		Type: &graphql.Object{Name: "String", Fields: graphql.Fields{{Name: "x", Type: graphql.Int}}}})})
	if err == nil || strings.Count(err.Error(), "\n") != 0 || !strings.Contains(err.Error(), "Query.a") {
		t.Errorf("an object named String: got\n%v\nwant one error naming Query.a", err)
	}
}

func TestRegressionFloatInfinityMessage(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{math.Inf(1), `{"data":{"v":null},"errors":[{"message":"Float cannot represent non numeric value: Infinity","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{math.Inf(-1), `{"data":{"v":null},"errors":[{"message":"Float cannot represent non numeric value: -Infinity","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
	} {
		s := completionSchema(t, graphql.Field{Name: "v", Type: graphql.Float, Resolve: constant(tt.v)})
		if got := response(t, s, `{ v }`, "", ""); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestRegressionDirectiveIfNullVariable(t *testing.T) {
	var rec calls
	s := completionSchema(t, graphql.Field{Name: "a", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
		rec.add("a")
		return "x", nil
	}})
	for _, q := range []string{`query($v: Boolean = true) { a @skip(if: $v) }`, `query($v: Boolean = true) { a @include(if: $v) }`} {
		col := strings.Index(q, "$v)") + 1
		want := `{"data":null,"errors":[{"message":"Argument \"if\" of non-null type \"Boolean!\" must not be null.","locations":[{"line":1,"column":` + fmt.Sprint(col) + `}]}]}`
		if got := response(t, s, q, "", `{"v": null}`); got != want {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
	}
	if len(rec.list()) > 0 {
		t.Errorf("a was resolved")
	}
}

func TestRegressionCustomScalarVariableMessage(t *testing.T) {
	cs := newCoerceSchema(t)
	got := response(t, cs.schema, `query($v: Date) { before echo(d: $v) }`, "", `{"v": "2023-02-29"}`)
	want := `{"errors":[{"message":"Variable \"$v\" got invalid value \"2023-02-29\"; Expected type \"Date\". Date must be written YYYY-MM-DD","locations":[{"line":1,"column":7}]}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestRegressionConditionsOfManyOccurrences(t *testing.T) {
	// A response key with more than 64 occurrences is planned without the
	// bitmask cache; @include and @skip must still hold for every one.
	s := heroSchema(t)
	many := strings.Repeat("hero { age } ", 64)
	tests := []struct{ query, vars, want string }{
		{`query($v: Boolean!) { ` + many + `hero @include(if: $v) { name } }`, `{"v": false}`,
			`{"data":{"hero":{"age":19}}}`},
		{`query($v: Boolean!) { ` + many + `hero @include(if: $v) { name } }`, `{"v": true}`,
			`{"data":{"hero":{"age":19,"name":"Luke"}}}`},
		{`query($v: Boolean!) { hero @skip(if: $v) { name } ` + many + many + `}`, `{"v": true}`,
			`{"data":{"hero":{"age":19}}}`},
		{`query($v: Boolean!) { hero @skip(if: $v) { name } ` + many + many + `}`, `{"v": false}`,
			`{"data":{"hero":{"name":"Luke","age":19}}}`},
	}
	for _, tt := range tests {
		if got := response(t, s, tt.query, "", tt.vars); got != tt.want {
			t.Errorf("%.60s… %s:\n got %s\nwant %s", tt.query, tt.vars, got, tt.want)
		}
	}
}

// badJSON is a json.Marshaler whose output is not JSON.
type badJSON string

func (b badJSON) MarshalJSON() ([]byte, error) { return []byte(b), nil }

func TestRegressionHostileResolverResults(t *testing.T) {
	// Each of these once produced invalid JSON, a wrong number, or a
	// response without data; each must cost one field.
	one := 1
	ptrEnum := &graphql.Enum{Name: "P", Values: []graphql.EnumValue{{Name: "ONE", Value: &one}}}
	custom := func(v any) *graphql.Scalar {
		return &graphql.Scalar{Name: "Custom",
			Serialize:  func(any) (any, error) { return v, nil },
			ParseValue: func(v any) (any, error) { return v, nil }}
	}
	tests := []struct {
		name   string
		typ    graphql.Type
		result any
		err    error
		want   string
	}{
		{name: "json.Number that is no number", typ: custom(json.Number("abc")), result: "x",
			want: `{"data":{"f":null,"ok":"ok"},"errors":[{"message":"json.Number \"abc\" is not a JSON number","locations":[{"line":1,"column":3}],"path":["f"]}]}`},
		{name: "MarshalJSON that is no JSON", typ: custom(badJSON("{bad")), result: "x",
			want: `{"data":{"f":null,"ok":"ok"},"errors":[{"message":"MarshalJSON of graphql_test.badJSON returned invalid JSON: invalid character 'b' looking for beginning of object key string","locations":[{"line":1,"column":3}],"path":["f"]}]}`},
		{name: "MarshalJSON that is empty", typ: custom(badJSON("")), result: "x",
			want: `{"data":{"f":null,"ok":"ok"},"errors":[{"message":"MarshalJSON of graphql_test.badJSON returned invalid JSON: unexpected end of JSON input","locations":[{"line":1,"column":3}],"path":["f"]}]}`},
		{name: "MarshalJSON is compacted", typ: custom(badJSON(`{ "a" : [1, 2] }`)), result: "x",
			want: `{"data":{"f":{"a":[1,2]},"ok":"ok"}}`},
		{name: "a large uint from a custom scalar", typ: custom(uint(math.MaxUint64)), result: "x",
			want: `{"data":{"f":18446744073709551615,"ok":"ok"}}`},
		{name: "a large uint as a String", typ: graphql.String, result: uint(math.MaxUint64),
			want: `{"data":{"f":"18446744073709551615","ok":"ok"}}`},
		{name: "a large uint as an ID", typ: graphql.ID, result: uint(1 << 60),
			want: `{"data":{"f":"1152921504606846976","ok":"ok"}}`},
		{name: "a typed nil *gqlerror.Error", typ: graphql.String, err: (*gqlerror.Error)(nil),
			want: `{"data":{"f":null,"ok":"ok"},"errors":[{"message":"a nil *gqlerror.Error returned as an error","locations":[{"line":1,"column":3}],"path":["f"]}]}`},
		{name: "an enum value that cannot be hashed", typ: ptrEnum, result: struct{ X any }{[]int{1}},
			want: `{"data":{"f":null,"ok":"ok"},"errors":[{"message":"Enum \"P\" cannot represent value: { X: [1] }","locations":[{"line":1,"column":3}],"path":["f"]}]}`},
		{name: "a pointer enum value", typ: ptrEnum, result: &one,
			want: `{"data":{"f":"ONE","ok":"ok"}}`},
		{name: "a pointer enum value, non-null", typ: &graphql.NonNull{OfType: ptrEnum}, result: &one,
			want: `{"data":{"f":"ONE","ok":"ok"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(
				graphql.Field{Name: "f", Type: tt.typ, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
					if tt.err != nil {
						return nil, tt.err
					}
					return tt.result, nil
				}},
				graphql.Field{Name: "ok", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
					return "ok", nil
				}},
			)})
			if err != nil {
				t.Fatalf("NewSchema: %v", err)
			}
			if got := response(t, s, `{ f ok }`, "", ""); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestRegressionEnumValueNotHashable(t *testing.T) {
	// The type of [1]any is comparable, a slice inside is not: NewSchema
	// reports it beside the other problems instead of stopping.
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "a", Type: &graphql.Enum{Name: "A", Values: []graphql.EnumValue{{Name: "X", Value: [1]any{[]int{1}}}}}},
		graphql.Field{Name: "b", Type: &graphql.Enum{Name: "B"}},
	)})
	want := "graphql: enum A: the value of X ([1]interface {}) is not comparable\ngraphql: enum B has no values"
	if err == nil || err.Error() != want {
		t.Errorf("NewSchema error:\n got %v\nwant %s", err, want)
	}
}

func TestRegressionCyclicVariableValue(t *testing.T) {
	// A Go caller's map that contains itself, for a recursive input type,
	// is refused instead of coerced forever.
	node := &graphql.InputObject{Name: "Node"}
	node.Fields = []graphql.InputField{{Name: "next", Type: node}}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{{Name: "n", Type: node}},
		Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return "resolved", nil
		}})})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	m := map[string]any{}
	m["next"] = m
	res := s.Do(context.Background(), `query($n: Node) { f(n: $n) }`, "", map[string]any{"n": m})
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "The value is nested more than 256 levels deep.") {
		t.Errorf("errors: %v, want one saying the value nests too deeply", res.Errors)
	}
	if res.Data != nil {
		t.Errorf("data: %s, want none (a request error)", res.Data)
	}
}

func TestRegressionCancelledContextStopsResolvers(t *testing.T) {
	// Once the context is done, no resolver is called; the fields left are
	// null, and one error says why.
	ctx, cancel := context.WithCancel(context.Background())
	var calls int
	item := &graphql.Object{Name: "Item", Fields: graphql.Fields{{Name: "n", Type: graphql.Int,
		Resolve: func(_ context.Context, p any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			calls++
			if calls == 3 {
				cancel()
			}
			return p, nil
		}}}}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "items", Type: &graphql.List{OfType: item},
		Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			items := make([]any, 1000)
			for i := range items {
				items[i] = i
			}
			return items, nil
		}})})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	res := s.Do(ctx, `{ items { n } }`, "", nil)
	if calls != 3 {
		t.Errorf("resolvers called %d times, want 3 (none after the cancel)", calls)
	}
	if len(res.Errors) != 1 || res.Errors[0].Message != "context canceled" || !errors.Is(res.Errors[0], context.Canceled) {
		t.Errorf("errors: %v, want one context.Canceled", res.Errors)
	}
	if !strings.HasPrefix(string(res.Data), `{"items":[{"n":0},{"n":1},{"n":2},{"n":null},`) {
		t.Errorf("data: %.80s…", res.Data)
	}
}

func TestRegressionLargeIntegers(t *testing.T) {
	// Integers beyond 64 bits are IDs and Floats, in literals, variable
	// defaults and variables alike.
	echo := func(name string, typ graphql.Type) graphql.Field {
		return graphql.Field{Name: name, Type: typ, Args: []graphql.Argument{{Name: "v", Type: typ}},
			Resolve: func(_ context.Context, _ any, a graphql.Args, _ graphql.ResolveInfo) (any, error) {
				return a.Value("v"), nil
			}}
	}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(echo("id", graphql.ID), echo("fl", graphql.Float))})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	tests := []struct{ query, vars, want string }{
		{`{ id(v: 99999999999999999999) fl(v: 99999999999999999999) }`, ``,
			`{"data":{"id":"99999999999999999999","fl":100000000000000000000}}`},
		{`query($v: ID = 99999999999999999999) { id(v: $v) }`, ``,
			`{"data":{"id":"99999999999999999999"}}`},
		{`query($v: Float = 99999999999999999999) { fl(v: $v) }`, ``,
			`{"data":{"fl":100000000000000000000}}`},
		{`query($v: ID) { id(v: $v) }`, `{"v": 12345678901234567890}`,
			`{"data":{"id":"12345678901234567890"}}`},
		{`query($v: ID) { id(v: $v) }`, `{"v": 1e3}`,
			`{"data":{"id":"1000"}}`},
		// A default that is wrong is reported once, where it is written.
		{`query($v: Float = 1e400) { fl(v: $v) }`, ``,
			`{"errors":[{"message":"Float cannot represent non numeric value: 1e400","locations":[{"line":1,"column":19}]}]}`},
	}
	for _, tt := range tests {
		if got := response(t, s, tt.query, "", tt.vars); got != tt.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.query, tt.vars, got, tt.want)
		}
	}
}

func TestRegressionCustomLiteralWithoutValue(t *testing.T) {
	// A parser that returns nil and no error: graphql-js's one sentence.
	cust := &graphql.Scalar{Name: "Cust",
		Serialize:  func(v any) (any, error) { return v, nil },
		ParseValue: func(any) (any, error) { return nil, nil }}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{{Name: "v", Type: cust}}})})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	want := `{"errors":[{"message":"Expected value of type \"Cust\", found \"nil\".","locations":[{"line":1,"column":9}]}]}`
	if got := response(t, s, `{ f(v: "nil") }`, "", ""); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

func TestRegressionManyUnknownInputFields(t *testing.T) {
	// Thousands of unknown fields in one variable give at most 100 errors,
	// and coercion stops collecting there (it used to format every one).
	in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{{Name: "title", Type: graphql.String}}}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{{Name: "in", Type: in}}})})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	value := map[string]any{}
	for i := range 3000 {
		value[fmt.Sprintf("k%04d", i)] = i
	}
	res := s.Do(context.Background(), `query($in: In) { f(in: $in) }`, "", map[string]any{"in": value})
	if len(res.Errors) != 100 {
		t.Fatalf("%d errors, want 100", len(res.Errors))
	}
	want := `Variable "$in" got invalid value { k0000: 0, k0001: 1, k0002: 2, k0003: 3, k0004: 4, k0005: 5, k0006: 6, k0007: 7, k0008: 8, k0009: 9, ... 2990 more items }; Field "k0000" is not defined by type "In".`
	if got := res.Errors[0].Message; got != want {
		t.Errorf("first error:\n got %s\nwant %s", got, want)
	}
}

func TestRegressionFragmentChains(t *testing.T) {
	// A chain of spreads adds no depth and no nodes; past MaxFragmentNesting
	// it is refused by validation (the planner used to drop its fields
	// silently past 256, answering {} for a valid-looking document).
	s := heroSchema(t)
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("{ ...f0 }")
		for i := range n {
			fmt.Fprintf(&b, " fragment f%d on Query { ...f%d }", i, i+1)
		}
		fmt.Fprintf(&b, " fragment f%d on Query { __typename }", n)
		return b.String()
	}
	if got, want := response(t, s, chain(graphql.MaxFragmentNesting-1), "", ""), `{"data":{"__typename":"Query"}}`; got != want {
		t.Errorf("a chain of %d spreads:\n got %s\nwant %s", graphql.MaxFragmentNesting, got, want)
	}
	want := `{"errors":[{"message":"Fragment spreads are nested more than 64 levels deep.","locations":[{"line":1,"column":6}]}]}`
	for _, n := range []int{graphql.MaxFragmentNesting, 300, 627} {
		if got := response(t, s, chain(n), "", ""); got != want {
			t.Errorf("a chain of %d spreads:\n got %s\nwant %s", n+1, got, want)
		}
	}
}

func TestRegressionResponseSizeLimit(t *testing.T) {
	// A few aliases over a list can ask for far more than any field limit
	// suggests; under WithMaxResponseBytes execution stops past the limit.
	s := heroSchema(t)
	var b strings.Builder
	b.WriteString("{ ")
	for i := range 200 {
		fmt.Fprintf(&b, "a%d: hero { friends { name age } } ", i)
	}
	b.WriteString("}")
	q := b.String()
	full := s.Do(context.Background(), q, "", nil)
	if len(full.Errors) > 0 || len(full.Data) < 10000 {
		t.Fatalf("without a limit: %d bytes, errors %v", len(full.Data), full.Errors)
	}
	ctx := graphql.WithMaxResponseBytes(context.Background(), 5000)
	res := s.Do(ctx, q, "", nil)
	if string(res.Data) != "null" {
		t.Errorf("data past the limit: %.60s…, want null", res.Data)
	}
	want := `[{"message":"The response is larger than the limit of 5000 bytes.","extensions":{"code":"RESPONSE_TOO_LARGE"}}]`
	if got, _ := json.Marshal(res.Errors); string(got) != want {
		t.Errorf("errors:\n got %s\nwant %s", got, want)
	}
	// Under the limit nothing changes.
	ctx = graphql.WithMaxResponseBytes(context.Background(), len(full.Data)+1)
	if res := s.Do(ctx, q, "", nil); string(res.Data) != string(full.Data) || len(res.Errors) > 0 {
		t.Errorf("under the limit: %d bytes, errors %v; want the full answer", len(res.Data), res.Errors)
	}
}
