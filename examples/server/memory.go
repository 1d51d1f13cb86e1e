package main

import (
	"context"
	"math"
	"net/http"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// applyMemoryLimit sets the Go runtime's soft memory limit from
// MEMORY_LIMIT (512 MiB by default): past it the garbage collector runs
// more often, so that the heap stays near the limit under load. -1 means
// GOMEMLIMIT is set and the runtime already applied it; 0 means no limit.
func applyMemoryLimit(limit int64, logger *zerolog.Logger) {
	switch {
	case limit < 0:
		logger.Info().Int64("memory_limit", debug.SetMemoryLimit(-1)).Msg("memory limit: GOMEMLIMIT")
		return
	case limit == 0:
		debug.SetMemoryLimit(math.MaxInt64)
		logger.Info().Msg("memory limit: none")
		return
	}
	debug.SetMemoryLimit(limit)
	logger.Info().Int64("memory_limit", limit).Msgf("memory limit: %d MiB", limit>>20)
}

// idleTracker counts requests in flight and notes when the last one
// ended, so that the server can give memory back once it is idle.
type idleTracker struct {
	inFlight atomic.Int64
	lastEnd  atomic.Int64 // Unix nanoseconds
	released atomic.Bool  // memory was given back since the last request
}

func (t *idleTracker) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.inFlight.Add(1)
		t.released.Store(false)
		defer func() {
			t.lastEnd.Store(time.Now().UnixNano())
			t.inFlight.Add(-1)
		}()
		next.ServeHTTP(w, r)
	})
}

// releaseWhenIdle returns the heap's free memory to the operating system
// once no request has run for idle: Go's garbage collector otherwise keeps
// what a burst of large answers took, and runs only every two minutes
// when nothing allocates.
func (t *idleTracker) releaseWhenIdle(ctx context.Context, idle time.Duration, logger *zerolog.Logger) {
	tick := time.NewTicker(max(idle/3, 100*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		quiet := time.Since(time.Unix(0, t.lastEnd.Load()))
		if t.inFlight.Load() > 0 || quiet < idle || t.released.Load() {
			continue
		}
		t.released.Store(true)
		debug.FreeOSMemory()
		logger.Debug().Dur("idle", quiet).Msg("idle: memory given back")
	}
}
