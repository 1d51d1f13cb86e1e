// Package idempotency makes retried writes safe. A client that cannot tell
// whether its POST happened (the connection dropped after the commit) sends
// the request again with the same Idempotency-Key header, and gets the first
// answer again instead of a second write.
//
//	keys, err := idempotency.Middleware(idempotency.Config{
//		Store: store.Idempotency(), // postgres or sqlite: keys live beside the data
//	})
//	mux.Handle("POST /api/articles", verifier.Optional(keys(articlesHandler)))
//
// # The rules
//
// A request carries a key when it has one Idempotency-Key header of 1 to 255
// printable ASCII characters (a structured-field string in double quotes, as
// the IETF draft writes it, is accepted too) and its method is POST or
// PATCH. Keys belong to a subject, the authenticated user by default
// ([Config.Subject]); a request without a subject, or without a key, passes
// through untouched.
//
//   - The first request with a key runs the handler. When a write joined
//     its claim (see below) and its status is below 500, its answer
//     (status, headers, body) is recorded under the key, then sent. A
//     request that wrote nothing (a GraphQL query, a refused mutation)
//     is answered without being recorded; so are a 5xx answer and a
//     panic, after the writes that joined the claim are undone. A retry
//     of any of these runs again.
//   - A later request with the same key, the same subject and the same
//     request (method, path and query, Content-Type and body) gets the
//     recorded answer, with Idempotent-Replayed: true, without running the
//     handler, for [Config.TTL] (24 hours by default).
//   - The same key with a different request is a 422
//     IDEMPOTENCY_KEY_REUSED, whether the first is done or in flight.
//   - Two requests with one key at once: the second is answered 409
//     IDEMPOTENCY_KEY_IN_USE with Retry-After: 1 at once, without waiting
//     for the first (as the IETF draft says); retried after the first is
//     done, it gets the first's answer. The handler runs once.
//   - A write whose answer is over [Config.MaxRecordBytes] (4 MiB) is
//     undone and answered 422 IDEMPOTENCY_ANSWER_TOO_LARGE: an answer
//     that could not be replayed is not given.
//   - A malformed key is a 400; a body over [Config.MaxBodyBytes] a 413.
//
// # Answers: passed through, or held and recorded
//
// What becomes of an answer is decided when the handler begins it (its
// first WriteHeader, Write or Flush). An answer that will not be recorded
// (no write joined the claim, or a 5xx) is not the middleware's: the claim
// is released there and then, so that a retry that follows it runs at
// once, and the answer goes straight to the client. The writer the
// handler gets unwraps to the client's (http.ResponseController), so that
// the handler's own bounds hold as without a key: graphqlhttp's and
// articles' response budgets keep a share for as long as the client takes
// the answer, and their stall cut-off ends a client that stops reading.
//
// An answer to be recorded is held in memory, at most MaxRecordBytes of
// it: a write past that fails, the buffer is dropped, and the request is
// refused once the handler returns. When the claim has committed it, the
// answer is sent, and a client that takes none of it for
// [Config.StallTimeout] (5 s) is cut off; replays are sent alike. Such
// answers are outside any response budget: each is one request's, at
// most MaxRecordBytes, and there is one only per write that succeeded.
//
// # Claims hold nothing while they wait
//
// A key is held by a claim: a row the store commits before the handler
// runs, with a lease ([Config.Lease], 5 s) that the middleware renews
// while the handler runs. A claim holds no transaction and no connection
// until the handler's first write joins it: the request may wait for
// anything (a budget, another service) without keeping a database
// connection, or SQLite's single writer, from others. When the process
// dies, its keys are taken over by retries once their leases end. A
// request that finds its key held, or a take-over that would have to
// wait for a transaction, is answered 409 at once. (On PostgreSQL a claim
// whose request went away while its row was being inserted may have
// committed all the same: its key is then held by no one until its lease
// ends, and retries get 409 meanwhile.)
//
// # Exactly once, across crashes
//
// The SQL store of this module ([github.com/gqlkit/gqlkit/sqlstore.Keys],
// which the Idempotency method of the Store of
// [github.com/gqlkit/gqlkit/postgres] and [github.com/gqlkit/gqlkit/sqlite]
// returns) opens a claim's transaction when its first write asks for it
// (its Tx method), checks there that the request still holds the key, and
// records the answer in it: the writes and the answer commit together or
// not at all. If the process dies at any point, either both are there
// and a retry is replayed, or neither is and a retry runs afresh. The
// answer is sent only after the commit, so no transaction is open while
// the client reads it. A commit that fails may yet have happened (the
// connection broke as the database committed): the client gets a 500,
// and a retry the recorded answer.
//
// The rule for a store of your own in the same database: run a keyed
// request's writes in the transaction of the store's Tx, and,
// once it is open, its reads too (its ActiveTx). A request that holds the
// transaction's connection and waits for another one can exhaust a small
// pool (every connection held by a request waiting for one more); one
// that runs everything in its transaction never waits for a connection
// while holding one, whatever the pool's size and the number of requests.
// A write made elsewhere does not join the claim: it commits on its own,
// and its answer is not recorded. On SQLite, where the transaction holds
// the one writer connection, such a write in the same request would wait
// for the request's own transaction: once it is open, write only in it.
// A write that comes after an answer not to be recorded has begun fails:
// the claim is released by then.
//
// # A claim's transaction is bounded
//
// The first write begins the transaction with the end of the claim's
// lease as its deadline, renewing the lease first when less than two
// thirds of it are left: a transaction lives at most one lease (5 s) past
// its request's first write, and at least two thirds of one, however
// long the handler then takes, and others see the key held for all that
// time. A handler whose writes outlast it has them rolled back and
// answers an error, and nothing is recorded; raise [Config.Lease] for
// slower writes. So a hung handler holds SQLite's writer, or a
// PostgreSQL connection, for one lease at most.
package idempotency
