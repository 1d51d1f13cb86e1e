package sqlitestore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/internal/sqlstore"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
)

// DefaultBusyTimeout is how long a connection waits for a lock held by
// another connection (or process) before failing with SQLITE_BUSY.
const DefaultBusyTimeout = 5 * time.Second

// core is the shared implementation, embedded in Store so that its methods
// (ListPublished, FindPublished, CreateArticle, DeleteArticle, CreateUser,
// DeleteUser, PasswordHash) are the Store's.
type core = sqlstore.Core

// Store keeps articles and users in a SQLite database, implementing
// [articles.Store] and [auth.UserStore] with the SQL it shares with
// pgstore. Build it with
// [Open] or [New]; it is safe for concurrent use.
type Store struct {
	owned  []*sql.DB // closed by Close
	write  *sql.DB   // runs migrations
	stmts  []*stmtCache
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

// Open opens (creating it if need be) the database file at path, a file
// system path such as "data/app.db"; its directory must exist. In-memory
// databases are not supported: each connection would see its own.
//
// Open keeps two pools: one connection for writes, so that writers queue in
// Go instead of contending for SQLite's single write lock, and up to
// max(4, GOMAXPROCS) read-only connections, which WAL mode lets run beside
// the writer. Every connection is set up by [DSN]. [Store.Close] closes
// both pools.
func Open(path string) (*Store, error) {
	if path == "" || path == ":memory:" {
		return nil, fmt.Errorf("sqlitestore: %q is not a database file path", path)
	}
	write, err := openDB(DSN(path))
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	// The first connection creates the file and switches it to WAL
	// before any reader opens it.
	if err := pingWhileBusy(write); err != nil {
		_ = write.Close()
		return nil, fmt.Errorf("sqlitestore: opening %s: %w", path, err)
	}
	read, err := openDB(DSN(path) + "&_pragma=query_only(1)")
	if err != nil {
		_ = write.Close()
		return nil, err
	}
	n := max(4, runtime.GOMAXPROCS(0))
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)

	s := newStore(newSQLDB(read), newSQLDB(write))
	s.owned = []*sql.DB{write, read}
	s.write = write
	s.tokens = auth.NewSQLTokenStore(read, write)
	s.throttle = auth.NewSQLThrottle(read, write)
	return s, nil
}

// pingWhileBusy opens db's first connection, trying again for up to
// DefaultBusyTimeout while the file is locked: switching a new file to WAL
// answers SQLITE_BUSY at once, without the busy handler, when another
// process is doing the same (several servers starting on one new file).
func pingWhileBusy(db *sql.DB) error {
	deadline := time.Now().Add(DefaultBusyTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err := db.Ping()
		var e *sqlite.Error
		if err == nil || !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}

func openDB(dsn string) (*sql.DB, error) {
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: %w", err)
	}
	return sql.OpenDB(c), nil
}

// DSN returns the modernc.org/sqlite data source name [Open] uses for the
// file at path: a file: URI whose parameters set, on every connection,
//
//	busy_timeout(5000)    wait up to DefaultBusyTimeout for locks
//	foreign_keys(1)       enforce REFERENCES, and ON DELETE CASCADE
//	journal_mode(WAL)     readers do not block the writer, nor it them
//	synchronous(NORMAL)   the usual pairing with WAL: durable at checkpoints
//	_txlock=immediate     transactions take the write lock when they begin
//
// Pass it to sql.Open("sqlite", dsn) or sqlite.NewConnector to build a
// *sql.DB of your own for [New].
func DSN(path string) string {
	u := url.URL{Path: filepath.ToSlash(filepath.Clean(path))}
	q := "_pragma=busy_timeout(" + strconv.FormatInt(DefaultBusyTimeout.Milliseconds(), 10) + ")" +
		"&_pragma=foreign_keys(1)" +
		"&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(NORMAL)" +
		"&_txlock=immediate"
	return "file:" + u.EscapedPath() + "?" + q
}

// New returns a Store over db, a database opened with the "sqlite" driver
// of modernc.org/sqlite. Foreign keys must be on for every connection of
// db (see [DSN]); without them a missing user is not detected and deleting
// a user leaves their articles behind. The caller keeps ownership of db:
// [Store.Close] leaves it open.
//
// The Store reads and writes through db. Give it one connection
// (db.SetMaxOpenConns(1)), at the price of reads waiting behind writes,
// unless its other connections never write: a *sql.DB with more than one
// connection that writes lets writers starve each other. SQLite's write
// lock is not fair: a loop of writes on some connections (a client
// refreshing its token back to back) can keep a write on another (the
// logout that revokes that token) waiting past the busy timeout, when it
// fails with SQLITE_BUSY. [Open] avoids it with one writer connection,
// on which writers queue in Go, and a read-only pool beside it.
func New(db *sql.DB) *Store {
	d := newSQLDB(db)
	s := newStore(d, d)
	s.write = db
	s.tokens = auth.NewSQLTokenStore(db, db)
	s.throttle = auth.NewSQLThrottle(db, db)
	return s
}

func newStore(read, write sqlDB) *Store {
	stmts := []*stmtCache{read.stmts}
	if write.stmts != read.stmts {
		stmts = append(stmts, write.stmts)
	}
	return &Store{stmts: stmts, core: sqlstore.Core{
		Reader:    read,
		Writer:    write,
		Violation: violation,
		BindTime:  bindTime,
		Now:       time.Now,
		Keys:      idempotency.NewSQLStore(read.db, write.db, idempotency.SQLite),

		// Lists read the page and its total in one snapshot.
		ReadSnapshot: read.readSnapshot,
	}}
}

// Idempotency returns the store of idempotency keys in the same database,
// for idempotency.Config.Store. Claims look keys up through the read-only
// pool and write through the writer; the Store's writes in a request that
// holds a claim join its transaction (which the first of them begins), so
// that they commit together with the recorded answer, and the Store's
// reads that follow run in it too.
func (s *Store) Idempotency() *idempotency.SQLStore { return s.Keys }

// WriteDB returns the pool the Store writes through: one connection (with
// [Open]), on which idempotency claims run too. Write the application's
// own tables in the same file through it (and through the claim's
// transaction, idempotency.SQLStore.Tx, in a request that holds one):
// a second writer connection in the process would contend with it for
// SQLite's single write lock, each waiting up to the busy timeout.
func (s *Store) WriteDB() *sql.DB { return s.write }

// Tokens returns the store of revoked access tokens and refresh tokens in
// the same database, for auth.Config.Tokens and auth.RefreshConfig.Store.
// Revocation checks read through the read-only pool; revocations and
// refresh tokens are written through the single writer.
func (s *Store) Tokens() *auth.SQLTokenStore { return s.tokens }

// Throttle returns the counts of failed logins in the same database, for
// auth.LoginConfig.Throttle: every process on the file throttles the same
// failures. Counts are read through the read-only pool and written
// through the single writer.
func (s *Store) Throttle() *auth.SQLThrottle { return s.throttle }

// Close closes the statements the store prepared and the pools [Open]
// opened; a database given to [New] stays open. The store is not usable
// afterwards.
func (s *Store) Close() error {
	var errs []error
	for _, c := range s.stmts {
		errs = append(errs, c.close())
	}
	for _, db := range s.owned {
		errs = append(errs, db.Close())
	}
	return errors.Join(errs...)
}

// timeLayout is how timestamps are stored: UTC, fixed width, so that text
// order is time order; modernc.org/sqlite parses it back into time.Time
// for columns declared TIMESTAMP.
const timeLayout = "2006-01-02 15:04:05.000000+00:00"

func bindTime(t time.Time) any { return t.UTC().Format(timeLayout) }

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

// Migrate creates the tables and indexes that are missing, by running every
// up file of [Migrations] in order, then the application's own scripts in
// more, all in one transaction, which holds SQLite's write lock from its
// start: processes that start at once migrate one after the other. Every
// script must be idempotent: running Migrate again changes nothing.
func (s *Store) Migrate(ctx context.Context, more ...string) error {
	files, err := fs.Glob(migrations, "migrations/*.up.sql")
	if err != nil {
		return fmt.Errorf("sqlitestore: migrate: %w", err)
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlitestore: migrate: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, name := range files { // fs.Glob sorts
		script, err := migrations.ReadFile(name)
		if err != nil {
			return fmt.Errorf("sqlitestore: migrate: %w", err)
		}
		if _, err := tx.ExecContext(ctx, string(script)); err != nil {
			return fmt.Errorf("sqlitestore: migrate: %s: %w", path.Base(name), err)
		}
	}
	for i, script := range more {
		if _, err := tx.ExecContext(ctx, script); err != nil {
			return fmt.Errorf("sqlitestore: migrate: script %d of the application: %w", i+1, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlitestore: migrate: %w", err)
	}
	return nil
}

// violation classifies a SQLite error by its extended result code.
func violation(err error) sqlstore.Violation {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return sqlstore.NoViolation
	}
	switch e.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return sqlstore.UniqueViolation
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return sqlstore.ForeignKeyViolation
	}
	return sqlstore.NoViolation
}

// sqlDB adapts a *sql.DB to sqlstore.DB. It prepares each statement once
// (database/sql then prepares it on each connection the first time that
// connection runs it): SQLite would otherwise compile the same SQL on every
// call, which cost 12–19 % of a list request's CPU.
type sqlDB struct {
	db    *sql.DB
	stmts *stmtCache
}

func newSQLDB(db *sql.DB) sqlDB { return sqlDB{db: db, stmts: &stmtCache{}} }

func (d sqlDB) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	st, err := d.stmts.get(ctx, d.db, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	return sqlstore.SQLRows{Rows: rows}, nil
}

func (d sqlDB) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	st, err := d.stmts.get(ctx, d.db, query)
	if err != nil {
		return errRow{err}
	}
	return st.QueryRowContext(ctx, args...)
}

func (d sqlDB) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	st, err := d.stmts.get(ctx, d.db, query)
	if err != nil {
		return 0, err
	}
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// readSnapshot runs fn in a read transaction: BEGIN DEFERRED whatever
// _txlock says (the driver's way for a read-only transaction), so that it
// takes no write lock, and in WAL mode every statement sees the snapshot
// the first one took while writers go on.
func (d sqlDB) readSnapshot(ctx context.Context, fn func(sqlstore.DB) error) error {
	tx, err := d.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("sqlitestore: beginning a read transaction: %w", err)
	}
	if err := fn(txDB{tx: tx, parent: d}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// txDB adapts a transaction of an sqlDB to sqlstore.DB, with the
// statements that sqlDB prepared.
type txDB struct {
	tx     *sql.Tx
	parent sqlDB
}

func (d txDB) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	st, err := d.parent.stmts.get(ctx, d.parent.db, query)
	if err != nil {
		return nil, err
	}
	return d.tx.StmtContext(ctx, st), nil // closed with the transaction
}

func (d txDB) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	st, err := d.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	return sqlstore.SQLRows{Rows: rows}, nil
}

func (d txDB) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	st, err := d.stmt(ctx, query)
	if err != nil {
		return errRow{err}
	}
	return st.QueryRowContext(ctx, args...)
}

func (d txDB) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	st, err := d.stmt(ctx, query)
	if err != nil {
		return 0, err
	}
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// stmtCache holds the statements prepared on one *sql.DB, by their SQL.
// The stores run a fixed set of statements, so it never grows past it.
type stmtCache struct {
	mu     sync.RWMutex
	stmts  map[string]*sql.Stmt
	closed bool
}

// get returns the statement for query, preparing it on first use. A
// failed preparation (a cancelled ctx, a locked schema) is not kept.
func (c *stmtCache) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	c.mu.RLock()
	st, ok := c.stmts[query]
	c.mu.RUnlock()
	if ok {
		return st, nil
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.stmts[query]; ok || c.closed {
		// Another caller prepared it first, or the store is closing.
		_ = st.Close()
		if ok {
			return prev, nil
		}
		return nil, errors.New("sqlitestore: the store is closed")
	}
	if c.stmts == nil {
		c.stmts = make(map[string]*sql.Stmt)
	}
	c.stmts[query] = st
	return st, nil
}

// close closes every statement; later calls to get fail.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var errs []error
	for _, st := range c.stmts {
		errs = append(errs, st.Close())
	}
	c.stmts = nil
	return errors.Join(errs...)
}

// errRow is a Row whose statement could not be prepared.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
