package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// DefaultBusyTimeout is how long a connection waits for a lock held by
// another connection (or process) before failing with SQLITE_BUSY.
const DefaultBusyTimeout = 5 * time.Second

// Store is a SQLite database of the kit's domains: its accessors return
// the store of each domain, all in the same file and on the same pools.
// Build it with [Open], [New] or [NewReadWrite]; it is safe for
// concurrent use.
type Store struct {
	owned  []*sql.DB // closed by Close
	write  *sql.DB   // runs migrations
	stmts  []*stmtCache
	stores *sqlstore.Stores
}

// The stores' interfaces, for the links of the documentation.
var (
	_ articles.Store    = (*sqlstore.Articles)(nil)
	_ auth.UserStore    = (*sqlstore.Users)(nil)
	_ idempotency.Store = (*sqlstore.Keys)(nil)
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
		return nil, fmt.Errorf("sqlite: %q is not a database file path", path)
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
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
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
		var e *msqlite.Error
		if err == nil || !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}

func openDB(dsn string) (*sql.DB, error) {
	c, err := msqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
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
// Pass it to sql.Open("sqlite", dsn) or msqlite.NewConnector to build a
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
	return newStore(d, d)
}

// NewReadWrite returns a Store that reads through read and writes through
// write, as the Store of [Open] does, over databases of your own opened
// with [DSN]: write with one connection (db.SetMaxOpenConns(1)), read
// with query_only (DSN(path) + "&_pragma=query_only(1)") and as many
// connections as you like. The caller keeps ownership of both:
// [Store.Close] leaves them open.
func NewReadWrite(read, write *sql.DB) *Store {
	return newStore(newSQLDB(read), newSQLDB(write))
}

// newStore returns a Store that reads through read and writes through
// write (they may be the same).
func newStore(read, write sqlDB) *Store {
	stmts := []*stmtCache{read.stmts}
	if write.stmts != read.stmts {
		stmts = append(stmts, write.stmts)
	}
	return &Store{
		write: write.db,
		stmts: stmts,
		stores: sqlstore.New(sqlstore.Database{
			Dialect:   sqlstore.SQLite,
			Read:      read.db,
			Write:     write.db,
			Reader:    read,
			Writer:    write,
			Violation: violation,
			BindTime:  bindTime,
			// Lists read the page and its total in one snapshot.
			ReadSnapshot: read.readSnapshot,
		}),
	}
}

// Users returns the store of users (an [auth.UserStore]), read through
// the read-only pool and written through the single writer, with
// statements prepared once. SQLITE_CONSTRAINT_UNIQUE on the e-mail
// address is [auth.ErrEmailTaken].
func (s *Store) Users() *sqlstore.Users { return s.stores.Users() }

// Articles returns the store of articles (an [articles.Store]), read
// through the read-only pool and written through the single writer, with
// statements prepared once; a list's page and total are read in one
// snapshot, a read transaction when they take two statements.
// SQLITE_CONSTRAINT_FOREIGNKEY is [articles.ErrUnknownUser].
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
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	return a, nil
}

// Tokens returns the store of revoked access tokens, sessions and refresh
// tokens (an [auth.TokenStore]), for auth.Config.Tokens and
// auth.RefreshConfig.Store. Checks of tokens read through the read-only
// pool; revocations and refresh tokens are written through the single
// writer. Processes sharing one file contend for SQLite's write lock all
// the same: a revocation in one of them waits while another writes back
// to back, and fails with SQLITE_BUSY after the busy timeout
// ([DefaultBusyTimeout] with [DSN]), with nothing half-done.
func (s *Store) Tokens() *sqlstore.Tokens { return s.stores.Tokens() }

// Throttle returns the counts of failed logins (an [auth.LoginThrottle]),
// for auth.LoginConfig.Throttle: every process on the file counts the
// same failures. Counts are read through the read-only pool and written
// through the single writer.
func (s *Store) Throttle() *sqlstore.Throttle { return s.stores.Throttle() }

// Idempotency returns the store of idempotency keys (an
// [idempotency.Store]), for idempotency.Config.Store. Claims look keys up
// through the read-only pool and write, and run their transactions, on
// the single writer ([Store.WriteDB]). The writes of [Store.Users] and
// [Store.Articles] in a request that holds one of its claims join the
// claim's transaction.
func (s *Store) Idempotency() *sqlstore.Keys { return s.stores.Keys() }

// WriteDB returns the pool the Store writes through: one connection (with
// [Open]), on which idempotency claims run too. Write the application's
// own tables in the same file through it (and through the claim's
// transaction, [sqlstore.Keys.Tx], in a request that holds one):
// a second writer connection in the process would contend with it for
// SQLite's single write lock, each waiting up to the busy timeout.
func (s *Store) WriteDB() *sql.DB { return s.write }

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

// violation classifies a SQLite error by its extended result code.
func violation(err error) sqlstore.Violation {
	var e *msqlite.Error
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
