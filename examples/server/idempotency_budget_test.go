package main

// On the real binary: a logged-in client
// with an Idempotency-Key gets no more of the response budget, and no more
// time to take its answer, than without one.

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/loopback"
)

// TestIdempotencyKeyedNonReaders: eight raw connections of one logged-in
// client (127.0.0.9) send the 12.6 MB query, each with a bearer token and
// a key of its own, and never read. As without a key, one is answered and
// holds its client's part of the response budget, the seven others get
// 503 with Retry-After: 1, and the one answered is cut off once it has
// taken nothing for the stall timeout (5 s). The server's resident set
// grows by about one answer, and no key is recorded or left held. A
// retry under one of the eight keys runs afresh.
//
// Before, the idempotency layer held each answer in a buffer of its own,
// outside the budget, and sent it on a writer the stall watch could not
// reach: all eight got 200, the resident set grew by some 270 MiB, and
// after 8 s without reading the connection still got its whole answer.
func TestIdempotencyKeyedNonReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("some 10 s a database")
	}
	t.Parallel() // it waits out the stall timeout: see stallTimeout
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			db := kind.open(t)
			_, token := addUser(t, db, "Ada", "ada's password")
			p := db.start(t, "GRAPHQL_RESPONSE_BUDGET_WAIT=2s")
			createLargePosts(t, p.base, token)
			large := largeRequest()
			keyed := func(key string) []string {
				return []string{"Authorization", "Bearer " + token, "Idempotency-Key", key}
			}
			// What serving one large answer takes, before the count.
			warm, err := postGraphQL(clientFrom("127.0.0.6"), p.base, large)
			if err != nil || warm.status != http.StatusOK || len(warm.body) != largeAnswerSize() {
				t.Fatalf("a large query to warm up: %v, %d, %d bytes", err, warm.status, len(warm.body))
			}
			before := rss(t, p.cmd.Process.Pid)

			start := time.Now()
			var conns []*loopback.NonReader
			for i := range 8 {
				conn := clientConn(t, "127.0.0.9", p.addr)
				postOn(t, conn, "/api/graphql", large, keyed(fmt.Sprint("large-", i))...)
				conns = append(conns, loopback.NewNonReader(conn))
			}
			holder, head, refused := sortNonReaders(t, conns, largeAnswerSize(), busyAnswer)
			headsAt := time.Now()
			held := rss(t, p.cmd.Process.Pid)
			t.Logf("resident set: %.0f MiB before, %.0f MiB with the eight non-readers answered",
				float64(before)/(1<<20), float64(held)/(1<<20))
			if holder == nil || refused != 7 {
				t.Errorf("of eight keyed non-readers of one client, %d were refused and %v got an answer; want one answer and seven 503",
					refused, holder != nil)
			}
			// One answer held takes its 12.6 MB, and execution a copy or
			// two; eight took some 270 MiB.
			if grown := held - before; grown > 100<<20 {
				t.Errorf("the resident set grew by %.0f MiB; want at most 100", float64(grown)/(1<<20))
			}

			if holder != nil {
				// At least 8 s after the requests, as the review measured.
				time.Sleep(max(time.Until(start.Add(8*time.Second)), time.Until(headsAt.Add(stallTimeout+cutMargin))))
				got := holder.Rest(t, head) + 200 // sortNonReaders read the first 200
				t.Logf("the non-reader got %d of %d bytes", got, largeAnswerSize())
				if got >= int64(largeAnswerSize()) {
					t.Errorf("the keyed non-reader got its whole answer, %d bytes, after 8 s of not reading: it was not cut off", got)
				}
			}
			if n := queryInt(t, db.sqlDB(t), `SELECT count(*) FROM idempotency_keys`); n != 0 {
				t.Errorf("%d keys recorded or held for queries, want none", n)
			}

			again, err := trySend(http.MethodPost, p.base+"/api/graphql", large, append([]string{"Content-Type", "application/json"}, keyed("large-0")...)...)
			if err != nil || again.status != http.StatusOK || len(again.body) != largeAnswerSize() || again.header.Get("Idempotent-Replayed") != "" {
				t.Errorf("a retry under a key of the eight: %v, %d, %d bytes, replayed %q; want a fresh 200 of %d bytes",
					err, again.status, len(again.body), again.header.Get("Idempotent-Replayed"), largeAnswerSize())
			}
		})
	}
}
