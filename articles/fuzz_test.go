package articles_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
)

// recordingStore accepts every create and remembers the last one.
type recordingStore struct {
	failingStore
	last articles.NewArticle
}

func (s *recordingStore) CreateArticle(_ context.Context, in articles.NewArticle) (articles.Article, error) {
	s.last = in
	return articles.Article{ID: 1, UserID: in.UserID, Title: in.Title, Body: in.Body, Published: in.Published,
		CreatedAt: in.CreatedAt, UpdatedAt: in.CreatedAt, Author: articles.Author{ID: in.UserID, Name: "Ada"}}, nil
}

// FuzzCreate sends arbitrary bodies to the create route: every answer is a
// 201, 400 or 422 with a JSON body, and what reaches the store obeys the
// rules.
func FuzzCreate(f *testing.F) {
	for _, seed := range []string{
		`{"title":"t","body":"b"}`,
		`{"title":" t ","body":"b","published":"1"}`,
		`{"title":null,"body":[],"published":{}}`,
		`{"title":"` + strings.Repeat("é", 201) + `","body":"b"}`,
		`[1,2]`, `"x"`, `{`, ``, `{"title":"\u0000"}`, `{"title":{"a":[]},"body":true,"published":-0}`,
	} {
		f.Add(seed)
	}
	store := &recordingStore{}
	h, err := articles.NewHandler(store, articles.Config{MaxBodyBytes: 4096})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string) {
		store.last = articles.NewArticle{}
		r := httptest.NewRequest("POST", "/api/articles", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r = r.WithContext(auth.WithUserID(r.Context(), 1))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case http.StatusCreated, http.StatusBadRequest, http.StatusUnprocessableEntity, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("status %d for %q", w.Code, body)
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("invalid JSON answer %q for %q", w.Body.String(), body)
		}
		if w.Code != http.StatusCreated {
			return
		}
		in := store.last
		if in.Title == "" || in.Body == "" || utf8.RuneCountInString(in.Title) > articles.MaxTitleLength ||
			strings.TrimSpace(in.Title) != in.Title || strings.ContainsRune(in.Title+in.Body, 0) || in.UserID != 1 {
			t.Fatalf("stored %+v for %q", in, body)
		}
	})
}
