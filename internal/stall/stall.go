// Package stall writes answers so that a client that stops reading holds
// them no longer than a timeout: the handlers of the kit that build an
// answer in memory (graphqlhttp, articles) write it through [Write], and a
// client that takes none of it for the timeout is cut off, which gives back
// what the answer holds (its buffer, its share of a response budget).
//
// Only the connection's write deadline is used, through
// [http.ResponseController]: it is brought forward, never put back, so the
// server's WriteTimeout always holds too. A writer that cannot set
// deadlines (a middleware's wrapper without Unwrap) is written to without
// a watch.
package stall

import (
	"errors"
	"net/http"
	"sync"
	"time"
)

// DefaultTimeout is the stall timeout of the kit's handlers when their
// Config leaves it zero (5 s: a client must take Chunk bytes at 13 KB/s at
// least); they define their own public defaults from it.
const DefaultTimeout = 5 * time.Second

// Chunk is how much of an answer a client must take within the timeout.
// Answers smaller than Chunk are written at once, unwatched: the
// connection's buffers hold them.
const Chunk = 64 << 10

// Write writes parts to w in order, the concatenation being one answer
// whose status and headers are sent already, and flushes it: it must be
// the last write of the answer. When timeout is positive and the parts
// hold Chunk bytes or more, it writes them Chunk bytes at a time, then
// flushes what the writer buffers, and cuts the client off when one of
// these writes takes longer than timeout: the connection's write deadline
// is set to now, which ends the write under way, and net/http closes the
// connection. A write that has returned is never cut afterwards, so a
// client that took the last byte in time gets the whole answer. Write
// returns the first write error: the client went away, or was cut off.
func Write(w http.ResponseWriter, timeout time.Duration, parts ...[]byte) error {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if timeout <= 0 || n < Chunk {
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		return nil
	}
	wd := &watchdog{rc: http.NewResponseController(w), timeout: timeout}
	wd.timer = time.AfterFunc(timeout, wd.check)
	defer wd.stop()
	for _, p := range parts {
		for len(p) > 0 {
			k := min(len(p), Chunk)
			wd.begin()
			_, err := w.Write(p[:k])
			wd.end()
			if err != nil {
				return err
			}
			p = p[k:]
		}
	}
	// What the writer buffers goes out under the watch too: once Write
	// has returned, nothing is left for a cut to truncate.
	wd.begin()
	err := wd.rc.Flush()
	wd.end()
	if errors.Is(err, http.ErrNotSupported) {
		err = nil
	}
	return err
}

// watchdog cuts a stalled client off (see Write): its timer checks, at
// the latest timeout after a write began, whether that write is still
// under way, and only then cuts. Writes begin and end under mu, as do
// checks, so a write that has ended is never cut.
type watchdog struct {
	rc      *http.ResponseController
	timeout time.Duration
	timer   *time.Timer

	mu    sync.Mutex
	busy  bool      // a write is under way
	since time.Time // when it began
	done  bool      // Write has returned: the writer is no longer its
}

// begin notes that a write begins, and arms the timer for it.
func (wd *watchdog) begin() {
	wd.mu.Lock()
	wd.busy, wd.since = true, time.Now()
	wd.mu.Unlock()
	wd.timer.Reset(wd.timeout)
}

// end notes that the write has returned.
func (wd *watchdog) end() {
	wd.mu.Lock()
	wd.busy = false
	wd.mu.Unlock()
}

// check cuts the client off when a write has been under way for the
// timeout; a timer that fired early (armed for an earlier write) is
// armed again for what is left.
func (wd *watchdog) check() {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if wd.done || !wd.busy {
		return
	}
	if left := wd.timeout - time.Since(wd.since); left > 0 {
		wd.timer.Reset(left)
		return
	}
	_ = wd.rc.SetWriteDeadline(time.Now()) // http.ErrNotSupported: not watched
}

// stop ends the watch: no check cuts once it has returned.
func (wd *watchdog) stop() {
	wd.mu.Lock()
	wd.done = true
	wd.mu.Unlock()
	wd.timer.Stop()
}
