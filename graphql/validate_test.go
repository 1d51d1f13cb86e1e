package graphql_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

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
		t.Run(fmt.Sprintf("%d spreads", n+1), func(t *testing.T) {
			if got := response(t, s, chain(n), "", ""); got != want {
				t.Errorf("a chain of %d spreads:\n got %s\nwant %s", n+1, got, want)
			}
		})
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
