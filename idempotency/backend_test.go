package idempotency_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/pgstore"
	"github.com/gqlkit/gqlkit/articles/sqlitestore"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// backend is a migrated database of one kind, with the articles store
// over it: its users are what the tests' handlers write, through the
// claim's transaction as the store joins it.
type backend struct {
	users    auth.UserStore
	articles articles.Store
	keys     *idempotency.SQLStore
	// count returns the number of rows of a table.
	count func(t *testing.T, table string) int
}

// backends lists the databases the tests run on; PostgreSQL is skipped
// without TEST_DATABASE_URL. open's conns is the size of the pool the
// store writes through: SQLite's is always 1, as sqlitestore.Open makes
// it; PostgreSQL's is conns.
var backends = []struct {
	name string
	open func(t *testing.T, conns int32) backend
}{
	{name: "sqlite", open: openSQLite},
	{name: "postgres", open: openPostgres},
}

func openSQLite(t *testing.T, _ int32) backend {
	t.Helper()
	st, err := sqlitestore.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	db := st.WriteDB()
	return backend{users: st, articles: st, keys: st.Idempotency(),
		count: counter(func(q string) scanner { return db.QueryRow(q) })}
}

func openPostgres(t *testing.T, conns int32) backend {
	t.Helper()
	base, _ := testdb.PostgresPool(t)
	cfg := base.Config() // the test's schema in its search_path
	cfg.MaxConns = conns
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	st := pgstore.New(pool)
	t.Cleanup(st.Close)
	if err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return backend{users: st, articles: st, keys: st.Idempotency(),
		count: counter(func(q string) scanner { return base.QueryRow(context.Background(), q) })}
}

// scanner is a row of a result.
type scanner interface{ Scan(dest ...any) error }

// counter returns a backend's count over the function that runs a query.
func counter(queryRow func(query string) scanner) func(t *testing.T, table string) int {
	return func(t *testing.T, table string) int {
		t.Helper()
		var n int
		if err := queryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
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
