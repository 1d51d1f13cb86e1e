// Package sqlstore holds what the PostgreSQL and SQLite stores share: the
// SQL statements of every domain (users, articles, auth tokens, the login
// throttle, idempotency keys) and the code that runs them. Users and
// articles run through a small interface both drivers fit ([DB]); the
// other domains through database/sql. The dialects differ only in their
// schema (the migrations of each store), in how a driver reports a
// constraint violation, in how a timestamp is bound, and in the row locks
// of the idempotency keys ([Dialect]).
package sqlstore

import (
	"context"
	"database/sql"
	"time"
)

// DB runs statements; adapters over pgxpool.Pool and sql.DB implement it.
type DB interface {
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row
	// Exec runs a statement and returns the number of rows it changed.
	Exec(ctx context.Context, sql string, args ...any) (int64, error)
}

// Rows is a result set, as pgx.Rows and (adapted) sql.Rows are.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Row is a single-row result; its Scan reports sql.ErrNoRows (pgx.ErrNoRows
// matches it) when there is no row.
type Row interface {
	Scan(dest ...any) error
}

// Violation is the kind of constraint a failed statement broke.
type Violation int

// Violations the stores tell apart.
const (
	NoViolation Violation = iota
	UniqueViolation
	ForeignKeyViolation
)

// Dialect is the SQL dialect of a database.
type Dialect int

// The dialects.
const (
	// SQLite: the database has one writer at a time and no row locks.
	SQLite Dialect = iota
	// PostgreSQL: a take-over of an idempotency key and the purge never
	// wait on a locked row.
	PostgreSQL
)

// purgeEvery is how often the writes of a domain delete its expired rows.
const purgeEvery = time.Minute

// affected returns the number of rows a statement changed.
func affected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
