package idempotency_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// An answer that will not be recorded (no write joined the claim) goes
// straight to the client, as it would without a key: the key is free as
// soon as the handler begins it, http.ResponseController reaches the
// connection (its write deadline, on which response budgets and stall
// cut-offs rely), and a flushed part reaches the client while the handler
// still runs. The middleware held the whole answer until the handler had
// returned, where no deadline could reach it.
func TestUnrecordedAnswerPassesThrough(t *testing.T) {
	forEachBackend(t, 2, func(t *testing.T, b backend) {
		proceed := make(chan struct{})
		f := newFixture(t, b, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusOK)
			_, claim, err := b.keys.Claim(r.Context(), keyAt("stream", 0, "another"))
			if err != nil || claim == nil {
				t.Errorf("claiming the key once the answer has begun: %v, %v; want it free", claim, err)
			} else if err := claim.Release(r.Context()); err != nil {
				t.Error(err)
			}
			rc := http.NewResponseController(w)
			if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
				t.Errorf("setting the connection's write deadline: %v", err)
			}
			io.WriteString(w, "first;")
			if err := rc.Flush(); err != nil {
				t.Errorf("Flush: %v", err)
			}
			select {
			case <-proceed: // the client has the first part
			case <-time.After(5 * time.Second):
				t.Error("the client did not get the flushed part while the handler ran")
			}
			io.WriteString(w, "second")
		}, nil)
		req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/things", strings.NewReader(`{}`))
		req.Header.Set("X-User", "1")
		req.Header.Set(idempotency.KeyHeader, "stream")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		first := make([]byte, len("first;"))
		if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != "first;" {
			t.Errorf("the first part: %q, %v", first, err)
		}
		close(proceed)
		rest, err := io.ReadAll(resp.Body)
		if err != nil || string(rest) != "second" || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain" {
			t.Errorf("the answer: %d %s, %q, %v", resp.StatusCode, resp.Header.Get("Content-Type"), rest, err)
		}
		f.checkTable(t, 0, 0)
	})
}

// A recorded answer, and its replay, are sent under a stall cut-off: a
// client that takes none of it for Config.StallTimeout is cut off and
// holds the answer no longer. It held it until the server's write timeout
// (none here).
func TestRecordedAnswerCutsOffAStalledClient(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: clients that stop reading, over real connections, waited out in real time")
	b := openSQLite(t, 1)
	big := bytes.Repeat([]byte("0123456789abcdef"), 12<<20/16)
	nop := slog.New(slog.DiscardHandler)
	mw, err := idempotency.Middleware(idempotency.Config{
		Store:          b.keys,
		Subject:        func(*http.Request) (string, bool) { return "1", true },
		MaxRecordBytes: 16 << 20,
		StallTimeout:   200 * time.Millisecond,
		Presenter:      apierror.Presenter{Logger: nop},
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if _, err := b.users.CreateUser(r.Context(), "Big", fmt.Sprint("big-", n, "@example.com"), nil); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusCreated)
		w.Write(big)
	}))
	sent := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		sent <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()

	for _, what := range []string{"the recorded answer", "its replay"} {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /things HTTP/1.1\r\nHost: %s\r\n%s: big\r\nContent-Length: 2\r\n\r\n{}", addr, idempotency.KeyHeader)
		select { // the client reads nothing meanwhile
		case <-sent:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the server still sends it to a client that has read nothing for 10 s", what)
		}
		if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, err := io.Copy(io.Discard, resp.Body)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("%s: reading it: %v", what, err)
		}
		if resp.StatusCode != http.StatusCreated || got >= int64(len(big)) {
			t.Errorf("%s: %d, %d of %d bytes; want a 201 cut off", what, resp.StatusCode, got, len(big))
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/things", strings.NewReader(`{}`))
	req.Header.Set(idempotency.KeyHeader, "big")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated || rec.Header().Get(idempotency.ReplayedHeader) != "true" || !bytes.Equal(rec.Body.Bytes(), big) {
		t.Errorf("a replay to a client that reads: %d, replayed %q, %d bytes", rec.Code, rec.Header().Get(idempotency.ReplayedHeader), rec.Body.Len())
	}
	if n != 1 {
		t.Errorf("the handler ran %d times, want 1", n)
	}
}

// An answer over MaxRecordBytes is dropped as soon as it is: the
// handler's write that passes the bound fails, and so does the first
// write of an answer whose Content-Length is over it. They were held
// whole, and measured once the handler had returned.
func TestAnswerOverMaxRecordBytesIsNotHeld(t *testing.T) {
	forEachBackend(t, 2, func(t *testing.T, b backend) {
		var f *fixture
		f = newFixture(t, b, func(w http.ResponseWriter, r *http.Request) {
			if !f.write(w, r) {
				return
			}
			declared := r.URL.Query().Get("declared") != ""
			if declared {
				w.Header().Set("Content-Length", "1000")
			}
			w.WriteHeader(http.StatusCreated)
			for i := range 10 {
				_, err := w.Write(bytes.Repeat([]byte("x"), 100))
				if over := declared || (i+1)*100 > 640; over != (err != nil) {
					t.Errorf("write %d of 100 bytes, Content-Length declared %t: %v", i, declared, err)
					break
				}
			}
		}, func(cfg *idempotency.Config) { cfg.MaxRecordBytes = 640 })
		want := answer{status: 422, body: `{"message":"` + idempotency.MessageTooLarge + `"}`}
		for _, path := range []string{"/things", "/things?declared=1"} {
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, f.srv.URL+path, strings.NewReader(`{}`))
			req.Header.Set("X-User", "1")
			req.Header.Set(idempotency.KeyHeader, path)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if got := (answer{status: resp.StatusCode, body: string(body)}); got != want {
				t.Errorf("%s: %+v, want %+v", path, got, want)
			}
		}
		f.checkTable(t, 0, 0)
	})
}
