// Package postgres keeps the kit's data in PostgreSQL through pgx v5. A
// [Store] opens the database and returns the store of each domain, from
// the package [sqlstore], all on one pool: users ([Store.Users], an
// [auth.UserStore]), articles ([Store.Articles], an [articles.Store]),
// sessions, refresh tokens and revocations ([Store.Tokens], an
// [auth.TokenStore]), counts of failed logins ([Store.Throttle], an
// [auth.LoginThrottle]) and idempotency keys ([Store.Idempotency], an
// [idempotency.Store]). This package holds what is PostgreSQL's own: the
// pool, how errors and timestamps are read, and the schema.
//
//	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
//	store := postgres.New(pool)
//	if err := store.Migrate(ctx); err != nil { … }
//	h, err := articles.NewHandler(store.Articles(), articles.Config{})
//
// [Open] does the same from a URL and owns the pool it creates.
//
// # Schemas
//
// Each domain has its own tables and its own migration, usable without the
// others: a service with a users table of its own can keep its refresh
// tokens here with
//
//	store.MigrateSchemas(ctx, []sqlstore.Schema{sqlstore.AuthSchema})
//	refresher, err := auth.NewRefresher(issuer, auth.RefreshConfig{Store: store.Tokens()})
//
// The tables, created by [Store.Migrate] (all of them) or
// [Store.MigrateSchemas], or by the SQL files of [Migrations] fed to a
// migration tool of your own, by schema ([sqlstore.Schema]):
//
//	Users        users: id (identity), name, email (unique), password
//	             (hash), created_at, updated_at
//	Auth         auth_revocations, auth_sessions, auth_refresh_tokens,
//	             auth_login_failures
//	Idempotency  idempotency_keys
//	Articles     articles: id (identity), user_id (references users, ON
//	             DELETE CASCADE), title, body, published, created_at,
//	             updated_at; indexes on (published, created_at), (user_id)
//
// The auth tables name users by user_id and reference no users table.
// When Users and Auth are migrated together, a link (the migration
// auth_users) adds foreign keys from auth_sessions and auth_refresh_tokens
// to users, ON DELETE CASCADE: a user's sessions and refresh tokens go
// with the user. A service with a users table of its own adds such keys to
// its table in its own migration, or calls [sqlstore.Tokens.RevokeUser] when
// it deletes a user. Articles need a table users with columns id and name:
// the kit's, or the service's own.
//
// Timestamps of users and articles are TIMESTAMPTZ, written in UTC
// truncated to microseconds (PostgreSQL's precision), so they read back
// exactly as written; those of the other domains are Unix microseconds.
// Migrations take an advisory lock, so concurrent starts are safe, and
// create only what is missing. The tables go into the first schema of the
// connection's search_path: set search_path in the pool's RuntimeParams
// to place them elsewhere.
//
// # Statements
//
// The statements, in the package [sqlstore], are shared word for word
// with SQLite. A list
// runs one SELECT of the page joined with the authors, each row carrying
// the total, and a count only when the page is empty. Creating an article
// is a single INSERT … RETURNING; a user that does not exist breaks the
// foreign key, which is reported as [articles.ErrUnknownUser] with nothing
// written. Deleting is a DELETE restricted to the caller's articles,
// followed, only when it deleted nothing, by a SELECT that tells why. A
// taken e-mail address (SQLSTATE 23505) is [auth.ErrEmailTaken].
//
// Users and articles are read and written through the pool with pgx's
// defaults (cached prepared statements); the other domains through
// database/sql over the same pool. Behind PgBouncer in transaction mode,
// set default_query_exec_mode=exec in the URL. Set a pgx QueryTracer on
// the pool configuration to log or count the statements.
//
// # Concurrency
//
// A Store and its domains' stores are safe for concurrent use; they hold
// nothing but the pool.
package postgres
