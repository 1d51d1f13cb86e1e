package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/sqlite"
)

// TestReadSnapshot: statements in ReadSnapshot see the database as their
// first one did while a writer goes on (WAL), on the store of Open (a
// read-only pool beside the writer) and of New (one pool whose
// transactions begin IMMEDIATE: a read must not take the write lock).
func TestReadSnapshot(t *testing.T) {
	stores := map[string]func(t *testing.T) *sqlite.Store{
		"Open": func(t *testing.T) *sqlite.Store { return open(t, filepath.Join(t.TempDir(), "app.db")) },
		"New": func(t *testing.T) *sqlite.Store {
			s, _ := testdb.SQLite(t)
			return s
		},
	}
	for name, newStore := range stores {
		t.Run(name, func(t *testing.T) {
			s := newStore(t)
			ctx := context.Background()
			ada, err := s.CreateUser(ctx, "Ada", "ada@example.com", []byte("h"))
			if err != nil {
				t.Fatal(err)
			}
			publish := func() error {
				_, err := s.CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: "t", Body: "b", Published: true})
				return err
			}
			if err := publish(); err != nil {
				t.Fatal(err)
			}
			first, second, err := sqlite.CountTwice(ctx, s, publish)
			if err != nil || first != 1 || second != 1 {
				t.Errorf("counts in one snapshot around a write = %d, %d (error %v); want 1, 1", first, second, err)
			}
			var page articles.Page
			if err := s.ListPublished(ctx, 1, 0, &page); err != nil || page.Total != 2 {
				t.Errorf("total after the snapshot = %d (error %v), want 2", page.Total, err)
			}
		})
	}
}
