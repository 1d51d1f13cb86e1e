package respbudget

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrBusy is the refusal of a share, or of its growth, that the budget
// could not grant in time: the lane, or the client's part of it, stayed
// full. Answer it with 503 and Retry-After: the server is busy, the
// client is not wrong.
var ErrBusy = errors.New("respbudget: no room in the response budget")

// ErrTooLarge is the refusal of a share asked to grow past
// Config.MaxShare.
var ErrTooLarge = errors.New("respbudget: a share larger than the largest answer")

// Defaults of [Config]: the handlers of the kit that lend their answers
// a budget (graphqlhttp, articles) define their own public defaults from
// these.
const (
	// DefaultSize is the bytes all shares together may hold (64 MiB).
	DefaultSize = 64 << 20
	// DefaultFirstShare is the share every answer starts with (256 KiB),
	// which holds almost every answer.
	DefaultFirstShare = 256 << 10
	// DefaultWait bounds the waits of one share (10 s).
	DefaultWait = 10 * time.Second
)

// MessageBusy is what a client is told when its answer got no share, or
// no growth, in time (ErrBusy): the message of a 503 with Retry-After.
const MessageBusy = "The server is busy; try again shortly."

// Config sizes a [Budget]. Its zero value means the defaults, but for
// MaxShare, which is required.
type Config struct {
	// Size is the bytes all shares together may hold; 0 means
	// DefaultSize.
	Size int64
	// FirstShare is the share every answer starts with (see
	// [Budget.First]); 0 means DefaultFirstShare. A FirstShare over
	// MaxShare is MaxShare.
	FirstShare int64
	// MaxShare is the most one share may hold, the bound of one answer,
	// and the most one client may take by growth in the large lane.
	MaxShare int64
	// Wait bounds the waits of one share, all together: its first share
	// and its growth (see [Share.Grow]); 0 means DefaultWait.
	Wait time.Duration
}

// The parts of the budget (see the package documentation).
const (
	// firstLaneDivisor: the first lane is Size/firstLaneDivisor.
	firstLaneDivisor = 4
	// clientFirstDivisor: one client holds at most the first lane over
	// clientFirstDivisor in it.
	clientFirstDivisor = 8
)

// Budget lends bytes of a memory budget to answers. Make one with [New].
type Budget struct {
	first, max int64
	wait       time.Duration

	mu    sync.Mutex
	lanes [2]lane
	// clients holds what each client holds and how many of its shares
	// wait, per lane. An entry that holds nothing and waits for nothing
	// stays until the map has grown to sweepAt entries: a client's next
	// request finds it, and shares and waiters keep a pointer to it
	// instead of looking it up.
	clients map[Client]*use
	sweepAt int
}

// minSweep is the least number of clients the map keeps before idle ones
// are swept out.
const minSweep = 1024

// The lanes, indexes of Budget.lanes.
const (
	firstLane = 0
	largeLane = 1
)

// lane is one part of the budget and its queue.
type lane struct {
	free int64 // negative after an overdraft
	// perClient bounds what one client holds in the lane.
	perClient int64
	queue     []*waiter
	// stalled: the last grant stopped at a waiter that the lane had no
	// room for; newcomers queue behind it.
	stalled bool
}

// use is what one client holds and how many of its shares wait, per lane.
type use struct {
	held    [2]int64
	waiting [2]int32
	// anyone: the entry of the zero Client, every request whose address
	// could not be read, which has no part of its own: only the lanes
	// bound it.
	anyone bool
}

// within reports whether the client of u may hold n more bytes of lane l,
// lane li: its part has room for them.
func (u *use) within(l *lane, li int, n int64) bool {
	return u.anyone || u.held[li]+n <= l.perClient
}

// idle reports whether the client holds nothing and waits for nothing.
func (u *use) idle() bool {
	return u.held == [2]int64{} && u.waiting == [2]int32{}
}

// waiter is a share waiting in a lane's queue.
type waiter struct {
	u *use  // its client's
	n int64 // the bytes it waits for
	// from is what it holds in the first lane, given back once it is
	// granted n in the large lane.
	from int64
	// overdraws: a first share of FirstToOverdraw, passed over while its
	// client holds its part of the large lane.
	overdraws bool
	ready     chan struct{} // closed once granted
	granted   bool          // set with ready closed, under Budget.mu
}

// New returns a budget of cfg.Size bytes. It refuses negative settings,
// a MaxShare of 0, and sizes under which a first share or a share of
// MaxShare could never be granted.
func New(cfg Config) (*Budget, error) {
	switch {
	case cfg.Size < 0 || cfg.FirstShare < 0 || cfg.Wait < 0:
		return nil, fmt.Errorf("respbudget: a size of %d bytes, a first share of %d and a wait of %v: none may be negative", cfg.Size, cfg.FirstShare, cfg.Wait)
	case cfg.MaxShare <= 0:
		return nil, errors.New("respbudget: a budget needs a positive bound on each answer")
	case cfg.Size == 0:
		cfg.Size = DefaultSize
	}
	if cfg.FirstShare == 0 {
		cfg.FirstShare = DefaultFirstShare
	}
	if cfg.Wait == 0 {
		cfg.Wait = DefaultWait
	}
	cfg.FirstShare = min(cfg.FirstShare, cfg.MaxShare)
	firstLaneSize := cfg.Size / firstLaneDivisor
	switch {
	case firstLaneSize < cfg.FirstShare:
		return nil, fmt.Errorf("respbudget: a first share of %d bytes is larger than the quarter of the %d-byte budget kept for first shares", cfg.FirstShare, cfg.Size)
	case cfg.Size-firstLaneSize < cfg.MaxShare:
		return nil, fmt.Errorf("respbudget: an answer of up to %d bytes is larger than the three quarters of the %d-byte budget that large answers share, which could never hold it", cfg.MaxShare, cfg.Size)
	}
	b := &Budget{first: cfg.FirstShare, max: cfg.MaxShare, wait: cfg.Wait, clients: map[Client]*use{}, sweepAt: minSweep}
	b.lanes[firstLane] = lane{free: firstLaneSize, perClient: max(firstLaneSize/clientFirstDivisor, cfg.FirstShare)}
	b.lanes[largeLane] = lane{free: cfg.Size - firstLaneSize, perClient: cfg.MaxShare}
	return b, nil
}

// FirstShare returns the size of a first share.
func (b *Budget) FirstShare() int64 { return b.first }

// First lends c a first share, Config.FirstShare bytes of the first lane,
// waiting in turn while the lane or c's part of it is full, at most
// Config.Wait and while ctx lasts. It returns ErrBusy when no share came
// in time.
func (b *Budget) First(ctx context.Context, c Client) (Share, error) {
	return b.firstShare(ctx, c, false)
}

// FirstToOverdraw is First for an answer that may [Share.Overdraw] once
// it is built (a mutation's). Besides what First waits for, it waits
// while c holds its part of the large lane (Config.MaxShare) or more, so
// that one client's overdrafts stay bounded (see the package
// documentation).
func (b *Budget) FirstToOverdraw(ctx context.Context, c Client) (Share, error) {
	return b.firstShare(ctx, c, true)
}

// firstShare is First, or FirstToOverdraw when overdraws is set.
func (b *Budget) firstShare(ctx context.Context, c Client, overdraws bool) (Share, error) {
	b.mu.Lock()
	u := b.client(c)
	s := Share{b: b, u: u, n: b.first}
	if (!overdraws || b.mayOverdraw(u)) && b.take(firstLane, u, b.first, 0) {
		b.mu.Unlock()
		return s, nil
	}
	s.waitEnd = time.Now().Add(b.wait)
	w := b.enqueue(firstLane, u, b.first, 0, overdraws)
	b.mu.Unlock()
	if err := b.await(ctx, firstLane, w, s.waitEnd); err != nil {
		return Share{}, err
	}
	return s, nil
}

// mayOverdraw reports whether the client of u may start an answer that
// may overdraw: it holds less than its part of the large lane. b.mu is
// held.
func (b *Budget) mayOverdraw(u *use) bool {
	return u.anyone || u.held[largeLane] < b.lanes[largeLane].perClient
}

// client returns the entry of c, made when there is none; the idle
// entries are swept out first when the map has grown to sweepAt. b.mu is
// held.
func (b *Budget) client(c Client) *use {
	if u := b.clients[c]; u != nil {
		return u
	}
	if len(b.clients) >= b.sweepAt {
		for k, u := range b.clients {
			if u.idle() {
				delete(b.clients, k)
			}
		}
		b.sweepAt = max(minSweep, 2*len(b.clients))
	}
	u := &use{anyone: c == Client{}}
	b.clients[c] = u
	return u
}

// take grants n bytes of lane li to the client of u at once when the lane
// and the client's part of it have room and nobody waits in front: none
// that the lane could not serve, none of the client's own. from is what
// the client gives back from the first lane in exchange. b.mu is held.
func (b *Budget) take(li int, u *use, n, from int64) bool {
	l := &b.lanes[li]
	if l.stalled || u.waiting[li] > 0 || l.free < n || !u.within(l, li, n) {
		return false
	}
	l.free -= n
	u.held[li] += n
	if from > 0 {
		b.giveBack(firstLane, u, from)
	}
	return true
}

// enqueue puts a waiter for n bytes of lane li at the end of its queue,
// then lets the lane grant what it can (the waiter too, if it fits after
// all). b.mu is held.
func (b *Budget) enqueue(li int, u *use, n, from int64, overdraws bool) *waiter {
	w := &waiter{u: u, n: n, from: from, overdraws: overdraws, ready: make(chan struct{})}
	l := &b.lanes[li]
	l.queue = append(l.queue, w)
	u.waiting[li]++
	b.grant(li)
	return w
}

// await waits until w is granted, until end and while ctx lasts; a
// waiter that gives up leaves the queue, and ErrBusy is returned.
func (b *Budget) await(ctx context.Context, li int, w *waiter, end time.Time) error {
	timer := time.NewTimer(time.Until(end))
	defer timer.Stop()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	case <-timer.C:
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if w.granted { // granted meanwhile: the share is the caller's
		return nil
	}
	l := &b.lanes[li]
	for i, x := range l.queue {
		if x == w {
			l.queue = append(l.queue[:i], l.queue[i+1:]...)
			break
		}
	}
	w.u.waiting[li]--
	b.grant(li) // w may have been the waiter the others were behind
	return ErrBusy
}

// grant hands lane li's room out to its waiters in their order: a waiter
// whose client holds its part of the lane is passed over (it waits on its
// own shares), as is a first share to overdraw whose client holds its
// part of the large lane, and the first one the lane has no room for
// stops the rest (first come, first served). A waiter for the large lane gives its first
// share back once granted, and the first lane then grants in turn.
// b.mu is held.
func (b *Budget) grant(li int) {
	l := &b.lanes[li]
	l.stalled = false
	if len(l.queue) == 0 {
		return
	}
	var returned bool
	kept := l.queue[:0]
	for _, w := range l.queue {
		u := w.u
		switch {
		case l.stalled, !u.within(l, li, w.n), w.overdraws && !b.mayOverdraw(u):
			kept = append(kept, w)
			continue
		case l.free < w.n:
			l.stalled = true
			kept = append(kept, w)
			continue
		}
		l.free -= w.n
		u.held[li] += w.n
		u.waiting[li]--
		if w.from > 0 {
			b.lanes[firstLane].free += w.from
			u.held[firstLane] -= w.from
			returned = true
		}
		w.granted = true
		close(w.ready)
	}
	clear(l.queue[len(kept):])
	l.queue = kept
	if returned {
		b.grant(firstLane)
	}
}

// giveBack returns n bytes that the client of u holds in lane li, and
// lets the lane's waiters in; bytes of the large lane may let in a first
// share to overdraw too. b.mu is held.
func (b *Budget) giveBack(li int, u *use, n int64) {
	l := &b.lanes[li]
	l.free += n
	u.held[li] -= n
	if len(l.queue) > 0 {
		b.grant(li)
	}
	if li == largeLane && len(b.lanes[firstLane].queue) > 0 {
		b.grant(firstLane)
	}
}
