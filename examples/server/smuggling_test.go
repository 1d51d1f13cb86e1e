package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestContentLengthWithTransferEncoding sends the real server a request
// with both Content-Length and Transfer-Encoding, followed on the same
// connection by a second request hidden in what Content-Length counts as
// the first one's body (a proxy that reads Content-Length would pass it
// on as body). RFC 9112 §6.1: the server must close the connection after
// answering; Go's server on its own answered the hidden request too. A
// request with Content-Length only keeps its connection, so that the rule
// costs ordinary clients nothing.
func TestContentLengthWithTransferEncoding(t *testing.T) {
	db := sqliteDatabase(t)
	p := db.start(t)

	hidden := "GET /api/articles/4242 HTTP/1.1\r\nHost: x\r\n\r\n"
	body := "0\r\n\r\n" + hidden
	smuggle := "POST /api/graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/graphql\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\nTransfer-Encoding: chunked\r\n\r\n" + body
	answers := exchange(t, p.addr, smuggle)
	if len(answers) != 1 {
		t.Fatalf("got %d answers on the connection, want 1 and then the connection closed", len(answers))
	}
	if !answers[0].Close {
		t.Errorf("the answer has no Connection: close")
	}
	if _, found, _ := p.find(func(l logLine) bool { return l.fields["path"] == "/api/articles/4242" }); found {
		t.Errorf("the hidden request was served:\n%s", p.log())
	}

	// The same two requests with Content-Length alone: both answered, on
	// one connection.
	plain := "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + hidden
	answers = exchange(t, p.addr, plain)
	if len(answers) != 2 || answers[0].StatusCode != http.StatusOK || answers[1].StatusCode != http.StatusNotFound {
		t.Fatalf("pipelined plain requests: got %d answers %v, want 200 and 404", len(answers), statuses(answers))
	}
}

// exchange writes raw to a new connection to addr and reads answers until
// the server closes the connection or stays silent for 3 s (not less: a
// loaded CI host may take a second to answer).
func exchange(t *testing.T, addr, raw string) []*http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	var out []*http.Response
	for {
		if err := conn.SetReadDeadline(time.Now().Add(3 * time.Second)); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() && len(out) > 0 && out[len(out)-1].Close {
				t.Errorf("the server kept the connection open after Connection: close")
			}
			return out
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		out = append(out, resp)
	}
}

func statuses(rs []*http.Response) []int {
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = r.StatusCode
	}
	return out
}
