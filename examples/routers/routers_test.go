package routers_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/gorilla/mux"
	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/sqlite"
)

// kit is what the routers mount: the articles handler (its own routing
// and its per-route methods), the GraphQL endpoint and auth's middleware.
type kit struct {
	articles *articles.Handler
	graphql  *graphqlhttp.Handler
	verifier *auth.Verifier
	login    *auth.Login
	idem     func(http.Handler) http.Handler // idempotency keys
	token    string                          // Ada's
}

var (
	secret  = []byte("a secret of the routers test, 32+")
	created = time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
)

// newKit opens a new SQLite database with Ada and her published article
// 1, and builds the handlers over it.
func newKit(t *testing.T) kit {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	if err := store.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	ada, err := store.Users().CreateUser(ctx, "Ada", "ada@example.com", hash)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Articles().CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: "First", Body: "Text", Published: true, CreatedAt: created}); err != nil {
		t.Fatal(err)
	}
	nop := slog.New(slog.DiscardHandler)
	presenter := apierror.Presenter{Logger: nop}
	h, err := articles.NewHandler(store.Articles(), articles.Config{Presenter: presenter, Now: func() time.Time { return created }})
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{Logger: nop})
	if err != nil {
		t.Fatal(err)
	}
	issuer, err := auth.NewIssuer(secret, auth.Config{})
	if err != nil {
		t.Fatal(err)
	}
	token, err := issuer.Issue(ada)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graphqlhttp.New(schema(t), graphqlhttp.Config{Auth: verifier, Presenter: presenter})
	if err != nil {
		t.Fatal(err)
	}
	login, err := auth.NewLogin(store.Users(), issuer, auth.LoginConfig{Cost: bcrypt.MinCost, Logger: nop})
	if err != nil {
		t.Fatal(err)
	}
	idem, err := idempotency.Middleware(idempotency.Config{Store: store.Idempotency(), Presenter: presenter})
	if err != nil {
		t.Fatal(err)
	}
	return kit{articles: h, graphql: g, verifier: verifier, login: login, idem: idem, token: token}
}

// schema has a query hello, a public mutation signUp and a mutation me
// that needs a user and answers its subject.
func schema(t *testing.T) *graphql.Schema {
	t.Helper()
	s, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
			{Name: "hello", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return "world", nil
			}},
		}},
		Mutation: &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
			{Name: "signUp", Type: graphql.String, Public: true, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return "welcome", nil
			}},
			{Name: "me", Type: graphql.ID, Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
				id, _ := auth.Subject(ctx)
				return id, nil
			}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The routes every router serves:
//
//	/api/articles[/…]        the articles handler's own routing, writes behind verifier.Optional
//	/per/articles            List (GET), Create (POST, behind verifier.Required)
//	/per/articles/{id}       Show (GET), Delete (DELETE, behind verifier.Required)
//	/graphql                 the GraphQL endpoint
//	/auth/login              auth's Login
//
// Create goes behind the idempotency middleware, inside verifier.Required.
var routers = []struct {
	name  string
	mount func(k kit) http.Handler
}{
	{name: "http.ServeMux", mount: func(k kit) http.Handler {
		m := http.NewServeMux()
		m.Handle("/api/articles", k.verifier.Optional(k.articles))
		m.Handle("/api/articles/", k.verifier.Optional(k.articles))
		m.HandleFunc("GET /per/articles", k.articles.List)
		m.Handle("POST /per/articles", k.verifier.Required(k.idem(http.HandlerFunc(k.articles.Create))))
		m.HandleFunc("GET /per/articles/{id}", k.articles.Show)
		m.Handle("DELETE /per/articles/{id}", k.verifier.Required(http.HandlerFunc(k.articles.Delete)))
		m.Handle("/graphql", k.graphql)
		m.Handle("/auth/login", k.login)
		return m
	}},
	{name: "chi", mount: func(k kit) http.Handler {
		r := chi.NewRouter()
		r.Handle("/api/articles", k.verifier.Optional(k.articles))
		r.Handle("/api/articles/*", k.verifier.Optional(k.articles))
		r.Get("/per/articles", k.articles.List)
		r.With(k.verifier.Required, k.idem).Post("/per/articles", k.articles.Create)
		r.Get("/per/articles/{id}", k.articles.Show)
		r.With(k.verifier.Required).Delete("/per/articles/{id}", k.articles.Delete)
		r.Handle("/graphql", k.graphql)
		r.Handle("/auth/login", k.login)
		return r
	}},
	{name: "gorilla/mux", mount: func(k kit) http.Handler {
		r := mux.NewRouter()
		r.Handle("/api/articles", k.verifier.Optional(k.articles))
		r.PathPrefix("/api/articles/").Handler(k.verifier.Optional(k.articles))
		r.HandleFunc("/per/articles", k.articles.List).Methods(http.MethodGet)
		r.Handle("/per/articles", k.verifier.Required(k.idem(http.HandlerFunc(k.articles.Create)))).Methods(http.MethodPost)
		r.HandleFunc("/per/articles/{id}", k.articles.Show).Methods(http.MethodGet)
		r.Handle("/per/articles/{id}", k.verifier.Required(http.HandlerFunc(k.articles.Delete))).Methods(http.MethodDelete)
		r.Handle("/graphql", k.graphql)
		r.Handle("/auth/login", k.login)
		return r
	}},
	{name: "echo", mount: func(k kit) http.Handler {
		e := echo.New()
		required := echo.WrapMiddleware(k.verifier.Required)
		e.Any("/api/articles", echo.WrapHandler(k.verifier.Optional(k.articles)))
		e.Any("/api/articles/*", echo.WrapHandler(k.verifier.Optional(k.articles)))
		e.GET("/per/articles", echo.WrapHandler(http.HandlerFunc(k.articles.List)))
		e.POST("/per/articles", echo.WrapHandler(http.HandlerFunc(k.articles.Create)), required, echo.WrapMiddleware(k.idem))
		e.GET("/per/articles/:id", echo.WrapHandler(http.HandlerFunc(k.articles.Show)))
		e.DELETE("/per/articles/:id", echo.WrapHandler(http.HandlerFunc(k.articles.Delete)), required)
		e.Any("/graphql", echo.WrapHandler(k.graphql))
		e.Any("/auth/login", echo.WrapHandler(k.login))
		return e
	}},
}

const (
	stamp              = "2026-12-06T12:00:00.000000Z"
	first              = `{"id":1,"user_id":1,"title":"First","body":"Text","published":true,"created_at":"` + stamp + `","updated_at":"` + stamp + `","author":{"id":1,"name":"Ada"}}`
	second             = `{"id":2,"user_id":1,"title":"Second","body":"More","published":true,"created_at":"` + stamp + `","updated_at":"` + stamp + `","author":{"id":1,"name":"Ada"}}`
	notFound           = `{"message":"Not found."}`
	unauthenticated    = `{"message":"Unauthenticated."}`
	gqlUnauthenticated = `{"errors":[{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}]}`
)

// list is the exact answer of a list of the articles in data at path.
func list(path, data string, total int) string {
	from, to := "1", "1"
	if total == 0 {
		from, to = "null", "null"
	} else {
		to = string(rune('0' + total))
	}
	return `{"data":[` + data + `],"links":{"first":"` + path + `?page=1&per_page=15","last":"` + path + `?page=1&per_page=15","prev":null,"next":null},` +
		`"meta":{"current_page":1,"from":` + from + `,"last_page":1,"path":"` + path + `","per_page":15,"to":` + to + `,"total":` + string(rune('0'+total)) + `}}`
}

func TestRouters(t *testing.T) {
	for _, rt := range routers {
		t.Run(rt.name, func(t *testing.T) {
			k := newKit(t)
			srv := httptest.NewServer(rt.mount(k))
			t.Cleanup(srv.Close)
			bearer := "Bearer " + k.token
			steps := []struct {
				method, path, auth, body string
				key                      string // Idempotency-Key
				status                   int
				want                     string
				location                 string
				replayed                 string // Idempotent-Replayed
			}{
				// The handler's own routing.
				{method: "GET", path: "/api/articles/1", status: 200, want: `{"data":` + first + `}`},
				{method: "GET", path: "/api/articles/9", status: 404, want: notFound},
				{method: "GET", path: "/api/articles", status: 200, want: list(srv.URL+"/api/articles", first, 1)},
				// The per-route handlers: the id from the router's path
				// values or the last segment, never a silent 404.
				{method: "GET", path: "/per/articles/1", status: 200, want: `{"data":` + first + `}`},
				{method: "GET", path: "/per/articles/9", status: 404, want: notFound},
				{method: "GET", path: "/per/articles/abc", status: 404, want: notFound},
				{method: "GET", path: "/per/articles", status: 200, want: list(srv.URL+"/per/articles", first, 1)},
				{method: "POST", path: "/per/articles", body: `{"title":"Second","body":"More","published":true}`, status: 401, want: unauthenticated},
				{method: "POST", path: "/per/articles", auth: bearer, body: `{"title":"Second","body":"More","published":true}`, key: "k-1",
					status: 201, want: `{"data":` + second + `}`, location: srv.URL + "/per/articles/2"},
				{method: "POST", path: "/per/articles", auth: bearer, body: `{"title":"Second","body":"More","published":true}`, key: "k-1",
					status: 201, want: `{"data":` + second + `}`, location: srv.URL + "/per/articles/2", replayed: "true"},
				{method: "GET", path: "/per/articles/2", status: 200, want: `{"data":` + second + `}`},
				{method: "DELETE", path: "/per/articles/2", status: 401, want: unauthenticated},
				{method: "DELETE", path: "/per/articles/2", auth: bearer, status: 204},
				{method: "GET", path: "/per/articles/2", status: 404, want: notFound},
				{method: "DELETE", path: "/per/articles/2", auth: bearer, status: 404, want: notFound},
				{method: "DELETE", path: "/api/articles/1", auth: bearer, status: 204},
				{method: "GET", path: "/per/articles/1", status: 404, want: notFound},
				// The GraphQL endpoint and its gate.
				{method: "POST", path: "/graphql", body: `{"query":"{ hello }"}`, status: 200, want: `{"data":{"hello":"world"}}`},
				{method: "POST", path: "/graphql", body: `{"query":"mutation { signUp }"}`, status: 200, want: `{"data":{"signUp":"welcome"}}`},
				{method: "POST", path: "/graphql", body: `{"query":"mutation { signUp me }"}`, status: 401, want: gqlUnauthenticated},
				{method: "POST", path: "/graphql", auth: bearer, body: `{"query":"mutation { me }"}`, status: 200, want: `{"data":{"me":"1"}}`},
				// Login.
				{method: "POST", path: "/auth/login", body: `{"email":"ada@example.com","password":"wrong"}`, status: 401, want: `{"message":"Invalid credentials."}`},
				{method: "GET", path: "/auth/login", status: 405, want: `{"message":"Method not allowed."}`},
			}
			for _, s := range steps {
				req, err := http.NewRequest(s.method, srv.URL+s.path, strings.NewReader(s.body))
				if err != nil {
					t.Fatal(err)
				}
				if s.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				if s.auth != "" {
					req.Header.Set("Authorization", s.auth)
				}
				if s.key != "" {
					req.Header.Set(idempotency.KeyHeader, s.key)
				}
				res, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, err := io.ReadAll(res.Body)
				res.Body.Close()
				if err != nil {
					t.Fatal(err)
				}
				if res.StatusCode != s.status || string(body) != s.want {
					t.Errorf("%s %s: %d %s, want %d %s", s.method, s.path, res.StatusCode, body, s.status, s.want)
				}
				if loc := res.Header.Get("Location"); loc != s.location {
					t.Errorf("%s %s: Location %q, want %q", s.method, s.path, loc, s.location)
				}
				if r := res.Header.Get(idempotency.ReplayedHeader); r != s.replayed {
					t.Errorf("%s %s: %s %q, want %q", s.method, s.path, idempotency.ReplayedHeader, r, s.replayed)
				}
			}
			// A token from Login opens the gated mutation.
			token := loginToken(t, srv)
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", strings.NewReader(`{"query":"mutation { me }"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || string(body) != `{"data":{"me":"1"}}` {
				t.Errorf("me with the token of Login: %d %s", res.StatusCode, body)
			}
		})
	}
}

// loginToken logs Ada in and returns her access token.
func loginToken(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	res, err := srv.Client().Post(srv.URL+"/auth/login", "application/json", strings.NewReader(`{"email":"ada@example.com","password":"correct horse"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var answer struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if err := json.NewDecoder(res.Body).Decode(&answer); err != nil || res.StatusCode != 200 || answer.TokenType != "bearer" || answer.AccessToken == "" {
		t.Fatalf("login: %d, %+v, %v", res.StatusCode, answer, err)
	}
	return answer.AccessToken
}

// TestRoutersDeleteEncodedSlash: DELETE /per/articles/5%2F1 names no
// article on any router (echo routes it to Delete with the decoded path
// /per/articles/5/1, whose last segment was read as the id 1): a 404 (the
// handler's, or gorilla/mux's own when it finds no route), and article 1
// is still there.
func TestRoutersDeleteEncodedSlash(t *testing.T) {
	for _, rt := range routers {
		t.Run(rt.name, func(t *testing.T) {
			k := newKit(t)
			srv := httptest.NewServer(rt.mount(k))
			t.Cleanup(srv.Close)
			req, err := http.NewRequest(http.MethodDelete, srv.URL+"/per/articles/5%2F1", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+k.token)
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			want := notFound
			if rt.name == "gorilla/mux" {
				want = "404 page not found\n" // it routes the decoded path, which matches no route
			}
			if res.StatusCode != http.StatusNotFound || string(body) != want {
				t.Errorf("DELETE /per/articles/5%%2F1: %d %q, want 404 %q", res.StatusCode, body, want)
			}
			res, err = srv.Client().Get(srv.URL + "/per/articles/1")
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK || string(body) != `{"data":`+first+`}` {
				t.Errorf("GET /per/articles/1 after DELETE /per/articles/5%%2F1: %d %s, want 200 and the article", res.StatusCode, body)
			}
		})
	}
}
