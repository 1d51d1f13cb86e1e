package respbudget

import (
	"context"
	"time"
)

// Share is the bytes of a [Budget] lent to one answer, in one lane: a
// first share until it grows, then a share of the large lane. Release it
// once the answer is written. The zero Share holds nothing, and its
// methods do nothing.
type Share struct {
	b    *Budget
	u    *use // its client's entry
	lane int
	n    int64
	// waitEnd, once the share has waited, is when its waits must end:
	// they last Config.Wait all together.
	waitEnd time.Time
}

// Size returns the bytes the share holds.
func (s *Share) Size() int64 { return s.n }

// Grow makes the share hold n bytes (nothing changes when it holds that
// much already). A first share moves to the large lane: it waits for n
// bytes there in turn, while ctx lasts and at most Config.Wait with what
// it waited for its first share, keeping its first share meanwhile, and
// gives the first share back once granted.
// A share of the large lane never waits: the n bytes are granted at once
// or refused. The refusal is ErrBusy (the share keeps what it held), or
// ErrTooLarge when n is over Config.MaxShare.
func (s *Share) Grow(ctx context.Context, n int64) error {
	if more, err := s.asks(n); !more {
		return err
	}
	b := s.b
	b.mu.Lock()
	if s.growNow(n) {
		b.mu.Unlock()
		return nil
	}
	now, end := time.Now(), s.waitEnd
	if end.IsZero() {
		end = now.Add(b.wait)
	}
	if s.lane == largeLane || !now.Before(end) {
		b.mu.Unlock()
		return ErrBusy
	}
	w := b.enqueue(largeLane, s.u, n, s.n, false)
	b.mu.Unlock()
	if err := b.await(ctx, largeLane, w, end); err != nil {
		return err
	}
	s.lane, s.n = largeLane, n
	return nil
}

// TryGrow is Grow that never waits, for an answer that may not wait
// while it holds something others need (a database connection): the n
// bytes are granted at once, when the large lane and the client's part of
// it have room (and, for a first share, nobody waits in the lane before
// it), or refused with ErrBusy, the share keeping what it held; n over
// Config.MaxShare is refused with ErrTooLarge.
func (s *Share) TryGrow(n int64) error {
	if more, err := s.asks(n); !more {
		return err
	}
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if !s.growNow(n) {
		return ErrBusy
	}
	return nil
}

// growNow grants the share n bytes of the large lane at once if it can
// (see TryGrow), and reports whether it did. b.mu is held.
func (s *Share) growNow(n int64) bool {
	b, u := s.b, s.u
	if s.lane == firstLane {
		if !b.take(largeLane, u, n, s.n) {
			return false
		}
	} else {
		l, add := &b.lanes[largeLane], n-s.n
		if l.free < add || !u.within(l, largeLane, add) {
			return false
		}
		l.free -= add
		u.held[largeLane] += add
	}
	s.lane, s.n = largeLane, n
	return true
}

// Overdraw makes the share hold n bytes of the large lane at once, past
// the lane's room and the client's part if need be; the bytes overdrawn
// hold others back until they are given back. It is for an answer that may
// neither wait nor fail once its work is done (a mutation's: its writes
// cannot be undone, and a client told to retry would repeat them), whose
// first share came from [Budget.FirstToOverdraw]: that is what bounds a
// client's overdrafts. It refuses only n over Config.MaxShare, with
// ErrTooLarge.
func (s *Share) Overdraw(n int64) error {
	if more, err := s.asks(n); !more {
		return err
	}
	b := s.b
	b.mu.Lock()
	defer b.mu.Unlock()
	add := n
	if s.lane == largeLane {
		add -= s.n
	}
	b.lanes[largeLane].free -= add
	s.u.held[largeLane] += add
	if s.lane == firstLane {
		b.giveBack(firstLane, s.u, s.n)
	}
	s.lane, s.n = largeLane, n
	return nil
}

// asks reports whether the share must grow to hold n bytes, or why it may
// not (ErrTooLarge).
func (s *Share) asks(n int64) (bool, error) {
	switch {
	case s.b == nil || n <= s.n:
		return false, nil
	case n > s.b.max:
		return false, ErrTooLarge
	}
	return true, nil
}

// Shrink gives back all but n bytes of the share, once the answer is
// built and holds n bytes: while it is written, it holds no more than it
// needs. A share that holds n bytes or fewer is left as it is.
func (s *Share) Shrink(n int64) {
	if s.b == nil || n >= s.n {
		return
	}
	n = max(n, 0)
	s.b.mu.Lock()
	s.b.giveBack(s.lane, s.u, s.n-n)
	s.b.mu.Unlock()
	s.n = n
}

// Release gives the whole share back; the share is then the zero Share.
// Releasing it again does nothing.
func (s *Share) Release() {
	s.Shrink(0)
	*s = Share{}
}
