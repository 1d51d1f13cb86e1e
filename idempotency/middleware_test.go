package idempotency_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/idempotency"
)

// fixture is a server whose handler counts its runs behind the middleware,
// over a real database.
type fixture struct {
	backend
	srv    *httptest.Server
	runs   atomic.Int64
	writes atomic.Int64 // users written, for their addresses
	clock  atomic.Int64 // Unix seconds added to a fixed time
}

// epoch is the fixture's clock at 0.
const epoch = 1_800_000_000

// newFixture serves handler (nil: f.create) behind the middleware, with
// the settings of the tests changed by configure (when not nil); the
// subject is the X-User header.
func newFixture(t *testing.T, b backend, handler http.HandlerFunc, configure func(*idempotency.Config)) *fixture {
	t.Helper()
	f := &fixture{backend: b}
	if handler == nil {
		handler = f.create
	}
	nop := slog.New(slog.DiscardHandler)
	cfg := idempotency.Config{
		Store: b.keys,
		Subject: func(r *http.Request) (string, bool) {
			u := r.Header.Get("X-User")
			return u, u != ""
		},
		MaxBodyBytes: 1024,
		Now:          func() time.Time { return time.Unix(epoch+f.clock.Load(), 0) },
		Presenter:    apierror.Presenter{Logger: nop},
	}
	if configure != nil {
		configure(&cfg)
	}
	mw, err := idempotency.Middleware(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.srv = httptest.NewServer(mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.runs.Add(1)
		handler(w, r)
	})))
	t.Cleanup(f.srv.Close)
	return f
}

// create writes a user through the store, which joins the request's
// claim, and answers 201 with the body it got.
func (f *fixture) create(w http.ResponseWriter, r *http.Request) {
	if !f.write(w, r) {
		return
	}
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Location", "/things/7")
	w.WriteHeader(http.StatusCreated)
	fmt.Fprintf(w, `{"run":%d,"got":%q}`, f.runs.Load(), body)
}

// write creates a user, answering 500 and reporting false when the store
// fails.
func (f *fixture) write(w http.ResponseWriter, r *http.Request) bool {
	email := fmt.Sprintf("user-%d@example.com", f.writes.Add(1))
	if _, err := f.users.CreateUser(r.Context(), "Run", email, []byte("x")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return false
	}
	return true
}

type answer struct {
	status   int
	body     string
	replayed string
	location string
}

func (f *fixture) post(t *testing.T, user, key, body string) answer {
	t.Helper()
	return f.send(t, http.MethodPost, user, []string{key}, body)
}

// client bounds every request of the tests: a request that hangs fails.
var client = &http.Client{Timeout: 20 * time.Second}

func (f *fixture) send(t *testing.T, method, user string, keys []string, body string) answer {
	t.Helper()
	a, _, err := f.try(method, user, keys, body)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// try sends a request and returns its answer and its Retry-After.
func (f *fixture) try(method, user string, keys []string, body string) (answer, string, error) {
	req, err := http.NewRequest(method, f.srv.URL+"/things?x=1", strings.NewReader(body))
	if err != nil {
		return answer{}, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if user != "" {
		req.Header.Set("X-User", user)
	}
	for _, k := range keys {
		req.Header.Add(idempotency.KeyHeader, k)
	}
	resp, err := client.Do(req)
	if err != nil {
		return answer{}, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, "", err
	}
	a := answer{resp.StatusCode, string(b), resp.Header.Get(idempotency.ReplayedHeader), resp.Header.Get("Location")}
	return a, resp.Header.Get("Retry-After"), nil
}

func TestRetryGetsTheFirstAnswer(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		f := newFixture(t, b, nil, nil)
		first := f.post(t, "1", "k-1", `{"a":1}`)
		want := answer{201, `{"run":1,"got":"{\"a\":1}"}`, "", "/things/7"}
		if first != want {
			t.Fatalf("first = %+v, want %+v", first, want)
		}
		again := f.post(t, "1", "k-1", `{"a":1}`)
		want.replayed = "true"
		if again != want {
			t.Errorf("retry = %+v, want %+v", again, want)
		}
		if quoted := f.post(t, "1", `"k-1"`, `{"a":1}`); quoted != want {
			t.Errorf("retry with the key as a structured-field string = %+v, want %+v", quoted, want)
		}
		if n := f.runs.Load(); n != 1 {
			t.Errorf("the handler ran %d times, want 1", n)
		}
		f.checkTable(t, 1, 1)
	})
}

func TestKeyReusedWithAnotherRequestIs422(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		f := newFixture(t, b, nil, nil)
		f.post(t, "1", "k", `{"a":1}`)
		got := f.post(t, "1", "k", `{"a":2}`)
		want := answer{status: 422, body: `{"message":"` + idempotency.MessageReused + `"}`}
		if got != want {
			t.Errorf("reused key = %+v, want %+v", got, want)
		}
		// The same key of another user is another key.
		if got := f.post(t, "2", "k", `{"a":2}`); got.status != 201 || got.replayed != "" {
			t.Errorf("another user's key = %+v, want a fresh 201", got)
		}
		if n := f.runs.Load(); n != 2 {
			t.Errorf("the handler ran %d times, want 2", n)
		}
		f.checkTable(t, 2, 2)
	})
}

func TestMalformedKeyIs400(t *testing.T) {
	f := newFixture(t, openSQLite(t, 1), nil, nil)
	want := answer{status: 400, body: `{"message":"` + idempotency.MessageBadKey + `"}`}
	for name, keys := range map[string][]string{
		"empty":        {""},
		"two headers":  {"a", "b"},
		"too long":     {strings.Repeat("k", idempotency.MaxKeyLength+1)},
		"control char": {"a\tb"},
		"non-ASCII":    {"clé"},
		"empty quotes": {`""`},
	} {
		if got := f.send(t, http.MethodPost, "1", keys, `{}`); got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	if got := f.post(t, "1", strings.Repeat("k", idempotency.MaxKeyLength), `{}`); got.status != 201 {
		t.Errorf("a key of the longest length: %+v, want 201", got)
	}
	if n := f.runs.Load(); n != 1 {
		t.Errorf("the handler ran %d times, want 1", n)
	}
}

func TestWithoutSubjectOrKeyOrPOSTNothingIsRecorded(t *testing.T) {
	f := newFixture(t, openSQLite(t, 1), nil, nil)
	for i := range 2 {
		if got := f.post(t, "", "k", `{}`); got.status != 201 || got.replayed != "" {
			t.Errorf("anonymous try %d: %+v, want a fresh 201", i, got)
		}
		if got := f.send(t, http.MethodPost, "1", nil, `{}`); got.status != 201 || got.replayed != "" {
			t.Errorf("no key, try %d: %+v, want a fresh 201", i, got)
		}
		if got := f.send(t, http.MethodPut, "1", []string{"k"}, `{}`); got.status != 201 || got.replayed != "" {
			t.Errorf("PUT, try %d: %+v, want a fresh 201", i, got)
		}
	}
	if n := f.runs.Load(); n != 6 {
		t.Errorf("the handler ran %d times, want 6", n)
	}
	f.checkTable(t, 6, 0)
}

// A 5xx answer and a panic after a write record nothing and undo the
// write, so a retry runs again.
func TestServerErrorsAndPanicsRecordNothing(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		var calls atomic.Int64
		var f *fixture
		f = newFixture(t, b, func(w http.ResponseWriter, r *http.Request) {
			if !f.write(w, r) {
				return
			}
			switch calls.Add(1) {
			case 1:
				http.Error(w, "down", http.StatusServiceUnavailable)
			case 2:
				panic(http.ErrAbortHandler)
			default:
				w.WriteHeader(http.StatusAccepted)
				io.WriteString(w, "ok")
			}
		}, nil)
		if got := f.post(t, "1", "k", `{}`); got.status != 503 {
			t.Fatalf("first: %+v, want the handler's 503", got)
		}
		req, _ := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-User", "1")
		req.Header.Set(idempotency.KeyHeader, "k")
		// A fresh connection: net/http retries a request with an
		// Idempotency-Key on its own when a reused connection breaks.
		fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: client.Timeout}
		if resp, err := fresh.Do(req); err == nil {
			resp.Body.Close()
			t.Fatalf("second: the handler panicked, yet the client got %d", resp.StatusCode)
		}
		f.checkTable(t, 0, 0)
		if got := f.post(t, "1", "k", `{}`); got != (answer{status: 202, body: "ok"}) {
			t.Errorf("third: %+v, want a fresh 202", got)
		}
		if got := f.post(t, "1", "k", `{}`); got != (answer{status: 202, body: "ok", replayed: "true"}) {
			t.Errorf("fourth: %+v, want the 202 replayed", got)
		}
		f.checkTable(t, 1, 1)
	})
}

// A request that wrote nothing through the claim (a query, a refusal) is
// answered without being recorded, and its key is free again.
func TestRequestsThatWriteNothingAreNotRecorded(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		var f *fixture
		f = newFixture(t, b, func(w http.ResponseWriter, r *http.Request) {
			if body, _ := io.ReadAll(r.Body); string(body) == "refuse" {
				http.Error(w, "no", http.StatusUnprocessableEntity)
				return
			}
			if _, _, err := f.users.PasswordHash(r.Context(), "nobody@example.com"); err == nil {
				t.Error("a user nobody wrote")
			}
			fmt.Fprintf(w, "read %d", f.runs.Load())
		}, nil)
		for i := 1; i <= 2; i++ {
			if got, want := f.post(t, "1", "query", `{}`), (answer{status: 200, body: fmt.Sprintf("read %d", i*2-1)}); got != want {
				t.Errorf("read %d: %+v, want %+v", i, got, want)
			}
			if got := f.post(t, "1", "refusal", "refuse"); got != (answer{status: 422, body: "no\n"}) {
				t.Errorf("refusal %d: %+v, want a fresh 422", i, got)
			}
		}
		f.checkTable(t, 0, 0)
	})
}

// An answer over MaxRecordBytes is refused with a 422, and the write it
// describes is undone: an answer that cannot be replayed is not given.
func TestAnswerOverMaxRecordBytes(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		var f *fixture
		f = newFixture(t, b, func(w http.ResponseWriter, r *http.Request) {
			if !f.write(w, r) {
				return
			}
			body, _ := io.ReadAll(r.Body)
			w.WriteHeader(http.StatusCreated)
			w.Write(body) // as long as the request
		}, func(cfg *idempotency.Config) { cfg.MaxRecordBytes = 64 })
		want := answer{status: 422, body: `{"message":"` + idempotency.MessageTooLarge + `"}`}
		if got := f.post(t, "1", "big", strings.Repeat("x", 65)); got != want {
			t.Errorf("an answer of 65 bytes: %+v, want %+v", got, want)
		}
		f.checkTable(t, 0, 0)
		fits := strings.Repeat("y", 64)
		if got := f.post(t, "1", "fits", fits); got != (answer{status: 201, body: fits}) {
			t.Errorf("an answer of 64 bytes: %+v, want it created", got)
		}
		if got := f.post(t, "1", "fits", fits); got != (answer{status: 201, body: fits, replayed: "true"}) {
			t.Errorf("its retry: %+v, want it replayed", got)
		}
		f.checkTable(t, 1, 1)
	})
}

func TestKeysExpire(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		f := newFixture(t, b, nil, nil)
		f.post(t, "1", "k", `{}`)
		f.clock.Store(int64(idempotency.DefaultTTL/time.Second) - 1)
		if got := f.post(t, "1", "k", `{}`); got.replayed != "true" {
			t.Errorf("just before the TTL: %+v, want a replay", got)
		}
		f.clock.Store(int64(idempotency.DefaultTTL / time.Second))
		if got := f.post(t, "1", "k", `{"other":true}`); got.status != 201 || got.replayed != "" {
			t.Errorf("after the TTL, another request under the key: %+v, want a fresh 201", got)
		}
		if n := f.runs.Load(); n != 2 {
			t.Errorf("the handler ran %d times, want 2", n)
		}
		f.checkTable(t, 2, 1)
	})
}

func TestOversizedBodyIs413(t *testing.T) {
	f := newFixture(t, openSQLite(t, 1), nil, nil)
	got := f.post(t, "1", "k", strings.Repeat("x", 1025))
	want := answer{status: 413, body: `{"message":"The request body is too large."}`}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if n := f.runs.Load(); n != 0 {
		t.Errorf("the handler ran %d times, want 0", n)
	}
}

func TestMiddlewareChecksItsConfig(t *testing.T) {
	if _, err := idempotency.Middleware(idempotency.Config{}); err == nil {
		t.Error("Middleware without a Store: no error")
	}
	store := openSQLite(t, 1).keys
	for _, cfg := range []idempotency.Config{
		{Store: store, TTL: -1}, {Store: store, MaxBodyBytes: -1}, {Store: store, MaxRecordBytes: -1}, {Store: store, Lease: -1},
	} {
		if _, err := idempotency.Middleware(cfg); err == nil {
			t.Errorf("Middleware(%+v): no error", cfg)
		}
	}
}
