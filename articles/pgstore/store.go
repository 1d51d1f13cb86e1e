package pgstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/internal/sqlstore"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
)

// core is the shared implementation, embedded in Store so that its methods
// (ListPublished, FindPublished, CreateArticle, DeleteArticle, CreateUser,
// DeleteUser, PasswordHash) are the Store's.
type core = sqlstore.Core

// Store keeps articles and users in PostgreSQL, implementing
// [articles.Store] and [auth.UserStore] with the SQL it shares with
// sqlitestore. Build it with [New] or
// [Open]; it is safe for concurrent use.
type Store struct {
	pool   *pgxpool.Pool
	own    bool    // Close closes pool
	sqlDB  *sql.DB // database/sql over pool, for idempotency claims and tokens
	tokens *auth.SQLTokenStore
	// throttle counts failed logins for auth.LoginConfig.Throttle.
	throttle *auth.SQLThrottle
	// core serves every method of articles.Store and auth.UserStore: the
	// one set of SQL statements both stores share.
	core
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
	return &Store{
		pool:     pool,
		sqlDB:    sqlDB,
		tokens:   auth.NewSQLTokenStore(sqlDB, sqlDB),
		throttle: auth.NewSQLThrottle(sqlDB, sqlDB),
		core: sqlstore.Core{
			Reader:    db,
			Writer:    db,
			Violation: violation,
			BindTime:  func(t time.Time) any { return t },
			Now:       time.Now,
			Keys:      idempotency.NewSQLStore(sqlDB, sqlDB, idempotency.PostgreSQL),

			// Lists read the page and its total in one snapshot.
			ReadSnapshot: db.readSnapshot,
		},
	}
}

// Idempotency returns the store of idempotency keys in the same database,
// for idempotency.Config.Store. Claims run over the Store's pool; the
// Store's writes in a request that holds a claim join its transaction
// (which the first of them begins), so that they commit together with the
// recorded answer, and the Store's reads that follow run in it too.
func (s *Store) Idempotency() *idempotency.SQLStore { return s.Keys }

// Tokens returns the store of revoked access tokens and refresh tokens in
// the same database, for auth.Config.Tokens and auth.RefreshConfig.Store.
func (s *Store) Tokens() *auth.SQLTokenStore { return s.tokens }

// Throttle returns the counts of failed logins in the same database, for
// auth.LoginConfig.Throttle: every process on the database throttles the
// same failures.
func (s *Store) Throttle() *auth.SQLThrottle { return s.throttle }

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string, as pgxpool.ParseConfig reads it, pool_* settings
// included), checks the connection, and returns a Store that owns the
// pool: [Store.Close] closes it.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("pgstore: connecting to %s:%d: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, err)
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

// migrations holds the schema files.
//
//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the schema as SQL files, to feed to a migration tool
// of your own: NNN_name.up.sql applies version NNN, NNN_name.down.sql
// reverts it (the naming of golang-migrate). Every up file is idempotent.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil { // cannot happen: the directory is embedded
		return migrations
	}
	return sub
}

// migrateLockID is the key of the advisory lock that serialises concurrent
// Migrate calls ("gqlkit" in ASCII).
const migrateLockID = 0x67716c6b6974

// Migrate creates the tables and indexes that are missing, by running every
// up file of [Migrations] in order, then the application's own scripts in
// more, all in one transaction under an advisory lock, so that any number
// of processes may start at once on an empty database. Every script must
// be idempotent: running Migrate again changes nothing. The tables go into
// the first schema of the connection's search_path.
func (s *Store) Migrate(ctx context.Context, more ...string) error {
	files, err := fs.Glob(migrations, "migrations/*.up.sql")
	if err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrateLockID)); err != nil {
			return err
		}
		for _, name := range files { // fs.Glob sorts
			script, err := migrations.ReadFile(name)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, string(script)); err != nil {
				return fmt.Errorf("%s: %w", path.Base(name), err)
			}
		}
		for i, script := range more {
			if _, err := tx.Exec(ctx, script); err != nil {
				return fmt.Errorf("script %d of the application: %w", i+1, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	return nil
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
