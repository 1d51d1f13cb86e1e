package respbudget

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTryGrow: TryGrow grants at once or refuses at once, never waits,
// keeps the client's part, does not pass the waiters of the large lane,
// and leaves a refused share as it was.
func TestTryGrow(t *testing.T) {
	b := newTestBudget(t, testConfig)
	start := time.Now()

	a := first(t, b, alice)
	if err := a.TryGrow(100); err != nil || a.Size() != 100 {
		t.Fatalf("TryGrow(100) of a first share = %v, size %d", err, a.Size())
	}
	if got := free(b); got != [2]int64{256, 668} {
		t.Errorf("free after a first share grew = %v, want [256 668]: the first share is back", got)
	}
	a2 := first(t, b, alice)
	if err := a2.TryGrow(200); !errors.Is(err, ErrBusy) || a2.Size() != 16 {
		t.Errorf("TryGrow past the client's part = %v, size %d; want ErrBusy, 16", err, a2.Size())
	}
	if err := a2.TryGrow(300); !errors.Is(err, ErrTooLarge) || a2.Size() != 16 {
		t.Errorf("TryGrow past MaxShare = %v, size %d; want ErrTooLarge, 16", err, a2.Size())
	}
	if err := a2.TryGrow(10); err != nil || a2.Size() != 16 {
		t.Errorf("TryGrow to less than the share holds = %v, size %d; want nil, 16", err, a2.Size())
	}

	bs, c := grown(t, b, bob, 256), grown(t, b, carol, 256)
	f := grown(t, b, ClientAt("192.0.2.6:1"), 100) // 56 free
	dave := first(t, b, ClientAt("192.0.2.4:1"))
	g := goGrow(context.Background(), &dave, 200)
	waitQueue(t, b, largeLane, 1)
	erin := first(t, b, ClientAt("192.0.2.5:1"))
	if err := erin.TryGrow(50); !errors.Is(err, ErrBusy) || erin.Size() != 16 {
		t.Errorf("TryGrow of a first share behind a waiter = %v, size %d; want ErrBusy, 16 (first come, first served)", err, erin.Size())
	}
	if err := a.TryGrow(150); err != nil || a.Size() != 150 {
		t.Errorf("TryGrow of a large share with room = %v, size %d; want nil, 150", err, a.Size())
	}
	if err := a.TryGrow(256); !errors.Is(err, ErrBusy) || a.Size() != 150 {
		t.Errorf("TryGrow of a large share without room = %v, size %d; want ErrBusy, 150", err, a.Size())
	}
	if waited := time.Since(start); waited > time.Second {
		t.Errorf("TryGrow waited: %v", waited)
	}
	c.Release()
	if err := g.result(t); err != nil {
		t.Errorf("the waiter once room came: %v", err)
	}

	var zero Share
	if err := zero.TryGrow(1 << 40); err != nil {
		t.Errorf("TryGrow of the zero Share = %v, want nil", err)
	}
	for _, s := range []*Share{&a, &a2, &bs, &dave, &erin, &f} {
		s.Release()
	}
	checkBalanced(t, b, testConfig.Size)
	if !idle(b) {
		t.Error("clients still hold shares once all are released")
	}
}
