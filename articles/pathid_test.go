package articles_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// TestShowWithoutPathValue: mounted where the router sets no path value
// (a ServeMux prefix route here; gorilla/mux and echo in the examples'
// router tests), Show reads the id from the last segment of the path.
func TestShowWithoutPathValue(t *testing.T) {
	s, _ := testdb.SQLite(t)
	store := testdb.Of(s)
	id, err := store.CreateUser(t.Context(), "Ada", "ada@example.com", []byte("hash"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := store.CreateArticle(t.Context(), articles.NewArticle{UserID: id, Title: "t", Body: "b", Published: true, CreatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	h, err := articles.NewHandler(store, articles.Config{Presenter: apierror.Presenter{Logger: slog.New(slog.DiscardHandler)}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /posts/", h.Show)
	mux.HandleFunc("GET /named/{article}/view", h.Show)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	stamp := now.UTC().Format(articles.TimeFormat)
	found := `{"data":` + articleJSON(a.ID, id, `"t"`, `"b"`, true, stamp, `"Ada"`) + `}`
	for _, tt := range []struct {
		path   string
		status int
		body   string
	}{
		{"/posts/1", http.StatusOK, found},
		{"/posts/sub/1", http.StatusOK, found},
		{"/posts/2", http.StatusNotFound, notFound},
		{"/posts/", http.StatusNotFound, notFound},
		{"/posts/1/", http.StatusNotFound, notFound},
		{"/named/1/view", http.StatusOK, found},
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
}
