package idempotency_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/idempotency"
)

// inUse is the answer to a request whose key another request holds.
var inUse = answer{status: 409, body: `{"message":"` + idempotency.MessageInUse + `"}`}

// holdingFixture is a fixture whose handler, for the key held, waits
// before it writes until release is called.
type holdingFixture struct {
	*fixture
	running chan struct{} // closed when the held request's handler runs
	release chan struct{}
}

func newHoldingFixture(t *testing.T, b backend, held string, configure func(*idempotency.Config)) *holdingFixture {
	t.Helper()
	h := &holdingFixture{running: make(chan struct{}), release: make(chan struct{})}
	var once sync.Once
	h.fixture = newFixture(t, b, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(idempotency.KeyHeader) == held {
			ran := false
			once.Do(func() { close(h.running); ran = true })
			if !ran {
				t.Error("the handler ran again for the held key") // the tests' run counts say so too
			}
			<-h.release
		}
		h.create(w, r)
	}, configure)
	return h
}

// start sends the held request and returns once its handler runs, with
// the channel its answer will come on.
func (h *holdingFixture) start(t *testing.T, key string) <-chan answer {
	t.Helper()
	a := make(chan answer, 1)
	go func() { a <- h.post(t, "1", key, `{}`) }()
	<-h.running
	return a
}

// Requests with the key of a request in flight are answered 409 with
// Retry-After at once, while the first still runs; a retry after it is
// done gets its answer. The handler runs once.
func TestConcurrentRequestsWithOneKey(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		f := newHoldingFixture(t, b, "same", nil)
		first := f.start(t, "same")
		var wg sync.WaitGroup
		for i := range 7 {
			wg.Go(func() {
				got, retryAfter, err := f.try(http.MethodPost, "1", []string{"same"}, `{}`)
				if err != nil || got != inUse || retryAfter != "1" {
					t.Errorf("request %d: %+v, Retry-After %q, %v; want %+v with Retry-After 1", i, got, retryAfter, err, inUse)
				}
			})
		}
		wg.Wait() // all answered while the first is still running
		close(f.release)
		want := answer{201, `{"run":1,"got":"{}"}`, "", "/things/7"}
		if got := <-first; got != want {
			t.Errorf("first: %+v, want %+v", got, want)
		}
		want.replayed = "true"
		if got := f.post(t, "1", "same", `{}`); got != want {
			t.Errorf("a retry after it: %+v, want %+v", got, want)
		}
		if got := f.post(t, "1", "same", `{"other":1}`); got.status != 422 {
			t.Errorf("the key with another request: %+v, want 422", got)
		}
		if n := f.runs.Load(); n != 1 {
			t.Errorf("the handler ran %d times, want 1", n)
		}
		f.checkTable(t, 1, 1)
	})
}

// A claim holds no connection until a write joins it: while a keyed
// request waits in its handler, the one connection the store writes
// through serves other keyed requests, their writes and their answers.
func TestClaimHoldsNoConnectionWhileWaiting(t *testing.T) {
	forEachBackend(t, 1, func(t *testing.T, b backend) {
		f := newHoldingFixture(t, b, "slow", nil)
		slow := f.start(t, "slow")
		for i := range 5 {
			if got := f.post(t, "1", fmt.Sprint("quick-", i), `{}`); got.status != 201 || got.replayed != "" {
				t.Errorf("quick request %d beside a waiting one: %+v, want a fresh 201", i, got)
			}
		}
		close(f.release)
		if got := <-slow; got.status != 201 {
			t.Errorf("the waiting request: %+v, want 201", got)
		}
		f.checkTable(t, 6, 6)
	})
}

// Once a write has begun a claim's transaction, the request's reads run in
// it: with one connection, concurrent keyed requests that write, read and
// write again all finish.
func TestReadsAfterAWriteJoinTheClaim(t *testing.T) {
	forEachBackend(t, 1, func(t *testing.T, b backend) {
		var f *fixture
		f = newFixture(t, b, func(w http.ResponseWriter, r *http.Request) {
			key := r.Header.Get(idempotency.KeyHeader)
			email := key + "@example.com"
			id, err := f.users.CreateUser(r.Context(), "First", email, []byte("x"))
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			found, _, err := f.users.PasswordHash(r.Context(), email) // sees its own write
			if err != nil || found != id {
				http.Error(w, fmt.Sprintf("read %d, %v; want %d", found, err, id), http.StatusInternalServerError)
				return
			}
			if _, err := f.users.CreateUser(r.Context(), "Second", key+"-2@example.com", []byte("x")); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.WriteHeader(http.StatusCreated)
		}, nil)
		const n = 8
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				if got := f.post(t, "1", fmt.Sprint("k", i), `{}`); got.status != 201 {
					t.Errorf("request %d: %+v, want 201", i, got)
				}
			})
		}
		wg.Wait()
		f.checkTable(t, 2*n, n)
	})
}

// The middleware renews the lease while the handler runs: a request that
// outlasts its first lease keeps its key, and its writes land. The test
// waits until the lease was renewed past its first end with a good part
// of a lease to go, so that a renewal that comes late on a loaded machine
// makes it slower, not wrong.
func TestLeaseIsRenewedWhileTheHandlerRuns(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		const lease = time.Second
		f := newHoldingFixture(t, b, "long", func(cfg *idempotency.Config) { cfg.Lease, cfg.Now = lease, time.Now })
		firstEnd := time.Now().Add(lease) // or sooner
		first := f.start(t, "long")
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				close(f.release)
				t.Fatalf("the lease was not renewed past its first end: it ends at %v", b.leaseEnd(t, "long"))
			}
			now := time.Now()
			if now.After(firstEnd) && b.leaseEnd(t, "long").After(now.Add(lease/2)) {
				break
			}
		}
		if got := f.post(t, "1", "long", `{}`); got != inUse {
			t.Errorf("a retry while the first runs, past its first lease: %+v, want %+v", got, inUse)
		}
		close(f.release)
		if got := <-first; got.status != 201 || got.replayed != "" {
			t.Errorf("the long request: %+v, want a fresh 201", got)
		}
		if n := f.runs.Load(); n != 1 {
			t.Errorf("the handler ran %d times, want 1", n)
		}
		f.checkTable(t, 1, 1)
	})
}

// A key whose holder died (a claim never renewed nor ended) is answered
// 409 until its lease ends, then taken over by the next request.
func TestDeadHoldersKeyIsTakenOver(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		f := newFixture(t, b, nil, nil)
		// A request's fingerprint, as recorded with its answer.
		first := f.post(t, "1", "recorded", `{}`)
		at := time.Unix(epoch, 0)
		k := idempotency.Key{Subject: "1", Key: "recorded", Now: at, Expires: at.Add(time.Hour), LeaseEnd: at.Add(idempotency.DefaultLease)}
		resp, _, err := b.keys.Claim(context.Background(), k)
		if err != nil || resp == nil {
			t.Fatalf("claiming a recorded key: %v, %v", resp, err)
		}
		// The same request under another key, claimed and then never
		// renewed nor ended, as by a process killed meanwhile.
		k.Key, k.Fingerprint = "dead", resp.Fingerprint
		if _, claim, err := b.keys.Claim(context.Background(), k); err != nil || claim == nil {
			t.Fatalf("claiming a new key: %v", err)
		}

		if got := f.post(t, "1", "dead", `{}`); got != inUse {
			t.Errorf("within the dead holder's lease: %+v, want %+v", got, inUse)
		}
		// The lease runs from when the claim's row landed, a little after
		// the request's time.
		f.clock.Store(int64(idempotency.DefaultLease/time.Second) + 1)
		got := f.post(t, "1", "dead", `{}`)
		if got.status != 201 || got.replayed != "" || got.body == first.body {
			t.Errorf("once the lease has ended: %+v, want a fresh 201", got)
		}
		if again := f.post(t, "1", "dead", `{}`); again.replayed != "true" || again.body != got.body {
			t.Errorf("its retry: %+v, want %s replayed", again, got.body)
		}
		f.checkTable(t, 2, 2)
	})
}
