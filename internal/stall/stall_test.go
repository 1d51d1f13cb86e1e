package stall_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/stall"
)

// answer is what the test servers send: larger than what the loopback
// connection's buffers hold (a few MB), so that a client that does not
// read blocks the writer.
var answer = bytes.Repeat([]byte("0123456789abcdef"), 12<<20/16)

// served is how a handler's Write ended.
type served struct {
	err  error
	took time.Duration
}

// serve starts a server whose handler writes answer, in three parts,
// through stall.Write with timeout, wrapping the writer with wrap when it
// is set, and reports how the write ended.
func serve(t *testing.T, timeout time.Duration, wrap func(http.ResponseWriter) http.ResponseWriter) (addr string, done <-chan served) {
	t.Helper()
	ch := make(chan served, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if wrap != nil {
			w = wrap(w)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		w.WriteHeader(http.StatusOK)
		start := time.Now()
		third := len(answer) / 3
		err := stall.Write(w, timeout, answer[:third], answer[third:2*third], answer[2*third:])
		ch <- served{err: err, took: time.Since(start)}
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), ch
}

// get sends a GET on a raw connection and returns the connection and the
// head of the answer, reading no more of it.
func get(t *testing.T, addr string) (net.Conn, *bufio.Reader, *http.Response) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	br := bufio.NewReaderSize(conn, 4096)
	if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("reading the head: %v", err)
	}
	if resp.StatusCode != http.StatusOK || resp.ContentLength != int64(len(answer)) {
		t.Fatalf("head: %d, Content-Length %d", resp.StatusCode, resp.ContentLength)
	}
	return conn, br, resp
}

// readAll reads the body to its end or until the server cuts it off, and
// returns how many bytes came.
func readAll(t *testing.T, conn net.Conn, resp *http.Response) int64 {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		t.Fatalf("the answer neither ended nor was cut off within 10s (%d bytes)", n)
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, syscall.ECONNRESET):
		t.Fatalf("reading the answer: %v", err)
	}
	return n
}

// wait returns how the handler's write ended, failing after 10 s.
func wait(t *testing.T, done <-chan served) served {
	t.Helper()
	select {
	case s := <-done:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's write did not end within 10s")
		return served{}
	}
}

// TestWriteCutsStalledClient: a client that takes nothing for the timeout
// is cut off: the handler's write ends with an error soon after the
// timeout, while the client still reads nothing, and the client then
// finds a short answer and the end of the connection.
func TestWriteCutsStalledClient(t *testing.T) {
	addr, done := serve(t, 200*time.Millisecond, nil)
	conn, _, resp := get(t, addr)
	s := wait(t, done) // the client reads nothing meanwhile
	if s.err == nil || s.took > 3*time.Second {
		t.Errorf("the write to a client that reads nothing ended after %v with error %v; want an error soon after 200ms", s.took, s.err)
	}
	if got := readAll(t, conn, resp); got >= int64(len(answer)) {
		t.Errorf("the stalled client got %d bytes of %d: it was not cut off", got, len(answer))
	}
}

// TestWriteKeepsSlowReader: a client that reads slowly but steadily, a
// chunk well within each timeout, gets the whole answer although it takes
// many timeouts in all.
func TestWriteKeepsSlowReader(t *testing.T) {
	addr, done := serve(t, 300*time.Millisecond, nil)
	_, br, resp := get(t, addr)
	buf := make([]byte, 512<<10)
	var got int64
	start := time.Now()
	for got < resp.ContentLength {
		time.Sleep(20 * time.Millisecond)
		n, err := io.ReadFull(br, buf[:min(int64(len(buf)), resp.ContentLength-got)])
		got += int64(n)
		if err != nil {
			t.Fatalf("a slow reader was cut off after %d of %d bytes: %v", got, len(answer), err)
		}
	}
	if s := wait(t, done); s.err != nil {
		t.Errorf("the write to a slow reader: %v", s.err)
	}
	t.Logf("a slow reader took %v for %d bytes", time.Since(start).Round(time.Millisecond), got)
}

// TestWriteUnwatched: with no timeout, or through a writer that cannot set
// deadlines, a client that reads nothing for a while is not cut off and
// then gets the whole answer.
func TestWriteUnwatched(t *testing.T) {
	for name, c := range map[string]struct {
		timeout time.Duration
		wrap    func(http.ResponseWriter) http.ResponseWriter
	}{
		"no timeout":     {timeout: -1},
		"zero timeout":   {timeout: 0},
		"opaque wrapper": {timeout: 100 * time.Millisecond, wrap: func(w http.ResponseWriter) http.ResponseWriter { return opaque{w} }},
	} {
		t.Run(name, func(t *testing.T) {
			addr, done := serve(t, c.timeout, c.wrap)
			conn, _, resp := get(t, addr)
			time.Sleep(600 * time.Millisecond)
			if got := readAll(t, conn, resp); got != int64(len(answer)) {
				t.Errorf("the client got %d bytes of %d", got, len(answer))
			}
			if s := wait(t, done); s.err != nil {
				t.Errorf("the write: %v", s.err)
			}
		})
	}
}

// opaque hides the writer it wraps from http.ResponseController.
type opaque struct{ w http.ResponseWriter }

func (o opaque) Header() http.Header         { return o.w.Header() }
func (o opaque) Write(b []byte) (int, error) { return o.w.Write(b) }
func (o opaque) WriteHeader(status int)      { o.w.WriteHeader(status) }

// TestWriteSmall: an answer under Chunk is written whole, at once, and a
// failing writer's error comes back.
func TestWriteSmall(t *testing.T) {
	rec := httptest.NewRecorder()
	if err := stall.Write(rec, time.Nanosecond, []byte("{"), []byte(`"a":1`), []byte("}")); err != nil || rec.Body.String() != `{"a":1}` {
		t.Errorf("Write = %v, body %q; want nil and {\"a\":1}", err, rec.Body)
	}
	broken := errors.New("broken pipe")
	if err := stall.Write(failing{broken}, time.Second, answer); !errors.Is(err, broken) {
		t.Errorf("Write to a failing writer = %v, want %v", err, broken)
	}
	if err := stall.Write(failing{broken}, -1, []byte("x")); !errors.Is(err, broken) {
		t.Errorf("unwatched Write to a failing writer = %v, want %v", err, broken)
	}
}

// failing is a writer whose writes fail with err.
type failing struct{ err error }

func (f failing) Header() http.Header       { return http.Header{} }
func (f failing) Write([]byte) (int, error) { return 0, f.err }
func (f failing) WriteHeader(int)           {}
