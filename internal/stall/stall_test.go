package stall_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/loopback"
	"github.com/gqlkit/gqlkit/internal/stall"
	"github.com/gqlkit/gqlkit/internal/testenv"
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

// get sends a GET on a raw connection and returns it with the head of
// the answer, reading no more of it.
func get(t *testing.T, addr string) (*loopback.NonReader, *http.Response) {
	t.Helper()
	c := loopback.Send(t, "127.0.0.1", addr, http.MethodGet, "/", "")
	resp := c.Head(t)
	if resp.StatusCode != http.StatusOK || resp.ContentLength != int64(len(answer)) {
		t.Fatalf("head: %d, Content-Length %d", resp.StatusCode, resp.ContentLength)
	}
	return c, resp
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
	c, resp := get(t, addr)
	s := wait(t, done) // the client reads nothing meanwhile
	if s.err == nil || s.took > 3*time.Second {
		t.Errorf("the write to a client that reads nothing ended after %v with error %v; want an error soon after 200ms", s.took, s.err)
	}
	if got := c.Rest(t, resp); got >= int64(len(answer)) {
		t.Errorf("the stalled client got %d bytes of %d: it was not cut off", got, len(answer))
	}
}

// TestWriteKeepsSlowReader: a client that reads slowly but steadily, half
// a megabyte and then a pause well within the timeout, gets the whole answer
// although it takes several timeouts in all: the timeout bounds each
// chunk, not the answer.
func TestWriteKeepsSlowReader(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: a slow reader over a real connection, some 6 s")
	// A pause of 250ms against a timeout of 2s: the reader, in this
	// process, keeps 1.75s of slack on a loaded CI host (race detector,
	// packages tested in parallel).
	const timeout, pause = 2 * time.Second, 250 * time.Millisecond
	addr, done := serve(t, timeout, nil)
	c, resp := get(t, addr)
	buf := make([]byte, 512<<10)
	var got int64
	start := time.Now()
	for got < resp.ContentLength {
		time.Sleep(pause)
		n, err := io.ReadFull(c.Reader, buf[:min(int64(len(buf)), resp.ContentLength-got)])
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
	testenv.SkipIfShort(t, "end-to-end: clients that stop reading, over real connections, waited out in real time")
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
			c, resp := get(t, addr)
			time.Sleep(600 * time.Millisecond)
			if got := c.Rest(t, resp); got != int64(len(answer)) {
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

// TestWriteFlushesUnderWatch: the tail of the answer that the writer
// buffers is flushed by Write, while it watches, not after it: a watch
// that ends before the tail is out could cut the client off after its
// last Write, truncating an answer it took in time. And once Write has
// returned, the watch never cuts.
func TestWriteFlushesUnderWatch(t *testing.T) {
	// 1s, not less: a write into memory that took longer (a loaded CI
	// host) would be cut, rightly, while Write runs.
	const timeout = time.Second
	body := answer[:3*stall.Chunk+100] // three chunks, then 100 bytes
	w := &bufferingWriter{header: http.Header{}}
	if err := stall.Write(w, timeout, body[:2*stall.Chunk], body[2*stall.Chunk:]); err != nil {
		t.Fatalf("Write = %v", err)
	}
	w.mu.Lock()
	sent, buffered := w.sent, len(w.buf)
	w.mu.Unlock()
	if sent != len(body) || buffered != 0 {
		t.Errorf("once Write returned, %d bytes were sent and %d left in the writer's buffer; want all %d sent", sent, buffered, len(body))
	}
	time.Sleep(timeout + timeout/2) // past the timer of the last write
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.deadline.IsZero() {
		t.Errorf("the write deadline was set to %v after Write returned", w.deadline)
	}
}

// bufferingWriter is a ResponseWriter that buffers writes under 2 KiB, as
// net/http's does, until it is flushed, and lets its write deadline be
// set (http.ResponseController finds both methods).
type bufferingWriter struct {
	header   http.Header
	mu       sync.Mutex
	buf      []byte
	sent     int
	deadline time.Time
}

func (w *bufferingWriter) Header() http.Header { return w.header }
func (w *bufferingWriter) WriteHeader(int)     {}

func (w *bufferingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf)+len(p) < 2048 {
		w.buf = append(w.buf, p...)
		return len(p), nil
	}
	w.sent += len(w.buf) + len(p)
	w.buf = w.buf[:0]
	return len(p), nil
}

func (w *bufferingWriter) FlushError() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sent += len(w.buf)
	w.buf = w.buf[:0]
	return nil
}

func (w *bufferingWriter) SetWriteDeadline(d time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.deadline = d
	return nil
}
