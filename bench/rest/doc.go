// Package rest measures gqlkit's articles REST API against a bare,
// hand-written net/http handler that runs the same SQL statements through the
// same driver and writes the same bytes.
//
// The request is GET /api/articles?per_page=15 (in process also &page=1) over
// [Articles] published articles by [Authors] authors, seeded by [Seed]. Two
// databases are measured:
//
//   - SQLite through database/sql and modernc.org/sqlite. The kit's side is
//     sqlite.Open; the bare side opens its own *sql.DB with the DSN
//     and pool size of sqlite.Open's read pool (see [OpenSQLite]).
//   - PostgreSQL through one pgxpool.Pool that both sides share (see
//     [OpenPostgres]), with pgx's defaults (cached prepared statements).
//
// # The two handlers
//
// [NewKit] is articles.NewHandler over the kit's store, mounted on an
// http.ServeMux at "/api/articles" and "/api/articles/" as the example
// server mounts it, but without the auth.Verifier.Optional middleware the
// example wraps it in: the bare handler has no authentication, and reads
// need none.
//
// [NewBareSQL] and [NewBarePgx] are what a careful developer would write by
// hand for the one route: read page and per_page, run the kit store's two
// statements (copied word for word from sqlstore: the
// page joined with the authors, each row carrying the total, then a count
// when the page is empty),
// scan each row into a flat struct, and encode the Laravel envelope once
// with encoding/json (HTML escaping off, no trailing newline, as the kit
// answers). For the same data and request they answer byte for byte what
// the kit answers; the tests check it. Bad parameters get a plain 422
// without the kit's Laravel messages.
//
// # Running
//
//	go test ./rest                                                       # byte identity (SQLite; PostgreSQL with TEST_DATABASE_URL)
//	go test -run '^$' -bench List -benchmem ./rest                       # in process
//	./rest/run.sh                                                        # over HTTP with wrk
//
// The command github.com/gqlkit/gqlkit/bench/cmd/rest-bench serves either
// handler on loopback for run.sh.
package rest
