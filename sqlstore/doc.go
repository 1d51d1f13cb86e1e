// Package sqlstore holds the stores of the kit's domains in a SQL
// database, shared by PostgreSQL and SQLite: users ([Users], an
// auth.UserStore), articles ([Articles], an articles.Store), revoked
// tokens, sessions and refresh tokens ([Tokens], an auth.TokenStore),
// counts of failed logins ([Throttle], an auth.LoginThrottle) and
// idempotency keys ([Keys], an idempotency.Store).
//
// Applications do not build them: they open a database with the package
// postgres or sqlite, whose Store returns them (Store.Users,
// Store.Articles, Store.Tokens, Store.Throttle, Store.Idempotency), all on
// the same pools. The statements are the same, word for word, on both
// databases ($N placeholders, INSERT … RETURNING, ON CONFLICT); what
// differs is left to the database packages, which describe it in a
// [Database]: how a statement reaches the database, how a driver reports a
// broken constraint, how a timestamp is bound, how a read snapshot begins,
// and the schema (the SQL files the database packages migrate with
// [Migrate]).
//
// # Joined transactions
//
// In a request that holds a claim of the database's [Keys], the writes of
// [Users] and [Articles] run in the claim's transaction, which the first
// of them begins ([Keys.Tx]), so that they commit together with the
// recorded answer, and their reads that follow run in it too.
//
// # Concurrency
//
// Every store is safe for concurrent use.
package sqlstore
