package sqlstore

import "context"

// CountTwice counts the published articles twice in one ReadSnapshot of
// the database of a, calling between in between: the tests of the
// snapshots of both databases.
func CountTwice(ctx context.Context, a *Articles, between func() error) (first, second int64, err error) {
	err = a.c.snapshot(ctx, func(db DB) error {
		if err := db.QueryRow(ctx, countPublished).Scan(&first); err != nil {
			return err
		}
		if err := between(); err != nil {
			return err
		}
		return db.QueryRow(ctx, countPublished).Scan(&second)
	})
	return first, second, err
}

// KeysetQueries are the statements of ListPublishedFrom, for the tests of
// their plans.
var KeysetQueries = map[string]string{"top": listFromTop, "after": listAfter, "before": listBefore}
