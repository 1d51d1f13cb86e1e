package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestStatementsPerLevel serves a small library from a PostgreSQL schema of
// its own and checks an L2-shaped answer byte for byte and its statements:
// one per level (books, authors, their books, reviews, reviewers), as
// /stats reports them.
func TestStatementsPerLevel(t *testing.T) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Skip("TEST_DATABASE_URL is not set")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL is set but PostgreSQL is unreachable: %v", err)
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("gqlkit_library_%d", time.Now().UnixNano())
	for _, stmt := range []string{
		`CREATE SCHEMA ` + name,
		`CREATE TABLE ` + name + `.authors (id int PRIMARY KEY, name text NOT NULL)`,
		`CREATE TABLE ` + name + `.books (id int PRIMARY KEY, title text NOT NULL, author_id int NOT NULL, published_year int NOT NULL, genre text NOT NULL)`,
		`CREATE TABLE ` + name + `.reviews (id int PRIMARY KEY, book_id int NOT NULL, reviewer_id int NOT NULL, rating int NOT NULL, body text NOT NULL)`,
		`INSERT INTO ` + name + `.authors VALUES (1, 'A1'), (2, 'A2'), (3, 'A3')`,
		`INSERT INTO ` + name + `.books VALUES (1, 'B1', 1, 2001, 'g'), (2, 'B2', 2, 2002, 'g'), (3, 'B3', 1, 2003, 'g')`,
		`INSERT INTO ` + name + `.reviews VALUES (1, 1, 2, 5, 'r1'), (2, 1, 3, 4, 'r2'), (3, 2, 1, 3, 'r3')`,
	} {
		if _, err := admin.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	t.Cleanup(func() { admin.Exec(context.Background(), `DROP SCHEMA `+name+` CASCADE`) })

	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	s, err := openStore(ctx, url+sep+"search_path="+name, 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.pool.Close)
	mux, err := newMux(s)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	body := `{"query":"{ books(first: 2) { id title author { name books(first: 1) { title reviews(first: 1) { rating reviewer { name } } } } } }"}`
	res, err := http.Post(srv.URL+"/graphql", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	want := `{"data":{"books":[` +
		`{"id":"1","title":"B1","author":{"name":"A1","books":[{"title":"B1","reviews":[{"rating":5,"reviewer":{"name":"A2"}}]}]}},` +
		`{"id":"2","title":"B2","author":{"name":"A2","books":[{"title":"B2","reviews":[{"rating":3,"reviewer":{"name":"A1"}}]}]}}]}}`
	if res.StatusCode != http.StatusOK || string(got) != want {
		t.Errorf("got %d %s\nwant 200 %s", res.StatusCode, got, want)
	}
	res, err = http.Get(srv.URL + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	stats, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if want := `{"statements":5,"requests":1,"request_statements":5}`; string(stats) != want {
		t.Errorf("stats %s, want %s", stats, want)
	}
}
