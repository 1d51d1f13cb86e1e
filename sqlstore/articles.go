package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/errcode"
)

// Articles is the articles.Store of a database: articles, each joined
// with its author's name from the table of users (the kit's users, or a
// service's own, see [UsersTable]), in the table articles. Build it with
// [New] (postgres.New/Open and sqlite.Open do) or [Stores.ArticlesOver].
type Articles struct {
	c *core
	q articleStatements
}

var _ articles.Store = (*Articles)(nil)

// stamp returns t, or Now when t is zero, in UTC truncated to microseconds.
func (c *core) stamp(t time.Time) time.Time {
	if t.IsZero() {
		t = c.now()
	}
	return t.UTC().Truncate(time.Microsecond)
}

// FindPublished implements articles.Store: one SELECT of a published
// article joined with its author. An article that does not exist or is
// not published is errcode.ErrNotFound.
func (s *Articles) FindPublished(ctx context.Context, id int64) (articles.Article, error) {
	c := s.c
	a, err := scanArticle(c.reader(ctx).QueryRow(ctx, s.q.findPublished, id))
	if errors.Is(err, sql.ErrNoRows) {
		return articles.Article{}, fmt.Errorf("articles: published article %d: %w", id, errcode.ErrNotFound)
	}
	if err != nil {
		return articles.Article{}, fmt.Errorf("articles: reading article %d: %w", id, err)
	}
	return a, nil
}

// scanArticle reads the article columns of findPublished and
// listPublished, after the columns that lead go into (listPublished's
// total).
func scanArticle(row Row, lead ...any) (articles.Article, error) {
	var a articles.Article
	err := row.Scan(append(lead, &a.ID, &a.UserID, &a.Title, &a.Body, &a.Published, &a.CreatedAt, &a.UpdatedAt, &a.Author.Name)...)
	a.Author.ID = a.UserID
	a.CreatedAt, a.UpdatedAt = a.CreatedAt.UTC(), a.UpdatedAt.UTC()
	return a, err
}

// CreateArticle implements articles.Store in one INSERT … RETURNING,
// stamped with in.CreatedAt or else the time of the call. A user that
// does not exist breaks the foreign key, which is reported as
// articles.ErrUnknownUser with nothing written. In a request that holds a
// claim of the database's [Keys], it runs in the claim's transaction.
func (s *Articles) CreateArticle(ctx context.Context, in articles.NewArticle) (articles.Article, error) {
	c := s.c
	now := c.stamp(in.CreatedAt)
	a := articles.Article{
		UserID:    in.UserID,
		Title:     in.Title,
		Body:      in.Body,
		Published: in.Published,
		CreatedAt: now,
		UpdatedAt: now,
		Author:    articles.Author{ID: in.UserID},
	}
	db, err := c.writer(ctx)
	if err == nil {
		err = writeReturning(ctx, db, s.q.insertArticle, []any{in.UserID, in.Title, in.Body, in.Published, c.bindTime(now)},
			&a.ID, &a.Author.Name)
	}
	if err != nil {
		if c.violation(err) == ForeignKeyViolation {
			return articles.Article{}, fmt.Errorf("articles: creating an article for user %d: %w", in.UserID, articles.ErrUnknownUser)
		}
		return articles.Article{}, fmt.Errorf("articles: creating an article for user %d: %w", in.UserID, err)
	}
	return a, nil
}

// DeleteArticle implements articles.Store: a DELETE restricted to the
// user's own article, followed, only when it deleted nothing, by a SELECT
// that tells why (articles.ErrUnknownUser, articles.ErrNotAuthor or
// errcode.ErrNotFound). In a request that holds a claim of the
// database's [Keys], it runs in the claim's transaction.
func (s *Articles) DeleteArticle(ctx context.Context, id, userID int64) error {
	c := s.c
	db, err := c.writer(ctx)
	if err != nil {
		return fmt.Errorf("articles: deleting article %d: %w", id, err)
	}
	n, err := db.Exec(ctx, deleteOwnArticle, id, userID)
	if err != nil {
		return fmt.Errorf("articles: deleting article %d: %w", id, err)
	}
	if n > 0 {
		return nil
	}
	var (
		userExists bool
		owner      *int64
	)
	if err := c.reader(ctx).QueryRow(ctx, s.q.explainDelete, id, userID).Scan(&userExists, &owner); err != nil {
		return fmt.Errorf("articles: deleting article %d: %w", id, err)
	}
	switch {
	case !userExists:
		return fmt.Errorf("articles: user %d deleting article %d: %w", userID, id, articles.ErrUnknownUser)
	case owner != nil && *owner != userID:
		// Published or not, another user's article is a 403: only
		// reads hide unpublished articles.
		return fmt.Errorf("articles: user %d deleting article %d of user %d: %w", userID, id, *owner, articles.ErrNotAuthor)
	default:
		// No such article, or the caller's own deleted meanwhile.
		return fmt.Errorf("articles: article %d: %w", id, errcode.ErrNotFound)
	}
}
