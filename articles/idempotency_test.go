package articles_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// keyed serves e's store as the example server mounts it with
// idempotency keys: verifier, then keys, then the handler. While
// failAfter is set, the handler's answer is replaced by a 500 after it
// ran, as when the process fails between the write and the answer.
func keyed(t *testing.T, e *env, failAfter *atomic.Bool) *httptest.Server {
	t.Helper()
	s, ok := e.store.(interface{ Idempotency() *sqlstore.Keys })
	if !ok {
		t.Fatalf("no idempotency keys in a %T", e.store)
	}
	keys := s.Idempotency()
	nop := slog.New(slog.DiscardHandler)
	mw, err := idempotency.Middleware(idempotency.Config{Store: keys, Presenter: apierror.Presenter{Logger: nop}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := articles.NewHandler(e.store, articles.Config{Presenter: apierror.Presenter{Logger: nop}})
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{})
	if err != nil {
		t.Fatal(err)
	}
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !failAfter.Load() {
			h.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		http.Error(w, "lost", http.StatusInternalServerError)
	})
	srv := httptest.NewServer(verifier.Optional(mw(inner)))
	t.Cleanup(srv.Close)
	return srv
}

func postKeyed(t *testing.T, srv *httptest.Server, token, key, body string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/articles", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set(idempotency.KeyHeader, key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header.Get(idempotency.ReplayedHeader)
}

// TestIdempotentCreateCommitsWithTheKey: the store's insert runs in the
// key's transaction, so an answer that is not recorded (a 500) takes the
// article with it, and a retry creates it once.
func TestIdempotentCreateCommitsWithTheKey(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		_, token := e.user("Ada")
		var failAfter atomic.Bool
		failAfter.Store(true)
		srv := keyed(t, e, &failAfter)
		body := `{"title":"Once","body":"Text","published":true}`
		if status, _, _ := postKeyed(t, srv, token, "k", body); status != http.StatusInternalServerError {
			t.Fatalf("first try: %d, want the injected 500", status)
		}
		if n := e.total(); n != 0 {
			t.Fatalf("after a 500 under a key %d articles exist, want 0: the insert must roll back with the key", n)
		}
		failAfter.Store(false)
		status, first, replayed := postKeyed(t, srv, token, "k", body)
		if status != http.StatusCreated || replayed != "" {
			t.Fatalf("retry: %d %s (replayed %q), want a fresh 201", status, first, replayed)
		}
		status, again, replayed := postKeyed(t, srv, token, "k", body)
		if status != http.StatusCreated || again != first || replayed != "true" {
			t.Errorf("second retry: %d %s (replayed %q), want %s replayed", status, again, replayed, first)
		}
		if n := e.total(); n != 1 {
			t.Errorf("%d articles exist, want 1", n)
		}
	})
}

// TestIdempotentCreateConcurrent sends one keyed create from many clients
// at once: one article is written; each client gets its answer, or a 409
// while the first is in flight, and then the answer when it retries.
func TestIdempotentCreateConcurrent(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		_, token := e.user("Ada")
		var failAfter atomic.Bool
		srv := keyed(t, e, &failAfter)
		const n = 8
		body := `{"title":"Once","body":"Text","published":true}`
		var (
			wg     sync.WaitGroup
			bodies [n]string
			status [n]int
		)
		for i := range n {
			wg.Go(func() {
				status[i], bodies[i], _ = postKeyed(t, srv, token, "same", body)
			})
		}
		wg.Wait()
		inUse := `{"message":"` + idempotency.MessageInUse + `"}`
		var created string
		for i := range n {
			switch {
			case status[i] == http.StatusCreated && (created == "" || bodies[i] == created):
				created = bodies[i]
			case status[i] != http.StatusConflict || bodies[i] != inUse:
				t.Errorf("client %d: %d %s, want 201 (the same for all) or 409 %s", i, status[i], bodies[i], inUse)
			}
		}
		if created == "" {
			t.Fatal("no client got the article")
		}
		if status, again, replayed := postKeyed(t, srv, token, "same", body); status != http.StatusCreated || again != created || replayed != "true" {
			t.Errorf("a retry after them: %d %s (replayed %q), want %s replayed", status, again, replayed, created)
		}
		if got := e.total(); got != 1 {
			t.Errorf("%d articles exist, want 1", got)
		}
	})
}

// total counts the published articles through the store.
func (e *env) total() int64 {
	e.t.Helper()
	var page articles.Page
	if err := e.store.ListPublished(e.t.Context(), 1, 0, &page); err != nil {
		e.t.Fatal(err)
	}
	return page.Total
}
