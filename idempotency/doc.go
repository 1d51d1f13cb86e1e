// Package idempotency makes retried writes safe. A client that cannot tell
// whether its POST happened (the connection dropped after the commit) sends
// the request again with the same Idempotency-Key header, and gets the first
// answer again instead of a second write.
//
//	keys, err := idempotency.Middleware(idempotency.Config{
//		Store: store.Idempotency(), // pgstore or sqlitestore: keys live beside the data
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
//   - The first request with a key runs the handler. Its answer (status,
//     headers, body) is recorded under the key when its status is below 500;
//     a 5xx answer, or a panic, records nothing, so a retry runs again.
//   - A later request with the same key, the same subject and the same
//     request (method, path and query, Content-Type and body) gets the
//     recorded answer, with Idempotent-Replayed: true, without running the
//     handler, for [Config.TTL] (24 hours by default).
//   - The same key with a different request is a 422.
//   - Two requests with one key at once: the second waits for the first and
//     then gets its answer. The handler runs once.
//   - A malformed key is a 400; a body over [Config.MaxBodyBytes] a 413.
//
// # Exactly once, across crashes
//
// The stores of this module ([SQLStore], which pgstore and sqlitestore
// provide) hold a key for the duration of a database transaction that
// starts before the handler and commits together with the recorded answer.
// A write the handler makes in that same transaction ([SQLStore.Tx]; the
// articles stores and the example server's posts do) commits with the key
// or not at all: if the process dies at any point, either both are there
// and a retry is replayed, or neither is and a retry runs afresh. A write
// made elsewhere commits on its own, so a crash between its commit and the
// key's leaves a window in which a retry writes twice.
package idempotency
