// Package testdb opens fresh, migrated stores for tests, each with a count
// of the statements it sends to its database.
//
// SQLite databases live in t.TempDir(). PostgreSQL is used when
// TEST_DATABASE_URL is set (the test is skipped otherwise, and fails when
// the database cannot be reached); each test gets a schema of its own,
// gqlkit_test_<random>, set as the pool's search_path and dropped at
// cleanup.
package testdb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	msqlite "modernc.org/sqlite"

	"github.com/gqlkit/gqlkit/articles/storetest"
	"github.com/gqlkit/gqlkit/postgres"
	"github.com/gqlkit/gqlkit/sqlite"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// EnvDatabaseURL names the variable holding the PostgreSQL test database.
const EnvDatabaseURL = "TEST_DATABASE_URL"

// Counter counts statements sent to a database.
type Counter struct {
	n        atomic.Int64 // statements run
	prepared atomic.Int64 // statements prepared (SQLite only)
}

// Queries returns the number of statements counted so far.
func (c *Counter) Queries() int64 { return c.n.Load() }

// Prepared returns the number of statements the SQLite driver was asked
// to prepare so far.
func (c *Counter) Prepared() int64 { return c.prepared.Load() }

// SQLite returns a migrated store on a new file in t.TempDir(), opened
// through a connector that counts statements. It uses one *sql.DB with
// the pragmas of [sqlite.DSN], without a bound on its connections
// (not the two pools of [sqlite.Open]: see [SQLitePools]), so that
// its writers contend for SQLite's write lock.
func SQLite(t testing.TB) (*sqlite.Store, *Counter) {
	t.Helper()
	s, _, c := SQLiteDB(t)
	return s, c
}

// SQLiteDB is [SQLite], returning the store's *sql.DB too, for tests that
// close it to see how a failing database is answered.
func SQLiteDB(t testing.TB) (*sqlite.Store, *sql.DB, *Counter) {
	t.Helper()
	base, err := msqlite.NewConnector(sqlite.DSN(filepath.Join(t.TempDir(), "test.db")))
	if err != nil {
		t.Fatalf("sqlite connector: %v", err)
	}
	c := new(Counter)
	db := sql.OpenDB(countingConnector{Connector: base, c: c})
	t.Cleanup(func() { _ = db.Close() })
	s := sqlite.New(db)
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	c.n.Store(0)
	c.prepared.Store(0)
	return s, db, c
}

// Pools is a migrated SQLite file opened as [sqlite.Open] opens one:
// every write through one connection, so that writers queue in Go rather
// than race for SQLite's write lock (which is not fair: a loop of writes
// on other connections can starve a write past the busy timeout), and
// reads through a read-only pool beside it. Both pools count their
// statements in Counter.
type Pools struct {
	// Store is sqlite.New over Write: all its statements, reads
	// included, run on the one writer connection.
	Store *sqlite.Store
	// Read is the read-only pool; Write the writer, one connection.
	Read, Write *sql.DB
	Counter     *Counter
	// split is sqlite.NewReadWrite over Read and Write.
	split *sqlite.Store
}

// Tokens returns the token store of the file as sqlite.Open's
// Store.Tokens does: reads on the read pool, writes on the writer.
func (p *Pools) Tokens() *sqlstore.Tokens { return p.split.Tokens() }

// Throttle returns the login throttle of the file as sqlite.Open's
// Store.Throttle does.
func (p *Pools) Throttle() *sqlstore.Throttle { return p.split.Throttle() }

// Close closes both pools: every later statement fails.
func (p *Pools) Close() {
	_ = p.Read.Close()
	_ = p.Write.Close()
}

// SQLitePools returns a migrated file in t.TempDir() opened as
// [sqlite.Open] opens one (see [Pools]), for the tests of the kit's
// stores whose writes must not starve each other, as a revocation beside
// a loop of rotations.
func SQLitePools(t testing.TB) *Pools {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	c := new(Counter)
	open := func(dsn string) *sql.DB {
		base, err := msqlite.NewConnector(dsn)
		if err != nil {
			t.Fatalf("sqlite connector: %v", err)
		}
		db := sql.OpenDB(countingConnector{Connector: base, c: c})
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
	write := open(sqlite.DSN(path))
	write.SetMaxOpenConns(1)
	s := sqlite.New(write)
	// The writer creates the file, in WAL mode, before a reader opens it.
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	read := open(sqlite.DSN(path) + "&_pragma=query_only(1)")
	c.n.Store(0)
	c.prepared.Store(0)
	return &Pools{Store: s, Read: read, Write: write, Counter: c, split: sqlite.NewReadWrite(read, write)}
}

// Postgres returns a migrated store in a schema of its own, on a pool whose
// tracer counts statements. It skips the test when TEST_DATABASE_URL is
// unset.
func Postgres(t testing.TB) (*postgres.Store, *Counter) {
	t.Helper()
	pool, c := PostgresPool(t)
	s := postgres.New(pool)
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	c.n.Store(0)
	return s, c
}

// PostgresPool returns a pool on a fresh, empty schema, with a statement
// counter. It skips the test when TEST_DATABASE_URL is unset.
func PostgresPool(t testing.TB) (*pgxpool.Pool, *Counter) {
	t.Helper()
	url := os.Getenv(EnvDatabaseURL)
	if url == "" {
		t.Skip(EnvDatabaseURL + " is not set")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()

	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("%s is set but the database is unreachable: %v", EnvDatabaseURL, err)
	}
	var random [6]byte
	_, _ = rand.Read(random[:])
	schema := "gqlkit_test_" + hex.EncodeToString(random[:])
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		_ = admin.Close(ctx)
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if _, err := admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		_ = admin.Close(ctx)
	})

	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvDatabaseURL, err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	c := new(Counter)
	cfg.ConnConfig.Tracer = tracer{n: &c.n}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("pool: %v", err)
	}
	t.Cleanup(pool.Close) // runs before the schema is dropped
	return pool, c
}

// tracer counts the queries pgx sends (Query, QueryRow and Exec).
type tracer struct{ n *atomic.Int64 }

func (tr tracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	tr.n.Add(1)
	return ctx
}

func (tracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// countingConnector wraps a driver.Connector so that every statement its
// connections run is counted.
type countingConnector struct {
	driver.Connector
	c *Counter
}

func (c countingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{conn: conn, n: &c.c.n, prepared: &c.c.prepared}, nil
}

// countingConn forwards to the modernc.org/sqlite connection, counting
// QueryContext and ExecContext, and statements prepared and run.
type countingConn struct {
	conn     driver.Conn
	n        *atomic.Int64
	prepared *atomic.Int64
}

func (c *countingConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *countingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.prepared.Add(1)
	st, err := c.conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return &countingStmt{Stmt: st, n: c.n}, nil
}

func (c *countingConn) Close() error { return c.conn.Close() }

func (c *countingConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *countingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.n.Add(1)
	return c.conn.(driver.QueryerContext).QueryContext(ctx, query, args)
}

func (c *countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.n.Add(1)
	return c.conn.(driver.ExecerContext).ExecContext(ctx, query, args)
}

func (c *countingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *countingConn) IsValid() bool {
	if v, ok := c.conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// countingStmt counts the runs of a prepared statement.
type countingStmt struct {
	driver.Stmt
	n *atomic.Int64
}

func (s *countingStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	s.n.Add(1)
	return s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s *countingStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	s.n.Add(1)
	return s.Stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
}

// Domains is the users and the articles of one database, with its
// Migrate: a storetest.Store and a storetest.Migrator.
type Domains struct {
	*sqlstore.Users
	*sqlstore.Articles
	store domainStore
}

// domainStore is the Store of postgres or sqlite.
type domainStore interface {
	Users() *sqlstore.Users
	Articles() *sqlstore.Articles
	Idempotency() *sqlstore.Keys
	Migrate(ctx context.Context, more ...string) error
}

// Of returns the users and the articles of s as one store.
func Of(s domainStore) Domains {
	return Domains{Users: s.Users(), Articles: s.Articles(), store: s}
}

// Idempotency returns the idempotency keys of the database.
func (d Domains) Idempotency() *sqlstore.Keys { return d.store.Idempotency() }

// Migrate runs the migrations of the database (storetest.Migrator).
func (d Domains) Migrate(ctx context.Context, more ...string) error {
	return d.store.Migrate(ctx, more...)
}

// Counted is the users and the articles of one database whose statements
// c counts (storetest.QueryCounter).
type Counted struct {
	Domains
	*Counter
}

// Conformance returns s as the store that storetest.Run tests: with its
// statements counted when c is not nil.
func Conformance(s domainStore, c *Counter) storetest.Store {
	if c == nil {
		return Of(s)
	}
	return Counted{Of(s), c}
}
