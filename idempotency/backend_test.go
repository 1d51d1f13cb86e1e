package idempotency_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/postgres"
	"github.com/gqlkit/gqlkit/sqlite"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// sqlKeys is the idempotency store of a SQL store, whose claims the
// application's writes join.
type sqlKeys interface {
	idempotency.Store
	Tx(ctx context.Context) (*sql.Tx, error)
	ActiveTx(ctx context.Context) (*sql.Tx, bool)
}

// backend is a migrated database of one kind, with the articles store
// over it: its users are what the tests' handlers write, through the
// claim's transaction as the store joins it.
type backend struct {
	users    auth.UserStore
	articles articles.Store
	keys     sqlKeys
	// db reaches the database for the tests themselves (never through
	// the pool the store writes through), and dialect is its kind, for
	// stores of the tests' own making.
	db      *sql.DB
	dialect sqlstore.Dialect
	// waits returns how many times a statement of the store has waited
	// for a connection of the pool it writes through.
	waits func() int64
}

// backends lists the databases the tests run on; PostgreSQL is skipped
// without TEST_DATABASE_URL. open's conns is the size of the pool the
// store writes through: SQLite's is always 1, as sqlite.Open makes
// it; PostgreSQL's is conns.
var backends = []struct {
	name string
	open func(t testing.TB, conns int32) backend
}{
	{name: "sqlite", open: openSQLite},
	{name: "postgres", open: openPostgres},
}

func openSQLite(t testing.TB, _ int32) backend {
	t.Helper()
	path := filepath.Join(t.TempDir(), "app.db")
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", sqlite.DSN(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return backend{users: st.Users(), articles: st.Articles(), keys: st.Idempotency(), db: db, dialect: sqlstore.SQLite,
		waits: func() int64 { return st.WriteDB().Stats().WaitCount }}
}

func openPostgres(t testing.TB, conns int32) backend {
	t.Helper()
	base, _ := testdb.PostgresPool(t)
	cfg := base.Config() // the test's schema in its search_path
	cfg.MaxConns = conns
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	st := postgres.New(pool)
	t.Cleanup(st.Close)
	if err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDBFromPool(base)
	t.Cleanup(func() { _ = db.Close() })
	return backend{users: st.Users(), articles: st.Articles(), keys: st.Idempotency(), db: db, dialect: sqlstore.PostgreSQL,
		waits: func() int64 { return pool.Stat().EmptyAcquireCount() }}
}

// count returns the number of rows of a table.
func (b backend) count(t *testing.T, table string) int {
	t.Helper()
	var n int
	if err := b.db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// leaseEnd returns the end of the lease of the claim that holds key of
// subject 1; the zero time when no claim holds it.
func (b backend) leaseEnd(t *testing.T, key string) time.Time {
	t.Helper()
	var end int64
	err := b.db.QueryRow(`SELECT held_until FROM idempotency_keys WHERE subject = '1' AND key = $1 AND status = 0`, key).Scan(&end)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}
	}
	if err != nil {
		t.Fatal(err)
	}
	return time.UnixMicro(end)
}

// forEachBackend runs test on each database, with a writer pool of conns
// connections on PostgreSQL.
func forEachBackend(t *testing.T, conns int32, test func(t *testing.T, b backend)) {
	for _, kind := range backends {
		t.Run(kind.name, func(t *testing.T) { test(t, kind.open(t, conns)) })
	}
}

// checkTable checks how many users and recorded or held keys the
// database holds.
func (b backend) checkTable(t *testing.T, users, keys int) {
	t.Helper()
	if n := b.count(t, "users"); n != users {
		t.Errorf("%d users, want %d", n, users)
	}
	if n := b.count(t, "idempotency_keys"); n != keys {
		t.Errorf("%d rows in idempotency_keys, want %d", n, keys)
	}
}
