package sqlstore

import (
	"context"
	"database/sql"
	"time"
)

// DB runs statements; the database packages adapt their pools to it (a
// pgx pool, a *sql.DB with prepared statements).
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

// Violation is the kind of constraint a failed statement broke, as
// [Database.Violation] reports it.
type Violation int

// Violations the stores tell apart.
const (
	NoViolation Violation = iota
	UniqueViolation
	ForeignKeyViolation
)

// Dialect is the SQL dialect of a database: the statements of idempotency
// keys differ in their row locks.
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

// Database describes one database to the stores of this package: the
// pools they use and the few things its driver does its own way. It is
// built by postgres.New/Open and sqlite.Open/New/NewReadWrite, which hand
// it to [New]; applications have no need of it.
type Database struct {
	// Dialect is the database's SQL dialect.
	Dialect Dialect
	// Read and Write are the database/sql pools of [Tokens], [Throttle]
	// and [Keys]: reads go to Read, writes and the transactions of
	// idempotency claims to Write. They may be the same. On SQLite, Write
	// is the pool of one connection all writes of the process go through.
	Read, Write *sql.DB
	// Reader and Writer run the statements of [Users] and [Articles], as
	// Read and Write do; they may be the same.
	Reader, Writer DB
	// ReadSnapshot calls fn with a DB whose statements all read one
	// snapshot of the database (a read-only transaction, at repeatable
	// read or stronger), which ends when fn returns.
	ReadSnapshot func(ctx context.Context, fn func(DB) error) error
	// Violation classifies a driver's error.
	Violation func(error) Violation
	// BindTime turns a UTC time truncated to microseconds into a
	// statement argument of a TIMESTAMP column.
	BindTime func(time.Time) any
}

// Stores are the stores of every domain in one [Database], which share
// its pools; the writes of [Users] and [Articles] join the transactions of
// claims of [Keys]. The Store of postgres and sqlite holds them.
type Stores struct {
	users    *Users
	articles *Articles
	tokens   *Tokens
	throttle *Throttle
	keys     *Keys
}

// New returns the stores of db. The stores' tables must exist before they
// are used ([Migrate]).
func New(db Database) *Stores {
	keys := newKeys(db.Read, db.Write, db.Dialect)
	c := &core{
		readDB:    db.Reader,
		writeDB:   db.Writer,
		snapshot:  db.ReadSnapshot,
		violation: db.Violation,
		bindTime:  db.BindTime,
		now:       time.Now,
		keys:      keys,
	}
	return &Stores{
		users:    &Users{c},
		articles: &Articles{c: c, q: defaultStatements},
		tokens:   &Tokens{read: db.Read, write: db.Write},
		throttle: &Throttle{read: db.Read, write: db.Write},
		keys:     keys,
	}
}

// Users returns the store of users.
func (s *Stores) Users() *Users { return s.users }

// Articles returns the store of articles over the kit's table users.
func (s *Stores) Articles() *Articles { return s.articles }

// ArticlesOver returns a store of articles whose authors are the users of
// table t, a service's own (migrate the table articles with
// [ArticlesMigration] over the same t), on the pools of s, joining the
// claims of its [Keys] as [Stores.Articles] does. It fails when a name of
// t is not a plain identifier. Call it once per table, when the
// application starts: each store prepares statements of its own.
func (s *Stores) ArticlesOver(t UsersTable) (*Articles, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return &Articles{c: s.articles.c, q: t.statements()}, nil
}

// Tokens returns the store of revoked access tokens, sessions and refresh
// tokens.
func (s *Stores) Tokens() *Tokens { return s.tokens }

// Throttle returns the counts of failed logins.
func (s *Stores) Throttle() *Throttle { return s.throttle }

// Keys returns the store of idempotency keys.
func (s *Stores) Keys() *Keys { return s.keys }
