package auth_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// throttles are the LoginThrottle implementations the conformance tests
// run against: in memory, and in the tables of the two stores
// (PostgreSQL: skipped when TEST_DATABASE_URL is unset).
var throttles = []struct {
	name string
	open func(t *testing.T) auth.LoginThrottle
}{
	{name: "memory", open: func(*testing.T) auth.LoginThrottle { return auth.NewMemoryThrottle(0) }},
	{name: "sqlite", open: func(t *testing.T) auth.LoginThrottle { return testdb.SQLitePools(t).Throttle() }},
	{name: "postgres", open: func(t *testing.T) auth.LoginThrottle { s, _ := testdb.Postgres(t); return s.Throttle() }},
}

// throttleStep is one call of a conformance sequence, d after testNow:
// op "fail" (Fail of fail), "reset" (Reset of reset) or "read" (Failures
// of read, whose answer must be want).
type throttleStep struct {
	d     time.Duration
	op    string
	fail  []auth.ThrottleKey
	reset string
	read  []string
	want  []throttleWant
}

// throttleWant is an expected count: failures, and the end of the window
// in seconds after testNow.
type throttleWant struct {
	failures int
	until    int
}

func (w throttleWant) count() auth.ThrottleCount {
	if w.failures == 0 {
		return auth.ThrottleCount{}
	}
	return auth.ThrottleCount{Failures: w.failures, Until: testNow.Add(time.Duration(w.until) * time.Second)}
}

// TestLoginThrottles runs one sequence of failures, reads, resets and
// windows against every implementation, with exact answers.
func TestLoginThrottles(t *testing.T) {
	pair := auth.ThrottleKey{Key: "c:pair", Window: time.Minute}
	account := auth.ThrottleKey{Key: "a:account", Window: 15 * time.Minute}
	both := []auth.ThrottleKey{pair, account}
	keys := []string{pair.Key, account.Key}
	steps := []throttleStep{
		{d: 0, op: "read", read: keys, want: []throttleWant{{}, {}}},
		{d: 0, op: "read", read: nil, want: []throttleWant{}},
		{d: 0, op: "fail", fail: nil},
		{d: 0, op: "fail", fail: both},
		{d: 10 * time.Second, op: "read", read: keys, want: []throttleWant{{1, 60}, {1, 900}}},
		{d: 30 * time.Second, op: "fail", fail: both},
		{d: 30 * time.Second, op: "fail", fail: []auth.ThrottleKey{account, pair}}, // order does not matter
		{d: 30 * time.Second, op: "read", read: keys, want: []throttleWant{{3, 60}, {3, 900}}},
		// The order of the answers is that of the keys, and an unknown
		// key reads as none.
		{d: 30 * time.Second, op: "read", read: []string{account.Key, "c:other", pair.Key}, want: []throttleWant{{3, 900}, {}, {3, 60}}},
		{d: 30 * time.Second, op: "read", read: []string{account.Key}, want: []throttleWant{{3, 900}}},
		// The pair's window ends at 60 s: it reads as none, and its next
		// failure opens a new window; the account's goes on.
		{d: time.Minute - time.Microsecond, op: "read", read: keys, want: []throttleWant{{3, 60}, {3, 900}}},
		{d: time.Minute, op: "read", read: keys, want: []throttleWant{{}, {3, 900}}},
		{d: 70 * time.Second, op: "fail", fail: both},
		{d: 70 * time.Second, op: "read", read: keys, want: []throttleWant{{1, 130}, {4, 900}}},
		// A reset forgets one key only.
		{d: 80 * time.Second, op: "reset", reset: pair.Key},
		{d: 80 * time.Second, op: "reset", reset: "c:never-failed"},
		{d: 80 * time.Second, op: "read", read: keys, want: []throttleWant{{}, {4, 900}}},
		{d: 80 * time.Second, op: "fail", fail: []auth.ThrottleKey{pair}},
		{d: 80 * time.Second, op: "read", read: keys, want: []throttleWant{{1, 140}, {4, 900}}},
		// A failure at the very end of the account's window opens the next.
		{d: 15 * time.Minute, op: "fail", fail: both},
		{d: 15 * time.Minute, op: "read", read: keys, want: []throttleWant{{1, 960}, {1, 1800}}},
	}
	for _, th := range throttles {
		t.Run(th.name, func(t *testing.T) {
			throttle := th.open(t)
			ctx := context.Background()
			for i, s := range steps {
				now := testNow.Add(s.d)
				switch s.op {
				case "fail":
					if err := throttle.Fail(ctx, s.fail, now); err != nil {
						t.Fatalf("step %d: Fail(%v) at %v: %v", i, s.fail, s.d, err)
					}
				case "reset":
					if err := throttle.Reset(ctx, s.reset); err != nil {
						t.Fatalf("step %d: Reset(%q): %v", i, s.reset, err)
					}
				case "read":
					got, err := throttle.Failures(ctx, s.read, now)
					want := make([]auth.ThrottleCount, len(s.want))
					for j, w := range s.want {
						want[j] = w.count()
					}
					if err != nil || !sameCounts(got, want) {
						t.Errorf("step %d: Failures(%q) at %v = %v, %v; want %v", i, s.read, s.d, got, err, want)
					}
				}
			}
		})
	}
}

// sameCounts compares counts, their times with Equal.
func sameCounts(got, want []auth.ThrottleCount) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Failures != want[i].Failures || !got[i].Until.Equal(want[i].Until) {
			return false
		}
	}
	return true
}

// TestLoginThrottlesConcurrent: failures counted at once are all counted,
// each key's window opened once.
func TestLoginThrottlesConcurrent(t *testing.T) {
	const workers, each = 8, 25
	for _, th := range throttles {
		t.Run(th.name, func(t *testing.T) {
			throttle := th.open(t)
			ctx := context.Background()
			keys := []auth.ThrottleKey{{Key: "c:pair", Window: time.Minute}, {Key: "a:account", Window: 15 * time.Minute}}
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					for i := range each {
						now := testNow.Add(time.Duration(w*each+i) * time.Millisecond)
						if err := throttle.Fail(ctx, keys, now); err != nil {
							t.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			got, err := throttle.Failures(ctx, []string{"c:pair", "a:account"}, testNow.Add(time.Second))
			want := []auth.ThrottleCount{
				{Failures: workers * each, Until: testNow.Add(time.Minute)},
				{Failures: workers * each, Until: testNow.Add(15 * time.Minute)},
			}
			// The window opens at the first failure counted, which may be
			// any worker's first.
			for i := range got {
				if d := got[i].Until.Sub(want[i].Until); d >= 0 && d < workers*each*time.Millisecond {
					got[i].Until = want[i].Until
				}
			}
			if err != nil || !sameCounts(got, want) {
				t.Errorf("after %d concurrent failures: %v, %v; want %v", workers*each, got, err, want)
			}
		})
	}
}

// sqlThrottle is the login throttle of a SQL store, which can purge.
type sqlThrottle interface {
	auth.LoginThrottle
	Purge(ctx context.Context, now time.Time) error
}

// TestSQLThrottlePurge: Purge deletes the rows whose window has ended and
// keeps the others; Fail purges by itself at most once a minute.
func TestSQLThrottlePurge(t *testing.T) {
	for _, th := range throttles[1:] {
		t.Run(th.name, func(t *testing.T) {
			throttle := th.open(t).(sqlThrottle)
			ctx := context.Background()
			keys := []auth.ThrottleKey{{Key: "c:pair", Window: time.Minute}, {Key: "a:account", Window: 15 * time.Minute}}
			if err := throttle.Fail(ctx, keys, testNow); err != nil {
				t.Fatal(err)
			}
			read := func(what string, want ...auth.ThrottleCount) {
				t.Helper()
				// Read before the windows end: only a deleted row reads
				// as none.
				got, err := throttle.Failures(ctx, []string{"c:pair", "a:account"}, testNow)
				if err != nil || !sameCounts(got, want) {
					t.Errorf("%s: %v, %v; want %v", what, got, err, want)
				}
			}
			pairCount := auth.ThrottleCount{Failures: 1, Until: testNow.Add(time.Minute)}
			accountCount := auth.ThrottleCount{Failures: 1, Until: testNow.Add(15 * time.Minute)}
			if err := throttle.Purge(ctx, testNow.Add(time.Minute-time.Microsecond)); err != nil {
				t.Fatal(err)
			}
			read("purged just before the pair's window ends", pairCount, accountCount)
			if err := throttle.Purge(ctx, testNow.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			read("purged when the pair's window ends", auth.ThrottleCount{}, accountCount)

			// Fail purges by itself, the first time and then a minute
			// later at the earliest.
			other := []auth.ThrottleKey{{Key: "c:other", Window: time.Second}}
			if err := throttle.Fail(ctx, other, testNow.Add(16*time.Minute)); err != nil {
				t.Fatal(err)
			}
			read("after a failure at 16 minutes", auth.ThrottleCount{}, auth.ThrottleCount{})
			for _, d := range []time.Duration{16*time.Minute + 30*time.Second, 17*time.Minute - time.Microsecond} {
				if err := throttle.Fail(ctx, keys, testNow.Add(d)); err != nil {
					t.Fatal(err)
				}
			}
			n, err := throttle.Failures(ctx, []string{"c:other"}, testNow)
			if err != nil || fmt.Sprint(n) != fmt.Sprint([]auth.ThrottleCount{{Failures: 1, Until: testNow.Add(16*time.Minute + time.Second)}}) {
				t.Errorf("c:other before a minute since the last purge: %v, %v; want its row kept", n, err)
			}
			if err := throttle.Fail(ctx, keys, testNow.Add(17*time.Minute)); err != nil {
				t.Fatal(err)
			}
			if n, err := throttle.Failures(ctx, []string{"c:other"}, testNow); err != nil || n[0].Failures != 0 {
				t.Errorf("c:other a minute after the last purge: %v, %v; want its row deleted", n, err)
			}
		})
	}
}
