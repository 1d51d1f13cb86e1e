package otelgraphql_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/otelgraphql"
)

// post is read by the default resolver: Post.id and Post.title have no
// Resolve function.
type post struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// errDomain is a domain error that the hooks of a test map to FORBIDDEN.
var errDomain = errors.New("the post is locked")

// testSchema has one field of each kind a test needs: resolved (posts),
// read from the parent (Post.title), failing on the server (boom, kaboom)
// and failing on the client (missing, locked once mapped).
func testSchema(t testing.TB) *graphql.Schema {
	t.Helper()
	postType := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
	}}
	resolve := func(v any, err error) graphql.ResolveFunc {
		return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return v, err }
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(postType))),
			Resolve: resolve([]post{{"1", "First"}, {"2", "Second"}}, nil)},
		{Name: "boom", Type: graphql.String, Resolve: resolve(nil, errors.New("connection refused"))},
		{Name: "kaboom", Type: graphql.String,
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { panic("kaboom") }},
		{Name: "missing", Type: graphql.String, Resolve: resolve(nil, errcode.NotFound(""))},
		{Name: "locked", Type: graphql.String, Resolve: resolve(nil, errDomain)},
		{Name: "slow", Type: graphql.String,
			Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(10 * time.Second):
					return "late", nil
				}
			}},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// errorHooks map errDomain to FORBIDDEN, for the endpoint and the tracer.
var errorHooks = apierror.Hooks{Map: func(_ context.Context, err error) error {
	if errors.Is(err, errDomain) {
		return &errcode.Error{Code: errcode.CodeForbidden, Message: "Locked.", Err: err}
	}
	return err
}}

// rig is a real graphqlhttp endpoint on loopback, wrapped by otelhttp,
// with a span recorder and a manual metric reader.
type rig struct {
	*endpoint
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
}

// newRig serves the test schema with a tracer made from cfg (its
// providers are filled in unless cfg.MeterProvider is set to a noop one).
func newRig(t testing.TB, cfg otelgraphql.Config) *rig {
	t.Helper()
	return newRigWith(t, cfg, graphqlhttp.Config{})
}

// newRigWith is newRig with the endpoint configured by endpointCfg (its
// logger and tracer are set here, and its presenter's hooks to errorHooks
// unless it has some).
func newRigWith(t testing.TB, cfg otelgraphql.Config, endpointCfg graphqlhttp.Config) *rig {
	t.Helper()
	r := &rig{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	t.Cleanup(func() {
		_ = r.tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	if cfg.TracerProvider == nil {
		cfg.TracerProvider = r.tp
	}
	if cfg.MeterProvider == nil {
		cfg.MeterProvider = mp
	}
	tracer, err := otelgraphql.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	if endpointCfg.Presenter.Hooks.Map == nil {
		endpointCfg.Presenter.Hooks = errorHooks
	}
	endpointCfg.Presenter.Logger, endpointCfg.Tracer = quiet, tracer
	h, err := graphqlhttp.New(testSchema(t), endpointCfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/graphql", h)
	r.endpoint = serve(t, otelhttp.NewHandler(mux, "graphql",
		otelhttp.WithTracerProvider(r.tp),
		otelhttp.WithMeterProvider(noop.NewMeterProvider()),
		otelhttp.WithPropagators(propagation.TraceContext{})))
	r.url += "/graphql"
	return r
}

// endpoint is a handler served on loopback.
type endpoint struct {
	url string
	// served gets a value each time the handler has returned: a client
	// can read the whole answer before then, when the spans have not all
	// ended and the metric is not recorded yet.
	served chan struct{}
}

func serve(t testing.TB, h http.Handler) *endpoint {
	t.Helper()
	e := &endpoint{served: make(chan struct{}, 128)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { e.served <- struct{}{} }()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e.url = srv.URL
	return e
}

// post sends one GraphQL request and returns the status and body, once a
// handler has returned (with requests at once, not necessarily this one's;
// when they have all returned, so have all the handlers).
func (e *endpoint) post(t testing.TB, body string) (int, string) {
	t.Helper()
	res, err := http.Post(e.url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-e.served:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler has not returned 10 s after its answer")
	}
	return res.StatusCode, string(b)
}

// query sends a request and checks its status; it returns the spans of
// its trace (the recorder is reset first).
func (r *rig) query(t testing.TB, wantStatus int, body string) spans {
	t.Helper()
	r.spans.Reset()
	status, out := r.post(t, body)
	if status != wantStatus {
		t.Fatalf("%s: status %d, want %d; body %s", body, status, wantStatus, out)
	}
	return r.spans.Ended()
}

type spans []sdktrace.ReadOnlySpan

// named returns the spans called name.
func (ss spans) named(name string) spans {
	var out spans
	for _, s := range ss {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

// one returns the one span called name, failing t when there is not
// exactly one.
func (ss spans) one(t testing.TB, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	found := ss.named(name)
	if len(found) != 1 {
		t.Fatalf("%d spans named %q, want 1; spans: %s", len(found), name, ss)
	}
	return found[0]
}

func (ss spans) String() string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Name()
	}
	return strings.Join(names, ", ")
}

// operation returns the operation span: the child of the HTTP span.
func (ss spans) operation(t testing.TB) sdktrace.ReadOnlySpan {
	t.Helper()
	var http sdktrace.ReadOnlySpan
	for _, s := range ss {
		if strings.HasSuffix(s.Name(), " /graphql") {
			http = s
		}
	}
	if http == nil {
		t.Fatalf("no HTTP span among %s", ss)
	}
	for _, s := range ss {
		if s.Parent().SpanID() == http.SpanContext().SpanID() {
			return s
		}
	}
	t.Fatalf("no child of the HTTP span %q among %s", http.Name(), ss)
	return nil
}

// attrs returns a span's attributes by key.
func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// wantAttrs checks the attributes of s: a key mapped to nil must be absent.
func wantAttrs(t testing.TB, s sdktrace.ReadOnlySpan, want map[attribute.Key]any) {
	t.Helper()
	got := attrs(s)
	for k, w := range want {
		v, ok := got[k]
		switch {
		case w == nil && ok:
			t.Errorf("span %q: %s = %v, want it absent", s.Name(), k, v.String())
		case w == nil:
		case !ok:
			t.Errorf("span %q: no %s, want %v", s.Name(), k, w)
		case v.AsInterface() != w:
			t.Errorf("span %q: %s = %#v, want %#v", s.Name(), k, v.AsInterface(), w)
		}
	}
}

func wantStatus(t testing.TB, s sdktrace.ReadOnlySpan, want codes.Code) {
	t.Helper()
	if got := s.Status().Code; got != want {
		t.Errorf("span %q: status %v (%q), want %v", s.Name(), got, s.Status().Description, want)
	}
}

const postsQuery = `{"query":"query GetPosts { posts { id title } }"}`

func TestOperationSpan(t *testing.T) {
	r := newRig(t, otelgraphql.Config{})
	ss := r.query(t, http.StatusOK, postsQuery)
	op := ss.operation(t)
	if op.Name() != "query" {
		t.Errorf("operation span name %q, want %q (the conventions' {graphql.operation.type})", op.Name(), "query")
	}
	if op.SpanKind() != trace.SpanKindServer {
		t.Errorf("operation span kind %v, want server", op.SpanKind())
	}
	wantAttrs(t, op, map[attribute.Key]any{
		"graphql.operation.type":    "query",
		"graphql.operation.name":    "GetPosts",
		"graphql.document":          nil, // RecordDocument is off
		"http.response.status_code": int64(200),
		"error.type":                nil,
		otelgraphql.ErrorsKey:       nil,
	})
	if _, ok := attrs(op)[otelgraphql.CostKey]; !ok {
		t.Errorf("operation span: no %s", otelgraphql.CostKey)
	}
	wantStatus(t, op, codes.Unset)

	field := ss.one(t, "graphql.resolve Query.posts")
	if field.Parent().SpanID() != op.SpanContext().SpanID() {
		t.Errorf("the field span's parent is %v, want the operation span", field.Parent().SpanID())
	}
	wantAttrs(t, field, map[attribute.Key]any{
		otelgraphql.FieldNameKey:  "posts",
		otelgraphql.ParentNameKey: "Query",
		otelgraphql.FieldTypeKey:  "[Post!]!",
		otelgraphql.FieldPathKey:  "posts",
	})
	wantStatus(t, field, codes.Unset)
	for _, s := range ss {
		if strings.Contains(s.Name(), "Post.") {
			t.Errorf("a span %q for a field without a resolver", s.Name())
		}
	}
	if n := len(ss); n != 2+7+1 { // HTTP, operation, 7 phases, posts
		t.Errorf("%d spans, want 10: %s", n, ss)
	}
}

// With TraceDefaultFields, the endpoint has the tracer see every field: the
// path attribute then carries list indexes.
func TestFieldPath(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
	tracer, err := otelgraphql.New(otelgraphql.Config{TracerProvider: tp})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(testSchema(t), graphqlhttp.Config{Presenter: apierror.Presenter{Logger: quiet}, Tracer: tracer, TraceDefaultFields: true})
	if err != nil {
		t.Fatal(err)
	}
	serve(t, h).post(t, `{"query":"{ posts { t: title } }"}`)
	ss := spans(recorder.Ended())
	titles := ss.named("graphql.resolve Post.title")
	if len(titles) != 2 {
		t.Fatalf("%d spans for Post.title, want 2: %s", len(titles), ss)
	}
	var paths []string
	for _, s := range titles {
		paths = append(paths, attrs(s)[otelgraphql.FieldPathKey].AsString())
	}
	slices.Sort(paths)
	if want := []string{"posts.0.t", "posts.1.t"}; !slices.Equal(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
}

func TestRecordDocument(t *testing.T) {
	r := newRig(t, otelgraphql.Config{RecordDocument: true, SpanNameWithOperationName: true})
	op := r.query(t, http.StatusOK, postsQuery).operation(t)
	wantAttrs(t, op, map[attribute.Key]any{"graphql.document": "query GetPosts { posts { id title } }"})
	if op.Name() != "query GetPosts" {
		t.Errorf("span name %q, want %q with SpanNameWithOperationName", op.Name(), "query GetPosts")
	}
	op = r.query(t, http.StatusOK, `{"query":"{ posts { id } }"}`).operation(t)
	if op.Name() != "query" {
		t.Errorf("span name of an anonymous operation %q, want %q", op.Name(), "query")
	}
	wantAttrs(t, op, map[attribute.Key]any{"graphql.operation.name": nil})
}

func TestErrorStatuses(t *testing.T) {
	r := newRig(t, otelgraphql.Config{})
	for _, tc := range []struct {
		name       string
		body       string
		status     int
		spanName   string
		code       string     // error.type of the operation span
		spanStatus codes.Code // of the operation span
		field      string     // the field span, when one
		fieldCode  string
		fieldSpan  codes.Code
	}{
		{name: "validation", body: `{"query":"{ nope }"}`, status: 400,
			spanName: otelgraphql.DefaultSpanName, code: "GRAPHQL_VALIDATION_FAILED", spanStatus: codes.Unset},
		{name: "parse", body: `{"query":"{ posts "}`, status: 400,
			spanName: otelgraphql.DefaultSpanName, code: "GRAPHQL_PARSE_FAILED", spanStatus: codes.Unset},
		{name: "body", body: `{"query":`, status: 400,
			spanName: otelgraphql.DefaultSpanName, code: "BAD_USER_INPUT", spanStatus: codes.Unset},
		{name: "not found", body: `{"query":"{ missing }"}`, status: 200,
			spanName: "query", code: "NOT_FOUND", spanStatus: codes.Unset,
			field: "graphql.resolve Query.missing", fieldCode: "NOT_FOUND", fieldSpan: codes.Unset},
		{name: "mapped by the hooks", body: `{"query":"{ locked }"}`, status: 200,
			spanName: "query", code: "FORBIDDEN", spanStatus: codes.Unset,
			field: "graphql.resolve Query.locked", fieldCode: "FORBIDDEN", fieldSpan: codes.Unset},
		{name: "unknown error", body: `{"query":"{ boom }"}`, status: 200,
			spanName: "query", code: "INTERNAL_SERVER_ERROR", spanStatus: codes.Error,
			field: "graphql.resolve Query.boom", fieldCode: "INTERNAL_SERVER_ERROR", fieldSpan: codes.Error},
		{name: "panic", body: `{"query":"{ kaboom }"}`, status: 200,
			spanName: "query", code: "INTERNAL_SERVER_ERROR", spanStatus: codes.Error,
			field: "graphql.resolve Query.kaboom", fieldCode: "INTERNAL_SERVER_ERROR", fieldSpan: codes.Error},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ss := r.query(t, tc.status, tc.body)
			op := ss.operation(t)
			if op.Name() != tc.spanName {
				t.Errorf("operation span %q, want %q", op.Name(), tc.spanName)
			}
			wantAttrs(t, op, map[attribute.Key]any{"error.type": tc.code, "http.response.status_code": int64(tc.status)})
			wantStatus(t, op, tc.spanStatus)
			if tc.field != "" {
				f := ss.one(t, tc.field)
				wantAttrs(t, f, map[attribute.Key]any{"error.type": tc.fieldCode})
				wantStatus(t, f, tc.fieldSpan)
				if len(f.Events()) != 0 {
					t.Errorf("field span events %v, want none (no error messages)", f.Events())
				}
			}
			if tc.spanStatus == codes.Error && op.Status().Description != tc.code {
				t.Errorf("status description %q, want the code %q", op.Status().Description, tc.code)
			}
		})
	}
}

// An operation past graphqlhttp's Timeout is answered 200 with a TIMEOUT
// error: a failure of the server's, so the span is an Error.
func TestTimeout(t *testing.T) {
	r := newRigWith(t, otelgraphql.Config{}, graphqlhttp.Config{Timeout: 50 * time.Millisecond})
	op := r.query(t, http.StatusOK, `{"query":"query Slow { slow }"}`).operation(t)
	wantAttrs(t, op, map[attribute.Key]any{"error.type": "TIMEOUT"})
	wantStatus(t, op, codes.Error)
	if got := points(t, r.reader); got["query/Slow/server_error"] != 1 {
		t.Errorf("data points %v, want 1 query/Slow/server_error", got)
	}
}

func phaseNames(ss spans) []string {
	var names []string
	for _, s := range ss {
		if strings.HasPrefix(s.Name(), "graphql.") && !strings.HasPrefix(s.Name(), "graphql.resolve ") {
			names = append(names, s.Name())
		}
	}
	return names
}

func TestPhases(t *testing.T) {
	r := newRig(t, otelgraphql.Config{})
	first := r.query(t, http.StatusOK, postsQuery)
	op := first.operation(t)
	want := []string{"graphql.read", "graphql.scan", "graphql.parse", "graphql.validate", "graphql.coerce", "graphql.execute", "graphql.write"}
	if got := phaseNames(first); !slices.Equal(got, want) {
		t.Errorf("phases of the first request %q, want %q", got, want)
	}
	for _, name := range want {
		s := first.one(t, name)
		if s.Parent().SpanID() != op.SpanContext().SpanID() {
			t.Errorf("%s is not a child of the operation span", name)
		}
		if s.SpanKind() != trace.SpanKindInternal {
			t.Errorf("%s: kind %v, want internal", name, s.SpanKind())
		}
		if s.StartTime().Before(op.StartTime()) || s.EndTime().After(op.EndTime()) || s.EndTime().Before(s.StartTime()) {
			t.Errorf("%s runs %v..%v, outside the operation's %v..%v", name, s.StartTime(), s.EndTime(), op.StartTime(), op.EndTime())
		}
	}
	wantAttrs(t, first.one(t, "graphql.validate"), map[attribute.Key]any{otelgraphql.CachedKey: false})

	// The cache admits a document on its second request; the third is
	// answered from it.
	r.query(t, http.StatusOK, postsQuery)
	third := r.query(t, http.StatusOK, postsQuery)
	want = []string{"graphql.read", "graphql.validate", "graphql.coerce", "graphql.execute", "graphql.write"}
	if got := phaseNames(third); !slices.Equal(got, want) {
		t.Errorf("phases of the third request %q, want %q (the document is cached)", got, want)
	}
	wantAttrs(t, third.one(t, "graphql.validate"), map[attribute.Key]any{otelgraphql.CachedKey: true})
}

func TestSkipPhases(t *testing.T) {
	r := newRig(t, otelgraphql.Config{SkipPhases: true})
	ss := r.query(t, http.StatusOK, postsQuery)
	if got := phaseNames(ss); len(got) != 0 {
		t.Errorf("phase spans %q with SkipPhases", got)
	}
	ss.one(t, "graphql.resolve Query.posts")
}
