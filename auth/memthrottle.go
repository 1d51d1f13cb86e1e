package auth

import (
	"context"
	"sync"
	"time"
)

// DefaultThrottleKeys is how many keys a [MemoryThrottle] holds at most
// when [NewMemoryThrottle] is given zero.
const DefaultThrottleKeys = 100_000

// MemoryThrottle is a [LoginThrottle] that keeps its counts in the
// process, in at most a fixed number of keys. Build it with
// [NewMemoryThrottle]; it is safe for concurrent use. Its counts are the
// process's own: processes behind a load balancer each count apart (use
// the LoginThrottle of a SQL store to count together).
//
// # Memory
//
// Only [MemoryThrottle.Fail] adds keys, and [Login] calls it only after a
// password check, so the keys grow at the rate of bcrypt comparisons (two
// per failed login), whatever the rate of requests. Expired keys are
// swept out at most once a minute, so a key lasts at most its window and
// a minute. A failed login adds two keys, its account's and its pair's,
// of about 100 bytes each (see [Login]): the default cap of
// [DefaultThrottleKeys] (100,000) is about 10 MB, and is reached with the
// default windows only when failed logins of new e-mail addresses go on
// at some 90 a second for a quarter of an hour, the bcrypt work of half a
// dozen cores at the default cost.
//
// # When it is full
//
// A new key then takes the place of an old one: an expired one if a sweep
// (at most once a second while full) finds any, else the one with the
// fewest failures, the earliest window end breaking ties, among 16 taken
// at random. Refusing new keys instead would refuse the logins of
// everybody new, which is what an attacker filling the throttle wants;
// evicting at random would let him erase the failures of the account he
// is guessing at. As it is, a key forgotten is almost always a key with
// one failure (a typo, or one of the flood's own), and erasing a key
// with many takes a throttle full of keys with as many, each bought with
// as many bcrypt checks.
type MemoryThrottle struct {
	maxKeys int

	mu      sync.Mutex
	entries map[string]memoryCount
	swept   time.Time // when the expired entries were last swept out
}

// memoryCount is the count of one key, in 16 bytes.
type memoryCount struct {
	failures int64
	until    int64 // Unix nanoseconds
}

// Intervals of the sweeps of a MemoryThrottle, and its eviction sample.
const (
	memorySweepEvery     = time.Minute
	memoryFullSweepEvery = time.Second
	memoryEvictionSample = 16
)

// NewMemoryThrottle returns a MemoryThrottle holding at most maxKeys keys;
// zero or less means [DefaultThrottleKeys].
func NewMemoryThrottle(maxKeys int) *MemoryThrottle {
	if maxKeys <= 0 {
		maxKeys = DefaultThrottleKeys
	}
	return &MemoryThrottle{maxKeys: maxKeys, entries: make(map[string]memoryCount)}
}

// Failures implements [LoginThrottle]. It never fails.
func (t *MemoryThrottle) Failures(_ context.Context, keys []string, now time.Time) ([]ThrottleCount, error) {
	counts := make([]ThrottleCount, len(keys))
	at := now.UnixNano()
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, k := range keys {
		if c, ok := t.entries[k]; ok && at < c.until {
			counts[i] = ThrottleCount{Failures: int(c.failures), Until: time.Unix(0, c.until)}
		}
	}
	return counts, nil
}

// Fail implements [LoginThrottle]. It never fails.
func (t *MemoryThrottle) Fail(_ context.Context, keys []ThrottleKey, now time.Time) error {
	at := now.UnixNano()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sweep(now, memorySweepEvery)
	for _, k := range keys {
		c, ok := t.entries[k.Key]
		if !ok || at >= c.until {
			if !ok && len(t.entries) >= t.maxKeys {
				t.makeRoom(now)
			}
			c = memoryCount{until: now.Add(k.Window).UnixNano()}
		}
		c.failures++
		t.entries[k.Key] = c
	}
	return nil
}

// Reset implements [LoginThrottle]. It never fails.
func (t *MemoryThrottle) Reset(_ context.Context, key string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.entries, key)
	return nil
}

// sweep deletes the expired entries, unless it did within every, and
// reports whether it swept.
func (t *MemoryThrottle) sweep(now time.Time, every time.Duration) bool {
	if now.Sub(t.swept) < every {
		return false
	}
	at := now.UnixNano()
	for k, c := range t.entries {
		if at >= c.until {
			delete(t.entries, k)
		}
	}
	t.swept = now
	return true
}

// makeRoom deletes one entry of a full throttle, or the expired ones (see
// the type's documentation).
func (t *MemoryThrottle) makeRoom(now time.Time) {
	if t.sweep(now, memoryFullSweepEvery) && len(t.entries) < t.maxKeys {
		return
	}
	at := now.UnixNano()
	var (
		victim string
		least  memoryCount
		seen   int
	)
	for k, c := range t.entries { // in an order of the runtime's choosing
		if at >= c.until {
			victim = k
			break
		}
		if seen == 0 || c.failures < least.failures || c.failures == least.failures && c.until < least.until {
			victim, least = k, c
		}
		if seen++; seen == memoryEvictionSample {
			break
		}
	}
	delete(t.entries, victim)
}
