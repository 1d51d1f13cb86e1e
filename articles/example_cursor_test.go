package articles_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/sqlite"
)

// Example_cursorPages pages the list by cursor: ?cursor= asks for the
// first page, and each page's next_page_url for the next one.
func Example_cursorPages() {
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
	for i, title := range []string{"One", "Two", "Three", "Four", "Five"} {
		_, err := store.Articles().CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: title, Body: "…", Published: true,
			CreatedAt: time.Date(2025, 1, 2, 3, 4, i, 0, time.UTC)})
		if err != nil {
			log.Fatal(err)
		}
	}
	h, err := articles.NewHandler(store.Articles(), articles.Config{})
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	next := srv.URL + "/api/articles?cursor=&per_page=2"
	for next != "" {
		res, err := http.Get(next)
		if err != nil {
			log.Fatal(err)
		}
		var page struct {
			Data        []struct{ Title string }
			PerPage     int     `json:"per_page"`
			NextPageURL *string `json:"next_page_url"`
			PrevPageURL *string `json:"prev_page_url"`
		}
		err = json.NewDecoder(res.Body).Decode(&page)
		res.Body.Close()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.Status, page.Data, "previous page:", page.PrevPageURL != nil, "next page:", page.NextPageURL != nil)
		next = ""
		if page.NextPageURL != nil {
			next = *page.NextPageURL
		}
	}
	res, err := http.Get(srv.URL + "/api/articles?cursor=not-a-cursor")
	if err != nil {
		log.Fatal(err)
	}
	res.Body.Close()
	fmt.Println(res.Status)
	// Output:
	// 200 OK [{Five} {Four}] previous page: false next page: true
	// 200 OK [{Three} {Two}] previous page: true next page: true
	// 200 OK [{One}] previous page: true next page: false
	// 422 Unprocessable Entity
}
