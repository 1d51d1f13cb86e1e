package graphqlhttp_test

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/internal/loopback"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// sendSlow sends query to the server at addr from the address from, and
// never reads the answer.
func sendSlow(t *testing.T, from, addr, query string) *loopback.NonReader {
	t.Helper()
	return loopback.Send(t, from, addr, http.MethodPost, "/", jsonBody(query, "", ""))
}

// getFrom sends query from the address from, reading the whole answer.
func getFrom(t *testing.T, from, url, query string) (int, string) {
	t.Helper()
	client := loopback.Client(from, 20*time.Second)
	defer client.CloseIdleConnections()
	resp, err := client.Post(url, "application/json", strings.NewReader(jsonBody(query, "", "")))
	if err != nil {
		t.Fatalf("query from %s: %v", from, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the answer from %s: %v", from, err)
	}
	return resp.StatusCode, string(b)
}

// bigQuery answers {"data":{"blob":"xxx…"}} with 6,000,000 x: more than
// the socket buffers of a client that does not read take, so its write
// blocks.
const (
	bigQuery  = "{ blob(size: 6000000) }"
	bigAnswer = len(`{"data":{"blob":""}}`) + 6000000
)

// TestBudgetSharesShrinkWhileWritten: three clients that never read their
// large answers hold only the bytes of those answers, not the share of
// MaxResponseBytes their executions had: a fourth client's large query
// finds room at once. The first client's next large query waits for its
// own answer (one large share per client) and is refused.
func TestBudgetSharesShrinkWhileWritten(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: clients that stop reading, over real connections, waited out in real time")
	s := newBudgetSchema()
	// 10 MiB of first shares; 30 MiB for large answers: three shares of
	// 8 MiB leave no room for a fourth, three answers of 6 MB do.
	h := s.handler(t, graphqlhttp.Config{MaxResponseBytes: 8 << 20, ResponseBudget: 40 << 20,
		ResponseBudgetWait: 2 * time.Second, StallTimeout: -1})
	srv := newServer(t, h)
	addr := strings.TrimPrefix(srv.URL, "http://")
	for i, from := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"} {
		resp := sendSlow(t, from, addr, bigQuery).Head(t)
		if resp.StatusCode != http.StatusOK || resp.ContentLength != int64(bigAnswer) {
			t.Fatalf("non-reader %d: %d, Content-Length %d; want 200, %d", i, resp.StatusCode, resp.ContentLength, bigAnswer)
		}
	}
	// Their handlers are writing; the fourth client's query would wait
	// in vain had they kept 8 MiB each.
	start := time.Now()
	status, body := getFrom(t, "127.0.0.5", srv.URL, bigQuery)
	if status != http.StatusOK || len(body) != bigAnswer {
		t.Errorf("a fourth client's large query: %d, %d bytes %.80s; want 200 and %d bytes", status, len(body), body, bigAnswer)
	}
	t.Logf("answered in %v", time.Since(start).Round(time.Millisecond))
	status, body = getFrom(t, "127.0.0.2", srv.URL, bigQuery)
	if status != http.StatusServiceUnavailable || body != busyBody {
		t.Errorf("the first non-reader's second large query: %d %.80s; want 503 %s", status, body, busyBody)
	}
	status, body = getFrom(t, "127.0.0.2", srv.URL, "{ blob(size: 10) }")
	if status != http.StatusOK || body != `{"data":{"blob":"xxxxxxxxxx"}}` {
		t.Errorf("the first non-reader's small query: %d %.80s; want 200", status, body)
	}
}

// TestStallTimeout: a client that stops reading a large answer is cut off
// after StallTimeout, and its share of the budget is back: its next large
// query is served. With the watch off, the answer waits for it whole.
func TestStallTimeout(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: clients that stop reading, over real connections, waited out in real time")
	for _, c := range []struct {
		stall time.Duration
		cut   bool
	}{
		// 1s, not less: the same client's next large query is read by
		// this process, which a loaded CI host (race detector, packages
		// tested in parallel) starved for over 200ms once, and another
		// process of the suite for over 1s (tools/soak's slowStall).
		{stall: time.Second, cut: true},
		{stall: -1},
	} {
		t.Run(fmt.Sprint("StallTimeout=", c.stall), func(t *testing.T) {
			s := newBudgetSchema()
			logs := &logbuf.Buffer{}
			h := s.handler(t, graphqlhttp.Config{StallTimeout: c.stall, ResponseBudgetWait: 2 * time.Second,
				Presenter: apierror.Presenter{Logger: logbuf.Logger(logs)}})
			srv := newServer(t, h)
			slow := sendSlow(t, "127.0.0.2", strings.TrimPrefix(srv.URL, "http://"), bigQuery)
			resp := slow.Head(t)
			if resp.StatusCode != http.StatusOK || resp.ContentLength != int64(bigAnswer) {
				t.Fatalf("the slow reader's answer: %d, Content-Length %d", resp.StatusCode, resp.ContentLength)
			}
			time.Sleep(max(5*c.stall, time.Second)) // not reading, for five stall timeouts
			got := slow.Rest(t, resp)
			if c.cut && got >= int64(bigAnswer)-4096 {
				t.Errorf("the slow reader got %d bytes of %d: it was not cut off", got, bigAnswer)
			}
			if !c.cut && got != resp.ContentLength {
				t.Errorf("with no stall timeout, the slow reader got %d bytes of %d", got, resp.ContentLength)
			}
			status, body := getFrom(t, "127.0.0.2", srv.URL, bigQuery)
			if status != http.StatusOK || len(body) != bigAnswer {
				t.Errorf("the same client's next large query: %d, %d bytes %.80s", status, len(body), body)
			}
			// The cut is logged once, at info, with the answer's size; a
			// whole answer is not logged.
			lines := logLines(t, logs, "graphql: the client did not take its answer")
			switch {
			case c.cut && (len(lines) != 1 || lines[0]["level"] != "info" || lines[0]["bytes"] != float64(bigAnswer)):
				t.Errorf("the cut was logged as %v, want one info line with bytes %d:\n%s", lines, bigAnswer, logs.String())
			case !c.cut && len(lines) != 0:
				t.Errorf("whole answers were logged as not taken:\n%s", logs.String())
			}
			t.Logf("the slow reader got %d of %s bytes", got, strconv.Itoa(bigAnswer))
		})
	}
}
