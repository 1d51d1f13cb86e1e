package reqlog

import (
	"context"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/rs/xid"
	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/internal/respwriter"
)

// Header is the request and response header that carries the request id.
const Header = "X-Request-Id"

// MaxIDLength is the longest incoming request id that is honoured.
const MaxIDLength = 64

// maxPathLength caps the path written to the access log, so that a long
// URL cannot make every log line that long.
const maxPathLength = 2048

type idKey struct{}

// ID returns the request id that [Handler] put in ctx, and whether there
// is one.
func ID(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(idKey{}).(string)
	return id, ok
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
// access log line per request to logger. See the package documentation for
// the id rules and the fields logged.
func Handler(logger zerolog.Logger) func(http.Handler) http.Handler {
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
				ctx = context.WithValue(ctx, idKey{}, id)
			}
			// A logger of its own per request: inner handlers may add fields
			// with UpdateContext, and the access line carries them.
			l := logger.With().Str("request_id", id).Logger()
			ctx = l.WithContext(ctx)
			// WithContext stores a copy, the one inner handlers update; a
			// disabled logger it may not store at all.
			access := zerolog.Ctx(ctx)
			if l.GetLevel() == zerolog.Disabled {
				access = &l
			}
			w.Header().Set(Header, id)

			rec := &respwriter.Recorder{ResponseWriter: w}
			returned := false
			defer func() {
				status := rec.Status
				if status == 0 && returned && !rec.Hijacked {
					status = http.StatusOK // what net/http sends for a handler that wrote nothing
				}
				var e *zerolog.Event
				switch {
				case !returned || status >= 500 && status != http.StatusServiceUnavailable:
					e = access.Error()
				case status >= 400:
					// 503 too: the server shed load or could not reach a
					// dependency, and what could not answer has logged
					// its cause at error itself.
					e = access.Warn()
				default:
					e = access.Info()
				}
				e = e.Str("method", method).
					Str("path", truncate(path, maxPathLength)).
					Int("status", status).
					Int64("bytes", rec.Bytes).
					Dur("duration", time.Since(start))
				if !returned {
					e = e.Bool("panic", true)
				}
				e.Msg("request")
			}()
			next.ServeHTTP(rec, r.WithContext(ctx))
			returned = true
		})
	}
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
