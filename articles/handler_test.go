package articles_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/logbuf"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
)

// TestMountStyles serves the same store through each way of mounting the
// handler and checks the four routes and their URLs.
func TestMountStyles(t *testing.T) {
	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{})
	if err != nil {
		t.Fatal(err)
	}
	styles := []struct {
		name string
		cfg  articles.Config
		// mount registers the routes under collection.
		mount      func(mux *http.ServeMux, h *articles.Handler)
		collection string
	}{
		{
			name:       "method patterns, Required on writes",
			collection: "/api/articles",
			mount: func(mux *http.ServeMux, h *articles.Handler) {
				mux.HandleFunc("GET /api/articles", h.List)
				mux.Handle("POST /api/articles", verifier.Required(http.HandlerFunc(h.Create)))
				mux.HandleFunc("GET /api/articles/{article}", h.Show)
				mux.Handle("DELETE /api/articles/{article}", verifier.Required(http.HandlerFunc(h.Delete)))
			},
		},
		{
			name:       "method patterns with {id}",
			collection: "/v1/posts",
			mount: func(mux *http.ServeMux, h *articles.Handler) {
				mux.HandleFunc("GET /v1/posts", h.List)
				mux.Handle("POST /v1/posts", verifier.Required(http.HandlerFunc(h.Create)))
				mux.HandleFunc("GET /v1/posts/{id}", h.Show)
				mux.Handle("DELETE /v1/posts/{id}", verifier.Required(http.HandlerFunc(h.Delete)))
			},
		},
		{
			name:       "http.StripPrefix",
			collection: "/v2/articles",
			mount: func(mux *http.ServeMux, h *articles.Handler) {
				stripped := verifier.Optional(http.StripPrefix("/v2/articles", h))
				mux.Handle("/v2/articles", stripped)
				mux.Handle("/v2/articles/", stripped)
			},
		},
		{
			name:       "Config.Prefix",
			cfg:        articles.Config{Prefix: "/v3/news/"},
			collection: "/v3/news",
			mount: func(mux *http.ServeMux, h *articles.Handler) {
				mux.Handle("/v3/news", verifier.Optional(h))
				mux.Handle("/v3/news/", verifier.Optional(h))
			},
		},
		{
			name:       "root of its own server",
			collection: "",
			mount: func(mux *http.ServeMux, h *articles.Handler) {
				mux.Handle("/", verifier.Optional(h))
			},
		},
	}
	for _, style := range styles {
		t.Run(style.name, func(t *testing.T) {
			s, c := sqliteStore(t)
			cfg := style.cfg
			cfg.Now = func() time.Time { return now }
			h, err := articles.NewHandler(s, cfg)
			if err != nil {
				t.Fatal(err)
			}
			mux := http.NewServeMux()
			style.mount(mux, h)
			e := &env{t: t, store: s, counter: c, srv: httptest.NewServer(mux)}
			t.Cleanup(e.srv.Close)
			e.issuer, _ = auth.NewIssuer(secret, auth.Config{})
			adaID, ada := e.user("Ada")
			_, bob := e.user("Bob")
			coll := style.collection
			if coll == "" {
				coll = "/"
			}

			got := e.do(request{method: "POST", path: coll, token: ada, body: `{"title":"t","body":"b","published":1}`})
			id := idOf(t, got.body)
			article := `{"data":` + articleJSON(id, adaID, `"t"`, `"b"`, true, nowJSON, `"Ada"`) + `}`
			item := fmt.Sprintf("%s/%d", style.collection, id)
			expect(t, "POST", got, http.StatusCreated, article)
			if loc := got.header.Get("Location"); loc != e.srv.URL+item {
				t.Errorf("Location = %q, want %q", loc, e.srv.URL+item)
			}
			expect(t, "GET item", e.do(request{method: "GET", path: item}), http.StatusOK, article)
			p := e.srv.URL + style.collection
			expect(t, "GET collection", e.do(request{method: "GET", path: coll + "?per_page=5"}), http.StatusOK,
				`{"data":[`+article[len(`{"data":`):len(article)-1]+`],"links":{"first":"`+p+`?page=1&per_page=5","last":"`+p+`?page=1&per_page=5","prev":null,"next":null},`+
					`"meta":{"current_page":1,"from":1,"last_page":1,"path":"`+p+`","per_page":5,"to":1,"total":1}}`)
			expect(t, "POST without a token", e.do(request{method: "POST", path: coll, body: `{"title":"t","body":"b"}`}), http.StatusUnauthorized, unauthenticated)
			expect(t, "DELETE without a token", e.do(request{method: "DELETE", path: item}), http.StatusUnauthorized, unauthenticated)
			expect(t, "DELETE by another", e.do(request{method: "DELETE", path: item, token: bob}), http.StatusForbidden, forbidden)
			expect(t, "DELETE", e.do(request{method: "DELETE", path: item, token: ada}), http.StatusNoContent, "")
			expect(t, "GET deleted item", e.do(request{method: "GET", path: item}), http.StatusNotFound, notFound)
			expect(t, "GET bad id", e.do(request{method: "GET", path: style.collection + "/x1"}), http.StatusNotFound, notFound)
		})
	}
}

// TestRouteMethods mounts each route method without a method pattern: it
// refuses other methods itself.
func TestRouteMethods(t *testing.T) {
	s, _ := sqliteStore(t)
	h, err := articles.NewHandler(s, articles.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		handler http.HandlerFunc
		method  string
		allow   string
	}{
		{name: "List", handler: h.List, method: "POST", allow: "GET, HEAD"},
		{name: "Show", handler: h.Show, method: "DELETE", allow: "GET, HEAD"},
		{name: "Create", handler: h.Create, method: "GET", allow: "POST"},
		{name: "Delete", handler: h.Delete, method: "GET", allow: "DELETE"},
	} {
		srv := httptest.NewServer(c.handler)
		req, _ := http.NewRequest(c.method, srv.URL+"/anything", nil)
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		srv.Close()
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != c.allow || string(body) != notAllowed {
			t.Errorf("%s with %s = %d, Allow %q, %s; want 405, Allow %q, %s",
				c.name, c.method, res.StatusCode, res.Header.Get("Allow"), body, c.allow, notAllowed)
		}
	}
}

// TestBaseURL checks the URLs in links and Location with Config.BaseURL
// and over TLS.
func TestBaseURL(t *testing.T) {
	s, _ := sqliteStore(t)
	ada, err := s.CreateUser(context.Background(), "Ada", "ada@example.com", []byte("h"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		baseURL string
		tls     bool
		want    string // collection URL; "{srv}" is the server's URL
	}{
		{name: "BaseURL", baseURL: "https://api.example.com", want: "https://api.example.com/api/articles"},
		{name: "BaseURL with a path", baseURL: "https://example.com/public/", want: "https://example.com/public/api/articles"},
		{name: "TLS", tls: true, want: "{srv}/api/articles"},
	} {
		h, err := articles.NewHandler(s, articles.Config{BaseURL: c.baseURL})
		if err != nil {
			t.Fatal(err)
		}
		withUser := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(auth.WithUserID(r.Context(), ada)))
		})
		srv := httptest.NewUnstartedServer(withUser)
		if c.tls {
			srv.StartTLS()
		} else {
			srv.Start()
		}
		want := strings.ReplaceAll(c.want, "{srv}", srv.URL)

		res, err := srv.Client().Post(srv.URL+"/api/articles", "application/json", strings.NewReader(`{"title":"t","body":"b"}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, want+"/") {
			t.Errorf("%s: Location = %q, want it under %q", c.name, loc, want)
		}
		res, err = srv.Client().Get(srv.URL + "/api/articles?page=2")
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Links map[string]*string `json:"links"`
			Meta  struct {
				Path string `json:"path"`
			} `json:"meta"`
		}
		err = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if body.Meta.Path != want || body.Links["first"] == nil || *body.Links["first"] != want+"?page=1&per_page=15" {
			t.Errorf("%s: path %q, first %v; want %q and %q", c.name, body.Meta.Path, body.Links["first"], want, want+"?page=1&per_page=15")
		}
	}
}

func TestNewHandlerErrors(t *testing.T) {
	_, err := articles.NewHandler(nil, articles.Config{Prefix: "api", BaseURL: "ftp://example.com", MaxBodyBytes: -1})
	if err == nil {
		t.Fatal("NewHandler with a bad config: error = nil")
	}
	for _, want := range []string{"store is nil", "Prefix", "BaseURL", "MaxBodyBytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("NewHandler error = %q, want it to mention %q", err, want)
		}
	}
	for _, base := range []string{"example.com", "https://", "https://u:p@example.com", "https://example.com/?q=1", "https://example.com/#f", "http://[::1"} {
		if _, err := articles.NewHandler(failingStore{}, articles.Config{BaseURL: base}); err == nil {
			t.Errorf("NewHandler with BaseURL %q: error = nil, want one", base)
		}
	}
}

// failingStore fails every call with err.
type failingStore struct{ err error }

func (f failingStore) ListPublished(context.Context, int, int64, *articles.Page) error {
	return f.err
}

func (f failingStore) ListPublishedFrom(context.Context, articles.Seek, *articles.Page) error {
	return f.err
}

func (f failingStore) FindPublished(context.Context, int64) (articles.Article, error) {
	return articles.Article{}, f.err
}

func (f failingStore) CreateArticle(context.Context, articles.NewArticle) (articles.Article, error) {
	return articles.Article{}, f.err
}

func (f failingStore) DeleteArticle(context.Context, int64, int64) error { return f.err }

func TestInternalError(t *testing.T) {
	cause := fmt.Errorf("articles: listing: %w", errors.New("dial tcp 10.0.0.1:5432: connection refused"))
	for _, debug := range []bool{false, true} {
		var logs strings.Builder
		logger := logbuf.Logger(&logs)
		h, err := articles.NewHandler(failingStore{err: cause}, articles.Config{Presenter: apierror.Presenter{Debug: debug, Logger: logger}})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(auth.WithUserID(r.Context(), 1)))
		}))
		want := `{"message":"Internal server error."}`
		if debug {
			want = `{"message":"articles: listing: dial tcp 10.0.0.1:5432: connection refused"}`
		}
		e := &env{t: t, srv: srv}
		for _, r := range []request{
			{method: "GET", path: "/api/articles"},
			{method: "GET", path: "/api/articles/1"},
			{method: "POST", path: "/api/articles", body: `{"title":"t","body":"b"}`},
			{method: "DELETE", path: "/api/articles/1"},
		} {
			expect(t, fmt.Sprintf("debug %t: %s %s", debug, r.method, r.path), e.do(r), http.StatusInternalServerError, want)
		}
		srv.Close()
		if n := strings.Count(logs.String(), `"level":"error"`); n != 4 || !strings.Contains(logs.String(), "connection refused") {
			t.Errorf("debug %t: log =\n%s\nwant 4 error lines with the cause", debug, logs.String())
		}
	}
}

// TestStoreErrorsPresented checks what apierror.Presenter shows for the
// store errors, wrapped as stores return them.
func TestStoreErrorsPresented(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		body   string
	}{
		{err: articles.ErrUnknownUser, status: 401, body: `{"message":"Unauthenticated."}`},
		{err: articles.ErrNotAuthor, status: 403, body: `{"message":"You can only delete your own articles."}`},
	} {
		wrapped := fmt.Errorf("store detail: %w", c.err)
		if !errors.Is(wrapped, c.err) {
			t.Errorf("errors.Is(wrapped %v) = false", c.err)
		}
		status, body := apierror.Presenter{}.REST(context.Background(), wrapped)
		b, _ := json.Marshal(body)
		if status != c.status || string(b) != c.body {
			t.Errorf("REST(%v) = %d %s, want %d %s", c.err, status, b, c.status, c.body)
		}
		if !strings.HasPrefix(c.err.Error(), "articles: ") {
			t.Errorf("log text %q does not name the package", c.err)
		}
	}
	if errors.Is(articles.ErrNotAuthor, articles.ErrUnknownUser) || errors.Is(articles.ErrNotAuthor, errcode.ErrNotFound) {
		t.Error("the store errors match each other or ErrNotFound")
	}
}

func TestArticleMarshalJSON(t *testing.T) {
	a := articles.Article{
		ID: 7, UserID: 3, Title: "<Hi & bye>", Body: "b", Published: true,
		CreatedAt: time.Date(2025, 5, 6, 9, 8, 7, 6000, time.FixedZone("X", 2*3600)),
		UpdatedAt: time.Date(2025, 5, 6, 7, 8, 7, 0, time.UTC),
		Author:    articles.Author{ID: 3, Name: "Ada"},
	}
	want := `{"id":7,"user_id":3,"title":"\u003cHi \u0026 bye\u003e","body":"b","published":true,` +
		`"created_at":"2025-05-06T07:08:07.000006Z","updated_at":"2025-05-06T07:08:07.000000Z","author":{"id":3,"name":"Ada"}}`
	got, err := json.Marshal(a)
	if err != nil || string(got) != want {
		t.Errorf("json.Marshal(article) = %s, %v; want %s", got, err, want)
	}
}

// TestNoHost sends HTTP/1.0 requests without a Host header: without a
// BaseURL their links cannot be absolute, so they are a 400 and nothing is
// written; with one, they are served.
func TestNoHost(t *testing.T) {
	s, _ := sqliteStore(t)
	ada, err := s.CreateUser(context.Background(), "Ada", "ada@example.com", []byte("h"))
	if err != nil {
		t.Fatal(err)
	}
	rawStatus := func(srv *httptest.Server, req string) (int, string) {
		t.Helper()
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, req); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	const (
		list   = "GET /api/articles HTTP/1.0\r\n\r\n"
		create = "POST /api/articles HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 41\r\n\r\n{\"title\":\"t\",\"body\":\"b\",\"published\":true}"
	)
	for _, base := range []string{"", "https://api.example.com"} {
		h, err := articles.NewHandler(s, articles.Config{BaseURL: base})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(auth.WithUserID(r.Context(), ada)))
		}))
		status, body := rawStatus(srv, create)
		wantStatus, wantBody := http.StatusBadRequest, `{"message":"`+articles.MessageNoHost+`"}`
		if base != "" {
			wantStatus, wantBody = http.StatusCreated, ""
		}
		if status != wantStatus || (wantBody != "" && body != wantBody) {
			t.Errorf("BaseURL %q, create: %d %s, want %d %s", base, status, body, wantStatus, wantBody)
		}
		status, body = rawStatus(srv, list)
		if base == "" && (status != http.StatusBadRequest || body != wantBody) {
			t.Errorf("list without BaseURL: %d %s, want 400 %s", status, body, wantBody)
		}
		if base != "" && (status != http.StatusOK || !strings.Contains(body, `"path":"https://api.example.com/api/articles"`) || !strings.Contains(body, `"total":1`)) {
			t.Errorf("list with BaseURL: %d %s, want 200 with its links and the one article", status, body)
		}
		srv.Close()
	}
}
