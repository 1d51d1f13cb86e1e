// Package oversize sends requests whose body is over a handler's cap on a
// raw TCP connection, as a client that does not wait for "100 Continue"
// does: headers and the whole body in one go, then the answer. It reports
// the answer and how the connection ended, so that the kit's tests can
// check that a refusal reaches the client and the connection is closed
// gracefully (a FIN) rather than reset with the body unread.
package oversize

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request is one oversized request.
type Request struct {
	Path string
	// Header holds extra header lines, such as "Authorization: Bearer x"
	// or "Connection: close"; Host, Content-Type (application/json) and
	// Content-Length (or Transfer-Encoding) are always sent.
	Header []string
	// Size is the length of the body: a JSON object padded to exactly
	// that many bytes.
	Size int
	// Chunked sends the body chunked, without a Content-Length.
	Chunked bool
}

// Result is what came back.
type Result struct {
	Status int
	Header http.Header
	Body   string
	// Close reports that the answer carried Connection: close (which
	// http.ReadResponse takes out of Header).
	Close bool
	// End is nil when the server closed the connection after the answer
	// with a FIN (the read after it saw io.EOF) or kept it alive (Close is
	// false), else the error that read got: a reset, most often.
	End error
}

// guard bounds a whole exchange, so that a server that never answers
// fails the test instead of hanging it.
const guard = time.Minute

// Send sends req to the server at addr (host:port) and reads the answer.
func Send(addr string, req Request) (Result, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return Result{}, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(guard)); err != nil {
		return Result{}, err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = conn.Write(message(addr, req)) // the server may refuse to read it all
	}()
	defer wg.Wait()
	defer conn.Close() // before wg.Wait: unblocks a write the server left unread
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		return Result{}, fmt.Errorf("reading the answer: %w", err)
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return Result{}, fmt.Errorf("reading the answer's body: %w", err)
	}
	out := Result{Status: res.StatusCode, Header: res.Header, Body: string(body), Close: res.Close}
	if !out.Close {
		return out, nil // kept alive: the server read the whole body
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		out.End = fmt.Errorf("after the answer the connection did not end with a FIN: %v", err)
	}
	return out, nil
}

// message returns the whole request: head and body.
func message(addr string, req Request) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", req.Path, addr)
	for _, h := range req.Header {
		b.WriteString(h + "\r\n")
	}
	const head, tail = `{"title":"`, `"}`
	pad := strings.Repeat("x", max(req.Size-len(head)-len(tail), 0))
	body := head + pad + tail
	if !req.Chunked {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
		return []byte(b.String())
	}
	b.WriteString("Transfer-Encoding: chunked\r\n\r\n")
	for len(body) > 0 {
		n := min(len(body), 64<<10)
		fmt.Fprintf(&b, "%x\r\n%s\r\n", n, body[:n])
		body = body[n:]
	}
	b.WriteString("0\r\n\r\n")
	return []byte(b.String())
}

// Tries is how many times Check sends each request.
const Tries = 10

// Check sends req to addr Tries times, each on a new connection, and
// reports every try whose answer is not status and body, or whose
// connection, closed after the answer, was not closed gracefully.
func Check(t testing.TB, addr string, req Request, status int, body string) {
	t.Helper()
	failed := 0
	for i := range Tries {
		got, err := Send(addr, req)
		switch {
		case err != nil:
			t.Errorf("try %d: %v", i+1, err)
		case got.Status != status || got.Body != body:
			t.Errorf("try %d: %d %s; want %d %s", i+1, got.Status, got.Body, status, body)
		case got.End != nil:
			t.Errorf("try %d: %v", i+1, got.End)
		default:
			continue
		}
		failed++
	}
	if failed > 0 {
		t.Errorf("%s of %d bytes (chunked %v, header %.120q): %d of %d tries failed", req.Path, req.Size, req.Chunked, strings.Join(req.Header, "; "), failed, Tries)
	}
}
