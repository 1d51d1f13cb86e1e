package articles_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/sqlite"
)

// Example_mount serves the articles API on a stock http.ServeMux, backed by
// SQLite, with reads public and writes authenticated by JWT.
func Example_mount() {
	dir, err := os.MkdirTemp("", "articles-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	store, err := sqlite.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	if err := store.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	ada, err := store.Users().CreateUser(ctx, "Ada", "ada@example.com", []byte("bcrypt hash"))
	if err != nil {
		log.Fatal(err)
	}

	secret := []byte("an example secret of 32 bytes...")
	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{})
	if err != nil {
		log.Fatal(err)
	}
	h, err := articles.NewHandler(store.Articles(), articles.Config{
		BaseURL: "https://api.example.com",
		Now:     func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) },
	})
	if err != nil {
		log.Fatal(err)
	}
	// Reads are public: no token is looked at, so a stale one does not
	// stop a client from reading. For the writes, Optional verifies a
	// token when one is sent and the handler refuses writes without one.
	mux := http.NewServeMux()
	mux.Handle("GET /api/articles", h)
	mux.Handle("GET /api/articles/", h)
	mux.Handle("/api/articles", verifier.Optional(h))
	mux.Handle("/api/articles/", verifier.Optional(h))

	srv := httptest.NewServer(mux)
	defer srv.Close()

	issuer, err := auth.NewIssuer(secret, auth.Config{})
	if err != nil {
		log.Fatal(err)
	}
	token, err := issuer.Issue(ada)
	if err != nil {
		log.Fatal(err)
	}
	send := func(method, path, token, body string) {
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			log.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		fmt.Println(method, path, res.Status)
		if loc := res.Header.Get("Location"); loc != "" {
			fmt.Println("Location:", loc)
		}
		fmt.Println(string(b))
	}

	send("POST", "/api/articles", "", `{"title":"Hello","body":"World"}`)
	send("POST", "/api/articles", token, `{"title":"","body":"World"}`)
	send("POST", "/api/articles", token, `{"title":"Hello","body":"World","published":true}`)
	send("GET", "/api/articles?per_page=10", "stale.token", "")
	send("DELETE", "/api/articles/1", token, "")
	// Output:
	// POST /api/articles 401 Unauthorized
	// {"message":"Unauthenticated."}
	// POST /api/articles 422 Unprocessable Entity
	// {"message":"The title field is required.","errors":{"title":["The title field is required."]}}
	// POST /api/articles 201 Created
	// Location: https://api.example.com/api/articles/1
	// {"data":{"id":1,"user_id":1,"title":"Hello","body":"World","published":true,"created_at":"2025-01-02T03:04:05.000000Z","updated_at":"2025-01-02T03:04:05.000000Z","author":{"id":1,"name":"Ada"}}}
	// GET /api/articles?per_page=10 200 OK
	// {"data":[{"id":1,"user_id":1,"title":"Hello","body":"World","published":true,"created_at":"2025-01-02T03:04:05.000000Z","updated_at":"2025-01-02T03:04:05.000000Z","author":{"id":1,"name":"Ada"}}],"links":{"first":"https://api.example.com/api/articles?page=1&per_page=10","last":"https://api.example.com/api/articles?page=1&per_page=10","prev":null,"next":null},"meta":{"current_page":1,"from":1,"last_page":1,"path":"https://api.example.com/api/articles","per_page":10,"to":1,"total":1}}
	// DELETE /api/articles/1 204 No Content
	//
}

// ExampleHandler_routes mounts each route on its own http.ServeMux method
// pattern; the id is the path value "article". The JWT middleware guards
// the writes only.
func ExampleHandler_routes() {
	dir, err := os.MkdirTemp("", "articles-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlite.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	if err := store.Migrate(context.Background()); err != nil {
		log.Fatal(err)
	}

	verifier, err := auth.NewVerifier(auth.HMAC([]byte("an example secret of 32 bytes...")), auth.Config{})
	if err != nil {
		log.Fatal(err)
	}
	h, err := articles.NewHandler(store.Articles(), articles.Config{})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/articles", h.List)
	mux.Handle("POST /api/articles", verifier.Required(http.HandlerFunc(h.Create)))
	mux.HandleFunc("GET /api/articles/{article}", h.Show)
	mux.Handle("DELETE /api/articles/{article}", verifier.Required(http.HandlerFunc(h.Delete)))

	for _, r := range []*http.Request{
		httptest.NewRequest("GET", "/api/articles/42", nil),
		httptest.NewRequest("GET", "/api/articles/abc", nil),
		httptest.NewRequest("DELETE", "/api/articles/42", nil),
		httptest.NewRequest("GET", "/api/articles?per_page=500", nil),
	} {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		fmt.Println(r.Method, r.URL, w.Code, w.Body.String())
	}
	// Output:
	// GET /api/articles/42 404 {"message":"Not found."}
	// GET /api/articles/abc 404 {"message":"Not found."}
	// DELETE /api/articles/42 401 {"message":"Unauthenticated."}
	// GET /api/articles?per_page=500 422 {"message":"The per page field must not be greater than 100.","errors":{"per_page":["The per page field must not be greater than 100."]}}
}

// ExamplePage reads pages of the list straight from a store: the zero Page
// keeps every article, and one with MaxBytes stops the list once the text
// of its articles would pass the bound.
func ExamplePage() {
	dir, err := os.MkdirTemp("", "articles-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlite.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	if err := store.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	ada, err := store.Users().CreateUser(ctx, "Ada", "ada@example.com", []byte("bcrypt hash"))
	if err != nil {
		log.Fatal(err)
	}
	day := time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)
	for i, body := range []string{"Short.", "A longer body, of some forty characters.", "Short again."} {
		_, err := store.Articles().CreateArticle(ctx, articles.NewArticle{
			UserID: ada, Title: fmt.Sprint("No. ", i+1), Body: body, Published: true, CreatedAt: day.Add(time.Duration(i) * time.Hour),
		})
		if err != nil {
			log.Fatal(err)
		}
	}

	var page articles.Page
	if err := store.Articles().ListPublished(ctx, 10, 0, &page); err != nil {
		log.Fatal(err)
	}
	for _, a := range page.Articles {
		fmt.Printf("%s: %d bytes\n", a.Title, len(a.Body))
	}
	fmt.Println("published:", page.Total)

	bounded := articles.Page{MaxBytes: 60}
	err = store.Articles().ListPublished(ctx, 10, 0, &bounded)
	fmt.Println(len(bounded.Articles), "articles, then:", errors.Is(err, articles.ErrPageTooLarge))
	// Output:
	// No. 3: 12 bytes
	// No. 2: 40 bytes
	// No. 1: 6 bytes
	// published: 3
	// 1 articles, then: true
}
