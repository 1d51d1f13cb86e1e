package articles_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// pathIDEnv is a store with one published article by Ada and a handler
// over it whose writes are Ada's.
func pathIDEnv(t *testing.T) (h *articles.Handler, store testdb.Domains, a articles.Article, found string) {
	t.Helper()
	s, _ := testdb.SQLite(t)
	store = testdb.Of(s)
	id, err := store.CreateUser(t.Context(), "Ada", "ada@example.com", []byte("hash"))
	if err != nil {
		t.Fatal(err)
	}
	a, err = store.CreateArticle(t.Context(), articles.NewArticle{UserID: id, Title: "t", Body: "b", Published: true, CreatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	h, err = articles.NewHandler(store, articles.Config{
		Presenter: apierror.Presenter{Logger: slog.New(slog.DiscardHandler)},
		UserID:    func(context.Context) (int64, bool) { return id, true },
	})
	if err != nil {
		t.Fatal(err)
	}
	stamp := now.UTC().Format(articles.TimeFormat)
	return h, store, a, `{"data":` + articleJSON(a.ID, id, `"t"`, `"b"`, true, stamp, `"Ada"`) + `}`
}

// noPattern serves h as a router that sets neither path values nor
// r.Pattern does (gorilla/mux, echo).
func noPattern(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r2 := *r
		r2.Pattern = ""
		h(w, &r2)
	}
}

// TestShowWithoutPathValue: mounted where the router sets no path value
// (a ServeMux subtree route; a router that sets no pattern either, as
// gorilla/mux and echo in the examples' router tests), Show reads the id
// from the last segment of the path only when it is the one segment after
// the collection, and never from a path with an encoded slash.
func TestShowWithoutPathValue(t *testing.T) {
	h, _, a, found := pathIDEnv(t)
	if a.ID != 1 {
		t.Fatalf("the article's id is %d, want 1", a.ID)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /posts/", h.Show)
	mux.HandleFunc("GET /named/{article}/view", h.Show)
	mux.HandleFunc("GET /plain/", noPattern(h.Show))
	mux.HandleFunc("GET /api/", noPattern(h.Show))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		path   string
		status int
		body   string
	}{
		{"/posts/1", http.StatusOK, found},
		// Two segments after the subtree /posts/: no id (this answered
		// 200 with article 1 before).
		{"/posts/sub/1", http.StatusNotFound, notFound},
		{"/posts/sub%2F1", http.StatusNotFound, notFound},
		{"/posts/2", http.StatusNotFound, notFound},
		{"/posts/", http.StatusNotFound, notFound},
		{"/posts/1/", http.StatusNotFound, notFound},
		{"/named/1/view", http.StatusOK, found},
		// Without a pattern: after the prefix's last segment, articles.
		{"/plain/articles/1", http.StatusOK, found},
		{"/plain/v2/articles/1", http.StatusOK, found},
		{"/plain/posts/1", http.StatusNotFound, notFound},
		{"/plain/articles/5/comments/1", http.StatusNotFound, notFound},
		{"/plain/articles/5%2F1", http.StatusNotFound, notFound},
		{"/plain/x%2Farticles/1", http.StatusNotFound, notFound},
		{"/plain/x%2farticles/1", http.StatusNotFound, notFound},
		// Without a pattern, in the prefix /api/articles: one segment only.
		{"/api/articles/1", http.StatusOK, found},
		{"/api/articles/5/articles/1", http.StatusNotFound, notFound},
		{"/api/articles/articles/1", http.StatusNotFound, notFound},
	} {
		res, err := srv.Client().Get(srv.URL + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tt.status || string(body) != tt.body {
			t.Errorf("GET %s = %d %s, want %d %s", tt.path, res.StatusCode, body, tt.status, tt.body)
		}
	}

	// A path already stripped is the id alone.
	w := httptest.NewRecorder()
	http.StripPrefix("/v2/posts", http.HandlerFunc(noPattern(h.Show))).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/v2/posts/1", nil))
	if w.Code != http.StatusOK || w.Body.String() != found {
		t.Errorf("GET /v2/posts/1 stripped to /1 = %d %s, want 200 %s", w.Code, w.Body, found)
	}
}

// TestDeleteWithoutPathValue: on a ServeMux subtree route, and on a
// router that sets no pattern, a DELETE of a path deeper than one
// segment after the collection deletes nothing (it deleted the article
// of the last segment before), and the article's own path deletes it.
func TestDeleteWithoutPathValue(t *testing.T) {
	for _, route := range []string{"subtree", "no pattern"} {
		t.Run(route, func(t *testing.T) {
			h, store, a, _ := pathIDEnv(t)
			mux := http.NewServeMux()
			if route == "subtree" {
				mux.HandleFunc("DELETE /api/articles/", h.Delete)
			} else {
				mux.HandleFunc("DELETE /api/", noPattern(h.Delete))
			}
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			id := strconv.FormatInt(a.ID, 10)
			for _, tt := range []struct {
				path   string
				status int
				body   string
			}{
				{"/api/articles/5/comments/" + id, http.StatusNotFound, notFound},
				{"/api/articles/5%2F" + id, http.StatusNotFound, notFound},
				{"/api/articles/" + id, http.StatusNoContent, ""},
			} {
				if tt.status == http.StatusNoContent {
					if _, err := store.FindPublished(t.Context(), a.ID); err != nil {
						t.Fatalf("before DELETE %s the article is gone: %v", tt.path, err)
					}
				}
				req, err := http.NewRequestWithContext(t.Context(), http.MethodDelete, srv.URL+tt.path, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != tt.status || strings.TrimSpace(string(body)) != tt.body {
					t.Errorf("DELETE %s = %d %s, want %d %s", tt.path, res.StatusCode, body, tt.status, tt.body)
				}
			}
			if _, err := store.FindPublished(t.Context(), a.ID); err == nil {
				t.Errorf("after DELETE /api/articles/%d the article is still there", a.ID)
			}
		})
	}
}
