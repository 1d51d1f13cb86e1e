package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	apierror "github.com/gqlkit/gqlkit/errors"
)

// Core implements articles.Store and auth.UserStore over a DB. The
// stores build it once and keep it in an unexported field: its fields are
// not changed after.
type Core struct {
	// Reader runs the read-only statements, Writer the others; they may
	// be the same.
	Reader, Writer DB
	// ReadSnapshot calls fn with a DB whose statements all read one
	// snapshot of the database (a read-only transaction, at repeatable
	// read or stronger), which ends when fn returns.
	ReadSnapshot func(ctx context.Context, fn func(DB) error) error
	// Violation classifies a driver error.
	Violation func(error) Violation
	// BindTime turns a UTC time truncated to microseconds into a
	// statement argument.
	BindTime func(time.Time) any
	// Now is the clock for new users and for articles without CreatedAt.
	Now func() time.Time
	// Keys, when set, is the idempotency store of the same database: the
	// writes of a request that holds one of its claims run in the claim's
	// transaction, which the first of them begins, and so do the reads
	// that follow.
	Keys *Keys
}

// stamp returns t, or Now when t is zero, in UTC truncated to microseconds.
func (c *Core) stamp(t time.Time) time.Time {
	if t.IsZero() {
		t = c.Now()
	}
	return t.UTC().Truncate(time.Microsecond)
}

// FindPublished implements articles.Store.
func (c *Core) FindPublished(ctx context.Context, id int64) (articles.Article, error) {
	a, err := scanArticle(c.reader(ctx).QueryRow(ctx, findPublished, id))
	if errors.Is(err, sql.ErrNoRows) {
		return articles.Article{}, fmt.Errorf("articles: published article %d: %w", id, apierror.ErrNotFound)
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

// CreateArticle implements articles.Store in one statement.
func (c *Core) CreateArticle(ctx context.Context, in articles.NewArticle) (articles.Article, error) {
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
		err = writeReturning(ctx, db, insertArticle, []any{in.UserID, in.Title, in.Body, in.Published, c.BindTime(now)},
			&a.ID, &a.Author.Name)
	}
	if err != nil {
		if c.Violation(err) == ForeignKeyViolation {
			return articles.Article{}, fmt.Errorf("articles: creating an article for user %d: %w", in.UserID, articles.ErrUnknownUser)
		}
		return articles.Article{}, fmt.Errorf("articles: creating an article for user %d: %w", in.UserID, err)
	}
	return a, nil
}

// DeleteArticle implements articles.Store: one statement when the user
// deletes their own article, a second that explains the refusal otherwise.
func (c *Core) DeleteArticle(ctx context.Context, id, userID int64) error {
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
	if err := c.reader(ctx).QueryRow(ctx, explainDelete, id, userID).Scan(&userExists, &owner); err != nil {
		return fmt.Errorf("articles: deleting article %d: %w", id, err)
	}
	switch {
	case !userExists:
		return fmt.Errorf("articles: user %d deleting article %d: %w", userID, id, articles.ErrUnknownUser)
	case owner != nil && *owner != userID:
		// Published or not, as the specification's rule says: another
		// user's article is a 403.
		return fmt.Errorf("articles: user %d deleting article %d of user %d: %w", userID, id, *owner, articles.ErrNotAuthor)
	default:
		// No such article, or the caller's own deleted meanwhile.
		return fmt.Errorf("articles: article %d: %w", id, apierror.ErrNotFound)
	}
}
