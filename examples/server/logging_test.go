package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rs/zerolog"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/gqlkit/gqlkit/reqlog"
)

// TestKitLogger: a line the kit logs through kitLogger comes out of the
// server's zerolog logger in its shape, with the request id and the ids
// of the span in the request's context, and one time (zerolog's); a level
// zerolog does not take writes nothing.
func TestKitLogger(t *testing.T) {
	var buf bytes.Buffer
	zl := zerolog.New(&buf).With().Timestamp().Logger().Level(zerolog.InfoLevel) // as run makes it, at info
	logger := kitLogger(&zl)

	tp := sdktrace.NewTracerProvider()
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	ctx, span := tp.Tracer("test").Start(context.Background(), "request")
	defer span.End()
	h := reqlog.Handler(slog.New(slog.DiscardHandler))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logger.LogAttrs(r.Context(), slog.LevelDebug, "dropped")
		logger.LogAttrs(r.Context(), slog.LevelError, "internal server error",
			slog.Any("error", errors.New("boom")), slog.Int("status", 500))
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil).WithContext(ctx)
	req.Header.Set(reqlog.Header, "req-1")
	h.ServeHTTP(httptest.NewRecorder(), req)

	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("log %q is not one JSON line: %v", buf.String(), err)
	}
	sc := span.SpanContext()
	want := map[string]any{
		"level": "error", "message": "internal server error", "error": "boom", "status": float64(500),
		"request_id": "req-1", "trace_id": sc.TraceID().String(), "span_id": sc.SpanID().String(),
	}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %v, want %v (line %s)", k, line[k], v, buf.String())
		}
	}
	if len(line) != len(want)+1 || bytes.Count(buf.Bytes(), []byte(`"time":`)) != 1 {
		t.Errorf("line %s, want exactly %v and one time", buf.String(), want)
	}
}
