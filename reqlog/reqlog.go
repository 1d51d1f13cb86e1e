package reqlog

import (
	"context"
	"log/slog"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/rs/xid"

	"github.com/gqlkit/gqlkit/internal/respwriter"
)

// Header is the request and response header that carries the request id.
const Header = "X-Request-Id"

// MaxIDLength is the longest incoming request id that is honoured.
const MaxIDLength = 64

// maxPathLength caps the path written to the access log, so that a long
// URL cannot make every log line that long.
const maxPathLength = 2048

// IDKey is the key of the request id attribute on log lines: the access
// line's, the kit's handlers', and every line an [IDHandler] handles.
const IDKey = "request_id"

type stateKey struct{}

// state is what Handler puts in a request's context: its id and the logger
// it was given, in one value.
type state struct {
	id     string
	logger *slog.Logger
}

// ID returns the request id that [Handler] put in ctx, and whether there
// is one.
func ID(ctx context.Context) (string, bool) {
	if s, ok := ctx.Value(stateKey{}).(*state); ok {
		return s.id, true
	}
	return "", false
}

// Logger returns the logger that the innermost [Handler] of the request
// with context ctx was given, else [slog.Default]. The kit's handlers log
// there when their Config names no logger. It never returns nil.
func Logger(ctx context.Context) *slog.Logger {
	if s, ok := ctx.Value(stateKey{}).(*state); ok && s.logger != nil {
		return s.logger
	}
	return slog.Default()
}

// ValidID reports whether id would be honoured as an incoming request id:
// 1 to [MaxIDLength] characters, each a letter, a digit, or one of . _ : -
// (ASCII only).
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > MaxIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

// Handler returns middleware that gives every request an id and writes one
// access log line per request to logger (nil: [slog.Default] at the time
// of the request). See the package documentation for the id rules and the
// attributes logged.
func Handler(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			method, path := r.Method, r.URL.Path

			ctx := r.Context()
			id, ok := ID(ctx) // an outer reqlog.Handler already chose one
			if !ok {
				if id = r.Header.Get(Header); !ValidID(id) {
					id = xid.New().String()
				}
			}
			// This Handler's logger is the request's from here in, with
			// the id chosen outside or now.
			ctx = context.WithValue(ctx, stateKey{}, &state{id: id, logger: logger})
			w.Header().Set(Header, id)

			rec := &respwriter.Recorder{ResponseWriter: w}
			returned := false
			defer func() {
				status := rec.Status
				if status == 0 && returned && !rec.Hijacked {
					status = http.StatusOK // what net/http sends for a handler that wrote nothing
				}
				level := slog.LevelInfo
				switch {
				case !returned || status >= 500 && status != http.StatusServiceUnavailable:
					level = slog.LevelError
				case status >= 400:
					// 503 too: the server shed load or could not reach a
					// dependency, and what could not answer has logged
					// its cause at error itself.
					level = slog.LevelWarn
				}
				access(ctx, Logger(ctx), level, id, method, path, status, rec.Bytes, time.Since(start), !returned)
			}()
			inner := r.WithContext(ctx)
			next.ServeHTTP(rec, inner)
			returned = true
			if r.Pattern == "" {
				// The route a ServeMux inside matched, for middleware
				// outside (otelhttp names its span after it).
				r.Pattern = inner.Pattern
			}
		})
	}
}

// access writes the access line, when logger takes lines at level.
func access(ctx context.Context, logger *slog.Logger, level slog.Level, id, method, path string, status int, bytes int64, d time.Duration, panicked bool) {
	h := logger.Handler()
	if !h.Enabled(ctx, level) {
		return
	}
	rec := slog.NewRecord(time.Now(), level, "request", 0)
	rec.AddAttrs(
		slog.String(IDKey, id),
		slog.String("method", method),
		slog.String("path", truncate(path, maxPathLength)),
		slog.Int("status", status),
		slog.Int64("bytes", bytes),
		slog.Duration("duration", d))
	if panicked {
		rec.AddAttrs(slog.Bool("panic", true))
	}
	_ = h.Handle(ctx, rec) // a handler that cannot write has nobody to tell
}

// truncate cuts s to at most n bytes on a character boundary, marking the
// cut with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
