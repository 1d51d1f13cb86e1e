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
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// Store is a PostgreSQL database of the kit's domains, reached through a
// pgx pool: its accessors return the store of each domain, all on the
// same pool. Build it with [New] or [Open]; it is safe for concurrent use.
type Store struct {
	pool   *pgxpool.Pool
	own    bool    // Close closes pool
	sqlDB  *sql.DB // database/sql over pool, for tokens, the throttle and idempotency keys
	stores *sqlstore.Stores
}

// New returns a Store over pool. The caller keeps ownership of pool:
// [Store.Close] leaves it open.
func New(pool *pgxpool.Pool) *Store {
	db := poolDB{pool}
	sqlDB := stdlib.OpenDBFromPool(pool)
	return &Store{
		pool:  pool,
		sqlDB: sqlDB,
		stores: sqlstore.New(sqlstore.Database{
			Dialect:   sqlstore.PostgreSQL,
			Read:      sqlDB,
			Write:     sqlDB,
			Reader:    db,
			Writer:    db,
			Violation: violation,
			BindTime:  func(t time.Time) any { return t },
			// Lists read the page and its total in one snapshot.
			ReadSnapshot: db.readSnapshot,
		}),
	}
}

// Users returns the store of users (an [auth.UserStore]), read and
// written through the pool with pgx's defaults (cached prepared
// statements). A taken e-mail address (SQLSTATE 23505) is
// [auth.ErrEmailTaken].
func (s *Store) Users() *sqlstore.Users { return s.stores.Users() }

// Articles returns the store of articles (an [articles.Store]), read and
// written through the pool with pgx's defaults; a list's page and total
// are read in one snapshot, at repeatable read when they take two
// statements.
func (s *Store) Articles() *sqlstore.Articles { return s.stores.Articles() }

// ArticlesOver returns a store of articles like [Store.Articles] whose
// authors are the users of t, a table of the service's own (say
// members): the articles' foreign key points at its ID column and the
// authors' names come from its Name column. Migrate the table articles
// over the same t with [ArticlesMigration]. A name of t that is not a
// plain identifier is an error ([sqlstore.UsersTable.Validate]). Call it
// once, when the application starts.
func (s *Store) ArticlesOver(t sqlstore.UsersTable) (*sqlstore.Articles, error) {
	a, err := s.stores.ArticlesOver(t)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return a, nil
}

// Tokens returns the store of revoked access tokens, sessions and refresh
// tokens (an [auth.TokenStore]), for auth.Config.Tokens and
// auth.RefreshConfig.Store, through database/sql over the pool. Each
// revocation is an update of one row; a check of a token is one statement
// on three primary keys. Expired rows are deleted by the writes, at most
// once a minute.
func (s *Store) Tokens() *sqlstore.Tokens { return s.stores.Tokens() }

// Throttle returns the counts of failed logins (an [auth.LoginThrottle]),
// for auth.LoginConfig.Throttle: every process on the database counts the
// same failures. Each method is one statement on the primary key.
func (s *Store) Throttle() *sqlstore.Throttle { return s.stores.Throttle() }

// Idempotency returns the store of idempotency keys (an
// [idempotency.Store]), for idempotency.Config.Store, through
// database/sql over the pool. The writes of [Store.Users] and
// [Store.Articles] in a request that holds one of its claims join the
// claim's transaction. A take-over of a key whose lease ended locks its
// row with NOWAIT, and the purge skips locked rows: nothing waits on a
// held key. When ctx ends while a claim's insert is under way, PostgreSQL
// may commit it all the same: the key then stays held, by no request,
// until the lease ends.
func (s *Store) Idempotency() *sqlstore.Keys { return s.stores.Keys() }

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

// The stores' interfaces, for the links of the documentation.
var (
	_ articles.Store    = (*sqlstore.Articles)(nil)
	_ auth.UserStore    = (*sqlstore.Users)(nil)
	_ idempotency.Store = (*sqlstore.Keys)(nil)
)

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
