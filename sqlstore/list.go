package sqlstore

import (
	"context"
	"fmt"

	"github.com/gqlkit/gqlkit/articles"
)

// emptyTries bounds how often ListPublished reads an empty page again
// because the list grew past it meanwhile, before it turns to a
// transaction.
const emptyTries = 2

// ListPublished implements articles.Store: the page and the total are one
// snapshot, newest first. A page with articles is one statement, listPublished, whose
// rows carry the total. An empty page carries no total, so a count
// follows: when it leaves the page empty it is the answer of its own
// snapshot; when the list grew past the page between the two statements,
// the page is read again (at most three statements in all, unless writers
// keep moving the end of the list, when both run in one read-only
// transaction). The rows are read to their end, or until page.Add fails,
// and closed before it returns.
func (s *Articles) ListPublished(ctx context.Context, limit int, offset int64, page *articles.Page) error {
	c := s.c
	if limit < 1 || offset < 0 {
		return fmt.Errorf("articles: list: limit %d and offset %d must be at least 1 and 0", limit, offset)
	}
	db := c.reader(ctx)
	for range emptyTries {
		total, n, err := listPage(ctx, db, s.q.listPublished, limit, offset, page)
		if err != nil {
			return err
		}
		if n > 0 {
			page.Total = total
			return nil
		}
		if err := db.QueryRow(ctx, countPublished).Scan(&total); err != nil {
			return fmt.Errorf("articles: counting published articles: %w", err)
		}
		if offset >= total {
			page.Total = total
			return nil
		}
	}
	return c.listInSnapshot(ctx, s.q.listPublished, limit, offset, page)
}

// listInSnapshot counts and reads the page in one read-only transaction,
// or in the transaction of the request's idempotency claim once a write
// has begun it (see readSnapshot).
func (c *core) listInSnapshot(ctx context.Context, list string, limit int, offset int64, page *articles.Page) error {
	var total int64
	err := c.readSnapshot(ctx, func(db DB) error {
		if err := db.QueryRow(ctx, countPublished).Scan(&total); err != nil {
			return fmt.Errorf("articles: counting published articles: %w", err)
		}
		if offset >= total {
			return nil
		}
		_, _, err := listPage(ctx, db, list, limit, offset, page)
		return err
	})
	if err != nil {
		return err
	}
	page.Total = total
	return nil
}

// listPage runs list (listPublished over the store's users) on db, adding each article to page as it
// is read, and returns the total the rows carry (0 when there are none)
// and the number of rows.
func listPage(ctx context.Context, db DB, list string, limit int, offset int64, page *articles.Page) (total int64, n int, err error) {
	rows, err := db.Query(ctx, list, limit, offset)
	if err != nil {
		return 0, 0, fmt.Errorf("articles: listing published articles: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		a, err := scanArticle(rows, &total)
		if err != nil {
			return 0, n, fmt.Errorf("articles: listing published articles: %w", err)
		}
		n++
		if err := page.Add(a); err != nil {
			return 0, n, fmt.Errorf("articles: listing published articles: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, n, fmt.Errorf("articles: listing published articles: %w", err)
	}
	return total, n, nil
}

// ListPublishedFrom implements articles.Store: one statement, listFromTop,
// listAfter or listBefore over the store's users, whose rows are added to
// page as they are read.
func (s *Articles) ListPublishedFrom(ctx context.Context, seek articles.Seek, page *articles.Page) error {
	c := s.c
	if seek.Limit < 1 || seek.Backward && seek.From == nil {
		return fmt.Errorf("articles: keyset list: limit %d must be at least 1, and a backward page needs a position", seek.Limit)
	}
	query, args := s.q.listFromTop, []any{seek.Limit}
	if seek.From != nil {
		query = s.q.listAfter
		if seek.Backward {
			query = s.q.listBefore
		}
		args = []any{c.bindTime(seek.From.CreatedAt), seek.From.ID, seek.Limit}
	}
	rows, err := c.reader(ctx).Query(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("articles: keyset list: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		a, err := scanArticle(rows)
		if err != nil {
			return fmt.Errorf("articles: keyset list: %w", err)
		}
		if err := page.Add(a); err != nil {
			return fmt.Errorf("articles: keyset list: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("articles: keyset list: %w", err)
	}
	return nil
}
