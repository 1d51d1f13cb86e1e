// Package ctxlog holds the kit's one rule for where a handler logs: the
// logger its Config names, else the request's zerolog logger (the one
// reqlog puts in the context, with the request id), else standard error.
// No handler of the kit fails silently.
package ctxlog

import (
	"context"
	"os"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/reqlog"
)

// For returns the logger for a request with context ctx: configured when
// it is not nil, with the request id that reqlog gave ctx, else the logger
// zerolog.Ctx(ctx) holds, else a JSON logger on standard error. A context
// logger counts only when something put it there (a set
// zerolog.DefaultContextLogger counts too): the disabled logger zerolog
// hands out otherwise would drop the line.
func For(ctx context.Context, configured *zerolog.Logger) *zerolog.Logger {
	if ctx == nil {
		ctx = context.Background()
	}
	if configured != nil {
		id, ok := reqlog.ID(ctx)
		if !ok {
			return configured
		}
		l := configured.With().Str("request_id", id).Logger()
		return &l
	}
	if l := zerolog.Ctx(ctx); l.GetLevel() != zerolog.Disabled || l != zerolog.Ctx(context.Background()) {
		return l
	}
	l := zerolog.New(os.Stderr).With().Timestamp().Logger()
	return &l
}
