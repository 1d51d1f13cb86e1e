package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"
)

// otlpCollector is a fake OTLP/HTTP collector on loopback: it keeps the
// export requests posted as protobuf to its one path, notes anything else
// it is sent, and answers every request with an empty export response.
type otlpCollector[Req proto.Message] struct {
	*httptest.Server
	mu       sync.Mutex
	received []Req
	problems []string
}

// newOTLPCollector starts a collector for path ("/v1/traces"), decoding
// each request into newReq() and answering resp; it stops with the test.
func newOTLPCollector[Req proto.Message](t *testing.T, path string, newReq func() Req, resp proto.Message) *otlpCollector[Req] {
	t.Helper()
	c := &otlpCollector[Req]{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		c.mu.Lock()
		defer c.mu.Unlock()
		switch {
		case r.Method != http.MethodPost || r.URL.Path != path:
			c.problems = append(c.problems, r.Method+" "+r.URL.Path)
		case r.Header.Get("Content-Type") != "application/x-protobuf":
			c.problems = append(c.problems, "Content-Type "+r.Header.Get("Content-Type"))
		case err != nil:
			c.problems = append(c.problems, err.Error())
		default:
			req := newReq()
			if err := proto.Unmarshal(body, req); err != nil {
				c.problems = append(c.problems, err.Error())
			}
			c.received = append(c.received, req)
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(resp)
		_, _ = w.Write(out)
	}))
	t.Cleanup(c.Close)
	return c
}

// requests returns what the collector received, after reporting as a test
// error anything it was sent that was not an export request.
func (c *otlpCollector[Req]) requests(t *testing.T) []Req {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.problems) > 0 {
		t.Errorf("the collector got: %s", strings.Join(c.problems, "; "))
	}
	return append([]Req(nil), c.received...)
}
