package idempotency_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/idempotency"
)

// brokenStore is a Store whose database is down.
type brokenStore struct{ err error }

func (s brokenStore) Claim(context.Context, idempotency.Key) (*idempotency.Response, idempotency.Claim, error) {
	return nil, nil, s.err
}

// errLocked is a store's domain error that an application maps to a 409.
var errLocked = errors.New("database is locked")

// The default WriteError answers through Config.Presenter, its hooks included:
// a store failure is reported once, and Map may give it a code.
func TestErrorHooks(t *testing.T) {
	errDown := errors.New("connection refused")
	var (
		mu      sync.Mutex
		reports []apierror.Report
	)
	hooks := apierror.Hooks{
		Map: func(_ context.Context, err error) error {
			if errors.Is(err, errLocked) {
				return &errcode.Error{Code: "CONFLICT", Message: "Try again.", Status: http.StatusConflict, Err: err}
			}
			return err
		},
		Report: func(_ context.Context, r apierror.Report) {
			mu.Lock()
			defer mu.Unlock()
			reports = append(reports, r)
		},
	}
	nop := slog.New(slog.DiscardHandler)
	serve := func(storeErr error) (int, string) {
		mw, err := idempotency.Middleware(idempotency.Config{
			Store:     brokenStore{storeErr},
			Subject:   func(*http.Request) (string, bool) { return "7", true },
			Presenter: apierror.Presenter{Logger: nop, Hooks: hooks},
		})
		if err != nil {
			t.Fatal(err)
		}
		h := mw(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			t.Error("the handler ran although the store failed")
		}))
		req := httptest.NewRequest(http.MethodPost, "/things", strings.NewReader(`{}`))
		req.Header.Set(idempotency.KeyHeader, "k-1")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		body, _ := io.ReadAll(rec.Body)
		return rec.Code, string(body)
	}

	if status, body := serve(errDown); status != 500 || body != `{"message":"Internal server error."}` {
		t.Errorf("store down: %d %s, want the masked 500", status, body)
	}
	mu.Lock()
	got := append([]apierror.Report(nil), reports...)
	reports = nil
	mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("Report called %d times, want once", len(got))
	}
	if r := got[0]; r.Code != errcode.CodeInternal || r.Status != 500 || r.Path != nil || !errors.Is(r.Err, errDown) {
		t.Errorf("Report = %+v, want INTERNAL_SERVER_ERROR, 500, no path, the store's error", r)
	}

	if status, body := serve(errLocked); status != http.StatusConflict || body != `{"message":"Try again."}` {
		t.Errorf("store locked: %d %s, want Map's 409", status, body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 0 {
		t.Errorf("Report called for an error Map turned into a 409: %+v", reports)
	}
}
