package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds of a slow client's request.
const (
	// slowHold is the longest a slow client waits for the server to let go
	// of one request: past it the request counts as held.
	slowHold = time.Minute
	// probeEvery is how often a client that waits for the server to close
	// its connection sends it a byte (see holdUnread).
	probeEvery = 100 * time.Millisecond
	// drainTimeout bounds reading what a connection the server closed
	// still holds.
	drainTimeout = 2 * time.Second
)

// slowKind is what a slow client asks for and how it reads the answer.
type slowKind int

const (
	nonReaderGraphQL slowKind = iota // the large GraphQL query, never read
	nonReaderList                    // a large page of the list, never read
	trickleGraphQL                   // the large GraphQL query, read at the trickle rate
	trickleList                      // a large page of the list, read at the trickle rate
	slowOrdinary                     // small answers, read at the trickle rate
	slowKinds                        // the number of kinds
)

func (k slowKind) String() string {
	return [...]string{
		"never reads: GraphQL, 249 × post(id) { body }",
		"never reads: GET /api/articles?per_page=100, large articles",
		"reads at the trickle rate: GraphQL as above",
		"reads at the trickle rate: the large page of the list",
		"reads at the trickle rate: ordinary answers",
	}[k]
}

// slowKindOf is the kind of the i-th non-reader (nonReader) or the i-th
// slow reader: non-readers alternate between GraphQL and the list, slow
// readers go through the large GraphQL query, the large page and the
// ordinary requests.
func slowKindOf(i int, nonReader bool) slowKind {
	if nonReader {
		return nonReaderGraphQL + slowKind(i%2)
	}
	return trickleGraphQL + slowKind(i%3)
}

// slowEnd is how one slow request ended.
type slowEnd int

const (
	endWhole   slowEnd = iota // the whole answer arrived
	endCut                    // the server closed the connection before the whole answer
	endHeld                   // the server still held the request after slowHold
	endFailed                 // no connection, or the request could not be sent
	endStopped                // the load ended first: not counted
	slowEnds
)

// slowOutcome is what one slow request got.
type slowOutcome struct {
	end    slowEnd
	status int           // 0: no status line arrived
	got    int64         // bytes of the body received
	length int64         // Content-Length, or -1
	after  time.Duration // from the request sent to the end (the close, for endCut)
	retry  bool          // the answer carried Retry-After
	err    string        // why, for endFailed
}

// slowClient is one slow or non-reading client. It dials from an
// address of its own, so that the server counts it as another client.
type slowClient struct {
	kind    slowKind
	local   *net.TCPAddr
	server  string // host:port
	trickle int    // bytes per second it reads
	large   *largeData
	small   *client // for the list's total, from the same address
	ord     int     // ordinary requests sent, to alternate them
	tally   slowTally
}

// newSlowClients makes the slow clients of cfg, on 127.0.0.2 on.
func newSlowClients(cfg config, d *largeData) []*slowClient {
	host := strings.TrimPrefix(cfg.base, "http://")
	var clients []*slowClient
	add := func(kind slowKind) {
		local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+len(clients)))}
		clients = append(clients, &slowClient{kind: kind, local: local, server: host, trickle: cfg.slow.trickle,
			large: d, small: newClientAt(cfg.base, cfg.timeout, 1, local)})
	}
	for i := range cfg.slow.nonReaders {
		add(slowKindOf(i, true))
	}
	for i := range cfg.slow.slowReaders {
		add(slowKindOf(i, false))
	}
	return clients
}

// runSlow runs clients until ctx ends, and returns what they got. Each
// sends one request after another; after an answer with Retry-After it
// waits a second.
func runSlow(ctx context.Context, clients []*slowClient) *slowReport {
	var wg sync.WaitGroup
	for _, sc := range clients {
		wg.Go(func() {
			defer sc.small.closeIdle()
			for ctx.Err() == nil {
				out := sc.once(ctx)
				sc.tally.add(out)
				pause := 50 * time.Millisecond
				if out.retry {
					pause = time.Second
				}
				sleep(ctx, pause)
			}
		})
	}
	wg.Wait()
	rep := &slowReport{}
	for _, sc := range clients {
		rep.kinds[sc.kind].clients++
		rep.kinds[sc.kind].merge(&sc.tally)
	}
	return rep
}

// once sends one request and waits until the server lets go of it. A
// request the end of the load cut short, however far it got, is stopped.
func (sc *slowClient) once(ctx context.Context) slowOutcome {
	out := sc.attempt(ctx)
	if ctx.Err() != nil {
		out.end = endStopped
	}
	return out
}

// attempt sends one request and waits until the server lets go of it.
func (sc *slowClient) attempt(ctx context.Context) slowOutcome {
	req, err := sc.request()
	if err != nil {
		return slowOutcome{end: endFailed, err: err.Error()}
	}
	dialer := &net.Dialer{LocalAddr: sc.local, Timeout: 10 * time.Second}
	conn, err := dialer.DialContext(ctx, "tcp", sc.server)
	if err != nil {
		return slowOutcome{end: endFailed, err: err.Error()}
	}
	defer conn.Close()
	// The end of the load ends the request at once.
	defer context.AfterFunc(ctx, func() { conn.Close() })()
	start := time.Now()
	if _, err := conn.Write(req); err != nil {
		return slowOutcome{end: endFailed, err: "sending the request: " + err.Error()}
	}
	switch sc.kind {
	case nonReaderGraphQL, nonReaderList:
		return holdUnread(ctx, conn, start)
	default:
		return sc.readSlowly(ctx, conn, start, sc.kind != slowOrdinary)
	}
}

// request is the raw HTTP/1.1 request of the client's kind, with
// Connection: close.
func (sc *slowClient) request() ([]byte, error) {
	switch sc.kind {
	case nonReaderGraphQL, trickleGraphQL:
		return rawRequest(http.MethodPost, "/api/graphql", sc.server,
			graphQLBody(sc.large.graphQLQuery(), nil)), nil
	case nonReaderList, trickleList:
		total, err := listTotal(sc.small)
		if err != nil {
			return nil, err
		}
		return rawRequest(http.MethodGet, listArticlesPath(sc.large.largePageOf(total), largePage), sc.server, nil), nil
	}
	sc.ord++
	if sc.ord%2 == 0 {
		return rawRequest(http.MethodGet, listArticlesPath(1, 15), sc.server, nil), nil
	}
	return rawRequest(http.MethodPost, "/api/graphql", sc.server,
		graphQLBody(`{ posts(first: 10) { id title createdAt author { name } } }`, nil)), nil
}

// rawRequest writes an HTTP/1.1 request; a body is JSON.
func rawRequest(method, path, host string, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: soak-slow-client\r\nConnection: close\r\n", method, path, host)
	if body != nil {
		fmt.Fprintf(&b, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// holdUnread waits, reading nothing, until the server closes conn, then
// reads what conn holds. A server that closes a connection whose client
// does not read sends its end after the data its client never takes: the
// client cannot see it. So the client sends a byte every probeEvery,
// which the server does not read (after the first): once the server
// closes the connection, its system answers with a reset, the next byte
// cannot be sent, and that moment, to within probeEvery, is when the
// server let go. What the reset discards is what the server had written
// that the client's socket had not yet taken.
func holdUnread(ctx context.Context, conn net.Conn, start time.Time) slowOutcome {
	closed, after := probeUntilClosed(ctx, conn, start, nil)
	out := drain(conn)
	out.after = after
	switch {
	case !closed:
		out.end = endHeld
	case out.end != endWhole:
		out.end = endCut
	}
	return out
}

// probeUntilClosed sends conn a byte every probeEvery until one cannot be
// sent, ctx ends, slowHold has passed since start, or done is closed. It
// reports whether the server closed the connection, and when, counted
// from start.
func probeUntilClosed(ctx context.Context, conn net.Conn, start time.Time, done <-chan struct{}) (bool, time.Duration) {
	tick := time.NewTicker(probeEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, time.Since(start)
		case <-done:
			return false, time.Since(start)
		case <-tick.C:
		}
		if _, err := conn.Write([]byte{'\n'}); err != nil {
			return ctx.Err() == nil, time.Since(start)
		}
		if time.Since(start) >= slowHold {
			return false, slowHold
		}
	}
}

// drain reads the answer conn holds, as fast as it comes, for at most
// drainTimeout.
func drain(conn net.Conn) slowOutcome {
	_ = conn.SetReadDeadline(time.Now().Add(drainTimeout))
	return readAnswer(bufio.NewReader(conn))
}

// readAnswer reads an answer from r: its status, and its body to the end.
// end is endWhole when the whole body arrived, else endCut.
func readAnswer(r *bufio.Reader) slowOutcome {
	out := slowOutcome{end: endCut, length: -1}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return out
	}
	defer resp.Body.Close()
	out.status, out.length = resp.StatusCode, resp.ContentLength
	out.retry = resp.Header.Get("Retry-After") != ""
	out.got, err = io.Copy(io.Discard, resp.Body)
	if err == nil {
		out.end = endWhole
	}
	return out
}

// readSlowly reads the answer at the client's trickle rate. With probe
// (large answers), it also sends bytes as holdUnread does, and once the
// server has closed the connection it reads the rest at once.
func (sc *slowClient) readSlowly(ctx context.Context, conn net.Conn, start time.Time, probe bool) slowOutcome {
	_ = conn.SetReadDeadline(start.Add(slowHold))
	tr := &trickleReader{r: conn, rate: sc.trickle, start: time.Now()}
	var closed atomic.Bool
	var closedAfter atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	if probe {
		wg.Go(func() {
			if ok, after := probeUntilClosed(ctx, conn, start, done); ok {
				closed.Store(true)
				closedAfter.Store(int64(after))
				tr.fast.Store(true)
				_ = conn.SetReadDeadline(time.Now().Add(drainTimeout))
			}
		})
	}
	out := readAnswer(bufio.NewReaderSize(tr, 4096))
	close(done)
	wg.Wait()
	out.after = time.Since(start)
	switch {
	case out.end == endWhole:
	case closed.Load():
		out.after = time.Duration(closedAfter.Load())
	case !probe && time.Since(start) < slowHold:
		// The server ended the connection before the whole answer.
	default:
		out.end = endHeld
	}
	return out
}

// trickleReader reads from r at most rate bytes a second, in parts of a
// tenth of it, until fast is set.
type trickleReader struct {
	r     io.Reader
	rate  int
	start time.Time
	n     int64
	fast  atomic.Bool
}

func (t *trickleReader) Read(p []byte) (int, error) {
	if !t.fast.Load() {
		part := max(t.rate/10, 1)
		if len(p) > part {
			p = p[:part]
		}
		due := t.start.Add(time.Duration(float64(t.n+int64(len(p))) / float64(t.rate) * float64(time.Second)))
		if wait := time.Until(due); wait > 0 {
			time.Sleep(wait)
		}
	}
	n, err := t.r.Read(p)
	t.n += int64(n)
	return n, err
}
