// Package pgstore keeps articles and users in PostgreSQL through pgx v5,
// implementing [articles.Store] and [auth.UserStore].
//
//	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
//	store := pgstore.New(pool)
//	if err := store.Migrate(ctx); err != nil { … }
//	h, err := articles.NewHandler(store, articles.Config{})
//
// [Open] does the same from a URL and owns the pool it creates.
//
// # Schema
//
// Two tables, created by [Store.Migrate] or by the SQL files of
// [Migrations] fed to a migration tool of your own:
//
//	users    id (identity), name, email (unique), password (hash),
//	         created_at, updated_at
//	articles id (identity), user_id (references users, ON DELETE CASCADE),
//	         title, body, published (default false), created_at, updated_at;
//	         indexes on (published, created_at) and (user_id)
//
// Timestamps are TIMESTAMPTZ, written in UTC truncated to microseconds
// (PostgreSQL's precision), so they read back exactly as written.
// Migrate takes an advisory lock, so concurrent starts are safe, and
// creates only what is missing. The tables go into the first schema of the
// connection's search_path: set search_path in the pool's RuntimeParams to
// place them elsewhere.
//
// # Statements
//
// The statements are shared, word for word, with the SQLite store. A list
// runs a count and then one SELECT of the page joined with the authors
// (none when the page is past the end). Creating an article is a single
// INSERT … RETURNING; a user that does not exist breaks the foreign key,
// which is reported as [articles.ErrUnknownUser] with nothing written.
// Deleting is a DELETE restricted to the caller's articles, followed, only
// when it deleted nothing, by a SELECT that tells why. A taken e-mail
// address (SQLSTATE 23505) is [auth.ErrEmailTaken].
//
// Statements are run through the pool with pgx's defaults (cached prepared
// statements); behind PgBouncer in transaction mode, set
// default_query_exec_mode=exec in the URL. Set a pgx QueryTracer on the pool
// configuration to log or count them.
//
// # Concurrency
//
// A Store is safe for concurrent use; it holds nothing but the pool.
package pgstore
