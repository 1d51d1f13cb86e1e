package httpjson_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/internal/httpjson/oversize"
)

// wrapper is middleware's ResponseWriter: it hides the writer it wraps but
// for Unwrap, as reqlog's does.
type wrapper struct{ http.ResponseWriter }

func (w wrapper) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// readObjectServer answers with ReadObject's failure, or 204, behind
// two wrappers.
func readObjectServer(t *testing.T) *httptest.Server {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w = wrapper{wrapper{w}}
		if _, f := httpjson.ReadObject(w, r, 1<<10); f != nil {
			f.Write(w)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// TestReadObjectRefusesGracefully checks that a body over the cap, refused
// on its Content-Length or once read, gets its 413 through and the
// connection ends with a FIN, even under wrappers and with
// Connection: close.
func TestReadObjectRefusesGracefully(t *testing.T) {
	addr := readObjectServer(t).Listener.Addr().String()
	for _, chunked := range []bool{false, true} {
		req := oversize.Request{Path: "/", Header: []string{"Connection: close"}, Size: 1 << 20, Chunked: chunked}
		oversize.Check(t, addr, req, 413, `{"message":"`+httpjson.MessageTooLarge+`"}`)
	}
}

// TestRefuseBodyWithExpectContinue checks that a client waiting for
// "100 Continue" before it sends a body over the cap is answered 413 at
// once, without a 100 Continue: RefuseBody reads nothing from it.
func TestRefuseBodyWithExpectContinue(t *testing.T) {
	srv := readObjectServer(t)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", 1<<20)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413 without a 100 Continue", res.StatusCode)
	}
}
