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
	"net/http"
	"sync"
	"time"
)

// Chunk is how much of an answer a client must take within the timeout.
// Answers smaller than Chunk are written at once, unwatched: the
// connection's buffers hold them.
const Chunk = 64 << 10

// Write writes parts to w in order, the concatenation being one answer
// whose status and headers are sent already. When timeout is positive and
// the parts hold Chunk bytes or more, it writes them Chunk bytes at a time
// and cuts the client off when it takes none of a chunk within timeout:
// the connection's write deadline is set to now, which ends the write
// under way, and net/http closes the connection. It returns the first
// write error: the client went away, or was cut off.
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
	wd := &watchdog{rc: http.NewResponseController(w)}
	wd.timer = time.AfterFunc(timeout, wd.cut)
	defer wd.stop()
	for _, p := range parts {
		for len(p) > 0 {
			k := min(len(p), Chunk)
			if _, err := w.Write(p[:k]); err != nil {
				return err
			}
			p = p[k:]
			wd.timer.Reset(timeout)
		}
	}
	return nil
}

// watchdog cuts a stalled client off (see Write).
type watchdog struct {
	rc    *http.ResponseController
	timer *time.Timer
	mu    sync.Mutex
	done  bool // the handler has written: the writer is no longer its
}

func (wd *watchdog) cut() {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if !wd.done {
		_ = wd.rc.SetWriteDeadline(time.Now()) // http.ErrNotSupported: not watched
	}
}

func (wd *watchdog) stop() {
	wd.timer.Stop()
	wd.mu.Lock()
	wd.done = true
	wd.mu.Unlock()
}
