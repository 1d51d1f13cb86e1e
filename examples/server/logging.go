package main

import (
	"context"
	"log/slog"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/trace"

	"github.com/gqlkit/gqlkit/reqlog"
)

// kitLogger is the logger the kit's handlers are given (the Logger of
// their Configs and reqlog's): a *slog.Logger whose lines go to the
// server's zerolog logger through zerolog's own slog handler, so that they
// keep the fields and the shape of the server's other lines. Every line
// logged with a request's context carries its request id and, when
// tracing is on, the ids of its trace and span.
func kitLogger(logger *zerolog.Logger) *slog.Logger {
	return slog.New(reqlog.NewIDHandler(traceIDs{next: zerolog.NewSlogHandler(*logger)}))
}

// traceIDs is a slog.Handler that adds trace_id and span_id to a record
// logged with a context that holds a span (otelhttp's server span, say, or
// a span of otelgraphql's inside it), and passes it on to next.
type traceIDs struct{ next slog.Handler }

func (h traceIDs) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h traceIDs) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r = r.Clone()
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return h.next.Handle(ctx, r)
}

func (h traceIDs) WithAttrs(attrs []slog.Attr) slog.Handler {
	return traceIDs{next: h.next.WithAttrs(attrs)}
}

func (h traceIDs) WithGroup(name string) slog.Handler {
	return traceIDs{next: h.next.WithGroup(name)}
}
