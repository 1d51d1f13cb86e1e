package graphiql_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphiql"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// Serve the IDE beside a GraphQL endpoint: a browser's GET of the endpoint
// gets the page, an API client the endpoint's answer, and the assets have
// a path of their own.
func Example() {
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "hello", Type: graphql.NewNonNull(graphql.String),
			Typed: graphql.Resolver(func(context.Context, any, struct{}) (string, error) { return "world", nil })},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		panic(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	api, err := graphqlhttp.New(schema, graphqlhttp.Config{Introspection: true, Presenter: apierror.Presenter{Logger: quiet}})
	if err != nil {
		panic(err)
	}
	ide, err := graphiql.New(graphiql.Config{Endpoint: "/api/graphql", AssetsPath: "/api/graphiql/"})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /api/graphiql/", ide)
	mux.Handle("/api/graphql", ide.Negotiate(api))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// The page's policy names a nonce that is new for each answer.
	nonce := regexp.MustCompile(`'nonce-[^']+'`)
	for _, req := range []struct{ path, accept string }{
		{"/api/graphql", "text/html,application/xhtml+xml,*/*;q=0.8"}, // a browser
		{"/api/graphql?query={hello}", "application/json"},            // an API client
		{"/api/graphiql/init.js", "*/*"},                              // the page's start-up script
	} {
		r, _ := http.NewRequest(http.MethodGet, srv.URL+req.path, nil)
		r.Header.Set("Accept", req.accept)
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Println(req.path, res.StatusCode, res.Header.Get("Content-Type"))
		if csp := res.Header.Get("Content-Security-Policy"); csp != "" {
			fmt.Println("  " + nonce.ReplaceAllString(csp, "'nonce-…'"))
		} else {
			fmt.Println("  " + strings.TrimSpace(string(body)))
		}
	}
	// Output:
	// /api/graphql 200 text/html; charset=utf-8
	//   default-src 'none'; script-src 'self'; style-src 'self' 'nonce-…'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'
	// /api/graphql?query={hello} 200 application/json; charset=utf-8
	//   {"data":{"hello":"world"}}
	// /api/graphiql/init.js 200 text/javascript; charset=utf-8
	//   default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'
}
