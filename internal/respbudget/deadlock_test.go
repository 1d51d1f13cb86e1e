package respbudget

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// workload runs goroutines of a few clients that take, grow, overdraw,
// shrink and release shares of b at random, holding them a while, so
// that lanes and clients' parts are full and shares wait. It returns how
// many of each call were granted and refused, once every goroutine is
// done, or fails the test when they are not done within limit.
func workload(t *testing.T, b *Budget, limit time.Duration) map[string]int {
	t.Helper()
	clients := make([]Client, 6)
	for i := range clients {
		clients[i] = ClientAt(fmt.Sprintf("203.0.113.%d:1", i+1))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[string]int{}
	count := func(what string, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			what += " refused"
		}
		outcomes[what]++
	}
	for g := range 48 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 1))
			ctx := context.Background()
			for range 60 {
				c := clients[r.IntN(len(clients))]
				kind := r.IntN(4)
				var s Share
				var err error
				if kind == 1 {
					s, err = b.FirstToOverdraw(ctx, c)
					count("first to overdraw", err)
				} else {
					s, err = b.First(ctx, c)
					count("first", err)
				}
				if err != nil {
					continue
				}
				switch kind {
				case 0:
					count("grow", s.Grow(ctx, 64+r.Int64N(961)))
				case 1:
					count("overdraw", s.Overdraw(64+r.Int64N(961)))
				case 2:
					if err := s.Grow(ctx, 512); err == nil {
						count("grow in the large lane", s.Grow(ctx, 1024))
					}
				}
				time.Sleep(time.Duration(r.IntN(1000)) * time.Microsecond)
				s.Shrink(r.Int64N(s.Size() + 1))
				time.Sleep(time.Duration(r.IntN(1000)) * time.Microsecond)
				s.Release()
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("shares still held or waiting after %v: deadlock", limit)
	}
	t.Logf("outcomes: %v", outcomes)
	return outcomes
}

// TestNoDeadlock: under the random workload, with waits long enough that
// none ends by its bound, every call returns: a cycle of waits would hang
// until the test's limit. No wait is refused, and once all are done every
// byte is back.
func TestNoDeadlock(t *testing.T) {
	cfg := Config{Size: 4096, FirstShare: 64, MaxShare: 1024, Wait: 10 * time.Minute}
	b := newTestBudget(t, cfg)
	outcomes := workload(t, b, time.Minute)
	for _, what := range []string{"first", "first to overdraw", "grow", "overdraw", "grow in the large lane"} {
		if outcomes[what] == 0 {
			t.Errorf("no %q: the test did not exercise it", what)
		}
	}
	// A refusal here is a wait that ended by its bound: none may.
	for _, what := range []string{"first refused", "first to overdraw refused", "grow refused"} {
		if outcomes[what] > 0 {
			t.Errorf("%d %q with a wait of %v", outcomes[what], what, cfg.Wait)
		}
	}
	checkBalanced(t, b, cfg.Size)
	if got := free(b); got != [2]int64{1024, 3072} || !idle(b) {
		t.Errorf("after every release: free %v, clients idle %v; want [1024 3072], idle", got, idle(b))
	}
}

// TestRefusalsUnderLoad: the same workload with short waits, so that
// shares are refused too: every refused wait leaves the budget as it was,
// and once all are done every byte is back.
func TestRefusalsUnderLoad(t *testing.T) {
	cfg := Config{Size: 4096, FirstShare: 64, MaxShare: 1024, Wait: 5 * time.Millisecond}
	b := newTestBudget(t, cfg)
	outcomes := workload(t, b, time.Minute)
	for _, what := range []string{"first", "grow", "grow refused"} {
		if outcomes[what] == 0 {
			t.Errorf("no %q: the test did not exercise it", what)
		}
	}
	checkBalanced(t, b, cfg.Size)
	if got := free(b); got != [2]int64{1024, 3072} || !idle(b) {
		t.Errorf("after every release: free %v, clients idle %v; want [1024 3072], idle", got, idle(b))
	}
}
