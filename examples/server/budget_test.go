package main

// The GraphQL response budget through the real binary: clients that never read their large answers hold nothing other
// clients need, and one client cannot take more than its own part.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/loopback"
)

// The large answer of the issue: a 439-byte request whose answer is
// 12.6 MB, 14 aliases over 50 posts of 18,000-byte bodies.
const (
	largePosts   = 50
	largeBody    = 18000
	largeAliases = 14
)

// largeRequest is the JSON body of that request.
func largeRequest() string {
	var b strings.Builder
	b.WriteString(`{"query":"{`)
	for i := range largeAliases {
		fmt.Fprintf(&b, " a%d: posts(first: %d) { body }", i, largePosts)
	}
	b.WriteString(` }"}`)
	return b.String()
}

// largeAnswerSize is the length of its answer.
func largeAnswerSize() int {
	post := len(`{"body":""}`) + largeBody
	alias := len(`"a0":[]`) + largePosts*post + largePosts - 1
	return len(`{"data":{}}`) + largeAliases*alias + largeAliases - 1 + (largeAliases - 10) // aliases a10…a13 have two digits
}

// createLargePosts writes the posts of the large answer through the
// GraphQL API.
func createLargePosts(t *testing.T, base, token string) {
	t.Helper()
	vars, _ := json.Marshal(map[string]string{"b": strings.Repeat("y", largeBody)})
	body := `{"query":"mutation($b: String!) { createPost(input: {title: \"Large\", body: $b}) { id } }","variables":` + string(vars) + `}`
	for i := range largePosts {
		r := send(t, http.MethodPost, base+"/api/graphql", body, "Content-Type", "application/json", "Authorization", "Bearer "+token)
		if r.status != http.StatusOK || strings.Contains(r.body, `"errors"`) {
			t.Fatalf("creating large post %d: %d %s", i, r.status, r.body)
		}
	}
}

// clientFrom returns an HTTP client whose connections come from the
// loopback address from: each 127.0.0.x is a client of its own to the
// server's response budget.
func clientFrom(from string) *http.Client { return loopback.Client(from, faultTimeout) }

// postGraphQL sends a GraphQL request body with c and reads the whole
// answer.
func postGraphQL(c *http.Client, base, body string) (response, error) {
	resp, err := c.Post(base+"/api/graphql", "application/json", strings.NewReader(body))
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}, err
}

// sendNonReader sends body to the GraphQL endpoint from the loopback
// address from, and reads nothing.
func sendNonReader(t *testing.T, from, addr, body string) *loopback.NonReader {
	t.Helper()
	return loopback.Send(t, from, addr, http.MethodPost, "/api/graphql", body)
}

// stallTimeout is the server's stall timeout (GRAPHQL_STALL_TIMEOUT
// unset), and cutMargin what a test leaves it besides before it looks
// for a cut: a non-reader whose head came at t is cut off by t +
// stallTimeout + cutMargin.
//
// The tests that wait out the whole stall timeout (TestBudgetSlowReaders,
// TestIdempotencyKeyedNonReaders, TestListNonReaders), and
// TestFaultSQLiteLocked, which waits out SQLite's busy timeout twice, run
// in parallel, each database in a subtest of its own: each subtest has its
// own server process, database, port and temporary folder, and spends most
// of its 9 to 14 s asleep. TestRevocationBeatsRotation, whose SQLite half
// works for 13 s in the test's own process, runs beside them. go test runs
// GOMAXPROCS of them at a time (-parallel), after the package's other
// tests; the timeouts they prove stay as they are.
const (
	stallTimeout = 5 * time.Second
	cutMargin    = 2 * time.Second
)

// TestBudgetSlowReaders: five connections of one client send the 12.6 MB
// query and never read. One of them executes and holds its answer; the
// client's four others wait for its own part of the budget and get 503.
// Meanwhile 239 small queries and a large one from other clients are all
// served at once. The connection that does not read is cut off once it has
// taken nothing for the stall timeout (5 s), and its client's next large
// query is served whole.
//
// Before the budget had lanes, per-client parts and shrinking shares, four
// such connections held 16 MiB each, the whole budget, until the 30 s
// write timeout, and other clients' small queries got 503 after waiting.
func TestBudgetSlowReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("some 8 s a database")
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
			t.Logf("the large request: %d bytes; its answer: %d bytes", len(large), largeAnswerSize())

			// Five connections from 127.0.0.9 that do not read.
			var conns []*loopback.NonReader
			for range 5 {
				conns = append(conns, sendNonReader(t, "127.0.0.9", p.addr, large))
			}

			// Meanwhile, other clients.
			smallWorst, smallFailed := smallQueries(t, p.base, 239)
			other, err := postGraphQL(clientFrom("127.0.0.6"), p.base, large)
			if err != nil || other.status != http.StatusOK || len(other.body) != largeAnswerSize() {
				t.Errorf("another client's large query: %v, %d, %d bytes %.100s; want 200 and %d bytes",
					err, other.status, len(other.body), other.body, largeAnswerSize())
			}
			t.Logf("239 small queries from other clients: slowest %v, %d failed", smallWorst.Round(time.Millisecond), smallFailed)

			// The non-readers: one answer under way, four refused; the
			// heads came by now.
			holder, holderHead, refused := sortNonReaders(t, conns, largeAnswerSize(), busyAnswer)
			headsAt := time.Now()
			if holder == nil || refused != 4 {
				t.Fatalf("of five non-readers of one client, %d were refused and %v got an answer; want one answer and four 503",
					refused, holder != nil)
			}

			// Once the one under way has taken nothing for the stall
			// timeout it is cut off: reading now finds what the socket
			// buffers held, then the end of the connection.
			time.Sleep(time.Until(headsAt.Add(stallTimeout + cutMargin)))
			got := holder.Rest(t, holderHead) + 200 // sortNonReaders read the first 200
			t.Logf("the non-reader got %d of %d bytes", got, largeAnswerSize())
			if got >= int64(largeAnswerSize()) {
				t.Errorf("the non-reader got its whole answer, %d bytes: it was not cut off", got)
			}

			// Its client's next large query is served: its share is back.
			again, err := postGraphQL(clientFrom("127.0.0.9"), p.base, large)
			if err != nil || again.status != http.StatusOK || len(again.body) != largeAnswerSize() {
				t.Errorf("the non-readers' client's next large query: %v, %d, %d bytes %.100s", err, again.status, len(again.body), again.body)
			}
		})
	}
}

// busyAnswer is the 503 of a request the response budget had no room for.
const busyAnswer = `{"errors":[{"message":"The server is busy; try again shortly.","extensions":{"code":"SERVICE_UNAVAILABLE"}}]}`

// smallQueries sends n small queries from eight clients, 127.0.0.2 to
// 127.0.0.5, two connections each, and requires every answer to be a 200
// without errors that came in less than the budget's wait (2 s): none
// waited for room. It stops at the first failure, so that it ends soon
// where the budget is full. It returns the slowest answer's time and how
// many failed.
func smallQueries(t *testing.T, base string, n int) (slowest time.Duration, failed int) {
	t.Helper()
	body := `{"query":"{ posts(first: 5) { id title author { name } } }"}`
	jobs := make(chan int, n)
	for i := range n {
		jobs <- i
	}
	close(jobs)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range 8 {
		c := clientFrom("127.0.0." + strconv.Itoa(2+w%4))
		wg.Go(func() {
			defer c.CloseIdleConnections()
			for range jobs {
				if ctx.Err() != nil {
					return
				}
				begin := time.Now()
				r, err := postGraphQL(c, base, body)
				took := time.Since(begin)
				mu.Lock()
				slowest = max(slowest, took)
				if err != nil || r.status != http.StatusOK || !strings.HasPrefix(r.body, `{"data":{"posts":[`) || strings.Contains(r.body, `"errors"`) ||
					took >= 2*time.Second {
					failed++
					t.Errorf("a small query from another client: %v, %d %.120s after %v; want 200 without waiting", err, r.status, r.body, took)
					stop()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return slowest, failed
}
