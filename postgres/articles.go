package postgres

import (
	"context"

	"github.com/gqlkit/gqlkit/articles"
)

// ListPublished implements [articles.Store]: the page and its total are
// one snapshot, read by one statement when the page has articles (see the
// package documentation).
func (s *Store) ListPublished(ctx context.Context, limit int, offset int64, page *articles.Page) error {
	return s.core.ListPublished(ctx, limit, offset, page)
}

// FindPublished implements [articles.Store]: one SELECT joined with the
// author.
func (s *Store) FindPublished(ctx context.Context, id int64) (articles.Article, error) {
	return s.core.FindPublished(ctx, id)
}

// CreateArticle implements [articles.Store] in one INSERT … RETURNING; a
// user that does not exist breaks the foreign key, which is reported as
// [articles.ErrUnknownUser] with nothing written. In a request that holds
// a claim of [Store.Idempotency], it runs in the claim's transaction.
func (s *Store) CreateArticle(ctx context.Context, in articles.NewArticle) (articles.Article, error) {
	return s.core.CreateArticle(ctx, in)
}

// DeleteArticle implements [articles.Store]: a DELETE restricted to the
// caller's articles, followed, only when it deleted nothing, by a SELECT
// that tells why. In a request that holds a claim of [Store.Idempotency],
// it runs in the claim's transaction.
func (s *Store) DeleteArticle(ctx context.Context, id, userID int64) error {
	return s.core.DeleteArticle(ctx, id, userID)
}
