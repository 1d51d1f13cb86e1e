package respbudget

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestZeroClientHasNoPart: the requests whose address cannot be read are
// the zero Client, which has no part of its own: it may take the whole of
// either lane, as that many clients of their own could.
func TestZeroClientHasNoPart(t *testing.T) {
	b := newTestBudget(t, testConfig)
	anyone := ClientAt("@") // a Unix socket's listener
	if anyone != (Client{}) {
		t.Fatalf("ClientAt(%q) = %v, want the zero Client", "@", anyone)
	}
	var shares []Share
	for range 16 { // the whole first lane; a client's part is two
		shares = append(shares, first(t, b, anyone))
	}
	for i := range 3 { // the whole large lane; a client's part is one
		if err := shares[i].TryGrow(256); err != nil {
			t.Fatalf("large share %d of the zero Client: %v", i+1, err)
		}
	}
	if got := free(b); got != [2]int64{256 - 13*16, 0} {
		t.Errorf("free = %v, want [%d 0]", got, 256-13*16)
	}
	// The lanes still bound it.
	if err := shares[3].TryGrow(100); !errors.Is(err, ErrBusy) {
		t.Errorf("growth past the large lane = %v, want ErrBusy", err)
	}
	for i := range shares {
		shares[i].Release()
	}
	checkBalanced(t, b, testConfig.Size)
}

// TestFirstToOverdraw: a client that holds its part of the large lane,
// by an overdraft, starts no other answer that may overdraw: its next
// first share to overdraw waits until it holds less, while its other
// first shares and other clients' come at once, and is refused once the
// wait is over.
func TestFirstToOverdraw(t *testing.T) {
	b := newTestBudget(t, testConfig)
	ctx := context.Background()
	m, err := b.FirstToOverdraw(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Overdraw(256); err != nil { // alice's part of the large lane
		t.Fatal(err)
	}
	p := goFirst(b.FirstToOverdraw, ctx, alice)
	waitQueue(t, b, firstLane, 1)
	q := first(t, b, alice) // a query is not held back
	bm, err := b.FirstToOverdraw(ctx, bob)
	if err != nil {
		t.Fatalf("bob's first share to overdraw: %v", err)
	}
	p.waiting(t, "alice's second first share to overdraw")
	m.Shrink(100) // her answer, built, holds less than her part
	if err := p.result(t); err != nil {
		t.Fatalf("alice's second first share to overdraw once she holds less than her part: %v", err)
	}
	m.Release()

	// Refused once the wait is over.
	if err := p.share.Overdraw(256); err != nil {
		t.Fatal(err)
	}
	b.wait = 50 * time.Millisecond
	if _, err := b.FirstToOverdraw(ctx, alice); !errors.Is(err, ErrBusy) {
		t.Errorf("a first share to overdraw while the client holds its part = %v, want ErrBusy", err)
	}
	for _, s := range []*Share{p.share, &q, &bm} {
		s.Release()
	}
	checkBalanced(t, b, testConfig.Size)
	if !idle(b) {
		t.Error("clients still hold shares once all are released")
	}
}

// TestWaitsTogether: a share's waits last Config.Wait all together: one
// that waited for its first share waits for its growth only what is left.
func TestWaitsTogether(t *testing.T) {
	cfg := testConfig
	// Waits of seconds, with a second of slack each side: the test's own
	// sleep may overrun on a loaded CI host (race detector, packages
	// tested in parallel), and a growth that waited afresh would end at 3s.
	cfg.Wait = 2 * time.Second
	b := newTestBudget(t, cfg)
	ctx := context.Background()
	var held []Share
	for _, c := range []Client{bob, carol, ClientAt("192.0.2.4:1")} {
		held = append(held, grown(t, b, c, 256)) // the large lane full
	}
	var small []Share
	for i := range 16 { // the first lane full
		small = append(small, first(t, b, ClientAt(fmt.Sprintf("198.51.100.%d:1", i+1))))
	}
	begin := time.Now()
	p := goFirst(b.First, ctx, alice)
	waitQueue(t, b, firstLane, 1)
	time.Sleep(time.Second)
	small[0].Release()
	if err := p.result(t); err != nil {
		t.Fatalf("the first share after 1s: %v", err)
	}
	err := p.share.Grow(ctx, 256) // the large lane stays full
	took := time.Since(begin)
	if !errors.Is(err, ErrBusy) || took > 2800*time.Millisecond {
		t.Errorf("the growth of a share that waited 1s for its first share: %v after %v in all; want ErrBusy by the 2s wait", err, took.Round(time.Millisecond))
	}
	p.share.Release()
	for _, group := range [][]Share{held, small} {
		for i := range group {
			group[i].Release()
		}
	}
	checkBalanced(t, b, cfg.Size)
}
