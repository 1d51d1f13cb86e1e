package sqlstore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/sqlite"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// TestReadSnapshot: statements in ReadSnapshot see the database as their
// first one did while a writer goes on: on PostgreSQL, on the SQLite store
// of Open (a read-only pool beside the writer, WAL) and on that of New
// (one pool whose transactions begin IMMEDIATE: a read must not take the
// write lock).
func TestReadSnapshot(t *testing.T) {
	stores := map[string]func(t *testing.T) (*sqlstore.Users, *sqlstore.Articles){
		"PostgreSQL": func(t *testing.T) (*sqlstore.Users, *sqlstore.Articles) {
			s, _ := testdb.Postgres(t)
			return s.Users(), s.Articles()
		},
		"SQLite Open": func(t *testing.T) (*sqlstore.Users, *sqlstore.Articles) {
			s, err := sqlite.Open(filepath.Join(t.TempDir(), "app.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			if err := s.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
			return s.Users(), s.Articles()
		},
		"SQLite New": func(t *testing.T) (*sqlstore.Users, *sqlstore.Articles) {
			s, _ := testdb.SQLite(t)
			return s.Users(), s.Articles()
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			users, store := open(t)
			ctx := context.Background()
			ada, err := users.CreateUser(ctx, "Ada", "ada@example.com", []byte("h"))
			if err != nil {
				t.Fatal(err)
			}
			publish := func() error {
				_, err := store.CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: "t", Body: "b", Published: true})
				return err
			}
			if err := publish(); err != nil {
				t.Fatal(err)
			}
			first, second, err := sqlstore.CountTwice(ctx, store, publish)
			if err != nil || first != 1 || second != 1 {
				t.Errorf("counts in one snapshot around a write = %d, %d (error %v); want 1, 1", first, second, err)
			}
			var page articles.Page
			if err := store.ListPublished(ctx, 1, 0, &page); err != nil || page.Total != 2 {
				t.Errorf("total after the snapshot = %d (error %v), want 2", page.Total, err)
			}
		})
	}
}
