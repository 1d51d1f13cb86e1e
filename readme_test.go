// Package gqlkit_test holds the code that README.md shows, so that it
// compiles and runs with the rest of the tests: Example serves a request
// through it, and TestREADMEShowsTheExample checks that README.md shows
// it as it is written here.
package gqlkit_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/reqlog"
	"github.com/gqlkit/gqlkit/validate"
)

// README:begin
type greeting struct{ Text string }

type farewell struct{ Text, Until string }

type helloArgs struct{ Name string } // the argument "name"

// newServer mounts a GraphQL endpoint on a standard library ServeMux.
func newServer(secret []byte, logger *slog.Logger) (http.Handler, error) {
	message := &graphql.Interface{Name: "Message", Fields: graphql.Fields{ // fields its objects share
		{Name: "text", Type: graphql.NewNonNull(graphql.String)},
	}}
	greetingType := &graphql.Object{Name: "Greeting", Interfaces: []*graphql.Interface{message}, Fields: graphql.Fields{
		{Name: "text", Type: graphql.NewNonNull(graphql.String)}, // read from greeting.Text
	}}
	farewellType := &graphql.Object{Name: "Farewell", Interfaces: []*graphql.Interface{message}, Fields: graphql.Fields{
		{Name: "text", Type: graphql.NewNonNull(graphql.String)},
		{Name: "until", Type: graphql.String},
	}, IsTypeOf: func(v any) bool { _, ok := v.(farewell); return ok }} // no typed resolver returns one
	reply := &graphql.Union{Name: "Reply", Types: []*graphql.Object{greetingType, farewellType}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "hello", Type: graphql.NewNonNull(greetingType),
			Args: []graphql.Argument{{Name: "name", Type: graphql.String, Default: "world",
				Rules: []validate.Rule{validate.Max(50)}}}, // checked before the resolver runs
			Typed: graphql.Resolver(func(ctx context.Context, _ any, args helloArgs) (greeting, error) {
				return greeting{Text: "Hello, " + args.Name + "!"}, nil
			})},
		{Name: "replies", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(reply))),
			Typed: graphql.Resolver(func(ctx context.Context, _ any, _ graphql.NoArgs) ([]any, error) {
				return []any{greeting{Text: "Hi!"}, farewell{Text: "Bye!", Until: "soon"}}, nil // objects by Go type
			})},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		return nil, err
	}
	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{}) // HS256 JWTs, 32 bytes or more
	if err != nil {
		return nil, err
	}
	// A zero Config holds the documented defaults: limits, cache, masking.
	gql, err := graphqlhttp.New(schema, graphqlhttp.Config{Auth: verifier})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/api/graphql", gql)
	return reqlog.Handler(logger)(mux), nil // request ids and one access line per request
}

// README:end

func Example() {
	h, err := newServer([]byte("a secret of thirty-two bytes or more"), slog.New(slog.DiscardHandler))
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, q := range []string{`{ hello(name: \"Ann\") { text } }`, `{ hello { txt } }`,
		`{ replies { __typename ... on Message { text } ... on Farewell { until } } }`} {
		resp, err := http.Post(srv.URL+"/api/graphql", "application/json", strings.NewReader(`{"query":"`+q+`"}`))
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, string(body))
	}
	// Output:
	// 200 {"data":{"hello":{"text":"Hello, Ann!"}}}
	// 400 {"errors":[{"message":"Cannot query field \"txt\" on type \"Greeting\".","locations":[{"line":1,"column":11}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}
	// 200 {"data":{"replies":[{"__typename":"Greeting","text":"Hi!"},{"__typename":"Farewell","text":"Bye!","until":"soon"}]}}
}

// TestREADMEShowsTheExample checks that README.md shows the code between
// the README markers of this file, line for line.
func TestREADMEShowsTheExample(t *testing.T) {
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, code, _ := strings.Cut(string(src), "// README:begin\n")
	code, _, _ = strings.Cut(code, "\n// README:end")
	if !strings.Contains(string(readme), "```go\n"+code+"```\n") {
		t.Errorf("README.md does not show the code of readme_test.go between its README markers:\n%s", code)
	}
}
