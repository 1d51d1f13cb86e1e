package errors_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/reqlog"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
)

func TestWriteREST(t *testing.T) {
	var logs bytes.Buffer
	logger := logbuf.Logger(&logs)
	errs := map[string]error{
		"/unauthenticated": errcode.Unauthenticated(""),
		"/challenged":      errcode.Unauthenticated(""),
		"/forbidden":       errcode.Forbidden("You can only delete your own articles."),
		"/missing":         fmt.Errorf("show: %w", sql.ErrNoRows),
		"/invalid": errcode.ValidationFailed("", map[string][]string{
			"title":     {"The title field is required."},
			"body":      {"The body field is required."},
			"published": {"The published field must be true or false."},
		}),
		"/conflict": httpError{409, "Already published."},
		"/broken":   errDB,
	}
	p := apierror.Presenter{Logger: logger}
	// reqlog gives each request the id "req-" and its path (its own
	// access lines go nowhere).
	inner := reqlog.Handler(slog.New(slog.DiscardHandler))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/challenged" {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		}
		p.WriteREST(w, r, errs[r.URL.Path])
	}))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Set(reqlog.Header, "req-"+strings.TrimPrefix(r.URL.Path, "/"))
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	tests := []struct {
		path   string
		status int
		body   string
		auth   string
	}{
		{path: "/unauthenticated", status: 401, body: `{"message":"Unauthenticated."}`, auth: "Bearer"},
		{path: "/challenged", status: 401, body: `{"message":"Unauthenticated."}`, auth: `Bearer error="invalid_token"`},
		{path: "/forbidden", status: 403, body: `{"message":"You can only delete your own articles."}`},
		{path: "/missing", status: 404, body: `{"message":"Not found."}`},
		{path: "/invalid", status: 422, body: `{"message":"The body field is required. (and 2 more errors)","errors":{"body":["The body field is required."],"published":["The published field must be true or false."],"title":["The title field is required."]}}`},
		{path: "/conflict", status: 409, body: `{"message":"Already published."}`},
		{path: "/broken", status: 500, body: `{"message":"Internal server error."}`},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status {
				t.Errorf("status = %d, want %d", resp.StatusCode, tc.status)
			}
			if got := resp.Header.Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type = %q, want application/json", got)
			}
			if got := resp.Header.Get("WWW-Authenticate"); got != tc.auth {
				t.Errorf("WWW-Authenticate = %q, want %q", got, tc.auth)
			}
			if string(body) != tc.body {
				t.Errorf("body:\n got %s\nwant %s", body, tc.body)
			}
		})
	}

	got := lines(t, &logs)
	if len(got) != 1 {
		t.Fatalf("logged %d lines, want 1 (for /broken): %s", len(got), &logs)
	}
	if got[0]["request_id"] != "req-broken" || got[0]["error"] != errDB.Error() || got[0]["level"] != "error" {
		t.Errorf("log line = %v, want request_id req-broken, error %q, level error", got[0], errDB)
	}
}

// A request cancelled because its client went away is no server error: it
// is logged at info level with status 499, and masked nothing.
func TestPresenterClientGone(t *testing.T) {
	var logs bytes.Buffer
	logger := logbuf.Logger(&logs)
	p := apierror.Presenter{Logger: logger}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cause := fmt.Errorf("listing articles: %w", context.Canceled)

	status, body := p.REST(ctx, cause)
	if status != 499 {
		t.Errorf("REST status = %d, want 499", status)
	}
	if got := body.(apierror.Body).Message; got != "The request was canceled." {
		t.Errorf("REST message = %q", got)
	}
	if !strings.Contains(logs.String(), `"level":"info"`) || strings.Contains(logs.String(), `"level":"error"`) {
		t.Errorf("log = %s, want one info line", logs.String())
	}

	// The same error while the request is still alive is a server fault.
	logs.Reset()
	if status, _ := p.REST(context.Background(), cause); status != 500 {
		t.Errorf("REST status with a live request = %d, want 500", status)
	}
	if !strings.Contains(logs.String(), `"level":"error"`) {
		t.Errorf("log = %s, want an error line", logs.String())
	}
	gql := p.GraphQL(ctx, cause)
	if gql.Extensions["code"] != errcode.CodeClientClosedRequest {
		t.Errorf("GraphQL code = %v, want CLIENT_CLOSED_REQUEST", gql.Extensions["code"])
	}
}
