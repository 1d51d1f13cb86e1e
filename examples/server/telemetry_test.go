package main

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"

	"github.com/gqlkit/gqlkit/internal/logbuf"
)

func TestParseTelemetry(t *testing.T) {
	for _, tc := range []struct {
		env       []string
		exporters []string
		service   string
		wantError string
	}{
		{},
		{env: []string{"OTEL_TRACES_EXPORTER", "none"}},
		{env: []string{"OTEL_TRACES_EXPORTER", "console"}, exporters: []string{"console"}},
		{env: []string{"OTEL_TRACES_EXPORTER", " Console , otlp,console"}, exporters: []string{"console", "otlp"}},
		{env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"}, exporters: []string{"otlp"}},
		{env: []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://collector/v1/traces"}, exporters: []string{"otlp"}},
		{env: []string{"OTEL_TRACES_EXPORTER", "otlp"}, exporters: []string{"otlp"}},
		{env: []string{"OTEL_TRACES_EXPORTER", "none", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"}},
		{env: []string{"OTEL_TRACES_EXPORTER", "console", "OTEL_SDK_DISABLED", "true"}},
		{env: []string{"OTEL_TRACES_EXPORTER", "console", "OTEL_SERVICE_NAME", "blog"}, exporters: []string{"console"}, service: "blog"},
		{env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"}, exporters: []string{"otlp"}},
		// The protocol matters only to the OTLP exporter.
		{env: []string{"OTEL_TRACES_EXPORTER", "console", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"}, exporters: []string{"console"}},

		{env: []string{"OTEL_TRACES_EXPORTER", "zipkin"}, wantError: `OTEL_TRACES_EXPORTER="zipkin": "zipkin" is not one of console, otlp and none`},
		{env: []string{"OTEL_TRACES_EXPORTER", "console,jaeger"}, wantError: `OTEL_TRACES_EXPORTER="console,jaeger": "jaeger" is not one of`},
		{env: []string{"OTEL_TRACES_EXPORTER", "none,console"}, wantError: `OTEL_TRACES_EXPORTER="none,console": none cannot be combined`},
		{env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"}, wantError: `OTEL_EXPORTER_OTLP_ENDPOINT="collector:4318" is not an http(s) URL`},
		{env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"},
			wantError: `OTEL_EXPORTER_OTLP_PROTOCOL="grpc" is not supported`},
		{env: []string{"OTEL_TRACES_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json"},
			wantError: `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL="http/json" is not supported`},
	} {
		s, err := loadSettings(envOf(tc.env...))
		switch {
		case tc.wantError != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantError) {
				t.Errorf("%q: error %v, want one containing %q", tc.env, err, tc.wantError)
			}
			continue
		case err != nil:
			t.Errorf("%q: %v", tc.env, err)
			continue
		}
		if !slices.Equal(s.telemetry.exporters, tc.exporters) {
			t.Errorf("%q: exporters %q, want %q", tc.env, s.telemetry.exporters, tc.exporters)
		}
		if want := cmp(tc.service, defaultServiceName); s.telemetry.serviceName != want {
			t.Errorf("%q: service name %q, want %q", tc.env, s.telemetry.serviceName, want)
		}
		if s.telemetry.on() != (len(tc.exporters) > 0) {
			t.Errorf("%q: on() = %v", tc.env, s.telemetry.on())
		}
	}
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// launchWithStdout is launch that also keeps what the server writes to
// standard output, where the console exporter writes the spans; it waits
// until the server listens.
func (db testDatabase) launchWithStdout(t *testing.T, extraEnv ...string) (*process, *logbuf.Buffer) {
	t.Helper()
	stdout := &logbuf.Buffer{}
	p := db.launchTo(t, stdout, extraEnv...)
	p.waitListening(t)
	return p, stdout
}

// stop sends SIGTERM to the server and waits for it to exit with 0.
func (p *process) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t); code != 0 {
		t.Fatalf("the server exited with %d", code)
	}
}

// stubSpan is a span as the console exporter (stdouttrace) writes it.
type stubSpan struct {
	Name        string
	SpanContext struct{ TraceID, SpanID string }
	Parent      struct {
		TraceID, SpanID string
		Remote          bool
	}
	SpanKind   int // 1 internal, 2 server
	Attributes []struct {
		Key   string
		Value struct{ Value any }
	}
	Status   struct{ Code, Description string }
	Resource []struct {
		Key   string
		Value struct{ Value any }
	}
	InstrumentationScope struct{ Name string }
}

func (s stubSpan) attr(key string) (any, bool) {
	for _, a := range s.Attributes {
		if a.Key == key {
			return a.Value.Value, true
		}
	}
	return nil, false
}

// The ids of the traceparent header the client sends.
const (
	clientTraceID = "0af7651916cd43dd8448eb211c80319c"
	clientSpanID  = "b7ad6b7169203331"
	traceparent   = "00-" + clientTraceID + "-" + clientSpanID + "-01"
)

// postsQueryBody selects a field with a resolver (Query.posts) and fields
// read from the post (Post.id, Post.title).
const postsQueryBody = `{"query":"query Latest { posts { id title } }"}`

// seed adds a user and a post, so that the posts query has a post whose
// fields are read.
func seed(t *testing.T, db testDatabase, p *process) {
	t.Helper()
	id := strings.TrimSpace(db.mustRun(t, "users", "add", "--name", "Ada", "--email", "ada@example.com", "--password", "correct horse"))
	token := strings.TrimSpace(db.mustRun(t, "token", "--user", id))
	r := send(t, http.MethodPost, p.base+"/api/graphql",
		`{"query":"mutation { createPost(input: {title: \"Hello\", body: \"Text\"}) { id } }"}`,
		"Content-Type", "application/json", "Authorization", "Bearer "+token)
	if r.status != http.StatusOK || !strings.Contains(r.body, `"createPost":{"id"`) {
		t.Fatalf("createPost: %d %s", r.status, r.body)
	}
}

// TestTracingConsole runs the binary with OTEL_TRACES_EXPORTER=console:
// the spans of a request that sent a traceparent are on standard output,
// continuing the client's trace.
func TestTracingConsole(t *testing.T) {
	db := sqliteDatabase(t)
	p, stdout := db.launchWithStdout(t, "OTEL_TRACES_EXPORTER=console", "OTEL_SERVICE_NAME=blog-test")
	p.waitFor(t, "tracing line", func(l logLine) bool { return l.message() == "tracing: console (standard output)" })
	seed(t, db, p)
	r := send(t, http.MethodPost, p.base+"/api/graphql", postsQueryBody,
		"Content-Type", "application/json", "traceparent", traceparent)
	if r.status != http.StatusOK || !strings.Contains(r.body, `"title":"Hello"`) {
		t.Fatalf("posts: %d %s", r.status, r.body)
	}
	p.stop(t) // flushes the spans

	var trace []stubSpan
	dec := json.NewDecoder(strings.NewReader(stdout.String()))
	for {
		var s stubSpan
		if err := dec.Decode(&s); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("standard output is not JSON spans: %v\n%s", err, stdout.String())
		}
		if s.SpanContext.TraceID == clientTraceID {
			trace = append(trace, s)
		}
	}
	byName := map[string][]stubSpan{}
	for _, s := range trace {
		byName[s.Name] = append(byName[s.Name], s)
	}
	one := func(name string) stubSpan {
		t.Helper()
		if len(byName[name]) != 1 {
			t.Fatalf("%d spans %q in the client's trace, want 1; names: %v", len(byName[name]), name, names(trace))
		}
		return byName[name][0]
	}

	httpSpan := one("POST /api/graphql")
	if httpSpan.SpanKind != 2 || httpSpan.Parent.SpanID != clientSpanID || !httpSpan.Parent.Remote {
		t.Errorf("HTTP span: kind %d, parent %+v; want a server span, child of the client's span %s", httpSpan.SpanKind, httpSpan.Parent, clientSpanID)
	}
	if v, _ := httpSpan.attr("http.route"); v != "/api/graphql" {
		t.Errorf("HTTP span: http.route %v, want /api/graphql", v)
	}
	for _, a := range httpSpan.Resource {
		if a.Key == "service.name" && a.Value.Value != "blog-test" {
			t.Errorf("service.name %v, want blog-test (OTEL_SERVICE_NAME)", a.Value.Value)
		}
	}

	op := one("query")
	if op.SpanKind != 2 || op.Parent.SpanID != httpSpan.SpanContext.SpanID {
		t.Errorf("operation span: kind %d, parent %s; want a server span, child of the HTTP span %s", op.SpanKind, op.Parent.SpanID, httpSpan.SpanContext.SpanID)
	}
	for key, want := range map[string]any{
		"graphql.operation.type":    "query",
		"graphql.operation.name":    "Latest",
		"http.response.status_code": float64(200),
	} {
		if got, _ := op.attr(key); got != want {
			t.Errorf("operation span: %s = %v, want %v", key, got, want)
		}
	}
	if _, ok := op.attr("graphql.document"); ok {
		t.Error("operation span: graphql.document is recorded; the server does not record documents")
	}
	if op.Status.Code != "Unset" {
		t.Errorf("operation span status %+v, want Unset", op.Status)
	}

	posts := one("graphql.resolve Query.posts")
	if posts.Parent.SpanID != op.SpanContext.SpanID {
		t.Errorf("Query.posts span: parent %s, want the operation span %s", posts.Parent.SpanID, op.SpanContext.SpanID)
	}
	if v, _ := posts.attr("graphql.field.path"); v != "posts" {
		t.Errorf("Query.posts span: graphql.field.path %v, want posts", v)
	}
	for _, s := range trace {
		if strings.Contains(s.Name, "Post.") {
			t.Errorf("a span %q for a field read from its post", s.Name)
		}
	}
	for _, phase := range []string{"read", "scan", "parse", "validate", "coerce", "execute", "write"} {
		if s := one("graphql." + phase); s.Parent.SpanID != op.SpanContext.SpanID {
			t.Errorf("graphql.%s: parent %s, want the operation span", phase, s.Parent.SpanID)
		}
	}

	// The access line of the request leads to its trace.
	if _, ok, _ := p.find(func(l logLine) bool {
		return l.message() == "request" && l.fields["trace_id"] == clientTraceID && l.fields["span_id"] == httpSpan.SpanContext.SpanID
	}); !ok {
		t.Errorf("no access line with trace_id %s and span_id %s", clientTraceID, httpSpan.SpanContext.SpanID)
	}
}

func names(spans []stubSpan) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}

// TestTracingOff runs the binary without OpenTelemetry variables: nothing
// is written to standard output, and the access lines have no trace ids.
func TestTracingOff(t *testing.T) {
	db := sqliteDatabase(t)
	p, stdout := db.launchWithStdout(t)
	p.waitFor(t, "tracing line", func(l logLine) bool { return l.message() == "tracing: off" })
	r := send(t, http.MethodPost, p.base+"/api/graphql", postsQueryBody,
		"Content-Type", "application/json", "traceparent", traceparent)
	if r.status != http.StatusOK {
		t.Fatalf("posts: %d %s", r.status, r.body)
	}
	p.stop(t)
	if out := stdout.String(); out != "" {
		t.Errorf("standard output %q, want nothing", out)
	}
	if l, ok, _ := p.find(func(l logLine) bool { return l.fields["trace_id"] != nil }); ok {
		t.Errorf("a log line with a trace id: %s", l.raw)
	}
}

// TestTracingOTLP runs the binary with OTEL_EXPORTER_OTLP_ENDPOINT set to
// a collector on loopback: the spans reach it over OTLP/HTTP, at the
// latest when the server stops.
func TestTracingOTLP(t *testing.T) {
	collector := newOTLPCollector(t, "/v1/traces", func() *collectortrace.ExportTraceServiceRequest { return &collectortrace.ExportTraceServiceRequest{} }, &collectortrace.ExportTraceServiceResponse{})

	db := sqliteDatabase(t)
	p, stdout := db.launchWithStdout(t, "OTEL_EXPORTER_OTLP_ENDPOINT="+collector.URL,
		"OTEL_BSP_SCHEDULE_DELAY=60000") // nothing is sent before the shutdown's flush
	p.waitFor(t, "tracing line", func(l logLine) bool { return l.message() == "tracing: otlp to "+collector.URL })
	r := send(t, http.MethodPost, p.base+"/api/graphql", postsQueryBody,
		"Content-Type", "application/json", "traceparent", traceparent)
	if r.status != http.StatusOK {
		t.Fatalf("posts: %d %s", r.status, r.body)
	}
	start := time.Now()
	p.stop(t)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the server took %v to stop", d)
	}
	if out := stdout.String(); out != "" {
		t.Errorf("standard output %q, want nothing: the spans go to the collector", out)
	}

	var got []string
	for _, req := range collector.requests(t) {
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					if hex.EncodeToString(s.TraceId) == clientTraceID {
						got = append(got, s.Name)
					}
				}
			}
		}
	}
	for _, want := range []string{"POST /api/graphql", "query", "graphql.resolve Query.posts", "graphql.execute"} {
		if !slices.Contains(got, want) {
			t.Errorf("no span %q in the client's trace at the collector; got %q", want, got)
		}
	}
}
