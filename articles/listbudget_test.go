package articles_test

// The response budget of list answers: clients that do not read their
// answers hold shares of it, never a database connection; one client holds
// a small part; a list that finds no room is a 503 at once; a page larger
// than the bound on one answer is a 400.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// Canned bodies of refused lists.
const (
	busyBody     = `{"message":"The server is busy; try again shortly."}`
	tooLargeBody = `{"message":"The page is larger than the limit; ask for fewer articles per page."}`
)

// smallBuffers makes every connection it accepts buffer little of what the
// server writes (the kernel would otherwise take megabytes of an answer
// that nobody reads), so that answers of a few hundred kilobytes block
// their writer when their client does not read.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(16 << 10)
	}
	return c, err
}

// budgetServer serves s with cfg on a loopback server whose connections
// buffer little (see smallBuffers), and returns its address.
func budgetServer(t *testing.T, s articles.Store, cfg articles.Config) string {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	cfg.Presenter.Logger = logger
	h, err := articles.NewHandler(s, cfg)
	if err != nil {
		t.Fatalf("NewHandler error: %v", err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// dialFrom connects to addr from the loopback address from (each 127.0.0.x
// is a client of its own to the budget), with a small receive buffer.
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second,
		Control: func(_, _ string, c syscall.RawConn) error {
			return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dialing %s from %s: %v", addr, from, err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// listReader is a connection that sent a list request and has read no
// more than the head of the answer.
type listReader struct {
	conn net.Conn
	resp *http.Response
}

// getHead sends GET path from the address from and reads the head of the
// answer: a few kilobytes.
func getHead(t *testing.T, from, addr, path string) *listReader {
	t.Helper()
	conn := dialFrom(t, from, addr)
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr)
	if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 4096), nil)
	if err != nil {
		t.Fatalf("GET %s from %s: reading the head: %v", path, from, err)
	}
	return &listReader{conn: conn, resp: resp}
}

// body reads the rest of the answer, to its end or until the server cuts
// it off.
func (l *listReader) body(t *testing.T) string {
	t.Helper()
	if err := l.conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(l.resp.Body)
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		t.Fatalf("the answer neither ended nor was cut off within 10s (%d bytes)", len(b))
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, syscall.ECONNRESET):
		t.Fatalf("reading the answer: %v", err)
	}
	return string(b)
}

// getFrom sends GET path from the address from and reads the whole answer.
func getFrom(t *testing.T, from, addr, path string) (int, http.Header, string) {
	t.Helper()
	l := getHead(t, from, addr, path)
	return l.resp.StatusCode, l.resp.Header, l.body(t)
}

// firstPage is the exact answer to GET /api/articles?per_page=n at addr,
// over a list whose articles have the JSON rows, newest first.
func firstPage(addr string, rows []string, n int) string {
	p, per := "http://"+addr+"/api/articles", strconv.Itoa(n)
	last, next := strconv.Itoa(max(1, (len(rows)+n-1)/n)), "null"
	if len(rows) > n {
		next = `"` + p + `?page=2&per_page=` + per + `"`
	}
	return `{"data":[` + strings.Join(rows[:min(n, len(rows))], ",") + `],"links":{"first":"` + p + `?page=1&per_page=` + per +
		`","last":"` + p + `?page=` + last + `&per_page=` + per + `","prev":null,"next":` + next + `},` +
		`"meta":{"current_page":1,"from":1,"last_page":` + last + `,"path":"` + p + `","per_page":` + per +
		`,"to":` + strconv.Itoa(min(n, len(rows))) + `,"total":` + strconv.Itoa(len(rows)) + `}}`
}

// TestListBudget: pages of 4 articles of 100 KiB (411 KB answers), a bound
// of 2.2 MB on one answer and on what one client holds of the room for
// large pages (MaxListBytes), and a budget of 4 MiB (3 MiB for pages past
// their first share). A page that outgrows its first share takes
// MaxListBytes while it is read, then holds its answer's buffer until it
// is written. A connection of one client that does not read holds its
// answer; the client's next large list is refused at once with a 503 (its
// part is one page under way), while another client's lists and its own
// small one are served whole. Once two more clients' non-readers leave
// less than MaxListBytes free, a fourth client's large page is refused
// too, and its small page served. Once the non-readers have taken nothing
// for the stall timeout they are cut off, and their client is served
// again.
func TestListBudget(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: non-reading clients over real connections, some 7 s a database")
	const stallTimeout = 3 * time.Second
	for _, o := range storeOpeners {
		t.Run(o.name, func(t *testing.T) {
			s, _ := o.open(t)
			rows := stored(t, s, 4, 100<<10)
			addr := budgetServer(t, s, articles.Config{MaxListBytes: 2_200_000, ResponseBudget: 4 << 20,
				ResponseBudgetWait: time.Second, StallTimeout: stallTimeout})
			const large = "/api/articles?per_page=4"
			want := firstPage(addr, rows, 4)

			var held []*listReader
			firstHead := time.Now()
			lastHead := firstHead
			hold := func(from string) {
				t.Helper()
				l := getHead(t, from, addr, large)
				lastHead = time.Now()
				if l.resp.StatusCode != http.StatusOK || l.resp.ContentLength != int64(len(want)) {
					t.Fatalf("a non-reader from %s: %d, Content-Length %d; want 200 and %d", from, l.resp.StatusCode, l.resp.ContentLength, len(want))
				}
				held = append(held, l)
			}
			hold("127.0.0.2")
			status, hdr, body := getFrom(t, "127.0.0.2", addr, large)
			if status != http.StatusServiceUnavailable || body != busyBody || hdr.Get("Retry-After") != "1" || hdr.Get("Content-Type") != "application/json" {
				t.Errorf("the client's second large list: %d %s (Retry-After %q, Content-Type %q); want 503 %s, Retry-After 1",
					status, body, hdr.Get("Retry-After"), hdr.Get("Content-Type"), busyBody)
			}
			if status, _, body := getFrom(t, "127.0.0.3", addr, large); status != http.StatusOK || body != want {
				t.Errorf("another client's large list: %d, %d bytes; want 200 and the %d bytes of the page", status, len(body), len(want))
			}
			if status, _, body := getFrom(t, "127.0.0.2", addr, "/api/articles?per_page=1"); status != http.StatusOK || body != firstPage(addr, rows, 1) {
				t.Errorf("the client's small list (it stays in its first share): %d %.80s", status, body)
			}

			// Two more clients' non-readers: 3 MiB less three answers'
			// buffers leave less than MaxListBytes free.
			hold("127.0.0.4")
			hold("127.0.0.6")
			status, hdr, body = getFrom(t, "127.0.0.5", addr, large)
			if status != http.StatusServiceUnavailable || body != busyBody || hdr.Get("Retry-After") != "1" {
				t.Errorf("a fourth client's large list with the budget full: %d %s (Retry-After %q); want 503 %s", status, body, hdr.Get("Retry-After"), busyBody)
			}
			if status, _, body := getFrom(t, "127.0.0.5", addr, "/api/articles?per_page=1"); status != http.StatusOK || body != firstPage(addr, rows, 1) {
				t.Errorf("a fourth client's small list with the budget full: %d %.80s", status, body)
			}
			t.Logf("the checks while the non-readers held their answers took %v", time.Since(firstHead).Round(time.Millisecond))

			// Cut off once they have taken nothing for the stall timeout
			// (counted from the last head, with two seconds to spare):
			// each got less than its answer, and the first client is
			// served again.
			time.Sleep(time.Until(lastHead.Add(stallTimeout + 2*time.Second)))
			for i, l := range held {
				if got := l.body(t); len(got) >= len(want)-8<<10 {
					t.Errorf("non-reader %d got %d of %d bytes: it was not cut off", i+1, len(got), len(want))
				}
			}
			if status, _, body := getFrom(t, "127.0.0.2", addr, large); status != http.StatusOK || body != want {
				t.Errorf("the first client's large list after the cut: %d, %d bytes; want 200 and %d", status, len(body), len(want))
			}
		})
	}
}

// TestListTooLarge: a page whose answer would pass MaxListBytes is a 400
// with an exact body, whatever the budget; a smaller page is served; and
// the refused list held nothing: the next ones are served.
func TestListTooLarge(t *testing.T) {
	for _, budget := range []int64{0, -1} {
		t.Run(fmt.Sprint("ResponseBudget=", budget), func(t *testing.T) {
			s, _ := sqliteStore(t)
			rows := stored(t, s, 3, 100<<10)
			addr := budgetServer(t, s, articles.Config{MaxListBytes: 250_000, ResponseBudget: budget})
			for range 3 {
				status, _, body := getFrom(t, "127.0.0.2", addr, "/api/articles?per_page=3")
				if status != http.StatusBadRequest || body != tooLargeBody {
					t.Errorf("a page of 308 KB over a bound of 250 KB: %d %.100s; want 400 %s", status, body, tooLargeBody)
				}
			}
			want := firstPage(addr, rows, 2)
			if status, _, body := getFrom(t, "127.0.0.2", addr, "/api/articles?per_page=2"); status != http.StatusOK || body != want {
				t.Errorf("a page of 205 KB: %d, %d bytes %.80s; want 200 and %d bytes", status, len(body), body, len(want))
			}
		})
	}
}

// TestNewHandlerBudget: the settings of the response budget that could
// never serve a page are refused, all at once.
func TestNewHandlerBudget(t *testing.T) {
	for _, c := range []struct {
		cfg  articles.Config
		want string // "" for none
	}{
		{cfg: articles.Config{}},
		{cfg: articles.Config{ResponseBudget: -1, MaxListBytes: -1}},
		{cfg: articles.Config{ResponseBudget: -1, StallTimeout: -1}},
		{cfg: articles.Config{ResponseBudget: 1 << 20, MaxListBytes: 100 << 10}},
		{cfg: articles.Config{MaxListBytes: -1}, want: "needs a bound on each list answer"},
		{cfg: articles.Config{ResponseBudgetWait: -time.Second}, want: "a wait of -1s: none may be negative"},
		{cfg: articles.Config{ResponseBudget: 512 << 10}, want: "a first share of 262144 bytes is larger than the quarter"},
		{cfg: articles.Config{ResponseBudget: 16 << 20}, want: "an answer of up to 16777216 bytes is larger than the three quarters"},
	} {
		_, err := articles.NewHandler(failingStore{}, c.cfg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("NewHandler(%+v) error = %v, want none", c.cfg, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("NewHandler(%+v) error = %v, want one saying %q", c.cfg, err, c.want)
		}
	}
}
