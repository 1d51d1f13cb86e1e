package graphql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// publicSchema has a public mutation signUp and a mutation deleteAccount
// that needs a user.
func publicSchema(tb testing.TB) *graphql.Schema {
	tb.Helper()
	s, err := graphql.NewSchema(publicConfig())
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func publicConfig() graphql.SchemaConfig {
	ok := func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return true, nil }
	return graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{{Name: "ok", Type: graphql.Boolean, Resolve: ok}}},
		Mutation: &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
			{Name: "signUp", Type: graphql.Boolean, Resolve: ok, Public: true},
			{Name: "deleteAccount", Type: graphql.Boolean, Resolve: ok},
		}},
	}
}

// A mutation whose selected fields are all public needs no user; the
// transport (graphqlhttp's mutation gate) asks the prepared operation.
func ExampleOperation_Public() {
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{{Name: "ok", Type: graphql.Boolean}}}
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "signUp", Type: graphql.Boolean, Public: true},
		{Name: "deleteAccount", Type: graphql.Boolean},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
	if err != nil {
		panic(err)
	}
	prep := graphql.NewPreparer(schema, graphql.PrepareConfig{})
	for _, text := range []string{
		`mutation { signUp }`,
		`mutation { signUp deleteAccount }`,
		`mutation { signUp deleteAccount @skip(if: true) }`,
		`mutation($sure: Boolean!) { signUp deleteAccount @include(if: $sure) }`,
	} {
		pr, _, _ := prep.Prepare(context.Background(), text, graphql.PrepareOptions{})
		fmt.Println(pr.Operation.Public(), text)
		pr.Release()
	}
	// Output:
	// true mutation { signUp }
	// false mutation { signUp deleteAccount }
	// true mutation { signUp deleteAccount @skip(if: true) }
	// false mutation($sure: Boolean!) { signUp deleteAccount @include(if: $sure) }
}

func TestOperationPublic(t *testing.T) {
	s := publicSchema(t)
	prep := graphql.NewPreparer(s, graphql.PrepareConfig{})
	tests := []struct {
		text string
		want bool
	}{
		{`mutation { signUp }`, true},
		{`mutation { a: signUp b: signUp __typename }`, true},
		{`mutation { __typename }`, true},
		{`mutation { deleteAccount }`, false},
		{`mutation { signUp deleteAccount }`, false},
		{`mutation { signUp deleteAccount @skip(if: true) }`, true},
		{`mutation { signUp deleteAccount @skip(if: false) }`, false},
		{`mutation { signUp deleteAccount @include(if: false) }`, true},
		{`mutation { signUp deleteAccount @include(if: true) }`, false},
		{`mutation($v: Boolean!) { signUp deleteAccount @skip(if: $v) }`, false},
		{`mutation($v: Boolean = true) { signUp deleteAccount @skip(if: $v) }`, false},
		{`mutation { signUp deleteAccount @include(if: true) @skip(if: true) }`, true},
		{`mutation { ...P } fragment P on Mutation { signUp }`, true},
		{`mutation { ...P } fragment P on Mutation { signUp ...Q } fragment Q on Mutation { deleteAccount }`, false},
		{`mutation { ...P @skip(if: true) signUp } fragment P on Mutation { deleteAccount }`, true},
		{`mutation { ... on Mutation { deleteAccount } }`, false},
		{`mutation { ... @include(if: false) { deleteAccount } signUp }`, true},
		{`{ ok }`, false},
		{`{ __typename }`, true},
	}
	for _, tt := range tests {
		for range 2 { // the second time from the cache
			pr, errs, fault := prep.Prepare(context.Background(), tt.text, graphql.PrepareOptions{})
			if errs != nil || fault != nil {
				t.Fatalf("%s: %v %v", tt.text, errs, fault)
			}
			if got := pr.Operation.Public(); got != tt.want {
				t.Errorf("Public() of %s = %v, want %v", tt.text, got, tt.want)
			}
			pr.Release()
		}
	}
}

func TestPublicOnlyOnMutations(t *testing.T) {
	cfg := publicConfig()
	cfg.Query.Fields = graphql.Fields{{Name: "ok", Type: graphql.Boolean, Public: true}}
	_, err := graphql.NewSchema(cfg)
	const want = "graphql: field Query.ok is Public, which only fields of the mutation type can be"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("NewSchema = %v, want an error containing %q", err, want)
	}
}
