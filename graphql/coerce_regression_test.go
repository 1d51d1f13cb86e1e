package graphql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

func TestRegressionCustomScalarVariableMessage(t *testing.T) {
	cs := newCoerceSchema(t)
	got := response(t, cs.schema, `query($v: Date) { before echo(d: $v) }`, "", `{"v": "2023-02-29"}`)
	want := `{"errors":[{"message":"Variable \"$v\" got invalid value \"2023-02-29\"; Expected type \"Date\". Date must be written YYYY-MM-DD","locations":[{"line":1,"column":7}]}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
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
	tests := []struct{ name, query, vars, want string }{
		{"literals", `{ id(v: 99999999999999999999) fl(v: 99999999999999999999) }`, ``,
			`{"data":{"id":"99999999999999999999","fl":100000000000000000000}}`},
		{"ID default", `query($v: ID = 99999999999999999999) { id(v: $v) }`, ``,
			`{"data":{"id":"99999999999999999999"}}`},
		{"Float default", `query($v: Float = 99999999999999999999) { fl(v: $v) }`, ``,
			`{"data":{"fl":100000000000000000000}}`},
		{"ID variable", `query($v: ID) { id(v: $v) }`, `{"v": 12345678901234567890}`,
			`{"data":{"id":"12345678901234567890"}}`},
		{"ID variable with an exponent", `query($v: ID) { id(v: $v) }`, `{"v": 1e3}`,
			`{"data":{"id":"1000"}}`},
		// A default that is wrong is reported once, where it is written.
		{"Float default out of range", `query($v: Float = 1e400) { fl(v: $v) }`, ``,
			`{"errors":[{"message":"Float cannot represent non numeric value: 1e400","locations":[{"line":1,"column":19}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := response(t, s, tt.query, "", tt.vars); got != tt.want {
				t.Errorf("%s %s:\n got %s\nwant %s", tt.query, tt.vars, got, tt.want)
			}
		})
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
	res := s.Do(context.Background(), graphql.Request{Query: `query($in: In) { f(in: $in) }`, Variables: map[string]any{"in": value}, Present: graphql.Unmasked})
	if len(res.Errors) != 100 {
		t.Fatalf("%d errors, want 100", len(res.Errors))
	}
	want := `Variable "$in" got invalid value { k0000: 0, k0001: 1, k0002: 2, k0003: 3, k0004: 4, k0005: 5, k0006: 6, k0007: 7, k0008: 8, k0009: 9, ... 2990 more items }; Field "k0000" is not defined by type "In".`
	if got := res.Errors[0].Message; got != want {
		t.Errorf("first error:\n got %s\nwant %s", got, want)
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
	res := s.Do(context.Background(), graphql.Request{Query: `query($n: Node) { f(n: $n) }`, Variables: map[string]any{"n": m}, Present: graphql.Unmasked})
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "The value is nested more than 256 levels deep.") {
		t.Errorf("errors: %v, want one saying the value nests too deeply", res.Errors)
	}
	if res.Data != nil {
		t.Errorf("data: %s, want none (a request error)", res.Data)
	}
}

// TestVariableParserPanicIsAFault: a custom scalar's ParseValue that
// panics is a server bug, not bad input: Execute returns it apart, as an
// *errcode.PanicError, and nothing runs.
func TestVariableParserPanicIsAFault(t *testing.T) {
	cs := newCoerceSchema(t)
	op, errs := cs.schema.Prepare(parseValidated(t, cs.schema, `query($v: Nothing) { before echo(nothing: $v) }`), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	res, err := op.Execute(context.Background(), graphql.ExecParams{Variables: map[string]any{"v": "panic"}})
	var pe *errcode.PanicError
	if !errors.As(err, &pe) || pe.Value != "parse" || len(pe.Stack) == 0 {
		t.Errorf("Execute error = %v, want the scalar's panic with its stack", err)
	}
	if res.Data != nil || res.Errors != nil {
		t.Errorf("Execute result = %s, %v; want none", res.Data, res.Errors)
	}
	if c := cs.calls.list(); len(c) > 0 {
		t.Errorf("resolvers ran: %v", c)
	}
}
