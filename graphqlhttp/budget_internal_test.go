package graphqlhttp

import (
	"context"
	"testing"
	"time"
)

// TestBudgetQueue: shares are handed out first come, first served; a
// waiter that gives up lets those behind it through.
func TestBudgetQueue(t *testing.T) {
	b := newBudget(10)
	ctx := context.Background()
	if !b.acquire(ctx, 10, time.Second) {
		t.Fatal("acquire(10) of an empty budget of 10 = false")
	}
	if b.acquire(ctx, 1, 10*time.Millisecond) {
		t.Fatal("acquire(1) of a spent budget = true, want false after the wait")
	}

	big, small := make(chan bool), make(chan bool)
	go func() { big <- b.acquire(ctx, 8, time.Minute) }()
	waitQueue(t, b, 1)
	go func() { small <- b.acquire(ctx, 3, time.Minute) }()
	waitQueue(t, b, 2)
	b.release(9) // 9 free: the 8 goes first, the 3 must wait behind it
	if !<-big {
		t.Fatal("the first waiter was not granted")
	}
	waitQueue(t, b, 1)
	b.release(9) // 10 free: the 3 fits
	if !<-small {
		t.Fatal("the second waiter was not granted")
	}

	// 3 taken, 7 free; take 6 more. A waiter for 5 gives up; the 1
	// behind it (which fitted, but queued in turn) gets in.
	if !b.acquire(ctx, 6, time.Second) {
		t.Fatal("acquire(6) of 7 free = false")
	}
	cctx, cancel := context.WithCancel(ctx)
	gaveUp := make(chan bool)
	go func() { gaveUp <- b.acquire(cctx, 5, time.Minute) }()
	waitQueue(t, b, 1)
	behind := make(chan bool)
	go func() { behind <- b.acquire(ctx, 1, time.Minute) }()
	waitQueue(t, b, 2)
	cancel()
	if <-gaveUp {
		t.Error("a cancelled waiter was granted")
	}
	if !<-behind {
		t.Error("the waiter behind a cancelled one was not granted")
	}
	b.mu.Lock()
	free := b.free
	b.mu.Unlock()
	if free != 0 {
		t.Errorf("free = %d, want 0", free)
	}
}

// waitQueue waits until n requests wait in b.
func waitQueue(t *testing.T, b *budget, n int) {
	t.Helper()
	for range 1000 {
		b.mu.Lock()
		got := len(b.waiters)
		b.mu.Unlock()
		if got == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%d waiters never came", n)
}
