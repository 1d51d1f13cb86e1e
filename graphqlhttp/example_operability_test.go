package graphqlhttp_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// postJSON sends body to the endpoint at url and prints the answer.
func postJSON(url, body string, header ...string) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	out, _ := io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Println(res.StatusCode, string(out))
}

// phaseLog is a Tracer that prints the phases and fields of each request.
type phaseLog struct{}

func (phaseLog) StartRequest(ctx context.Context) context.Context { return ctx }
func (phaseLog) Phase(_ context.Context, p graphql.PhaseInfo) {
	if p.Cached {
		fmt.Println("phase", p.Phase, "(cached)")
		return
	}
	fmt.Println("phase", p.Phase)
}
func (phaseLog) StartField(ctx context.Context, info graphql.ResolveInfo) context.Context {
	fmt.Println("field", info.Path())
	return ctx
}
func (phaseLog) EndField(context.Context, graphql.ResolveInfo, error) {}
func (phaseLog) EndRequest(_ context.Context, r graphql.RequestInfo) {
	fmt.Printf("end: %s %q, cost %d, status %d\n", r.OperationType, r.OperationName, r.Cost, r.Status)
}

// A Tracer sees each phase of a request and the fields that run a
// resolver; user.name, read from the struct, is not traced. A document is
// cached from its second request, so the third one skips scanning, parsing
// and validation. Package otelgraphql is the OpenTelemetry one.
func ExampleConfig_tracer() {
	type user struct{ Name string }
	userType := &graphql.Object{Name: "User", Fields: graphql.Fields{{Name: "name", Type: graphql.String}}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "me", Type: userType, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return user{Name: "Ada"}, nil
		}},
	}}
	schema := graphql.MustSchema(graphql.SchemaConfig{Query: query})
	quiet := slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Tracer: phaseLog{}, Presenter: apierror.Presenter{Logger: quiet}})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	for range 3 {
		postJSON(srv.URL, `{"query":"query Me { me { name } }"}`)
	}
	// Output:
	// phase read
	// phase scan
	// phase parse
	// phase validate
	// phase coerce
	// field me
	// phase execute
	// phase write
	// end: query "Me", cost 2, status 200
	// 200 {"data":{"me":{"name":"Ada"}}}
	// phase read
	// phase scan
	// phase parse
	// phase validate
	// phase coerce
	// field me
	// phase execute
	// phase write
	// end: query "Me", cost 2, status 200
	// 200 {"data":{"me":{"name":"Ada"}}}
	// phase read
	// phase validate (cached)
	// phase coerce
	// field me
	// phase execute
	// phase write
	// end: query "Me", cost 2, status 200
	// 200 {"data":{"me":{"name":"Ada"}}}
}

// Past Config.Timeout the fields not yet resolved are null, with one
// TIMEOUT error; what was resolved in time is kept.
func ExampleConfig_timeout() {
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "fast", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return "here", nil
		}},
		{Name: "slow", Type: graphql.String, Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			select { // as a database call does, give up when the context ends
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Minute):
				return "late", nil
			}
		}},
	}}
	schema := graphql.MustSchema(graphql.SchemaConfig{Query: query})
	quiet := slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: apierror.Presenter{Logger: quiet}, Timeout: 500 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	postJSON(srv.URL, `{"query":"{ fast slow }"}`)
	// Output:
	// 200 {"data":{"fast":"here","slow":null},"errors":[{"message":"The operation did not complete in time: the fields it had not resolved are null.","locations":[{"line":1,"column":8}],"path":["slow"],"extensions":{"code":"TIMEOUT"}}]}
}

type roleKey struct{}

// Config.AllowIntrospection decides per request, from the context the
// resolvers would get: here, a role that a middleware in front of the
// endpoint read from a header (use the authenticated user in practice).
func ExampleConfig_allowIntrospection() {
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "hello", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return "world", nil
		}},
	}}
	schema := graphql.MustSchema(graphql.SchemaConfig{Query: query})
	quiet := slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{
		AllowIntrospection: func(ctx context.Context) bool { return ctx.Value(roleKey{}) == "staff" },
		Presenter:          apierror.Presenter{Logger: quiet},
	})
	if err != nil {
		panic(err)
	}
	withRole := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), roleKey{}, r.Header.Get("X-Role"))
		h.ServeHTTP(w, r.WithContext(ctx))
	})
	srv := httptest.NewServer(withRole)
	defer srv.Close()

	postJSON(srv.URL, `{"query":"{ __schema { queryType { name } } }"}`)
	postJSON(srv.URL, `{"query":"{ __schema { queryType { name } } }"}`, "X-Role", "staff")
	// Output:
	// 400 {"errors":[{"message":"GraphQL introspection is not allowed, but the query contained __schema.","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}
	// 200 {"data":{"__schema":{"queryType":{"name":"Query"}}}}
}
