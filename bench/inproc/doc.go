// Package inproc checks and benchmarks the workload's implementations inside
// one process, without a network. It holds only tests:
//
//	go test ./inproc                                         # correctness
//	go test -run '^$' -bench . -benchmem -count 6 ./inproc   # benchmarks
//
// The implementations are gqlkit, github.com/graph-gophers/graphql-go and
// github.com/graphql-go/graphql, each on the sample schema (package sample).
//
// # Benchmarks
//
//   - BenchmarkExecA, BenchmarkExecB: each library's execution entry point on
//     request A or B. gqlkit: a prepared [graphql.Operation] run with
//     Execute into a reused buffer (ExecParams.Dst) (what graphqlhttp does on a cache hit,
//     variables coerced included), and gqlkit-uncached: Schema.Do (parse,
//     validate, prepare, execute). graph-gophers: Schema.Exec (parse, validate,
//     execute; data already JSON). graphql-go: graphql.Do (parse, validate,
//     execute into maps). The +marshal variants add the encoding of the whole
//     response that the library's HTTP handler does.
//   - BenchmarkHandlerA, BenchmarkHandlerB: the whole http.Handler (decode,
//     execute, encode, write) through an httptest.ResponseRecorder; limit is
//     the floor (decode the request, write the reference bytes).
//   - BenchmarkPostsFirst, BenchmarkFieldNodes: how gqlkit's execution time
//     grows with the rows returned and with the size of the document.
//   - BenchmarkSearch: the union workload (package search): 100 results of
//     a SearchResult union of Book, Author and Review, each member's fields
//     selected by a fragment, in gqlkit (prepared, and Schema.Do) and
//     graph-gophers (Exec, and +marshal); TestSearchSameAnswer checks that
//     all give the same bytes.
//   - BenchmarkHostile: hostile documents of at most 20 KB answered by the
//     gqlkit handler with its document cache off, so that every request is
//     scanned, parsed, checked and (when it passes the limits) validated.
//
// [graphql.Operation]: https://pkg.go.dev/github.com/gqlkit/gqlkit/graphql#Operation
package inproc
