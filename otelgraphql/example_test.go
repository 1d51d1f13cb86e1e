package otelgraphql_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/otelgraphql"
)

// Trace a GraphQL endpoint: every request is an operation span with a span
// per phase and per resolver. A real service exports the spans (OTLP,
// say) with a batch processor; here they are kept in memory.
func ExampleNew() {
	exporter := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
	defer tp.Shutdown(context.Background())

	tracer, err := otelgraphql.New(otelgraphql.Config{TracerProvider: tp})
	if err != nil {
		panic(err)
	}

	user := &graphql.Object{Name: "User", Fields: graphql.Fields{
		{Name: "name", Type: graphql.NewNonNull(graphql.String)}, // read from the value: no span
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "me", Type: user,
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return map[string]any{"name": "Ada"}, nil
			}},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		panic(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: apierror.Presenter{Logger: quiet}, Tracer: tracer})
	if err != nil {
		panic(err)
	}

	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"query Me { me { name } }"}`))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	fmt.Println(w.Code, w.Body.String())

	// The spans in the order they ended: the operation span last.
	for _, s := range exporter.GetSpans() {
		fmt.Println(s.Name)
	}
	// Output:
	// 200 {"data":{"me":{"name":"Ada"}}}
	// graphql.read
	// graphql.scan
	// graphql.parse
	// graphql.validate
	// graphql.coerce
	// graphql.resolve Query.me
	// graphql.execute
	// graphql.write
	// query
}
