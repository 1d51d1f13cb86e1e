package otelgraphql_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/otelgraphql"
)

// queryA is Query A of the benchmark workload (bench/sample), over a
// schema of the same shape: 20 posts, each with an author resolved by a
// resolver of its own, so 21 field spans a request.
const queryA = `{"query":"query Feed($n: Int) { posts(first: $n) { id title tags createdAt author { id name } } }","variables":{"n":20},"operationName":"Feed"}`

type benchUser struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type benchPost struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Tags      []string `json:"tags"`
	CreatedAt string   `json:"createdAt"`
	AuthorID  int      `json:"-"`
}

func benchSchema(b *testing.B) *graphql.Schema {
	b.Helper()
	users := []*benchUser{{ID: "1", Name: "Ada Lovelace"}, {ID: "2", Name: "Alan Turing"}}
	posts := make([]*benchPost, 50)
	for i := range posts {
		posts[i] = &benchPost{ID: strconv.Itoa(i + 1), Title: "Post " + strconv.Itoa(i+1),
			Tags: []string{"graphql", "go", "http"}, CreatedAt: "2026-01-02T09:00:00Z", AuthorID: i % 2}
	}
	user := &graphql.Object{Name: "User", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	post := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
		{Name: "createdAt", Type: graphql.String},
		{Name: "author", Type: user, Typed: graphql.Resolver(func(_ context.Context, p *benchPost, _ graphql.NoArgs) (*benchUser, error) {
			return users[p.AuthorID], nil
		})},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post))),
			Args: []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 10}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ First int }) ([]*benchPost, error) {
				return posts[:min(max(args.First, 0), len(posts))], nil
			})},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		b.Fatal(err)
	}
	return schema
}

// BenchmarkHandlerQueryA measures graphqlhttp's handler on Query A (the
// document cached) without a tracer and with this one, so that benchstat
// shows the adapter's overhead:
//
//	go test -run '^$' -bench HandlerQueryA -count 10 ./otelgraphql > otel.txt
//	benchstat -col /tracer otel.txt
//
// tracer=off has no Tracer; tracer=otel samples every request into a
// batch span processor whose exporter discards the spans, and records the
// histogram into a manual reader; tracer=unsampled has a sampler that
// keeps no request (what a service sampling a small share of its traffic
// pays for most requests); tracer=metrics has no TracerProvider.
func BenchmarkHandlerQueryA(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  func(b *testing.B) *otelgraphql.Config // nil: no tracer
	}{
		{name: "tracer=off"},
		{name: "tracer=otel", cfg: func(b *testing.B) *otelgraphql.Config {
			return &otelgraphql.Config{TracerProvider: benchTracerProvider(b, sdktrace.AlwaysSample()), MeterProvider: benchMeterProvider(b)}
		}},
		{name: "tracer=unsampled", cfg: func(b *testing.B) *otelgraphql.Config {
			return &otelgraphql.Config{TracerProvider: benchTracerProvider(b, sdktrace.NeverSample()), MeterProvider: benchMeterProvider(b)}
		}},
		{name: "tracer=metrics", cfg: func(b *testing.B) *otelgraphql.Config {
			return &otelgraphql.Config{MeterProvider: benchMeterProvider(b)}
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			nop := slog.New(slog.DiscardHandler)
			cfg := graphqlhttp.Config{Presenter: apierror.Presenter{Logger: nop}}
			if bc.cfg != nil {
				tracer, err := otelgraphql.New(*bc.cfg(b))
				if err != nil {
					b.Fatal(err)
				}
				cfg.Tracer = tracer
			}
			h, err := graphqlhttp.New(benchSchema(b), cfg)
			if err != nil {
				b.Fatal(err)
			}
			body := []byte(queryA)
			rec := serveBench(h, body)
			if rec.Code != http.StatusOK || strings.Count(rec.Body.String(), `"author":{"id"`) != 20 || strings.Contains(rec.Body.String(), `"errors"`) {
				b.Fatalf("answer = %d %s", rec.Code, rec.Body.String())
			}
			b.SetBytes(int64(rec.Body.Len()))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				serveBench(h, body)
			}
		})
	}
}

func serveBench(h http.Handler, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func benchTracerProvider(b *testing.B, sampler sdktrace.Sampler) *sdktrace.TracerProvider {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()), sdktrace.WithSampler(sampler))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp
}

func benchMeterProvider(b *testing.B) *sdkmetric.MeterProvider {
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	return mp
}
