package articles_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/logbuf"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/storetest"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// now is the handler's clock in these tests: every article created over
// HTTP gets this time, which is stored truncated to microseconds.
var now = time.Date(2025, time.January, 2, 3, 4, 5, 123456789, time.UTC)

// nowJSON is now as an article shows it.
const nowJSON = "2025-01-02T03:04:05.123456Z"

// secret signs the test tokens.
var secret = []byte("0123456789abcdef0123456789abcdef")

// env is one store behind the handler on a real loopback server, mounted
// the way doc.go recommends:
//
//	mux.Handle("/api/articles", verifier.Optional(h))
//	mux.Handle("/api/articles/", verifier.Optional(h))
type env struct {
	t       *testing.T
	store   storetest.Store
	counter *testdb.Counter
	srv     *httptest.Server
	issuer  *auth.Issuer
	logs    *bytes.Buffer // the presenter's log
}

// storeOpeners are the stores the HTTP tests run against.
var storeOpeners = []struct {
	name string
	open func(t *testing.T) (storetest.Store, *testdb.Counter)
}{
	{name: "sqlite", open: func(t *testing.T) (storetest.Store, *testdb.Counter) {
		s, c := testdb.SQLite(t)
		return testdb.Of(s), c
	}},
	{name: "postgres", open: func(t *testing.T) (storetest.Store, *testdb.Counter) {
		s, c := testdb.Postgres(t)
		return testdb.Of(s), c
	}},
}

// forEachStore runs f once per store, each on a new, empty database.
func forEachStore(t *testing.T, f func(t *testing.T, e *env)) {
	for _, o := range storeOpeners {
		t.Run(o.name, func(t *testing.T) {
			s, c := o.open(t)
			f(t, newEnv(t, s, c, articles.Config{}))
		})
	}
}

// newEnv serves s on a loopback server. cfg.Now and cfg.Presenter.Logger are set
// by newEnv.
func newEnv(t *testing.T, s storetest.Store, c *testdb.Counter, cfg articles.Config) *env {
	t.Helper()
	e := &env{t: t, store: s, counter: c, logs: new(bytes.Buffer)}
	logger := logbuf.Logger(e.logs)
	cfg.Now = func() time.Time { return now }
	cfg.Presenter.Logger = logger
	h, err := articles.NewHandler(s, cfg)
	if err != nil {
		t.Fatalf("NewHandler error: %v", err)
	}
	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{})
	if err != nil {
		t.Fatalf("NewVerifier error: %v", err)
	}
	e.issuer, err = auth.NewIssuer(secret, auth.Config{})
	if err != nil {
		t.Fatalf("NewIssuer error: %v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/articles", verifier.Optional(h))
	mux.Handle("/api/articles/", verifier.Optional(h))
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	return e
}

// user creates a user and returns its id and a token for it.
func (e *env) user(name string) (int64, string) {
	e.t.Helper()
	id, err := e.store.CreateUser(context.Background(), name, strings.ToLower(name)+"@example.com", []byte("hash"))
	if err != nil {
		e.t.Fatalf("CreateUser(%q) error: %v", name, err)
	}
	return id, e.token(id)
}

// token returns a valid token for the user id.
func (e *env) token(id int64) string {
	e.t.Helper()
	tok, err := e.issuer.Issue(id)
	if err != nil {
		e.t.Fatalf("Issue(%d) error: %v", id, err)
	}
	return tok
}

// article stores an article directly.
func (e *env) article(in articles.NewArticle) articles.Article {
	e.t.Helper()
	a, err := e.store.CreateArticle(context.Background(), in)
	if err != nil {
		e.t.Fatalf("CreateArticle(%+v) error: %v", in, err)
	}
	return a
}

// request is one HTTP request of a test.
type request struct {
	method string
	path   string // with query
	token  string // sent as a bearer token when not empty
	body   string
	// contentType defaults to application/json when body is set; "-"
	// sends none.
	contentType string
	header      map[string]string
	// chunked hides the body's length, so that it is sent chunked.
	chunked bool
}

// response is what the server answered.
type response struct {
	status int
	header http.Header
	body   string
}

// do sends r to the server.
func (e *env) do(r request) response {
	e.t.Helper()
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
		if r.chunked {
			body = io.MultiReader(body)
		}
	}
	req, err := http.NewRequest(r.method, e.srv.URL+r.path, body)
	if err != nil {
		e.t.Fatalf("NewRequest(%s %s) error: %v", r.method, r.path, err)
	}
	switch {
	case r.contentType == "-":
	case r.contentType != "":
		req.Header.Set("Content-Type", r.contentType)
	case r.body != "":
		req.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s error: %v", r.method, r.path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatalf("%s %s: reading the body: %v", r.method, r.path, err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

// expect checks the status and exact body of an answer, and that a body is
// JSON.
func expect(t *testing.T, what string, got response, status int, body string) {
	t.Helper()
	if got.status != status {
		t.Errorf("%s: status = %d, want %d (body %s)", what, got.status, status, got.body)
	}
	if got.body != body {
		t.Errorf("%s: body =\n%s\nwant\n%s", what, got.body, body)
	}
	if body != "" {
		if ct := got.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type = %q, want application/json", what, ct)
		}
	}
}

// articleJSON is the exact JSON of an article; title, body and author are
// JSON string literals.
func articleJSON(id, userID int64, title, body string, published bool, created, author string) string {
	return fmt.Sprintf(`{"id":%d,"user_id":%d,"title":%s,"body":%s,"published":%t,"created_at":"%s","updated_at":"%s","author":{"id":%d,"name":%s}}`,
		id, userID, title, body, published, created, created, userID, author)
}

// idOf reads data.id from a create answer.
func idOf(t *testing.T, body string) int64 {
	t.Helper()
	var v struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &v); err != nil || v.Data.ID <= 0 {
		t.Fatalf("no data.id in %s (%v)", body, err)
	}
	return v.Data.ID
}

// Canned bodies.
const (
	unauthenticated = `{"message":"Unauthenticated."}`
	notFound        = `{"message":"Not found."}`
	forbidden       = `{"message":"You can only delete your own articles."}`
	notAllowed      = `{"message":"Method not allowed."}`
)

// sqliteStore returns the users and articles of a migrated SQLite file
// (testdb.SQLite).
func sqliteStore(t *testing.T) (testdb.Domains, *testdb.Counter) {
	s, c := testdb.SQLite(t)
	return testdb.Of(s), c
}
