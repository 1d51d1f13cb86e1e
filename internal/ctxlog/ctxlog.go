// Package ctxlog holds the kit's one rule for where a handler logs and what
// every line carries. A line goes to the logger its Config names, else to
// the logger of the request's reqlog.Handler, else to [slog.Default]
// (reqlog.Logger holds the last two). It is logged with the request's
// context, so that the service's slog.Handler can add what the context
// holds (a trace id), and it carries the request id that reqlog gave the
// request, as "request_id". No handler of the kit fails silently, and a
// level the logger does not take costs a few context lookups: no record is
// made, nothing is allocated.
package ctxlog

import (
	"context"
	"log/slog"
	"runtime"
	"time"

	"github.com/gqlkit/gqlkit/reqlog"
)

// For returns the logger for a request with context ctx: configured when
// it is not nil, else [reqlog.Logger](ctx).
func For(ctx context.Context, configured *slog.Logger) *slog.Logger {
	if configured != nil {
		return configured
	}
	if ctx == nil {
		return slog.Default()
	}
	return reqlog.Logger(ctx)
}

// Enabled reports whether the logger for ctx (see [For]) takes lines at
// level: a caller that must compute an attribute asks first.
func Enabled(ctx context.Context, configured *slog.Logger, level slog.Level) bool {
	if ctx == nil {
		ctx = context.Background()
	}
	return For(ctx, configured).Handler().Enabled(ctx, level)
}

// Log writes one line with message msg and attrs at level to the logger for
// ctx (see [For]), handing its handler ctx; the request id of ctx, when it
// has one, comes first. Nothing happens when the logger does not take
// level.
func Log(ctx context.Context, configured *slog.Logger, level slog.Level, msg string, attrs ...slog.Attr) {
	if ctx == nil {
		ctx = context.Background()
	}
	h := For(ctx, configured).Handler()
	if !h.Enabled(ctx, level) {
		return
	}
	var pcs [1]uintptr
	runtime.Callers(2, pcs[:]) // the kit's call site, for a handler that adds the source
	r := slog.NewRecord(time.Now(), level, msg, pcs[0])
	if id, ok := reqlog.ID(ctx); ok {
		r.AddAttrs(slog.String(reqlog.IDKey, id))
	}
	r.AddAttrs(attrs...)
	_ = h.Handle(ctx, r) // a handler that cannot write has nobody to tell
}

// Err is the attribute of an error on a line: its text under "error".
func Err(err error) slog.Attr { return slog.Any("error", err) }
