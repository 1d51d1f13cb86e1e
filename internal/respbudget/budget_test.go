package respbudget

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"testing"
	"time"
)

// testConfig: a first lane of 256 bytes (16 first shares of 16, two per
// client) and a large lane of 768 (three shares of 256, one per client).
var testConfig = Config{Size: 1024, FirstShare: 16, MaxShare: 256, Wait: time.Minute}

func newTestBudget(t *testing.T, cfg Config) *Budget {
	t.Helper()
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var (
	alice = ClientAt("192.0.2.1:1000")
	bob   = ClientAt("192.0.2.2:1000")
	carol = ClientAt("192.0.2.3:1000")
)

// first takes a first share that must come at once.
func first(t *testing.T, b *Budget, c Client) Share {
	t.Helper()
	s, err := b.First(context.Background(), c)
	if err != nil {
		t.Fatalf("First(%s) = %v", c, err)
	}
	return s
}

// grown takes a first share and grows it to n, which must come at once.
func grown(t *testing.T, b *Budget, c Client, n int64) Share {
	t.Helper()
	s := first(t, b, c)
	if err := s.Grow(context.Background(), n); err != nil {
		t.Fatalf("Grow(%d) for %s = %v", n, c, err)
	}
	return s
}

// pending is a First or Grow running in its own goroutine.
type pending struct {
	done  chan error
	share *Share
}

// goFirst takes a first share for c with first (a Budget's First or
// FirstToOverdraw) in its own goroutine.
func goFirst(first func(context.Context, Client) (Share, error), ctx context.Context, c Client) *pending {
	p := &pending{done: make(chan error, 1), share: new(Share)}
	go func() {
		s, err := first(ctx, c)
		*p.share = s
		p.done <- err
	}()
	return p
}

func goGrow(ctx context.Context, s *Share, n int64) *pending {
	p := &pending{done: make(chan error, 1), share: s}
	go func() { p.done <- s.Grow(ctx, n) }()
	return p
}

// result waits for p's outcome.
func (p *pending) result(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("a waiter was never answered")
		return nil
	}
}

// waiting fails the test when p has been answered.
func (p *pending) waiting(t *testing.T, what string) {
	t.Helper()
	select {
	case err := <-p.done:
		t.Fatalf("%s: answered (%v), want it waiting", what, err)
	default:
	}
}

// waitQueue waits until lane li of b has n waiters.
func waitQueue(t *testing.T, b *Budget, li, n int) {
	t.Helper()
	for range 5000 {
		b.mu.Lock()
		got := len(b.lanes[li].queue)
		b.mu.Unlock()
		if got == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("lane %d: %d waiters never came", li, n)
}

// free returns the free bytes of both lanes.
func free(b *Budget) [2]int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return [2]int64{b.lanes[firstLane].free, b.lanes[largeLane].free}
}

// checkBalanced fails the test unless every byte b lent is accounted for:
// per lane, what the clients hold plus what is free is the lane, and the
// waiters counted per client are those in the queues.
func checkBalanced(t *testing.T, b *Budget, size int64) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	sizes := [2]int64{size / firstLaneDivisor, size - size/firstLaneDivisor}
	for li := range b.lanes {
		held, waiting := int64(0), map[*use]int32{}
		for _, u := range b.clients {
			held += u.held[li]
		}
		for _, w := range b.lanes[li].queue {
			waiting[w.u]++
		}
		if held+b.lanes[li].free != sizes[li] {
			t.Errorf("lane %d: clients hold %d and %d is free, want %d in all", li, held, b.lanes[li].free, sizes[li])
		}
		for c, u := range b.clients {
			if u.waiting[li] != waiting[u] {
				t.Errorf("lane %d: %s counted %d waiters, %d queue", li, c, u.waiting[li], waiting[u])
			}
		}
	}
}

// idle reports whether no client of b holds or waits for anything.
func idle(b *Budget) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, u := range b.clients {
		if !u.idle() {
			return false
		}
	}
	return true
}

// TestLanes: large shares never take the first lane, and a share that
// grows gives its first share back.
func TestLanes(t *testing.T) {
	b := newTestBudget(t, testConfig)
	large := []Share{grown(t, b, alice, 256), grown(t, b, bob, 256), grown(t, b, carol, 256)}
	if got := free(b); got != [2]int64{256, 0} {
		t.Fatalf("free after three large shares = %v, want [256 0]", got)
	}
	// The large lane is full; a fourth large share waits, holding its
	// first share, and every first share still comes at once.
	dave := ClientAt("192.0.2.4:1")
	s := first(t, b, dave)
	p := goGrow(context.Background(), &s, 256)
	waitQueue(t, b, largeLane, 1)
	var small []Share
	for i := range 15 {
		small = append(small, first(t, b, ClientAt(fmt.Sprintf("198.51.100.%d:1", i+1))))
	}
	if got := free(b); got != [2]int64{0, 0} {
		t.Fatalf("free = %v, want [0 0]", got)
	}
	large[0].Release()
	if err := p.result(t); err != nil {
		t.Fatalf("the waiting growth: %v", err)
	}
	if got := free(b); got != [2]int64{16, 0} {
		t.Errorf("free once the fourth large share is granted = %v, want [16 0]: its first share is back", got)
	}
	for i := range small {
		small[i].Release()
	}
	s.Release()
	large[1].Release()
	large[2].Release()
	checkBalanced(t, b, testConfig.Size)
	if got := free(b); got != [2]int64{256, 768} || !idle(b) {
		t.Errorf("free after every release = %v, clients idle %v; want [256 768], idle", got, idle(b))
	}
}

// TestClientPart: one client holds at most its part of each lane; its
// further shares wait for its own, and others pass it.
func TestClientPart(t *testing.T) {
	b := newTestBudget(t, testConfig)
	ctx := context.Background()

	// First lane: two first shares per client.
	a1, a2 := first(t, b, alice), first(t, b, alice)
	p := goFirst(b.First, ctx, alice)
	waitQueue(t, b, firstLane, 1)
	bs := first(t, b, bob) // bob passes alice's waiter
	p.waiting(t, "alice's third first share")
	a1.Release()
	if err := p.result(t); err != nil {
		t.Fatalf("alice's third first share once her first is back: %v", err)
	}

	// Large lane: one share of MaxShare per client, though the lane
	// holds three.
	if err := a2.Grow(ctx, 256); err != nil {
		t.Fatal(err)
	}
	a3 := p.share
	g := goGrow(ctx, a3, 256)
	waitQueue(t, b, largeLane, 1)
	if err := bs.Grow(ctx, 256); err != nil { // bob passes alice's waiter
		t.Fatalf("bob's growth behind alice's waiting one: %v", err)
	}
	g.waiting(t, "alice's second large share")
	// Shrunk to what its answer holds, alice's first large share still
	// leaves no room for a second one of MaxShare.
	a2.Shrink(100)
	g.waiting(t, "alice's second large share, her first shrunk")
	a2.Release()
	if err := g.result(t); err != nil {
		t.Fatalf("alice's second large share once her first is written: %v", err)
	}
	a3.Release()
	bs.Release()
	checkBalanced(t, b, testConfig.Size)
}

// TestFirstComeFirstServed: a waiter the lane has no room for yet keeps
// its place: one behind it that would fit waits too, and they are served
// in their order.
func TestFirstComeFirstServed(t *testing.T) {
	b := newTestBudget(t, testConfig)
	ctx := context.Background()
	held := []Share{grown(t, b, alice, 256), grown(t, b, bob, 200)} // 312 free
	held = append(held, grown(t, b, carol, 256))                    // 56 free

	dave, erin := ClientAt("192.0.2.4:1"), ClientAt("192.0.2.5:1")
	d, e := first(t, b, dave), first(t, b, erin)
	gd := goGrow(ctx, &d, 100) // no room for 100
	waitQueue(t, b, largeLane, 1)
	ge := goGrow(ctx, &e, 50) // 50 would fit, but dave is first
	waitQueue(t, b, largeLane, 2)
	ge.waiting(t, "a growth that fits behind one that does not")
	held[1].Shrink(156) // 100 free: dave's 100 fits, erin's 50 not after it
	if err := gd.result(t); err != nil {
		t.Fatalf("dave: %v", err)
	}
	ge.waiting(t, "erin, with 0 bytes free")
	held[0].Release()
	if err := ge.result(t); err != nil {
		t.Fatalf("erin: %v", err)
	}
	for i := range held {
		held[i].Release()
	}
	d.Release()
	e.Release()
	checkBalanced(t, b, testConfig.Size)
}

// TestBoundedWait: a waiter is refused with ErrBusy once the wait is over
// or its context ends, keeps what it held, and lets those behind it in.
func TestBoundedWait(t *testing.T) {
	cfg := testConfig
	cfg.Wait = 50 * time.Millisecond
	b := newTestBudget(t, cfg)
	ctx := context.Background()
	var shares []Share
	for i := range 16 {
		shares = append(shares, first(t, b, ClientAt(fmt.Sprintf("198.51.100.%d:1", i+1))))
	}
	start := time.Now()
	if _, err := b.First(ctx, alice); !errors.Is(err, ErrBusy) {
		t.Fatalf("First with the lane full = %v, want ErrBusy", err)
	}
	if waited := time.Since(start); waited < cfg.Wait {
		t.Errorf("refused after %v, before the wait of %v", waited, cfg.Wait)
	}

	// A cancelled waiter is refused at once, and the one behind it,
	// which fits once it is gone, comes in.
	b.wait = time.Minute
	shares[0].Shrink(10) // 6 bytes free
	shares[1].Release()  // 22: the large shares below pass through
	shares[2].Release()  // 38
	cctx, cancel := context.WithCancel(ctx)
	held := grown(t, b, alice, 256)
	held2 := grown(t, b, bob, 256)
	held3 := grown(t, b, carol, 200)
	s := first(t, b, ClientAt("192.0.2.4:1"))
	// 56 free in the large lane: a growth to 100 waits, one to 50 behind it.
	gave := goGrow(cctx, &s, 100)
	waitQueue(t, b, largeLane, 1)
	s2 := first(t, b, ClientAt("192.0.2.5:1"))
	behind := goGrow(ctx, &s2, 50)
	waitQueue(t, b, largeLane, 2)
	cancel()
	if err := gave.result(t); !errors.Is(err, ErrBusy) {
		t.Fatalf("a cancelled growth = %v, want ErrBusy", err)
	}
	if s.Size() != 16 || s.lane != firstLane {
		t.Errorf("a refused growth left the share at %d bytes in lane %d, want its first share", s.Size(), s.lane)
	}
	if err := behind.result(t); err != nil {
		t.Fatalf("the growth behind a cancelled one: %v", err)
	}
	for _, x := range []*Share{&held, &held2, &held3, &s, &s2} {
		x.Release()
	}
	for i := range shares {
		shares[i].Release()
	}
	checkBalanced(t, b, cfg.Size)
}

// TestLargeShareNeverWaits: growth in the large lane is granted at once or
// refused at once; Overdraw is always granted, and holds others back until
// it is given back; MaxShare bounds both.
func TestLargeShareNeverWaits(t *testing.T) {
	b := newTestBudget(t, testConfig)
	ctx := context.Background()
	a, bs, c := grown(t, b, alice, 200), grown(t, b, bob, 256), grown(t, b, carol, 256) // 56 free
	if err := a.Grow(ctx, 256); err != nil || a.Size() != 256 {
		t.Fatalf("Grow(256) of a 200-byte share with 56 free = %v, size %d", err, a.Size())
	}
	c.Shrink(100) // 156 free
	if err := c.Grow(ctx, 257); !errors.Is(err, ErrTooLarge) || c.Size() != 100 {
		t.Errorf("Grow past MaxShare = %v, size %d; want ErrTooLarge, 100", err, c.Size())
	}
	if err := c.Grow(ctx, 256); err != nil {
		t.Fatalf("Grow(256) of a 100-byte share with 156 free = %v", err)
	}
	bs.Shrink(10)                                      // 246 free
	other := grown(t, b, ClientAt("192.0.2.9:1"), 200) // 46 free
	start := time.Now()
	if err := bs.Grow(ctx, 100); !errors.Is(err, ErrBusy) || bs.Size() != 10 {
		t.Errorf("Grow with no room in the large lane = %v, size %d; want ErrBusy, 10", err, bs.Size())
	}
	if waited := time.Since(start); waited > time.Second {
		t.Errorf("a refused growth in the large lane waited %v", waited)
	}

	// A mutation's answer overdraws: it is granted past the lane, and
	// others wait until it is repaid.
	m := first(t, b, ClientAt("192.0.2.10:1"))
	if err := m.Overdraw(256); err != nil || m.Size() != 256 {
		t.Fatalf("Overdraw(256) = %v, size %d", err, m.Size())
	}
	if got := free(b); got != [2]int64{256, 46 - 256} {
		t.Errorf("free after the overdraft = %v, want [256 %d]: the first share is back", got, 46-256)
	}
	s := first(t, b, ClientAt("192.0.2.11:1"))
	g := goGrow(ctx, &s, 40)
	waitQueue(t, b, largeLane, 1)
	m.Shrink(200)
	g.waiting(t, "a growth while the overdraft is not repaid")
	m.Release()
	if err := g.result(t); err != nil {
		t.Fatalf("the growth once the overdraft is repaid: %v", err)
	}
	if m != (Share{}) {
		t.Errorf("a released share is %+v, want the zero Share", m)
	}
	m = first(t, b, ClientAt("192.0.2.10:1"))
	if err := m.Overdraw(300); !errors.Is(err, ErrTooLarge) || m.Size() != 16 {
		t.Errorf("Overdraw past MaxShare = %v, size %d; want ErrTooLarge, 16", err, m.Size())
	}
	for _, x := range []*Share{&a, &bs, &c, &other, &s, &m} {
		x.Release()
	}
	checkBalanced(t, b, testConfig.Size)
}

// TestClientsSwept: the entries of clients that hold nothing are kept for
// their next request, and swept out once there are many: the map stays
// within twice the clients that hold something, or minSweep.
func TestClientsSwept(t *testing.T) {
	b := newTestBudget(t, Config{Size: 1 << 30, FirstShare: 16, MaxShare: 256, Wait: time.Second})
	held := first(t, b, alice)
	for i := range 3 * minSweep {
		s := first(t, b, ClientAt(fmt.Sprintf("10.%d.%d.1:1", i/256, i%256)))
		s.Release()
		if n := len(b.clients); n > minSweep {
			t.Fatalf("%d clients kept after %d came and went, want at most %d", n, i+1, minSweep)
		}
	}
	if u := b.clients[alice]; u == nil || u.held[firstLane] != 16 {
		t.Errorf("alice, who holds a share, was swept out: %v", u)
	}
	held.Release()
	checkBalanced(t, b, 1<<30)
}

// TestNew: zero settings are the defaults, a FirstShare over MaxShare is
// MaxShare, and New refuses negative settings, no MaxShare, and sizes that
// could never be granted.
func TestNew(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{cfg: Config{Size: -1, MaxShare: 256},
			want: "respbudget: a size of -1 bytes, a first share of 0 and a wait of 0s: none may be negative"},
		{cfg: Config{Size: 1024, FirstShare: -16, MaxShare: 256},
			want: "respbudget: a size of 1024 bytes, a first share of -16 and a wait of 0s: none may be negative"},
		{cfg: Config{Size: 1024, FirstShare: 16, MaxShare: 256, Wait: -time.Second},
			want: "respbudget: a size of 1024 bytes, a first share of 16 and a wait of -1s: none may be negative"},
		{cfg: Config{Size: 1024, FirstShare: 16},
			want: "respbudget: a budget needs a positive bound on each answer"},
		{cfg: Config{Size: 60, FirstShare: 16, MaxShare: 16, Wait: time.Second},
			want: "respbudget: a first share of 16 bytes is larger than the quarter of the 60-byte budget kept for first shares"},
		{cfg: Config{Size: 1024, FirstShare: 16, MaxShare: 769, Wait: time.Second},
			want: "respbudget: an answer of up to 769 bytes is larger than the three quarters of the 1024-byte budget that large answers share, which could never hold it"},
		{cfg: Config{Size: 1 << 19, MaxShare: 256 << 10},
			want: "respbudget: a first share of 262144 bytes is larger than the quarter of the 524288-byte budget kept for first shares"},
	} {
		if _, err := New(c.cfg); err == nil || err.Error() != c.want {
			t.Errorf("New(%+v) = %v, want %q", c.cfg, err, c.want)
		}
	}
	if _, err := New(Config{Size: 1024, FirstShare: 16, MaxShare: 768, Wait: time.Second}); err != nil {
		t.Errorf("New with MaxShare the whole large lane = %v", err)
	}
	b, err := New(Config{MaxShare: 16 << 20})
	if err != nil || b.lanes[firstLane].free != DefaultSize/4 || b.FirstShare() != DefaultFirstShare || b.wait != DefaultWait {
		t.Errorf("New with the defaults = %v: first lane %d, first share %d, wait %v", err, b.lanes[firstLane].free, b.FirstShare(), b.wait)
	}
	if b, err := New(Config{Size: 1024, FirstShare: 300, MaxShare: 200}); err != nil || b.FirstShare() != 200 {
		t.Errorf("New with FirstShare over MaxShare = %v; want a first share of MaxShare", err)
	}
}

// TestClientAt: IPv4 addresses are clients of their own; the addresses of
// one IPv6 /64 are one client; an IPv4-mapped address is its IPv4 one.
func TestClientAt(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{a: "192.0.2.1:1000", b: "192.0.2.1:2000", same: true},
		{a: "192.0.2.1:1000", b: "192.0.2.2:1000"},
		{a: "192.0.2.1:1000", b: "[::ffff:192.0.2.1]:1000", same: true},
		{a: "[2001:db8:1:2::1]:1", b: "[2001:db8:1:2:ffff::9]:2", same: true},
		{a: "[2001:db8:1:2::1]:1", b: "[2001:db8:1:3::1]:1"},
		{a: "[fe80::1%eth0]:1", b: "[fe80::2%eth1]:1", same: true},
		{a: "192.0.2.1", b: "192.0.2.1:80", same: true},
		{a: "@", b: "pipe", same: true}, // unreadable: one client
		{a: "@", b: "192.0.2.1:1"},
	} {
		if got := ClientAt(c.a) == ClientAt(c.b); got != c.same {
			t.Errorf("ClientAt(%q) == ClientAt(%q): %v, want %v", c.a, c.b, got, c.same)
		}
	}
	if got := ClientAt("[2001:db8:1:2::1]:1").String(); got != "2001:db8:1:2::" {
		t.Errorf("String() = %q, want the /64's first address", got)
	}
}

// FuzzClientAt: ClientAt's fast path for IPv4 addresses with a port
// tells clients apart as net/netip does.
func FuzzClientAt(f *testing.F) {
	for _, s := range []string{"192.0.2.1:1000", "192.0.2.1", "0.0.0.0:0", "255.255.255.255:65535", "256.1.1.1:1",
		"[::1]:80", "[::ffff:1.2.3.4]:80", "::ffff:1.2.3.4", "1.2.3.4:", ":80", "[fe80::1%eth0]:1", "2001:db8::1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		if _, err := netip.ParseAddrPort(addr); err != nil {
			return // not what a server's RemoteAddr holds
		}
		if got, want := ClientAt(addr), clientAt(addr); got != want {
			t.Errorf("ClientAt(%q) = %#v, netip reads %#v", addr, got, want)
		}
	})
}

// BenchmarkShare measures what one small answer costs the budget: its
// client read from RemoteAddr, a first share, shrinking it once the
// answer is built, and releasing it.
func BenchmarkShare(b *testing.B) {
	budget, err := New(Config{Size: 64 << 20, FirstShare: 256 << 10, MaxShare: 16 << 20, Wait: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := budget.First(ctx, ClientAt("192.0.2.1:54321"))
		if err != nil {
			b.Fatal(err)
		}
		s.Shrink(3000)
		s.Release()
	}
}
