package auth

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

var throttleNow = time.Date(2025, time.March, 4, 12, 0, 0, 0, time.UTC)

// failAt counts a failure of each of keys, with window, at throttleNow + d.
func failAt(t *testing.T, mt *MemoryThrottle, d, window time.Duration, keys ...string) {
	t.Helper()
	tk := make([]ThrottleKey, len(keys))
	for i, k := range keys {
		tk[i] = ThrottleKey{Key: k, Window: window}
	}
	if err := mt.Fail(context.Background(), tk, throttleNow.Add(d)); err != nil {
		t.Fatalf("Fail: %v", err)
	}
}

// failuresOf returns the failures of key in mt at throttleNow + d.
func failuresOf(t *testing.T, mt *MemoryThrottle, d time.Duration, key string) int {
	t.Helper()
	c, err := mt.Failures(context.Background(), []string{key}, throttleNow.Add(d))
	if err != nil {
		t.Fatalf("Failures: %v", err)
	}
	return c[0].Failures
}

func TestNewMemoryThrottle(t *testing.T) {
	for _, tt := range []struct{ arg, want int }{{0, DefaultThrottleKeys}, {-1, DefaultThrottleKeys}, {3, 3}} {
		if got := NewMemoryThrottle(tt.arg).maxKeys; got != tt.want {
			t.Errorf("NewMemoryThrottle(%d) holds %d keys; want %d", tt.arg, got, tt.want)
		}
	}
}

// TestMemoryThrottleSweeps: a flood of distinct keys leaves at most the
// keys of one window and a minute, and an hour later one key.
func TestMemoryThrottleSweeps(t *testing.T) {
	mt := NewMemoryThrottle(0)
	const perWindow = 1000
	for w := range 10 {
		for i := range perWindow {
			failAt(t, mt, time.Duration(w)*time.Minute+time.Duration(i)*50*time.Millisecond, time.Minute, fmt.Sprintf("k%d-%d", w, i))
		}
		if n := len(mt.entries); n > 2*perWindow {
			t.Fatalf("after window %d: %d entries; want at most %d", w, n, 2*perWindow)
		}
	}
	failAt(t, mt, time.Hour, time.Minute, "last")
	if n := len(mt.entries); n != 1 {
		t.Errorf("after an hour: %d entries; want 1", n)
	}
}

// TestMemoryThrottleFull: a full throttle never holds more keys than its
// cap; a new key takes the place of an expired one when there is one,
// else of one with the fewest failures, so that a flood of new keys does
// not erase the failures of a key guessed at.
func TestMemoryThrottleFull(t *testing.T) {
	const maxKeys = 100
	mt := NewMemoryThrottle(maxKeys)
	for i := range 5 {
		failAt(t, mt, time.Duration(i)*time.Second, 15*time.Minute, "a:guessed")
	}
	for i := range maxKeys - 1 {
		failAt(t, mt, 5*time.Second, 15*time.Minute, fmt.Sprintf("a:typo-%d", i))
	}
	if n := len(mt.entries); n != maxKeys {
		t.Fatalf("%d entries; want %d", n, maxKeys)
	}
	// A flood of new keys, ten times the cap, within the window.
	for i := range 10 * maxKeys {
		failAt(t, mt, 10*time.Second+time.Duration(i)*time.Millisecond, 15*time.Minute, fmt.Sprintf("a:flood-%d", i))
		if n := len(mt.entries); n > maxKeys {
			t.Fatalf("after %d new keys: %d entries; want at most %d", i+1, n, maxKeys)
		}
	}
	if got := failuresOf(t, mt, time.Minute, "a:guessed"); got != 5 {
		t.Errorf("the key guessed at has %d failures after the flood; want 5", got)
	}
	// A key with failures keeps them when it fails again while full.
	failAt(t, mt, time.Minute, 15*time.Minute, "a:guessed")
	if got := failuresOf(t, mt, time.Minute, "a:guessed"); got != 6 {
		t.Errorf("the key guessed at has %d failures; want 6", got)
	}

	// Keys of a shorter window expire: while full, a new key sweeps them
	// all out at once, a second after the last sweep, without waiting
	// for the minute of the regular sweeps.
	mt = NewMemoryThrottle(maxKeys)
	for i := range maxKeys / 2 {
		failAt(t, mt, 0, 10*time.Second, fmt.Sprintf("c:%d", i))
		failAt(t, mt, 0, 15*time.Minute, fmt.Sprintf("a:%d", i))
	}
	failAt(t, mt, 20*time.Second, 15*time.Minute, "a:new")
	if n := len(mt.entries); n != maxKeys/2+1 {
		t.Errorf("after the pairs' window: %d entries; want %d", n, maxKeys/2+1)
	}
}

// TestMemoryThrottleMemory measures what a key of Login costs, against
// the hundred bytes the documentation gives.
func TestMemoryThrottleMemory(t *testing.T) {
	const keys = 20000
	mt := NewMemoryThrottle(keys)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keys / 2 {
		account, pair := throttleKeys(fmt.Sprintf("user%d@example.com", i), "203.0.113.7")
		failAt(t, mt, 0, time.Minute, account, pair)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perKey := float64(after.HeapAlloc-before.HeapAlloc) / keys
	t.Logf("%.0f bytes per key", perKey)
	if perKey > 110 {
		t.Errorf("%.0f bytes per key; the documentation says about 100", perKey)
	}
	runtime.KeepAlive(mt)
}
