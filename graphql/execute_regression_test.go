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
	tests := []struct{ name, query, vars, want string }{
		{"skipped, then unconditional", `query($v: Boolean!) { hero { ...F @include(if: $v) age ...F } } fragment F on Hero { name }`, `{"v": false}`,
			`{"data":{"hero":{"age":19,"name":"Luke"}}}`},
		{"skipped, then included", `query($a: Boolean!, $b: Boolean!) { hero { ...F @include(if: $a) age ...F @include(if: $b) } } fragment F on Hero { name }`, `{"a": false, "b": true}`,
			`{"data":{"hero":{"age":19,"name":"Luke"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := response(t, s, tt.query, "", tt.vars); got != tt.want {
				t.Errorf("%s %s:\n got %s\nwant %s", tt.query, tt.vars, got, tt.want)
			}
		})
	}
}

func TestRegressionConditionsOfManyOccurrences(t *testing.T) {
	// A response key with more than 64 occurrences is planned without the
	// bitmask cache; @include and @skip must still hold for every one.
	s := heroSchema(t)
	many := strings.Repeat("hero { age } ", 64)
	tests := []struct{ name, query, vars, want string }{
		{"last included: no", `query($v: Boolean!) { ` + many + `hero @include(if: $v) { name } }`, `{"v": false}`,
			`{"data":{"hero":{"age":19}}}`},
		{"last included: yes", `query($v: Boolean!) { ` + many + `hero @include(if: $v) { name } }`, `{"v": true}`,
			`{"data":{"hero":{"age":19,"name":"Luke"}}}`},
		{"first skipped: yes", `query($v: Boolean!) { hero @skip(if: $v) { name } ` + many + many + `}`, `{"v": true}`,
			`{"data":{"hero":{"age":19}}}`},
		{"first skipped: no", `query($v: Boolean!) { hero @skip(if: $v) { name } ` + many + many + `}`, `{"v": false}`,
			`{"data":{"hero":{"name":"Luke","age":19}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := response(t, s, tt.query, "", tt.vars); got != tt.want {
				t.Errorf("%.60s… %s:\n got %s\nwant %s", tt.query, tt.vars, got, tt.want)
			}
		})
	}
}

func TestRegressionDirectiveIfNullVariable(t *testing.T) {
	var rec calls
	s := completionSchema(t, graphql.Field{Name: "a", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
		rec.add("a")
		return "x", nil
	}})
	for _, tt := range []struct{ name, q string }{
		{"skip", `query($v: Boolean = true) { a @skip(if: $v) }`},
		{"include", `query($v: Boolean = true) { a @include(if: $v) }`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.q
			col := strings.Index(q, "$v)") + 1
			want := `{"data":null,"errors":[{"message":"Argument \"if\" of non-null type \"Boolean!\" must not be null.","locations":[{"line":1,"column":` + fmt.Sprint(col) + `}]}]}`
			if got := response(t, s, q, "", `{"v": null}`); got != want {
				t.Errorf("%s:\n got %s\nwant %s", q, got, want)
			}
		})
	}
	if len(rec.list()) > 0 {
		t.Errorf("a was resolved")
	}
}

func TestRegressionFloatInfinityMessage(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    float64
		want string
	}{
		{"Infinity", math.Inf(1), `{"data":{"v":null},"errors":[{"message":"Float cannot represent non numeric value: Infinity","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
		{"-Infinity", math.Inf(-1), `{"data":{"v":null},"errors":[{"message":"Float cannot represent non numeric value: -Infinity","locations":[{"line":1,"column":3}],"path":["v"]}]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := completionSchema(t, graphql.Field{Name: "v", Type: graphql.Float, Resolve: constant(tt.v)})
			if got := response(t, s, `{ v }`, "", ""); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
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
	res := s.Do(ctx, graphql.Request{Query: `{ items { n } }`, Present: graphql.Unmasked})
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

func TestRegressionResponseSizeLimit(t *testing.T) {
	// A few aliases over a list can ask for far more than any field limit
	// suggests; under ExecParams.MaxResponseBytes execution stops past the
	// limit.
	s := heroSchema(t)
	var b strings.Builder
	b.WriteString("{ ")
	for i := range 200 {
		fmt.Fprintf(&b, "a%d: hero { friends { name age } } ", i)
	}
	b.WriteString("}")
	q := b.String()
	full := s.Do(context.Background(), graphql.Request{Query: q, Present: graphql.Unmasked})
	if len(full.Errors) > 0 || len(full.Data) < 10000 {
		t.Fatalf("without a limit: %d bytes, errors %v", len(full.Data), full.Errors)
	}
	op, errs := s.Prepare(parseValidated(t, s, q), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	res := execute(op, context.Background(), graphql.ExecParams{MaxResponseBytes: 5000})
	if string(res.Data) != "null" {
		t.Errorf("data past the limit: %.60s…, want null", res.Data)
	}
	want := `[{"message":"The response is larger than the limit of 5000 bytes.","extensions":{"code":"RESPONSE_TOO_LARGE"}}]`
	if got, _ := json.Marshal(res.Errors); string(got) != want {
		t.Errorf("errors:\n got %s\nwant %s", got, want)
	}
	// Under the limit nothing changes.
	if res := execute(op, context.Background(), graphql.ExecParams{MaxResponseBytes: len(full.Data) + 1}); string(res.Data) != string(full.Data) || len(res.Errors) > 0 {
		t.Errorf("under the limit: %d bytes, errors %v; want the full answer", len(res.Data), res.Errors)
	}
}

func TestNullFromResolver(t *testing.T) {
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "a", Type: graphql.Int, Resolve: constant(graphql.Null)},
		graphql.Field{Name: "b", Type: graphql.NewNonNull(graphql.Int), Resolve: constant(graphql.Null)},
	)})
	if got, want := response(t, s, `{ a }`, "", ""), `{"data":{"a":null}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := response(t, s, `{ b }`, "", ""), `{"data":null,"errors":[{"message":"Cannot return null for non-nullable field Query.b.","locations":[{"line":1,"column":3}],"path":["b"]}]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestResponseSizeLimitCountsTheLastValue(t *testing.T) {
	// One field whose value alone is past the limit: nothing follows it to
	// check the size before, so the end of execution must.
	big := strings.Repeat("x", 2000)
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "big", Type: graphql.String, Resolve: constant(big)},
	)})
	op, errs := s.Prepare(parseValidated(t, s, "{ big }"), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	res := execute(op, context.Background(), graphql.ExecParams{MaxResponseBytes: 1000})
	want := `[{"message":"The response is larger than the limit of 1000 bytes.","extensions":{"code":"RESPONSE_TOO_LARGE"}}]`
	if got, _ := json.Marshal(res.Errors); string(res.Data) != "null" || string(got) != want {
		t.Errorf("got data %.40s… and errors %s; want null and %s", res.Data, got, want)
	}
	if res := execute(op, context.Background(), graphql.ExecParams{MaxResponseBytes: len(big) + 20}); len(res.Errors) > 0 {
		t.Errorf("a limit that fits: errors %v", res.Errors)
	}
}
