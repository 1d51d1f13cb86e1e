package ctxlog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/internal/ctxlog"
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

func TestConfiguredWinsWithTheRequestID(t *testing.T) {
	var configured, access bytes.Buffer
	cfg := zerolog.New(&configured)
	h := reqlog.Handler(zerolog.New(&access))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctxlog.For(r.Context(), &cfg).Info().Msg("hello")
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set(reqlog.Header, "req-42")
	h.ServeHTTP(httptest.NewRecorder(), req)
	got := line(t, configured.String())
	if got["message"] != "hello" || got["request_id"] != "req-42" {
		t.Errorf("configured logger got %v, want hello with request_id req-42", got)
	}
	if strings.Contains(access.String(), "hello") {
		t.Errorf("the context logger got the line too: %s", &access)
	}
}

func TestContextLoggerWithoutConfigured(t *testing.T) {
	var buf bytes.Buffer
	ctx := zerolog.New(&buf).WithContext(context.Background())
	ctxlog.For(ctx, nil).Info().Msg("hello")
	if got := line(t, buf.String()); got["message"] != "hello" {
		t.Errorf("context logger got %v, want hello", got)
	}
}

func TestStandardErrorLast(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	t.Cleanup(func() { os.Stderr = stderr })
	ctxlog.For(context.Background(), nil).Error().Msg("nobody configured a logger")
	//lint:ignore SA1012 a nil context must not panic
	ctxlog.For(nil, nil).Error().Msg("nor a context")
	os.Stderr = stderr
	_ = w.Close()
	out, _ := io.ReadAll(r)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Fatalf("standard error got %q, want two lines", out)
	}
	if got := line(t, lines[0]); got["message"] != "nobody configured a logger" || got["level"] != "error" || got["time"] == nil {
		t.Errorf("standard error line %v, want the message at level error with a time", got)
	}
}
