package main

// Clients that never read their articles list hold nothing other clients
// need, through the real binary.

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/loopback"
)

// The scale of the issue: GET /api/articles?per_page=30 over large
// articles, a page of some 12 MB.
const (
	largeArticles    = 32
	largeArticleBody = 400_000
	smallArticles    = 5
	largeList        = "/api/articles?per_page=30"
	smallList        = "/api/articles?per_page=5&page=8" // the two oldest, small articles
)

// listBusyBody is the 503 of a list the response budget has no room for.
const listBusyBody = `{"message":"The server is busy; try again shortly."}`

// otherTimeout bounds each request of the other clients: a request that
// takes longer waits on the non-readers.
const otherTimeout = 5 * time.Second

// publishArticles creates, through the API, smallArticles small
// articles, then largeArticles of largeArticleBody bytes, and returns
// the id of the first small one and of the first large one.
func publishArticles(t *testing.T, base, token string) (small, large int64) {
	t.Helper()
	create := func(title, body string) int64 {
		t.Helper()
		r := send(t, http.MethodPost, base+"/api/articles", fmt.Sprintf(`{"title":%q,"body":%q,"published":true}`, title, body),
			"Content-Type", "application/json", "Authorization", "Bearer "+token)
		var got struct{ Data struct{ ID int64 } }
		if r.status != http.StatusCreated {
			t.Fatalf("creating %q: %d %.200s", title, r.status, r.body)
		}
		r.decode(t, &got)
		return got.Data.ID
	}
	for i := range smallArticles {
		id := create(fmt.Sprint("Small ", i), "A few words.")
		if i == 0 {
			small = id
		}
	}
	for i := range largeArticles {
		id := create(fmt.Sprint("Large ", i), strings.Repeat(strconv.Itoa(i%10), largeArticleBody))
		if i == 0 {
			large = id
		}
	}
	return small, large
}

// getBody sends GET path with c and reads the whole answer.
func getBody(c *http.Client, url string) (response, time.Duration, error) {
	start := time.Now()
	resp, err := c.Get(url)
	if err != nil {
		return response{}, time.Since(start), err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}, time.Since(start), err
}

// TestListNonReaders: four connections of one client send GET
// /api/articles?per_page=30 over 32 articles of 400 KB (a 12 MB answer)
// and never read: one of them holds its answer, within the client's part
// of the list budget, and its three others are refused at once with a 503.
// Meanwhile other clients' /healthz, shows of one article, small lists and
// a large list are all answered at once: the lists were read whole, and
// their database connections given back, before any byte went out. The
// one that does not read is cut off after the stall timeout (5 s), and its
// client is served again.
//
// Before, the lists were streamed from open rows: the four held four
// database connections, all of PostgreSQL's default pool and of SQLite's
// read pool, until the 30 s write timeout, so /healthz answered 503 on
// PostgreSQL and shows waited on SQLite.
func TestListNonReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("some 10 s a database")
	}
	t.Parallel() // it waits out the stall timeout: see stallTimeout
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			db := kind.open(t)
			_, token := addUser(t, db, "Ada", "ada's password")
			p := db.start(t)
			small, large := publishArticles(t, p.base, token)
			reference, _, err := getBody(clientFrom("127.0.0.7"), p.base+largeList)
			if err != nil || reference.status != http.StatusOK || len(reference.body) < 30*largeArticleBody {
				t.Fatalf("the large list, read at once: %v, %d, %d bytes", err, reference.status, len(reference.body))
			}
			t.Logf("GET %s answers %d bytes", largeList, len(reference.body))

			var conns []*loopback.NonReader
			for range 4 {
				conns = append(conns, loopback.Send(t, "127.0.0.9", p.addr, http.MethodGet, largeList, ""))
			}
			// Once a head has come, its list is under way: one answer is
			// being written, three are refused.
			holder, holderHead, refused := sortNonReaders(t, conns, len(reference.body), listBusyBody)
			headsAt := time.Now()

			// Meanwhile, other clients, each request within otherTimeout.
			n, worst, failed := otherReads(t, p.base, small, large)
			t.Logf("other clients' requests while four connections did not read: %d, slowest %v, %d failed", n, worst.Round(time.Millisecond), failed)
			c := clientFrom("127.0.0.6")
			c.Timeout = otherTimeout
			other, took, err := getBody(c, p.base+largeList)
			if err != nil || other.status != http.StatusOK || other.body != reference.body {
				t.Errorf("another client's large list: %v, %d, %d bytes after %v; want 200 and the page", err, other.status, len(other.body), took)
			}
			if holder == nil || refused != 3 {
				t.Fatalf("of four non-readers of one client, %d were refused and %v got an answer; want one answer and three 503",
					refused, holder != nil)
			}

			// Taking nothing for the stall timeout, the one under way is
			// cut off.
			time.Sleep(time.Until(headsAt.Add(stallTimeout + cutMargin)))
			got := holder.Rest(t, holderHead) + 200 // sortNonReaders read the first 200
			t.Logf("the non-reader got %d of %d bytes", got, len(reference.body))
			if got >= int64(len(reference.body)) {
				t.Errorf("the non-reader got its whole answer, %d bytes: it was not cut off", got)
			}
			again, _, err := getBody(clientFrom("127.0.0.9"), p.base+largeList)
			if err != nil || again.status != http.StatusOK || again.body != reference.body {
				t.Errorf("the non-readers' client's next large list: %v, %d, %d bytes", err, again.status, len(again.body))
			}
		})
	}
}

// otherReads sends, from four other clients (127.0.0.2 to 127.0.0.5),
// rounds of GET /healthz, a show of a small and of a large article and a
// small list, for two seconds, and requires each to be answered 200 within
// otherTimeout. It stops at the first failure, and returns how many were
// sent, the slowest answer's time and how many failed.
func otherReads(t *testing.T, base string, small, large int64) (sent int, slowest time.Duration, failed int) {
	t.Helper()
	checks := []struct {
		path string
		ok   func(body string) bool
	}{
		{"/healthz", func(b string) bool { return b == `{"status":"ok"}` }},
		{"/api/articles/" + strconv.FormatInt(small, 10), func(b string) bool { return strings.Contains(b, `"title":"Small 0"`) }},
		{"/api/articles/" + strconv.FormatInt(large, 10), func(b string) bool { return len(b) > largeArticleBody }},
		{smallList, func(b string) bool {
			return strings.Contains(b, `"title":"Small 1"`) && strings.Contains(b, `"title":"Small 0"`) && strings.Contains(b, `"total":37}`)
		}},
	}
	for end, round := time.Now().Add(2*time.Second), 0; time.Now().Before(end); round++ {
		c := clientFrom("127.0.0." + strconv.Itoa(2+round%4))
		c.Timeout = otherTimeout
		for _, check := range checks {
			r, took, err := getBody(c, base+check.path)
			sent++
			slowest = max(slowest, took)
			if err != nil || r.status != http.StatusOK || !check.ok(r.body) {
				failed++
				t.Errorf("GET %s from another client: %v, %d %.120s after %v; want 200 at once", check.path, err, r.status, r.body, took.Round(time.Millisecond))
				return sent, slowest, failed
			}
		}
		c.CloseIdleConnections()
	}
	return sent, slowest, failed
}

// sortNonReaders reads the head of the answer of each of conns and
// returns the first answered 200 with a Content-Length of size, with its
// head, and how many were refused with a 503 whose body is busy, with
// Retry-After: 1. Any other answer fails the test.
func sortNonReaders(t *testing.T, conns []*loopback.NonReader, size int, busy string) (holder *loopback.NonReader, head *http.Response, refused int) {
	t.Helper()
	for _, c := range conns {
		resp := c.Head(t)
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		switch {
		case resp.StatusCode == http.StatusOK && resp.ContentLength == int64(size) && holder == nil:
			holder, head = c, resp
		case resp.StatusCode == http.StatusServiceUnavailable && string(b) == busy && resp.Header.Get("Retry-After") == "1":
			refused++
		default:
			t.Errorf("a non-reader's answer: %d, Content-Length %d, %.100s", resp.StatusCode, resp.ContentLength, b)
		}
	}
	return holder, head, refused
}
