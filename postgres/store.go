package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/sqlstore"
)

// Store is a PostgreSQL database of the kit's domains, reached through a
// pgx pool. Its own methods are those of users ([auth.UserStore]) and
// articles ([articles.Store]); [Store.Tokens], [Store.Throttle] and
// [Store.Idempotency] return the stores of the other domains in the same
// database. Build it with [New] or [Open]; it is safe for concurrent use.
type Store struct {
	pool     *pgxpool.Pool
	own      bool    // Close closes pool
	sqlDB    *sql.DB // database/sql over pool, for tokens, the throttle and idempotency keys
	core     *sqlstore.Core
	tokens   *TokenStore
	throttle *LoginThrottle
	keys     *IdempotencyStore
}

var (
	_ articles.Store = (*Store)(nil)
	_ auth.UserStore = (*Store)(nil)
)

// New returns a Store over pool. The caller keeps ownership of pool:
// [Store.Close] leaves it open.
func New(pool *pgxpool.Pool) *Store {
	db := poolDB{pool}
	sqlDB := stdlib.OpenDBFromPool(pool)
	keys := sqlstore.NewKeys(sqlDB, sqlDB, sqlstore.PostgreSQL)
	return &Store{
		pool:     pool,
		sqlDB:    sqlDB,
		tokens:   &TokenStore{tokens: sqlstore.NewTokens(sqlDB, sqlDB)},
		throttle: &LoginThrottle{throttle: sqlstore.NewThrottle(sqlDB, sqlDB)},
		keys:     &IdempotencyStore{keys: keys},
		core: &sqlstore.Core{
			Reader:    db,
			Writer:    db,
			Violation: violation,
			BindTime:  func(t time.Time) any { return t },
			Now:       time.Now,
			Keys:      keys,

			// Lists read the page and its total in one snapshot.
			ReadSnapshot: db.readSnapshot,
		},
	}
}

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string, as pgxpool.ParseConfig reads it, pool_* settings
// included), checks the connection, and returns a Store that owns the
// pool: [Store.Close] closes it.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connecting to %s:%d: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, err)
	}
	s := New(pool)
	s.own = true
	return s, nil
}

// Close closes the pool if [Open] opened it; a pool given to [New] stays
// open.
func (s *Store) Close() {
	_ = s.sqlDB.Close() // leaves the pool open
	if s.own {
		s.pool.Close()
	}
}

// violation classifies a PostgreSQL error by its SQLSTATE.
func violation(err error) sqlstore.Violation {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return sqlstore.NoViolation
	}
	switch pgErr.Code {
	case "23505": // unique_violation
		return sqlstore.UniqueViolation
	case "23503": // foreign_key_violation
		return sqlstore.ForeignKeyViolation
	}
	return sqlstore.NoViolation
}

// poolDB adapts a pool to sqlstore.DB.
type poolDB struct{ pool *pgxpool.Pool }

func (d poolDB) Query(ctx context.Context, sql string, args ...any) (sqlstore.Rows, error) {
	return d.pool.Query(ctx, sql, args...)
}

func (d poolDB) QueryRow(ctx context.Context, sql string, args ...any) sqlstore.Row {
	return d.pool.QueryRow(ctx, sql, args...)
}

func (d poolDB) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	tag, err := d.pool.Exec(ctx, sql, args...)
	return tag.RowsAffected(), err
}

// readSnapshot runs fn in a read-only transaction at repeatable read, in
// which every statement sees the snapshot its first one took.
func (d poolDB) readSnapshot(ctx context.Context, fn func(sqlstore.DB) error) error {
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	return pgx.BeginTxFunc(ctx, d.pool, opts, func(tx pgx.Tx) error { return fn(txDB{tx}) })
}

// txDB adapts a pgx transaction to sqlstore.DB.
type txDB struct{ tx pgx.Tx }

func (d txDB) Query(ctx context.Context, sql string, args ...any) (sqlstore.Rows, error) {
	return d.tx.Query(ctx, sql, args...)
}

func (d txDB) QueryRow(ctx context.Context, sql string, args ...any) sqlstore.Row {
	return d.tx.QueryRow(ctx, sql, args...)
}

func (d txDB) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	tag, err := d.tx.Exec(ctx, sql, args...)
	return tag.RowsAffected(), err
}
