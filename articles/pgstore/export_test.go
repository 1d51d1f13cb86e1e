package pgstore

import (
	"context"

	"github.com/gqlkit/gqlkit/articles/internal/sqlstore"
)

// CountTwice counts the published articles twice in one read snapshot of
// s, calling between in between, for the tests of ReadSnapshot.
func CountTwice(ctx context.Context, s *Store, between func() error) (first, second int64, err error) {
	const count = "SELECT count(*) FROM articles WHERE published = TRUE"
	err = s.ReadSnapshot(ctx, func(db sqlstore.DB) error {
		if err := db.QueryRow(ctx, count).Scan(&first); err != nil {
			return err
		}
		if err := between(); err != nil {
			return err
		}
		return db.QueryRow(ctx, count).Scan(&second)
	})
	return first, second, err
}
