package graphqlhttp_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// Mount the endpoint on a stock ServeMux and query it over HTTP.
func Example() {
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "greeting", Type: graphql.NewNonNull(graphql.String),
			Args: []graphql.Argument{{Name: "name", Type: graphql.String, Default: "world"}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ Name string }) (string, error) {
				return "Hello, " + args.Name + "!", nil
			})},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		panic(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: apierror.Presenter{Logger: quiet}})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/graphql", h)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, body := range []string{
		`{"query":"query($n: String) { greeting(name: $n) }","variables":{"n":"gqlkit"}}`,
		`{"query":"{ greting }"}`,
		`{"query":"mutation { greeting }"}`,
	} {
		res, err := http.Post(srv.URL+"/api/graphql", "application/json", strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		out, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Println(res.StatusCode, string(out))
	}
	// Output:
	// 200 {"data":{"greeting":"Hello, gqlkit!"}}
	// 400 {"errors":[{"message":"Cannot query field \"greting\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}
	// 400 {"errors":[{"message":"Schema does not support operation type \"mutation\"","locations":[{"line":1,"column":1}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}
}
