package postgres

import (
	"context"

	"github.com/gqlkit/gqlkit/internal/sqlstore"
)

// CountTwice counts the published articles twice in one read snapshot of
// s, calling between in between, for the tests of ReadSnapshot.
func CountTwice(ctx context.Context, s *Store, between func() error) (first, second int64, err error) {
	return sqlstore.CountTwice(ctx, s.core, between)
}
