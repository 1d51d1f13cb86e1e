package ctxlog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/reqlog"
)

// line decodes the one JSON line in s.
func line(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &m); err != nil {
		t.Fatalf("log %q is not one JSON line: %v", s, err)
	}
	return m
}

// inRequest runs f inside reqlog.Handler(access) with request id req-42.
func inRequest(access *slog.Logger, f func(ctx context.Context)) {
	h := reqlog.Handler(access)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f(r.Context()) }))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set(reqlog.Header, "req-42")
	h.ServeHTTP(httptest.NewRecorder(), req)
}

func TestConfiguredWinsWithTheRequestID(t *testing.T) {
	var configured, access bytes.Buffer
	cfg := logbuf.Logger(&configured)
	inRequest(logbuf.Logger(&access), func(ctx context.Context) {
		ctxlog.Log(ctx, cfg, slog.LevelInfo, "hello", ctxlog.Err(errors.New("boom")))
	})
	got := line(t, configured.String())
	if got["message"] != "hello" || got["request_id"] != "req-42" || got["error"] != "boom" || got["level"] != "info" {
		t.Errorf("configured logger got %v, want hello at info with request_id req-42 and error boom", got)
	}
	if strings.Contains(access.String(), "hello") {
		t.Errorf("the request's logger got the line too: %s", &access)
	}
}

func TestRequestLoggerWithoutConfigured(t *testing.T) {
	var access bytes.Buffer
	inRequest(logbuf.Logger(&access), func(ctx context.Context) {
		ctxlog.Log(ctx, nil, slog.LevelWarn, "hello")
	})
	lines := strings.Split(strings.TrimSpace(access.String()), "\n")
	if got := line(t, lines[0]); got["message"] != "hello" || got["request_id"] != "req-42" || got["level"] != "warn" {
		t.Errorf("the request's logger got %v, want hello with request_id req-42", got)
	}
}

func TestDefaultLast(t *testing.T) {
	var buf bytes.Buffer
	def := slog.Default()
	slog.SetDefault(logbuf.Logger(&buf))
	t.Cleanup(func() { slog.SetDefault(def) })
	ctxlog.Log(context.Background(), nil, slog.LevelError, "nobody configured a logger")
	//lint:ignore SA1012 a nil context must not panic
	ctxlog.Log(nil, nil, slog.LevelError, "nor a context")
	inRequest(nil, func(ctx context.Context) { ctxlog.Log(ctx, nil, slog.LevelError, "nor reqlog") })
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 { // and the access line
		t.Fatalf("slog.Default got %q, want four lines", buf.String())
	}
	for i, want := range []string{"nobody configured a logger", "nor a context", "nor reqlog"} {
		if got := line(t, lines[i]); got["message"] != want || got["level"] != "error" {
			t.Errorf("line %d %v, want %q at level error", i, got, want)
		}
	}
}

// TestDisabledCostsNothing: a level the logger does not take allocates
// nothing, inside a request and outside, with the attributes a caller
// builds.
func TestDisabledCostsNothing(t *testing.T) {
	warnOnly := slog.New(slog.NewJSONHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	err := errors.New("boom")
	inRequest(warnOnly, func(ctx context.Context) {
		allocs := testing.AllocsPerRun(100, func() {
			ctxlog.Log(ctx, warnOnly, slog.LevelInfo, "refused", ctxlog.Err(err), slog.Int64("user_id", 7))
			ctxlog.Log(ctx, nil, slog.LevelInfo, "refused", ctxlog.Err(err), slog.String("code", "X")) // reqlog's
			ctxlog.Log(context.Background(), warnOnly, slog.LevelDebug, "refused", ctxlog.Err(err))
		})
		if allocs != 0 {
			t.Errorf("a disabled line allocated %v times, want 0", allocs)
		}
	})
	if ctxlog.Enabled(context.Background(), warnOnly, slog.LevelInfo) || !ctxlog.Enabled(context.Background(), warnOnly, slog.LevelError) {
		t.Error("Enabled does not follow the logger's level")
	}
}
