package postgres_test

import (
	"context"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/postgres"
)

// TestReadSnapshot: statements in ReadSnapshot see the database as their
// first one did, whatever is written meanwhile.
func TestReadSnapshot(t *testing.T) {
	s, _ := testdb.Postgres(t)
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
	first, second, err := postgres.CountTwice(ctx, s, publish)
	if err != nil || first != 1 || second != 1 {
		t.Errorf("counts in one snapshot around a write = %d, %d (error %v); want 1, 1", first, second, err)
	}
	var page articles.Page
	if err := s.ListPublished(ctx, 1, 0, &page); err != nil || page.Total != 2 {
		t.Errorf("total after the snapshot = %d (error %v), want 2", page.Total, err)
	}
}
