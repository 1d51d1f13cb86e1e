// Package loopback is a test helper: HTTP clients on loopback addresses of
// their own (each 127.0.0.x is a client of its own to a response budget),
// and raw connections that send one request and read its answer only
// when the test says so, for the tests of clients that read slowly or
// not at all.
package loopback

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// Timeout bounds each dial, and each read of a [NonReader]: an answer
// that neither comes nor ends within it fails the test.
const Timeout = 10 * time.Second

// Dialer dials from the loopback address from.
func Dialer(from string) *net.Dialer {
	return &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: Timeout}
}

// Client returns an HTTP client whose connections come from the loopback
// address from, and whose requests time out after timeout.
func Client(from string, timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, Transport: &http.Transport{DialContext: Dialer(from).DialContext}}
}

// NonReader is a raw connection that sent one request and reads nothing
// of the answer until the test says so.
type NonReader struct {
	Conn   net.Conn
	Reader *bufio.Reader // 4 KiB: reading the head takes little more
}

// Send sends an HTTP/1.1 request to the server at addr, from the loopback
// address from, on a connection of its own that the test closes at its
// end, and reads nothing. A body is sent as application/json.
func Send(t testing.TB, from, addr, method, path, body string) *NonReader {
	t.Helper()
	conn, err := Dialer(from).Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dialing %s from %s: %v", addr, from, err)
	}
	t.Cleanup(func() { conn.Close() })
	head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\n", method, path, addr)
	if body != "" {
		head += fmt.Sprintf("Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	}
	if _, err := io.WriteString(conn, head+"\r\n"+body); err != nil {
		t.Fatalf("sending %s %s: %v", method, path, err)
	}
	return NewNonReader(conn)
}

// NewNonReader returns the NonReader of conn, a connection on which the
// test sent a request of its own making.
func NewNonReader(conn net.Conn) *NonReader {
	return &NonReader{Conn: conn, Reader: bufio.NewReaderSize(conn, 4096)}
}

// Head reads the status and headers of the answer: a few kilobytes, so
// that the server stays blocked on the rest of a large one.
func (n *NonReader) Head(t testing.TB) *http.Response {
	t.Helper()
	if err := n.Conn.SetReadDeadline(time.Now().Add(Timeout)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(n.Reader, nil)
	if err != nil {
		t.Fatalf("reading the head of an answer: %v", err)
	}
	return resp
}

// Rest reads the body of the answer whose head is head to its end, or to
// the end of the connection (a client cut off finds what the socket
// buffers held, then the end), and returns how many bytes came. An answer
// that does neither within Timeout fails the test.
func (n *NonReader) Rest(t testing.TB, head *http.Response) int64 {
	t.Helper()
	if err := n.Conn.SetReadDeadline(time.Now().Add(Timeout)); err != nil {
		t.Fatal(err)
	}
	got, err := io.Copy(io.Discard, head.Body)
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		t.Fatalf("the answer neither ended nor was cut off within %v (%d bytes)", Timeout, got)
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, syscall.ECONNRESET):
		t.Fatalf("reading the answer: %v", err)
	}
	return got
}
