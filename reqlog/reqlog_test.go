package reqlog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/slogtest"
	"time"

	"github.com/rs/xid"

	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/reqlog"
)

// sink collects log lines written from server goroutines.
type sink chan []byte

func (s sink) Write(p []byte) (int, error) {
	s <- append([]byte(nil), p...)
	return len(p), nil
}

// next returns the next log line, decoded.
func (s sink) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case line := <-s:
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no log line was written")
		return nil
	}
}

// empty fails when more lines are waiting.
func (s sink) empty(t *testing.T) {
	t.Helper()
	select {
	case line := <-s:
		t.Errorf("unexpected log line %s", line)
	default:
	}
}

// serve starts a real server running h behind reqlog.Handler and returns its
// URL and the log sink. The logger's handler is an IDHandler, as a service's
// would be: lines logged inside carry the request id.
func serve(t *testing.T, h http.Handler) (string, sink) {
	t.Helper()
	logs := make(sink, 16)
	logger := slog.New(reqlog.NewIDHandler(logbuf.Logger(logs).Handler()))
	srv := httptest.NewUnstartedServer(reqlog.Handler(logger)(h))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the panic test's stack
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, logs
}

func get(t *testing.T, url string, header http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestRequestID(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := []struct {
		name   string
		header []string // nil: no header
		keep   bool
	}{
		{name: "uuid", header: []string{"3f1c2a9e-6b1d-4c7a-9f0e-2d5b8a7c6e41"}, keep: true},
		{name: "all allowed characters", header: []string{"Az09._:-"}, keep: true},
		{name: "64 characters", header: []string{long}, keep: true},
		{name: "one character", header: []string{"x"}, keep: true},
		{name: "first of two headers", header: []string{"first", "second"}, keep: true},
		{name: "missing", header: nil},
		{name: "empty", header: []string{""}},
		{name: "65 characters", header: []string{long + "a"}},
		{name: "space", header: []string{"bad id"}},
		{name: "quote", header: []string{`a"b`}},
		{name: "slash", header: []string{"a/b"}},
		{name: "non-ASCII", header: []string{"idé"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var seenID string // written by the handler before its log line
			url, logs := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				seenID, _ = reqlog.ID(r.Context())
				reqlog.Logger(r.Context()).InfoContext(r.Context(), "inside")
				w.WriteHeader(http.StatusNoContent)
			}))
			header := http.Header{}
			if tc.header != nil {
				header["X-Request-Id"] = tc.header
			}
			resp := get(t, url, header)

			got := resp.Header.Get("X-Request-Id")
			if tc.keep {
				if got != tc.header[0] {
					t.Errorf("X-Request-Id = %q, want %q", got, tc.header[0])
				}
			} else if _, err := xid.FromString(got); err != nil || (len(tc.header) > 0 && got == tc.header[0]) {
				t.Errorf("X-Request-Id = %q, want a fresh xid (%v)", got, err)
			}
			inside, access := logs.next(t), logs.next(t)
			if seenID != got {
				t.Errorf("reqlog.ID in the handler = %q, want %q", seenID, got)
			}
			if inside["message"] != "inside" || inside["request_id"] != got {
				t.Errorf("handler's log line = %v, want request_id %q", inside, got)
			}
			if access["request_id"] != got {
				t.Errorf("access line request_id = %v, want %q", access["request_id"], got)
			}
		})
	}
}

func TestFreshIDsDiffer(t *testing.T) {
	url, logs := serve(t, http.NotFoundHandler())
	a := get(t, url, nil).Header.Get("X-Request-Id")
	b := get(t, url, nil).Header.Get("X-Request-Id")
	logs.next(t)
	logs.next(t)
	if a == b {
		t.Errorf("two requests got the same id %q", a)
	}
}

func TestAccessLine(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		target  string
		status  int     // response status seen by the client
		logged  float64 // status in the access line
		bytes   float64
		level   string
	}{
		{
			name:    "write without WriteHeader",
			handler: func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") },
			target:  "/hello", status: 200, logged: 200, bytes: 5, level: "info",
		},
		{
			name:    "nothing written",
			handler: func(w http.ResponseWriter, r *http.Request) {},
			target:  "/empty", status: 200, logged: 200, bytes: 0, level: "info",
		},
		{
			name:    "no content",
			handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) },
			target:  "/api/articles/7", status: 204, logged: 204, bytes: 0, level: "info",
		},
		{
			name: "created after early hints",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Link", "</style.css>; rel=preload")
				w.WriteHeader(http.StatusEarlyHints)
				w.WriteHeader(http.StatusCreated)
				io.WriteString(w, `{"data":{}}`)
			},
			target: "/api/articles", status: 201, logged: 201, bytes: 11, level: "info",
		},
		{
			name: "an empty copy sends nothing, the status comes after",
			handler: func(w http.ResponseWriter, r *http.Request) {
				// (A LimitReader has no WriteTo, so io.Copy uses ReadFrom.)
				io.Copy(w, io.LimitReader(strings.NewReader(""), 10))
				http.Error(w, "empty", http.StatusNotFound)
			},
			target: "/empty-copy", status: 404, logged: 404, bytes: 6, level: "warn",
		},
		{
			name:    "not found",
			handler: http.NotFound,
			target:  "/nope", status: 404, logged: 404, bytes: 19, level: "warn",
		},
		{
			name: "server error",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "Internal server error.", http.StatusInternalServerError)
			},
			target: "/boom", status: 500, logged: 500, bytes: 23, level: "error",
		},
		{
			name: "service unavailable: load shed, a warning",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "1")
				http.Error(w, "Busy.", http.StatusServiceUnavailable)
			},
			target: "/busy", status: 503, logged: 503, bytes: 6, level: "warn",
		},
		{
			name:    "query string is not logged",
			handler: func(w http.ResponseWriter, r *http.Request) {},
			target:  "/api/graphql?query=%7Bme%7D&token=s3cret", status: 200, logged: 200, bytes: 0, level: "info",
		},
		{
			name: "io.Copy into the response",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.Copy(w, strings.NewReader(strings.Repeat("x", 1000)))
			},
			target: "/copy", status: 200, logged: 200, bytes: 1000, level: "info",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url, logs := serve(t, tc.handler)
			resp := get(t, url+tc.target, http.Header{"Authorization": {"Bearer s3cret"}})
			if resp.StatusCode != tc.status {
				t.Errorf("status = %d, want %d", resp.StatusCode, tc.status)
			}
			line := logs.next(t)
			want := map[string]any{
				"level":      tc.level,
				"message":    "request",
				"method":     "GET",
				"path":       strings.SplitN(tc.target, "?", 2)[0],
				"status":     tc.logged,
				"bytes":      tc.bytes,
				"request_id": resp.Header.Get("X-Request-Id"),
			}
			for k, w := range want {
				if line[k] != w {
					t.Errorf("access line %s = %v, want %v", k, line[k], w)
				}
			}
			if d, ok := line["duration"].(float64); !ok || d < 0 {
				t.Errorf("access line duration = %v, want a non-negative number", line["duration"])
			}
			if len(line) != len(want)+1 {
				t.Errorf("access line has fields %v, want exactly %d", line, len(want)+1)
			}
			raw, _ := json.Marshal(line)
			if strings.Contains(string(raw), "s3cret") {
				t.Errorf("access line leaks a secret: %s", raw)
			}
			logs.empty(t)
		})
	}
}

// traceKey is the context key of a trace id that a test's middleware puts
// outside reqlog, as a tracing middleware would.
type traceKey struct{}

// traceHandler adds trace_id from the context, as a service's handler does
// with its tracer's span.
type traceHandler struct{ slog.Handler }

func (h traceHandler) Handle(ctx context.Context, r slog.Record) error {
	if id, ok := ctx.Value(traceKey{}).(string); ok {
		r.AddAttrs(slog.String("trace_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

// TestAccessLineHasTheRequestContext: the access line is logged with the
// request's context, so the service's handler adds what it holds; without
// an IDHandler the line still carries the id, once.
func TestAccessLineHasTheRequestContext(t *testing.T) {
	logs := make(sink, 16)
	logger := slog.New(traceHandler{logbuf.Logger(logs).Handler()})
	logged := reqlog.Handler(logger)(http.NotFoundHandler())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logged.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), traceKey{}, "trace-1")))
	}))
	t.Cleanup(srv.Close)
	resp := get(t, srv.URL, http.Header{"X-Request-Id": {"req-1"}})
	line := logs.next(t)
	if line["trace_id"] != "trace-1" || line["request_id"] != "req-1" || resp.Header.Get("X-Request-Id") != "req-1" {
		t.Errorf("access line %v, want trace_id trace-1 and request_id req-1", line)
	}
}

// TestPatternReachesOutside: middleware outside Handler sees the route
// that the ServeMux inside matched.
func TestPatternReachesOutside(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/articles/{id}", func(w http.ResponseWriter, r *http.Request) {})
	logged := reqlog.Handler(slog.New(slog.DiscardHandler))(mux)
	req := httptest.NewRequest(http.MethodGet, "/api/articles/7", nil)
	logged.ServeHTTP(httptest.NewRecorder(), req)
	if req.Pattern != "GET /api/articles/{id}" {
		t.Errorf("Pattern outside = %q, want the mux's route", req.Pattern)
	}
}

// TestIDAddedOnce: an IDHandler adds the id to a line that has none, and
// not again to the access line, which has it.
func TestIDAddedOnce(t *testing.T) {
	var buf logbuf.Buffer
	logger := slog.New(reqlog.NewIDHandler(logbuf.Logger(&buf).Handler()))
	h := reqlog.Handler(logger)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logger.InfoContext(r.Context(), "inside", "a", 1, "b", 2, "c", 3, "d", 4, "e", 5)
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set(reqlog.Header, "req-7")
	h.ServeHTTP(httptest.NewRecorder(), req)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("logged %q, want two lines", buf.String())
	}
	for _, l := range lines {
		if n := strings.Count(l, `"request_id":"req-7"`); n != 1 {
			t.Errorf("line %s has request_id %d times, want once", l, n)
		}
	}
	logger.Info("outside any request")
	if got := buf.String(); strings.Count(got, "request_id") != 2 {
		t.Errorf("a line outside any request got a request id: %s", got)
	}
}

// TestIDHandlerIsAHandler runs the standard library's handler checks
// through an IDHandler (outside a request: the rules of WithAttrs,
// WithGroup and the record's attributes are the wrapped handler's).
func TestIDHandlerIsAHandler(t *testing.T) {
	var buf bytes.Buffer
	slogtest.Run(t, func(t *testing.T) slog.Handler {
		buf.Reset()
		return reqlog.NewIDHandler(slog.NewJSONHandler(&buf, nil))
	}, func(t *testing.T) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	})
}

func TestLongPathIsCut(t *testing.T) {
	url, logs := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	path := "/" + strings.Repeat("é", 2000)
	get(t, url+path, nil)
	logged, _ := logs.next(t)["path"].(string)
	if len(logged) > 2048 || !strings.HasSuffix(logged, "…") || !strings.HasPrefix(path, strings.TrimSuffix(logged, "…")) {
		t.Errorf("logged path has %d bytes and ends %q, want a prefix of the path cut to at most 2048 bytes with …", len(logged), logged[len(logged)-8:])
	}
}

func TestPanicIsLogged(t *testing.T) {
	url, logs := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		panic("boom")
	}))
	if resp, err := http.Get(url + "/panic"); err == nil {
		resp.Body.Close()
		t.Fatalf("got a response with status %d, want the connection aborted", resp.StatusCode)
	}
	line := logs.next(t)
	if line["level"] != "error" || line["panic"] != true || line["status"] != float64(0) || line["path"] != "/panic" {
		t.Errorf("access line = %v, want level error, panic true, status 0, path /panic", line)
	}
}

func TestWriterKeepsInterfaces(t *testing.T) {
	url, logs := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(http.Flusher); !ok {
			t.Error("the writer is not an http.Flusher")
		}
		rc := http.NewResponseController(w)
		if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("SetWriteDeadline: %v", err)
		}
		io.WriteString(w, "part 1\n")
		if err := rc.Flush(); err != nil {
			t.Errorf("Flush: %v", err)
		}
		io.WriteString(w, "part 2\n")
	}))
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "part 1\npart 2\n" || len(resp.TransferEncoding) == 0 || resp.TransferEncoding[0] != "chunked" {
		t.Errorf("body %q with transfer encoding %v, want both parts, chunked by the flush", body, resp.TransferEncoding)
	}
	if line := logs.next(t); line["status"] != float64(200) || line["bytes"] != float64(14) {
		t.Errorf("access line = %v, want status 200, bytes 14", line)
	}
}

func TestHijack(t *testing.T) {
	url, logs := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, rw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Errorf("Hijack: %v", err)
			return
		}
		defer conn.Close()
		rw.WriteString("HTTP/1.1 418 I'm a teapot\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		rw.Flush()
	}))
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 418 {
		t.Errorf("status = %d, want 418 written on the hijacked connection", resp.StatusCode)
	}
	if line := logs.next(t); line["status"] != float64(0) || line["level"] != "info" {
		t.Errorf("access line = %v, want status 0 (nothing sent by net/http), level info", line)
	}
}

func TestNestedHandlersShareTheID(t *testing.T) {
	var inner string
	logs := make(sink, 16)
	h := reqlog.Handler(logbuf.Logger(logs))(reqlog.Handler(logbuf.Logger(logs))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner, _ = reqlog.ID(r.Context())
	})))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	resp := get(t, srv.URL, http.Header{"X-Request-Id": {"bad id"}})
	a, b := logs.next(t)["request_id"], logs.next(t)["request_id"]
	if got := resp.Header.Get("X-Request-Id"); got != inner {
		t.Errorf("response id %q, handler saw %q, want the same", got, inner)
	}
	if a != inner || b != inner {
		t.Errorf("access lines carry ids %v and %v, want %q", a, b, inner)
	}
}

func TestIDWithoutHandler(t *testing.T) {
	if got, ok := reqlog.ID(context.Background()); got != "" || ok {
		t.Errorf("ID(context.Background()) = %q, %v; want \"\", false", got, ok)
	}
	if got := reqlog.Logger(context.Background()); got != slog.Default() {
		t.Errorf("Logger(context.Background()) = %v, want slog.Default()", got)
	}
}

func TestValidID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"", false},
		{"a", true},
		{strings.Repeat("9", 64), true},
		{strings.Repeat("9", 65), false},
		{"req_1.2:3-4", true},
		{"a b", false},
		{"a\nb", false},
		{"a,b", false},
		{"é", false},
	}
	for _, tc := range tests {
		if got := reqlog.ValidID(tc.id); got != tc.want {
			t.Errorf("ValidID(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

func TestDisabledLogger(t *testing.T) {
	var seen string
	discard := slog.New(slog.DiscardHandler)
	h := reqlog.Handler(discard)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen, _ = reqlog.ID(r.Context())
		if got := reqlog.Logger(r.Context()); got != discard {
			t.Errorf("reqlog.Logger = %v, want the logger Handler was given", got)
		}
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if got := rec.Header().Get("X-Request-Id"); got == "" || got != seen {
		t.Errorf("X-Request-Id = %q, handler saw %q, want the same non-empty id", got, seen)
	}
}

// plainWriter hides every optional interface of the writer it wraps, as
// some other middleware's wrapper might.
type plainWriter struct{ w http.ResponseWriter }

func (p plainWriter) Header() http.Header         { return p.w.Header() }
func (p plainWriter) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p plainWriter) WriteHeader(code int)        { p.w.WriteHeader(code) }

// TestFailedFlushSendsNothing: a flush the wrapped writer cannot do sends
// no header, so the status the handler then chooses is the one logged.
func TestFailedFlushSendsNothing(t *testing.T) {
	logs := make(sink, 16)
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := http.NewResponseController(w).Flush(); err != nil {
			http.Error(w, "cannot stream", http.StatusNotAcceptable)
			return
		}
		io.WriteString(w, "streamed")
	})
	logged := reqlog.Handler(logbuf.Logger(logs))(inner)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logged.ServeHTTP(plainWriter{w}, r)
	}))
	t.Cleanup(srv.Close)

	if resp := get(t, srv.URL+"/stream", nil); resp.StatusCode != http.StatusNotAcceptable {
		t.Errorf("status %d, want 406", resp.StatusCode)
	}
	line := logs.next(t)
	if line["status"] != float64(http.StatusNotAcceptable) || line["level"] != "warn" {
		t.Errorf("access line %v, want status 406 at warn", line)
	}
}
