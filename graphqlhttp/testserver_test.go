package graphqlhttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/reqlog"
)

// nobody is an Authenticator that finds no user in any request.
type nobody struct{}

func (nobody) AuthenticateContext(r *http.Request) (context.Context, error) { return r.Context(), nil }
func (nobody) Subject(context.Context) (string, bool)                       { return "", false }

// testServer is a graphqlhttp.Handler over the test schema on a loopback
// server, with the log captured.
type testServer struct {
	*httptest.Server
	handler   *graphqlhttp.Handler
	logs      *logbuf.Buffer
	mutations *atomic.Int64
	issuer    *auth.Issuer
}

// newTestServer serves the test schema with cfg, completed with a logger
// writing to the server's logs and, unless cfg sets its own, the
// authentication of a real auth.Verifier, behind reqlog with that logger.
func newTestServer(t *testing.T, cfg graphqlhttp.Config) *testServer {
	t.Helper()
	ts := &testServer{logs: &logbuf.Buffer{}, mutations: new(atomic.Int64)}
	if cfg.Presenter.Logger == nil {
		logger := logbuf.Logger(ts.logs)
		cfg.Presenter.Logger = logger
	}
	verifier, err := auth.NewVerifier(auth.HMAC(testSecret), auth.Config{})
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	if cfg.Auth == nil {
		cfg.Auth = verifier
	}
	ts.issuer = newIssuer(t, testSecret, auth.Config{})
	h, err := graphqlhttp.New(testSchema(t, ts.mutations), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts.handler = h
	ts.Server = httptest.NewServer(reqlog.Handler(cfg.Presenter.Logger)(h))
	t.Cleanup(ts.Close)
	return ts
}

func newIssuer(t *testing.T, secret []byte, cfg auth.Config) *auth.Issuer {
	t.Helper()
	iss, err := auth.NewIssuer(secret, cfg)
	if err != nil {
		t.Fatalf("NewIssuer: %v", err)
	}
	return iss
}

// token returns "Bearer <a valid token for userID>".
func (ts *testServer) token(t *testing.T, userID int64) string {
	t.Helper()
	tok, err := ts.issuer.Issue(userID)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	return "Bearer " + tok
}

// expiredToken returns a bearer token signed with the right key that
// expired an hour ago.
func expiredToken(t *testing.T) string {
	t.Helper()
	iss := newIssuer(t, testSecret, auth.Config{TTL: time.Hour,
		Now: func() time.Time { return time.Now().Add(-2 * time.Hour) }})
	tok, err := iss.Issue(7)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	return "Bearer " + tok
}

// forgedToken returns a bearer token for user 7 signed with another key.
func forgedToken(t *testing.T) string {
	t.Helper()
	tok, err := newIssuer(t, otherSecret, auth.Config{}).Issue(7)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	return "Bearer " + tok
}

// request describes one HTTP request to the endpoint.
type request struct {
	method        string // default POST
	rawQuery      string // the URL's query string, already encoded
	contentType   string // no Content-Type header when empty
	body          string
	chunked       bool // send the body without a Content-Length
	accept        string
	authorization string
	// emptyAuthorization sends an Authorization header even when
	// authorization is empty.
	emptyAuthorization bool
	requestID          string
}

// response is what came back.
type response struct {
	status int
	header http.Header
	body   string
}

// send sends r to the server with the standard client.
func (ts *testServer) send(t *testing.T, r request) response {
	t.Helper()
	method := r.method
	if method == "" {
		method = http.MethodPost
	}
	target := ts.URL + "/api/graphql"
	if r.rawQuery != "" {
		target += "?" + r.rawQuery
	}
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
		if r.chunked {
			body = io.MultiReader(body) // hides the length
		}
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatalf("NewRequest: %v", err)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.accept != "" {
		req.Header.Set("Accept", r.accept)
	}
	if r.authorization != "" || r.emptyAuthorization {
		req.Header.Set("Authorization", r.authorization)
	}
	if r.requestID != "" {
		req.Header.Set("X-Request-Id", r.requestID)
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %.200s: %v", method, target, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading the response: %v", err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

// want is the expected response. Headers left empty must be absent, except
// contentType, whose empty value means "application/json; charset=utf-8".
type want struct {
	status      int
	body        string
	contentType string
	allow       string
	wwwAuth     string
}

const jsonType = "application/json; charset=utf-8"

// check compares got with w, and checks what every response carries:
// Cache-Control: no-store, a Content-Length matching the body, and the
// echo of the request id when one was sent.
func check(t *testing.T, r request, got response, w want) {
	t.Helper()
	if got.status != w.status {
		t.Errorf("status = %d, want %d (body %s)", got.status, w.status, got.body)
	}
	ct := w.contentType
	if ct == "" {
		ct = jsonType
	}
	headers := []struct{ name, want string }{
		{"Content-Type", ct},
		{"Cache-Control", "no-store"},
		{"Allow", w.allow},
		{"WWW-Authenticate", w.wwwAuth},
	}
	if r.requestID != "" {
		headers = append(headers, struct{ name, want string }{"X-Request-Id", r.requestID})
	}
	for _, h := range headers {
		if g := got.header.Values(h.name); strings.Join(g, "|") != h.want {
			t.Errorf("%s = %q, want %q", h.name, g, h.want)
		}
	}
	if r.method != http.MethodHead {
		if cl := got.header.Get("Content-Length"); cl != strconv.Itoa(len(got.body)) {
			t.Errorf("Content-Length = %q, body has %d bytes", cl, len(got.body))
		}
		if got.body != w.body {
			t.Errorf("body =\n%s\nwant\n%s", got.body, w.body)
		}
		checkErrorObjects(t, got.body)
	}
}

// checkErrorObjects checks that a response body is a JSON object with only
// "data" and "errors", and that each error object carries only message,
// locations, path and extensions, with a code.
func checkErrorObjects(t *testing.T, body string) {
	t.Helper()
	var resp map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		t.Errorf("body is not a JSON object: %v", err)
		return
	}
	for k := range resp {
		if k != "data" && k != "errors" {
			t.Errorf("response has the member %q", k)
		}
	}
	if _, ok := resp["errors"]; !ok {
		return
	}
	var errs []map[string]json.RawMessage
	if err := json.Unmarshal(resp["errors"], &errs); err != nil {
		t.Errorf("errors is not a list of objects: %v", err)
		return
	}
	if len(errs) == 0 || len(errs) > graphqlhttp.MaxErrors {
		t.Errorf("errors has %d entries, want 1..%d", len(errs), graphqlhttp.MaxErrors)
	}
	for i, e := range errs {
		for k := range e {
			switch k {
			case "message", "locations", "path", "extensions":
			default:
				t.Errorf("errors[%d] has the member %q", i, k)
			}
		}
		var ext struct {
			Code string `json:"code"`
		}
		if err := json.Unmarshal(e["extensions"], &ext); err != nil || ext.Code == "" {
			t.Errorf("errors[%d] has no extensions.code: %s", i, e["extensions"])
		}
	}
}

// jsonBody returns a POST JSON body for query, with variables given as JSON
// text ("" leaves them out) and an operation name ("" leaves it out).
func jsonBody(query, variables, operationName string) string {
	var b strings.Builder
	b.WriteString(`{"query":`)
	q, _ := json.Marshal(query)
	b.Write(q)
	if variables != "" {
		b.WriteString(`,"variables":`)
		b.WriteString(variables)
	}
	if operationName != "" {
		n, _ := json.Marshal(operationName)
		b.WriteString(`,"operationName":`)
		b.Write(n)
	}
	b.WriteString("}")
	return b.String()
}

// getQuery returns the URL query string for a GET request.
func getQuery(query, variables, operationName string) string {
	v := url.Values{}
	v.Set("query", query)
	if variables != "" {
		v.Set("variables", variables)
	}
	if operationName != "" {
		v.Set("operationName", operationName)
	}
	return v.Encode()
}

// errorsBody is the body of a response with one request error.
func errorsBody(message, code string) string {
	return `{"errors":[{"message":` + quote(message) + `,"extensions":{"code":"` + code + `"}}]}`
}

// errorsBodyAt is errorsBody with a location.
func errorsBodyAt(message, code string, line, column int) string {
	return fmt.Sprintf(`{"errors":[{"message":%s,"locations":[{"line":%d,"column":%d}],"extensions":{"code":"%s"}}]}`,
		quote(message), line, column, code)
}

// quote returns s as a JSON string, with <, > and & as they are, as the
// handler writes them.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// nopLogger returns a logger that writes nothing.
func nopLogger() *slog.Logger {
	l := slog.New(slog.DiscardHandler)
	return l
}

// newServer serves h on a loopback server closed with the test.
func newServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// httptestRequest returns a request to the endpoint for a recorder.
func httptestRequest(method, contentType, body string) *http.Request {
	req := httptest.NewRequest(method, "/api/graphql", strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req
}

// record serves req with h and returns what was written.
func record(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
