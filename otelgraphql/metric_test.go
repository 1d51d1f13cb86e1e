package otelgraphql_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/otelgraphql"
)

// points returns the histogram's data points by their attributes, written
// as type/name/outcome.
func points(t testing.TB, reader *sdkmetric.ManualReader) map[string]uint64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != otelgraphql.ScopeName {
			continue
		}
		for _, m := range sm.Metrics {
			if m.Name == otelgraphql.LookupsMetricName {
				continue // lookups counts them (lookups_test.go)
			}
			if m.Name != otelgraphql.MetricName {
				t.Errorf("metric %q, want only %q", m.Name, otelgraphql.MetricName)
				continue
			}
			if m.Unit != "s" {
				t.Errorf("unit %q, want s", m.Unit)
			}
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok {
				t.Fatalf("%s is a %T, want a histogram", m.Name, m.Data)
			}
			for _, dp := range h.DataPoints {
				typ, _ := dp.Attributes.Value("graphql.operation.type")
				name, _ := dp.Attributes.Value("graphql.operation.name")
				outcome, _ := dp.Attributes.Value(otelgraphql.OutcomeKey)
				if dp.Attributes.Len() > 3 {
					t.Errorf("attributes %v, want at most type, name and outcome", dp.Attributes.ToSlice())
				}
				out[typ.AsString()+"/"+name.AsString()+"/"+outcome.AsString()] += dp.Count
			}
		}
	}
	return out
}

func TestMetric(t *testing.T) {
	r := newRig(t, otelgraphql.Config{})
	for _, body := range []string{
		postsQuery, postsQuery,
		`{"query":"{ posts { id } }"}`,
		`{"query":"query Missing { missing }"}`,
		`{"query":"query Boom { boom }"}`,
		`{"query":"{ nope }"}`,
	} {
		r.post(t, body)
	}
	got := points(t, r.reader)
	want := map[string]uint64{
		"query/GetPosts/success":     2,
		"query//success":             1,
		"query/Missing/client_error": 1,
		"query/Boom/server_error":    1,
		"//client_error":             1,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("data points\n got %v\nwant %v", got, want)
	}
}

func TestOperationNameOverflow(t *testing.T) {
	r := newRig(t, otelgraphql.Config{MaxOperationNames: 2})
	for _, name := range []string{"A", "B", "C", "A", "D", "B"} {
		r.post(t, `{"query":"query `+name+` { posts { id } }"}`)
	}
	got := points(t, r.reader)
	want := map[string]uint64{"query/A/success": 2, "query/B/success": 2, "query/_OTHER/success": 2}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("data points\n got %v\nwant %v", got, want)
	}
	// The spans keep the real name.
	op := r.query(t, http.StatusOK, `{"query":"query Zed { posts { id } }"}`).operation(t)
	wantAttrs(t, op, map[attribute.Key]any{"graphql.operation.name": "Zed"})

	r = newRig(t, otelgraphql.Config{MaxOperationNames: -1})
	r.post(t, postsQuery)
	if got := points(t, r.reader); fmt.Sprint(got) != fmt.Sprint(map[string]uint64{"query//success": 1}) {
		t.Errorf("with MaxOperationNames -1: %v, want no name", got)
	}
}

// Many requests at once, under the race detector: the spans and the
// bounded names are shared by all.
func TestConcurrentRequests(t *testing.T) {
	r := newRig(t, otelgraphql.Config{MaxOperationNames: 5})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 10 {
				status, body := r.post(t, fmt.Sprintf(`{"query":"query Q%d { posts { id } }"}`, (i+j)%10))
				if status != http.StatusOK {
					t.Errorf("status %d: %s", status, body)
				}
			}
		})
	}
	wg.Wait()
	var total uint64
	names := map[string]bool{}
	for k, n := range points(t, r.reader) {
		total += n
		names[strings.Split(k, "/")[1]] = true
	}
	if total != 80 {
		t.Errorf("%d requests recorded, want 80", total)
	}
	if len(names) != 6 || !names[otelgraphql.OverflowOperationName] {
		t.Errorf("names %v, want 5 and %s", names, otelgraphql.OverflowOperationName)
	}
	if n := len(spans(r.spans.Ended()).named("graphql.resolve Query.posts")); n != 80 {
		t.Errorf("%d field spans, want 80", n)
	}
}

// A request that the sampler leaves out has no span at all, and still its
// metric.
func TestSampledOut(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder), sdktrace.WithSampler(sdktrace.NeverSample()))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	tracer, err := otelgraphql.New(otelgraphql.Config{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(testSchema(t), graphqlhttp.Config{Presenter: apierror.Presenter{Logger: quiet}, Tracer: tracer})
	if err != nil {
		t.Fatal(err)
	}
	e := serve(t, h)
	for range 2 {
		e.post(t, `{"query":"{ posts { id } boom }"}`)
	}
	if n := len(recorder.Ended()); n != 0 {
		t.Errorf("%d spans recorded, want none", n)
	}
	if got := points(t, reader); got["query//server_error"] != 2 {
		t.Errorf("data points %v, want 2 query//server_error", got)
	}
}

// Without a TracerProvider the tracer only records the metric; without a
// MeterProvider, only spans; without either, New refuses.
func TestProviders(t *testing.T) {
	// A zero Config reports to the global providers.
	global := tracetest.NewSpanRecorder()
	before := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(global)))
	defer otel.SetTracerProvider(before)
	zero, err := otelgraphql.New(otelgraphql.Config{})
	if err != nil {
		t.Fatalf("New(Config{}): %v", err)
	}
	quiet := slog.New(slog.DiscardHandler)
	hz, err := graphqlhttp.New(testSchema(t), graphqlhttp.Config{Presenter: apierror.Presenter{Logger: quiet}, Tracer: zero})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(postsQuery))
	req.Header.Set("Content-Type", "application/json")
	hz.ServeHTTP(httptest.NewRecorder(), req)
	spans(global.Ended()).one(t, "query")
	otel.SetTracerProvider(before)

	reader := sdkmetric.NewManualReader()
	tracer, err := otelgraphql.New(otelgraphql.Config{MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))})
	if err != nil {
		t.Fatal(err)
	}
	h, err := graphqlhttp.New(testSchema(t), graphqlhttp.Config{Presenter: apierror.Presenter{Logger: quiet}, Tracer: tracer})
	if err != nil {
		t.Fatal(err)
	}
	req = httptest.NewRequest(http.MethodPost, "/", strings.NewReader(postsQuery))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(httptest.NewRecorder(), req)
	if got := points(t, reader); got["query/GetPosts/success"] != 1 {
		t.Errorf("data points %v, want 1 query/GetPosts/success", got)
	}

	recorder := tracetest.NewSpanRecorder()
	tracer, err = otelgraphql.New(otelgraphql.Config{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))})
	if err != nil {
		t.Fatal(err)
	}
	h, err = graphqlhttp.New(testSchema(t), graphqlhttp.Config{Presenter: apierror.Presenter{Logger: quiet}, Tracer: tracer})
	if err != nil {
		t.Fatal(err)
	}
	req = httptest.NewRequest(http.MethodPost, "/", strings.NewReader(postsQuery))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(httptest.NewRecorder(), req)
	ss := spans(recorder.Ended())
	root := ss.one(t, "query")
	if root.Parent().IsValid() {
		t.Errorf("the operation span has a parent %v, want none: the request had no span", root.Parent())
	}
}

// The kit's core packages must not import OpenTelemetry: only programs
// that import otelgraphql pay for it.
func TestCoreImportsNoOpenTelemetry(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		// go test runs the test binary with the toolchain's go first on
		// PATH; without it, try the toolchain that built the test.
		//lint:ignore SA1019 the toolchain that built the test is the one wanted
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goBin); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("the go command is missing, and CI is set: cannot check the imports of the core packages")
			}
			t.Skip("the go command is missing: cannot check the imports of the core packages")
		}
	}
	cmd := exec.Command(goBin, "list", "-deps", "./graphql", "./graphqlhttp", "./errors", "./limits",
		"./auth/...", "./articles/...", "./idempotency", "./reqlog")
	cmd.Dir = ".." // the module's root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var otel []string
	for line := range strings.Lines(string(out)) {
		if strings.Contains(line, "go.opentelemetry.io") {
			otel = append(otel, strings.TrimSpace(line))
		}
	}
	if len(otel) > 0 {
		t.Errorf("the core packages depend on OpenTelemetry: %s", strings.Join(otel, ", "))
	}
	if !strings.Contains(string(out), "github.com/gqlkit/gqlkit/graphqlhttp") {
		t.Errorf("go list printed no graphqlhttp; output:\n%s", out)
	}
}
