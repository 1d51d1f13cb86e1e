package gqlkit_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/reqlog"
)

// record is one log line as a handler was given it.
type record struct {
	level slog.Level
	msg   string
	attrs map[string]string
}

// recorder is a slog.Handler that keeps the records it handles.
type recorder struct {
	mu  *sync.Mutex
	got *[]record
}

func newRecorder() recorder { return recorder{mu: new(sync.Mutex), got: new([]record)} }

func (h recorder) Enabled(context.Context, slog.Level) bool { return true }

func (h recorder) Handle(_ context.Context, r slog.Record) error {
	rec := record{level: r.Level, msg: r.Message, attrs: map[string]string{}}
	r.Attrs(func(a slog.Attr) bool {
		if _, dup := rec.attrs[a.Key]; dup {
			rec.attrs[a.Key] = "(twice)"
		} else {
			rec.attrs[a.Key] = a.Value.String()
		}
		return true
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	*h.got = append(*h.got, rec)
	return nil
}

func (h recorder) WithAttrs([]slog.Attr) slog.Handler { panic("not used by the kit") }
func (h recorder) WithGroup(string) slog.Handler      { panic("not used by the kit") }

func (h recorder) records() []record {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]record(nil), *h.got...)
}

// withTraceID is the service's own handler: it adds the trace id of the
// span in the context it is given, as a service on OpenTelemetry does.
type withTraceID struct{ slog.Handler }

func (h withTraceID) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()))
	}
	return h.Handler.Handle(ctx, r)
}

// noUsers knows nobody: every login is refused.
type noUsers struct{}

func (noUsers) PasswordHash(context.Context, string) (int64, []byte, error) {
	return 0, nil, auth.ErrUserNotFound
}

// TestLogLinesHaveTheRequestContext: a service passes its own slog logger
// to the kit, and the kit's lines (a masked error from graphqlhttp, a
// refused login, a panic caught by Recover, the access lines) reach its
// handler with the request's context: each carries the request id, once,
// and the trace id that the service's handler took from the context.
func TestLogLinesHaveTheRequestContext(t *testing.T) {
	rec := newRecorder()
	logger := slog.New(withTraceID{rec}) // no IDHandler: the kit adds request_id itself
	presenter := apierror.Presenter{Logger: logger}

	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "broken", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return nil, errors.New("dial tcp 10.0.0.7:5432: connection refused")
		}},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	gql, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: presenter})
	if err != nil {
		t.Fatal(err)
	}
	issuer, err := auth.NewIssuer([]byte("a secret of thirty-two bytes or more"), auth.Config{})
	if err != nil {
		t.Fatal(err)
	}
	login, err := auth.NewLogin(noUsers{}, issuer, auth.LoginConfig{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/graphql", gql)
	mux.Handle("/api/auth/login", login)
	mux.HandleFunc("/panic", func(http.ResponseWriter, *http.Request) { panic("handler exploded") })

	// The service's tracing middleware, outermost: a span per request,
	// whose trace id the test reads from a response header.
	tp := sdktrace.NewTracerProvider()
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	inner := reqlog.Handler(logger)(presenter.Recover(mux))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := tp.Tracer("service").Start(r.Context(), "request")
		defer span.End()
		w.Header().Set("Trace-Id", span.SpanContext().TraceID().String())
		inner.ServeHTTP(w, r.WithContext(ctx))
	}))
	t.Cleanup(srv.Close)

	send := func(id, path, body string) string {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(reqlog.Header, id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.Header.Get("Trace-Id")
	}
	traces := map[string]string{
		"gql-1":   send("gql-1", "/api/graphql", `{"query":"{ broken }"}`),
		"login-1": send("login-1", "/api/auth/login", `{"email":"ada@example.com","password":"not her password"}`),
		"panic-1": send("panic-1", "/panic", ``),
	}

	want := []struct {
		id, msg string
		level   slog.Level
		attr    string // one more attribute the line must have
	}{
		{"gql-1", "internal server error", slog.LevelError, "graphql_path"},
		{"gql-1", "request", slog.LevelInfo, "status"},
		{"login-1", "auth: login refused: unknown e-mail address", slog.LevelInfo, ""},
		{"login-1", "request", slog.LevelWarn, "status"},
		{"panic-1", "internal server error", slog.LevelError, "stack"},
		{"panic-1", "request", slog.LevelError, "status"},
	}
	got := rec.records()
	for _, w := range want {
		found := false
		for _, r := range got {
			if r.msg != w.msg || r.attrs["request_id"] != w.id {
				continue
			}
			found = true
			if r.level != w.level || r.attrs["trace_id"] != traces[w.id] || traces[w.id] == "" || (w.attr != "" && r.attrs[w.attr] == "") {
				t.Errorf("line %q of %s: level %v, attributes %v; want level %v, trace_id %s and %s",
					w.msg, w.id, r.level, r.attrs, w.level, traces[w.id], w.attr)
			}
		}
		if !found {
			t.Errorf("no line %q with request_id %s; lines: %+v", w.msg, w.id, got)
		}
	}
}
