package errors_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/logbuf"
)

func TestRecover(t *testing.T) {
	logs := new(logbuf.Buffer)
	logger := logbuf.Logger(logs)
	p := apierror.Presenter{Logger: logger}
	var calls atomic.Int64
	h := p.Recover(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		switch r.URL.Path {
		case "/boom":
			panic("handler exploded")
		case "/headers":
			// Headers of an answer that never came must not describe the
			// error written instead.
			h := w.Header()
			h.Set("Content-Length", "2")
			h.Set("Content-Encoding", "gzip")
			h.Set("Cache-Control", "public, max-age=3600")
			h.Set("Set-Cookie", "session=x")
			h.Set("X-Request-Id", "kept")
			panic("with headers set")
		case "/informational":
			w.WriteHeader(http.StatusEarlyHints)
			panic("after an informational answer")
		case "/late":
			w.WriteHeader(http.StatusAccepted)
			panic("after the header")
		case "/midstream":
			io.WriteString(w, `{"data":[1,2,`)
			http.NewResponseController(w).Flush()
			panic("in the middle of the body")
		}
		io.WriteString(w, "fine")
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()

	// A new connection per request: on a reused one, net/http's client
	// would send a GET again after an aborted answer.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	get := func(path string) (*http.Response, string, error) {
		t.Helper()
		res, err := client.Get(srv.URL + path)
		if err != nil {
			return nil, "", err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return res, string(b), err
	}
	const masked = `{"message":"Internal server error."}`
	if res, body, err := get("/boom"); err != nil || res.StatusCode != 500 || body != masked {
		t.Errorf("GET /boom = %v %v %s, want 500 masked", err, res, body)
	}
	if !strings.Contains(logs.String(), `"panic":"handler exploded"`) || !strings.Contains(logs.String(), `"stack":`) {
		t.Errorf("log = %s, want the panic and its stack", logs.String())
	}
	if res, body, err := get("/next"); err != nil || res.StatusCode != 200 || body != "fine" {
		t.Errorf("GET /next after a panic = %v %v %s, want 200 fine", err, res, body)
	}

	res, body, err := get("/headers")
	if err != nil || res.StatusCode != 500 || body != masked {
		t.Fatalf("GET /headers = %v %v %q, want 500 masked", err, res, body)
	}
	for name, want := range map[string]string{
		"Content-Encoding": "", "Set-Cookie": "", "Cache-Control": "no-store",
		"Content-Type": "application/json", "X-Request-Id": "kept",
	} {
		if got := res.Header.Get(name); got != want {
			t.Errorf("GET /headers: %s = %q, want %q", name, got, want)
		}
	}
	if res.ContentLength != int64(len(masked)) && res.ContentLength != -1 {
		t.Errorf("GET /headers: Content-Length %d, want the error's length", res.ContentLength)
	}

	// A 1xx answer is not the answer: the error can still be written.
	if res, body, err := get("/informational"); err != nil || res.StatusCode != 500 || body != masked {
		t.Errorf("GET /informational = %v %v %q, want 500 masked", err, res, body)
	}

	// Once the answer has begun, the response is aborted, so that the
	// client cannot take a cut answer for a whole one.
	logs.Reset()
	for _, path := range []string{"/late", "/midstream"} {
		res, body, err := get(path)
		if err == nil {
			t.Errorf("GET %s = %d %q with no error, want a broken response", path, res.StatusCode, body)
		}
	}
	for _, panicked := range []string{"after the header", "in the middle of the body"} {
		if !strings.Contains(logs.String(), `"panic":"`+panicked+`"`) {
			t.Errorf("log = %s, want the panic %q logged", logs.String(), panicked)
		}
	}
	if n := calls.Load(); n != 6 {
		t.Errorf("handler ran %d times, want 6", n)
	}
}

// plainWriter hides every optional interface of the writer it wraps (no
// Flush), as http.TimeoutHandler's writer and some middleware do.
type plainWriter struct{ w http.ResponseWriter }

func (p plainWriter) Header() http.Header         { return p.w.Header() }
func (p plainWriter) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p plainWriter) WriteHeader(code int)        { p.w.WriteHeader(code) }

// TestRecoverAnswersWithoutBody: a panic after an answer that is whole
// without a body lets that answer go out; a flush that could not happen
// does not count as the answer having begun.
func TestRecoverAnswersWithoutBody(t *testing.T) {
	logs := new(logbuf.Buffer)
	logger := logbuf.Logger(logs)
	p := apierror.Presenter{Logger: logger}
	var flushErr atomic.Value
	h := p.Recover(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/deleted":
			w.WriteHeader(http.StatusNoContent)
			panic("while cleaning up")
		case "/head":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusOK)
			panic("after the head")
		case "/flush":
			flushErr.Store(fmt.Sprint(http.NewResponseController(w).Flush()))
			panic("after a flush that could not happen")
		}
	}))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/flush" {
			w = plainWriter{w}
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{http.MethodDelete, "/deleted", http.StatusNoContent, ""},
		{http.MethodHead, "/head", http.StatusOK, ""},
		{http.MethodGet, "/flush", http.StatusInternalServerError, `{"message":"Internal server error."}`},
	} {
		req, err := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Errorf("%s %s: %v, want %d", tc.method, tc.path, err, tc.status)
			continue
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != tc.status || string(b) != tc.body {
			t.Errorf("%s %s = %d %q (%v), want %d %q", tc.method, tc.path, res.StatusCode, b, err, tc.status, tc.body)
		}
	}
	if got, _ := flushErr.Load().(string); !strings.Contains(got, "not supported") {
		t.Errorf("ResponseController.Flush through Recover = %q, want http.ErrNotSupported", got)
	}
	for _, panicked := range []string{"while cleaning up", "after the head", "after a flush that could not happen"} {
		if !strings.Contains(logs.String(), `"panic":"`+panicked+`"`) {
			t.Errorf("log = %s, want the panic %q logged", logs.String(), panicked)
		}
	}
}
