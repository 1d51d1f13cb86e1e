// Package sqlite keeps the kit's data in a SQLite file through
// modernc.org/sqlite (pure Go, no cgo). A [Store] opens the file and
// returns the store of each domain, from the package [sqlstore], all on
// the same pools: users ([Store.Users], an [auth.UserStore]), articles
// ([Store.Articles], an [articles.Store]), sessions, refresh tokens and
// revocations ([Store.Tokens], an [auth.TokenStore]), counts of failed
// logins ([Store.Throttle], an [auth.LoginThrottle]) and idempotency keys
// ([Store.Idempotency], an [idempotency.Store]). This package holds what
// is SQLite's own: the connections, the single writer, the prepared
// statements, how errors and timestamps are read, and the schema. Import
// it beside the driver with an alias for one of them:
//
//	import msqlite "modernc.org/sqlite"
//
//	store, err := sqlite.Open("data/app.db")
//	defer store.Close()
//	if err := store.Migrate(ctx); err != nil { … }
//	h, err := articles.NewHandler(store.Articles(), articles.Config{})
//
// # Connections
//
// [Open] sets up every connection with the pragmas of [DSN]: a busy
// timeout of [DefaultBusyTimeout], foreign keys on (SQLite's default is
// off), WAL journaling with synchronous=NORMAL, and BEGIN IMMEDIATE for
// transactions. It keeps one connection for writes, so that writers queue
// in Go rather than race for SQLite's single write lock, and a pool of
// read-only connections that WAL lets run beside the writer. Every domain
// of the Store writes through that one connection ([Store.WriteDB]).
//
// [New] takes a *sql.DB of your own instead, for example one opened through
// a wrapping driver.Connector that traces statements; open it with [DSN]
// (or at least with foreign keys on).
//
// # Schemas
//
// Each domain has its own tables and its own migration, usable without the
// others, as in PostgreSQL ([sqlstore.Schema]), created by [Store.Migrate] (all of them) or
// [Store.MigrateSchemas], or by the SQL files of [Migrations]. The auth
// tables name users by user_id and reference no users table; when Users
// and Auth are migrated together, a trigger (the migration auth_users)
// deletes a user's sessions and refresh tokens with the user (SQLite
// cannot add a foreign key to an existing table). A service with a users
// table of its own adds such a trigger in its own migration, or calls
// [sqlstore.Tokens.RevokeUser] when it deletes a user. Articles need a table
// users with columns id and name.
//
// Ids use AUTOINCREMENT, so the id of a deleted user is never given to a
// new one (tokens name users by id). Timestamps of users and articles are
// stored as TEXT in UTC with six fractional digits, "2025-01-02
// 03:04:05.123456+00:00": fixed width, so text order is time order, and
// read back into time.Time because the columns are declared TIMESTAMP;
// those of the other domains are Unix microseconds.
//
// # Statements
//
// The statements are shared, word for word, with the PostgreSQL store
// ($N placeholders, INSERT … RETURNING). Those of users and articles are
// prepared once per pool, on first use, and database/sql prepares each on
// each connection the first time that connection runs it (SQLite would
// otherwise compile the SQL again on every call); [Store.Close] releases
// them. Constraint failures are told apart by extended result code:
// SQLITE_CONSTRAINT_FOREIGNKEY is [articles.ErrUnknownUser],
// SQLITE_CONSTRAINT_UNIQUE [auth.ErrEmailTaken].
//
// # Concurrency
//
// A Store is safe for concurrent use. In-memory databases are not
// supported, since each connection would open one of its own.
package sqlite
