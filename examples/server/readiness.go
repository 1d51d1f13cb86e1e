package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/rs/zerolog"
)

// readyTimeout bounds the database ping of a readiness check: a probe
// that waits longer than that learns nothing a failure would not tell.
const readyTimeout = time.Second

// pinger is the database/sql pool behind the posts store.
type pinger interface {
	PingContext(ctx context.Context) error
}

// ready is GET /readyz, the readiness check: 200 {"status":"ready"} while
// the database answers a ping within readyTimeout, 503
// {"status":"unavailable"} otherwise (the cause is logged, never sent).
// The ping takes a connection of the pool for its own length only.
//
// /healthz keeps its answer; /readyz is the one an orchestrator should
// take a server out of rotation on. On SQLite, the database is unreachable
// when its file is gone (a volume unmounted or the folder removed): the
// open connections still hold the old file, which no new process would
// find, so the server is not ready although a ping would answer.
func ready(db *database) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"message": "Method not allowed."})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		defer cancel()
		if err := db.ping(ctx); err != nil {
			zerolog.Ctx(r.Context()).Warn().Err(err).Msg("readiness check: database unreachable")
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	})
}

// ping checks that the database answers: on SQLite, that its file is
// still there, then a ping of the readers' pool; on PostgreSQL a ping of
// the pool, which opens a connection when the pooled ones are broken.
func (db *database) ping(ctx context.Context) error {
	if db.path != "" {
		if _, err := os.Stat(db.path); err != nil {
			return fmt.Errorf("the database file: %w", err)
		}
	}
	p, ok := db.posts.db.(pinger)
	if !ok {
		return errors.New("the database cannot be pinged")
	}
	return p.PingContext(ctx)
}
