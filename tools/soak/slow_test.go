package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/testenv"
)

// slowStall is the stall timeout of TestSlowClients' servers. The normal
// clients, in this test's process, must take each 64 KiB of a large answer
// within it: at 1 s one of them, reading a 12 MB page of the list as fast
// as it could, was cut off on a CI host running the packages' tests in
// parallel under the race detector (load 4 on two cores).
const slowStall = 2 * time.Second

// TestSlowClients runs a short comparison against a fresh server on each
// database, with a stall timeout of slowStall: the normal clients get no 5xx,
// no unexpected answer and lose nothing in either phase, the first
// phase's writes are deleted, and the slow clients' large answers are cut
// off by the stall timeout (long before the server's 30 s write timeout)
// while their ordinary answers arrive whole.
func TestSlowClients(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: seeds 36 MB and runs two phases of 5 s on each database")
	for _, db := range databases {
		t.Run(db.name, func(t *testing.T) {
			t.Parallel() // see databases
			dir := t.TempDir()
			// The server gives its free heap back after 1 s idle, so that
			// its resources come back within their margins soon after the
			// slow clients' large answers.
			srv := startServer(t, db.url(t, dir), dir, "GRAPHQL_STALL_TIMEOUT="+slowStall.String(), "MEMORY_IDLE_RELEASE=1s")
			// Each phase lasts 2.5 stall timeouts, so that the slow
			// clients' first large answers (built in up to a second) are
			// cut off within it.
			cfg := config{
				base: srv.base, duration: 5 * slowStall / 2, warmup: 500 * time.Millisecond, settle: 200 * time.Millisecond,
				concurrency: 4, logins: srv.logins, pid: srv.pid, timeout: 10 * time.Second, seed: 1, label: db.name,
				compare: true, slow: slowConfig{nonReaders: 2, slowReaders: 3, trickle: 4096},
			}
			cmp, err := compareSoak(context.Background(), cfg, t.Logf)
			if err != nil {
				t.Fatalf("compareSoak: %v", err)
			}
			summary := cmp.markdown()
			for _, phase := range []*result{cmp.without, cmp.with} {
				tot, v := phase.totals(), phase.check
				for _, c := range []struct {
					name string
					got  int
				}{
					{"5xx and INTERNAL_SERVER_ERROR", tot.internal + v.internal},
					{"unexpected answers", tot.unexpected + v.failed},
					{"transport errors", tot.transport},
					{"lost writes", v.lost()},
					{"duplicates", v.duplicates()},
					{"page disagreements", phase.pageDisagreements()},
				} {
					if c.got != 0 {
						t.Errorf("%s: %d, want 0", c.name, c.got)
					}
				}
				if !v.totalOK() || v.readBack == 0 || tot.requests < 100 || !phase.resourcesOK() {
					t.Errorf("list total ok %t, %d writes read back, %d requests, resources ok %t (after: %+v)",
						v.totalOK(), v.readBack, tot.requests, phase.resourcesOK(), phase.after)
				}
			}
			if cmp.cleanUp.deleted == 0 || cmp.cleanUp.failed > 0 {
				t.Errorf("deleting the first phase's writes: %d deleted, %d failed %v", cmp.cleanUp.deleted, cmp.cleanUp.failed, cmp.cleanUp.failures)
			}
			if cmp.without.slow != nil || cmp.with.slow == nil {
				t.Fatalf("slow clients without: %v, with: %v; want none, then some", cmp.without.slow, cmp.with.slow)
			}
			for kind := range slowKinds {
				checkSlowTally(t, kind, &cmp.with.slow.kinds[kind])
			}
			for _, want := range []string{"| never reads: GraphQL, 249 × post(id) { body } | 1 |",
				"| reads at the trickle rate: ordinary answers | 1 |", "| p99 with ≤ max(1.5 × without, without + 20 ms) |",
				"| **comparison** |"} {
				if !strings.Contains(summary, want) {
					t.Errorf("the summary lacks %q", want)
				}
			}
			if n := strings.Count(srv.stderr(), `"level":"error"`); n > 0 {
				t.Errorf("the server logged %d errors", n)
			}
			if t.Failed() {
				t.Logf("summary:\n%s", summary)
				t.Logf("the server's lines on answers not taken (cut off or abandoned):\n%s", linesWith(srv.stderr(), "did not take its answer"))
			}
		})
	}
}

// checkSlowTally checks what the slow clients of one kind got: large
// answers cut off within a few stall timeouts, having received
// part of the answer; ordinary answers whole.
func checkSlowTally(t *testing.T, kind slowKind, got *slowTally) {
	t.Helper()
	if got.clients != 1 || got.ends[endHeld] > 0 || got.ends[endFailed] > 0 {
		t.Errorf("%v: %d clients, %d requests held, %d failed %v; want 1, 0, 0", kind, got.clients,
			got.ends[endHeld], got.ends[endFailed], got.failures)
	}
	if kind == slowOrdinary {
		if got.ends[endWhole] == 0 || got.ends[endCut] > 0 || got.statuses[http.StatusOK] != got.requests() {
			t.Errorf("%v: %d whole, %d cut off, statuses %v; want whole 200s only", kind, got.ends[endWhole],
				got.ends[endCut], got.statuses)
		}
		return
	}
	if got.ends[endCut] == 0 || got.statuses[http.StatusOK] == 0 {
		t.Errorf("%v: %d cut off, statuses %v; want 200s cut off", kind, got.ends[endCut], got.statuses)
	}
	for i, after := range got.cutAfter {
		if after > 3*slowStall || got.gotCut[i] >= got.lengths[i] {
			t.Errorf("%v: cut off after %v with %d of %d bytes; want within %v, part of the answer", kind, after, 3*slowStall,
				got.gotCut[i], got.lengths[i])
		}
	}
}

// linesWith returns the lines of text that contain s.
func linesWith(text, s string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if strings.Contains(line, s) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestHoldUnread holds a connection to a server that writes 10 MB and
// gives up on a write that takes longer than 300 ms: the client sees the
// server close the connection through its probes, and reads the status
// and the part of the answer its socket took.
func TestHoldUnread(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	const length = 10_000_000
	served := make(chan time.Duration, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		if _, err := http.ReadRequest(bufio.NewReader(conn)); err != nil {
			return
		}
		start := time.Now()
		_, _ = io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n")
		part := make([]byte, 64<<10)
		for {
			_ = conn.SetWriteDeadline(time.Now().Add(300 * time.Millisecond))
			if _, err := conn.Write(part); err != nil {
				break
			}
		}
		served <- time.Since(start)
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := conn.Write(rawRequest(http.MethodGet, "/", ln.Addr().String(), nil)); err != nil {
		t.Fatal(err)
	}
	out := holdUnread(context.Background(), conn, start)
	gaveUp := <-served
	if out.end != endCut || out.status != http.StatusOK || out.length != length || out.got <= 0 || out.got >= length {
		t.Errorf("holdUnread: end %d, status %d, %d of %d bytes; want cut off (%d), 200, part of %d", out.end, out.status,
			out.got, out.length, endCut, length)
	}
	if out.after < gaveUp || out.after > gaveUp+2*time.Second {
		t.Errorf("holdUnread saw the close %v after the request; the server gave up after %v", out.after, gaveUp)
	}
}

func TestReadAnswer(t *testing.T) {
	for _, tt := range []struct {
		name, raw  string
		want       slowOutcome
		wantStatus int
	}{
		{name: "whole", raw: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
			want: slowOutcome{end: endWhole, status: 200, got: 5, length: 5}},
		{name: "cut", raw: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello",
			want: slowOutcome{end: endCut, status: 200, got: 5, length: 10}},
		{name: "busy", raw: "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 2\r\n\r\n{}",
			want: slowOutcome{end: endWhole, status: 503, got: 2, length: 2, retry: true}},
		{name: "no status", raw: "HTTP/1.1 2", want: slowOutcome{end: endCut, length: -1}},
	} {
		got := readAnswer(bufio.NewReader(strings.NewReader(tt.raw)))
		if got != tt.want {
			t.Errorf("%s: readAnswer = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestTrickleReader(t *testing.T) {
	const rate, n = 2000, 600
	tr := &trickleReader{r: strings.NewReader(strings.Repeat("x", 2*n)), rate: rate, start: time.Now()}
	buf := make([]byte, n)
	for read := 0; read < n; {
		k, err := tr.Read(buf[read:])
		if err != nil || k > rate/10 {
			t.Fatalf("Read: %d bytes, %v; want at most %d", k, err, rate/10)
		}
		read += k
	}
	// Reading 600 bytes at 2000 a second cannot take less than 300 ms
	// (the first part is due after 100 ms).
	if took := time.Since(tr.start); took < 300*time.Millisecond {
		t.Errorf("read %d bytes at %d a second in %v", n, rate, took)
	}
	tr.fast.Store(true)
	if k, err := tr.Read(buf); k != n || err != nil {
		t.Errorf("Read once fast: %d bytes, %v; want %d", k, err, n)
	}
}

// TestLargePage checks that the page a slow client asks for lies inside
// the large articles with 50 to spare on each side, wherever the list's
// total is.
func TestLargePage(t *testing.T) {
	d := &largeData{below: 517}
	for total := d.below + largeArticles + fillersAbove; total < 20_000; total++ {
		page := d.largePageOf(total)
		offset, start := (page-1)*largePage, total-d.below-largeArticles
		if offset < start+50 || offset+largePage > start+largeArticles-50 {
			t.Fatalf("total %d: page %d holds offsets %d to %d; the large articles are %d to %d", total, page,
				offset, offset+largePage-1, start, start+largeArticles-1)
		}
	}
	d.postIDs = []string{"7", "8"}
	q := d.graphQLQuery()
	if n := strings.Count(q, "post(id: "); n != largeAliases || len(q) > 20_000 ||
		!strings.Contains(q, `p0: post(id: "7") { body }`) || !strings.Contains(q, `p248: post(id: "7") { body }`) {
		t.Errorf("the large query has %d post fields and %d bytes: %.80s…", n, len(q), q)
	}
}

func TestP99Bound(t *testing.T) {
	for _, tt := range []struct{ without, want time.Duration }{
		{10 * time.Millisecond, 30 * time.Millisecond},
		{40 * time.Millisecond, 60 * time.Millisecond},
		{100 * time.Millisecond, 150 * time.Millisecond},
	} {
		if got := p99Bound(tt.without); got != tt.want {
			t.Errorf("p99Bound(%v) = %v, want %v", tt.without, got, tt.want)
		}
	}
}
