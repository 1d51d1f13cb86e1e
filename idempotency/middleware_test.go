package idempotency_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/articles/sqlitestore"
	"github.com/gqlkit/gqlkit/idempotency"
)

// fixture is a server whose handler counts its runs behind the middleware,
// over a real SQLite database.
type fixture struct {
	srv   *httptest.Server
	runs  atomic.Int64
	clock atomic.Int64 // Unix seconds added to a fixed time
}

// newFixture serves handler (nil: an echo answering 201) behind the
// middleware; the subject is the X-User header.
func newFixture(t *testing.T, handler http.HandlerFunc) *fixture {
	t.Helper()
	st, err := sqlitestore.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	f := &fixture{}
	if handler == nil {
		handler = func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Location", "/things/7")
			w.WriteHeader(http.StatusCreated)
			fmt.Fprintf(w, `{"run":%d,"got":%q}`, f.runs.Load(), body)
		}
	}
	nop := zerolog.Nop()
	mw, err := idempotency.Middleware(idempotency.Config{
		Store: st.Idempotency(),
		Subject: func(r *http.Request) (string, bool) {
			u := r.Header.Get("X-User")
			return u, u != ""
		},
		MaxBodyBytes: 1024,
		Now:          func() time.Time { return time.Unix(1_800_000_000+f.clock.Load(), 0) },
		Logger:       &nop,
	})
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

func (f *fixture) send(t *testing.T, method, user string, keys []string, body string) answer {
	t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+"/things?x=1", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if user != "" {
		req.Header.Set("X-User", user)
	}
	for _, k := range keys {
		req.Header.Add(idempotency.KeyHeader, k)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, string(b), resp.Header.Get(idempotency.ReplayedHeader), resp.Header.Get("Location")}
}

func TestRetryGetsTheFirstAnswer(t *testing.T) {
	f := newFixture(t, nil)
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
}

func TestKeyReusedWithAnotherRequestIs422(t *testing.T) {
	f := newFixture(t, nil)
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
}

func TestMalformedKeyIs400(t *testing.T) {
	f := newFixture(t, nil)
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
	f := newFixture(t, nil)
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
}

func TestServerErrorsAndPanicsRecordNothing(t *testing.T) {
	var calls atomic.Int64
	f := newFixture(t, func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			http.Error(w, "down", http.StatusServiceUnavailable)
		case 2:
			panic(http.ErrAbortHandler)
		default:
			w.WriteHeader(http.StatusAccepted)
			io.WriteString(w, "ok")
		}
	})
	if got := f.post(t, "1", "k", `{}`); got.status != 503 {
		t.Fatalf("first: %+v, want the handler's 503", got)
	}
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL, strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-User", "1")
	req.Header.Set(idempotency.KeyHeader, "k")
	// A fresh connection: net/http retries a request with an
	// Idempotency-Key on its own when a reused connection breaks.
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	if resp, err := fresh.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("second: the handler panicked, yet the client got %d", resp.StatusCode)
	}
	if got := f.post(t, "1", "k", `{}`); got != (answer{status: 202, body: "ok"}) {
		t.Errorf("third: %+v, want a fresh 202", got)
	}
	if got := f.post(t, "1", "k", `{}`); got != (answer{status: 202, body: "ok", replayed: "true"}) {
		t.Errorf("fourth: %+v, want the 202 replayed", got)
	}
}

func TestConcurrentRequestsWithOneKeyRunOnce(t *testing.T) {
	release := make(chan struct{})
	f := newFixture(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "made")
	})
	const n = 8
	var (
		wg      sync.WaitGroup
		answers [n]answer
	)
	for i := range n {
		wg.Go(func() { answers[i] = f.post(t, "1", "same", `{}`) })
	}
	for f.runs.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	replayed := 0
	for i, a := range answers {
		if a.status != 201 || a.body != "made" {
			t.Errorf("request %d: %+v, want 201 made", i, a)
		}
		if a.replayed == "true" {
			replayed++
		}
	}
	if runs := f.runs.Load(); runs != 1 || replayed != n-1 {
		t.Errorf("the handler ran %d times and %d answers were replays, want 1 and %d", runs, replayed, n-1)
	}
}

func TestKeysExpire(t *testing.T) {
	f := newFixture(t, nil)
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
}

func TestOversizedBodyIs413(t *testing.T) {
	f := newFixture(t, nil)
	got := f.post(t, "1", "k", strings.Repeat("x", 1025))
	want := answer{status: 413, body: `{"message":"The request body is too large."}`}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if n := f.runs.Load(); n != 0 {
		t.Errorf("the handler ran %d times, want 0", n)
	}
}

func TestMiddlewareNeedsAStore(t *testing.T) {
	if _, err := idempotency.Middleware(idempotency.Config{}); err == nil {
		t.Error("Middleware without a Store: no error")
	}
}
