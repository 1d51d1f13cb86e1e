// Package sqlitestore keeps articles and users in a SQLite file through
// modernc.org/sqlite (pure Go, no cgo), implementing [articles.Store] and
// [auth.UserStore].
//
//	store, err := sqlitestore.Open("data/app.db")
//	defer store.Close()
//	if err := store.Migrate(ctx); err != nil { … }
//	h, err := articles.NewHandler(store, articles.Config{})
//
// # Connections
//
// [Open] sets up every connection with the pragmas of [DSN]: a busy
// timeout of [DefaultBusyTimeout], foreign keys on (SQLite's default is
// off), WAL journaling with synchronous=NORMAL, and BEGIN IMMEDIATE for
// transactions. It keeps one connection for writes, so that writers queue
// in Go rather than race for SQLite's single write lock, and a pool of
// read-only connections that WAL lets run beside the writer.
//
// [New] takes a *sql.DB of your own instead, for example one opened through
// a wrapping driver.Connector that traces statements; open it with [DSN]
// (or at least with foreign keys on).
//
// # Schema
//
// The tables match those of the PostgreSQL store, created by
// [Store.Migrate] or by the SQL files of [Migrations]. Ids use
// AUTOINCREMENT, so the id of a deleted user is never given to a new one
// (tokens name users by id). Timestamps are stored as TEXT in UTC with
// six fractional digits, "2025-01-02 03:04:05.123456+00:00": fixed width, so
// text order is time order, and read back into time.Time because the
// columns are declared TIMESTAMP.
//
// # Statements
//
// The statements are shared, word for word, with the PostgreSQL store
// ($N placeholders, INSERT … RETURNING); see the pgstore documentation.
// Each is prepared once per pool, on first use, and database/sql prepares
// it on each connection the first time that connection runs it (SQLite
// would otherwise compile the SQL again on every call); [Store.Close]
// releases them. Constraint failures are told apart by extended result code:
// SQLITE_CONSTRAINT_FOREIGNKEY is [articles.ErrUnknownUser],
// SQLITE_CONSTRAINT_UNIQUE [auth.ErrEmailTaken].
//
// # Concurrency
//
// A Store is safe for concurrent use. In-memory databases are not
// supported, since each connection would open one of its own.
package sqlitestore
