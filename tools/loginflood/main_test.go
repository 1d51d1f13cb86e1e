package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRun floods a stand-in server briefly, so that the program keeps
// working.
func TestRun(t *testing.T) {
	var logins, checks atomic.Int64
	emails := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/auth/login" && r.Header.Get("Content-Type") == "application/json":
			body, _ := io.ReadAll(r.Body)
			select {
			case emails <- string(body):
			default:
			}
			logins.Add(1)
			time.Sleep(time.Millisecond)
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"message":"Invalid credentials."}`)
		case r.Method == http.MethodGet && r.URL.Path == "/healthz":
			checks.Add(1)
			_, _ = io.WriteString(w, `{"status":"ok"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()

	lat := `n=\d+ mean=[\d.]+ms p50=[\d.]+ms p90=[\d.]+ms p99=[\d.]+ms max=[\d.]+ms`
	want := regexp.MustCompile(`^healthz idle:  ` + lat + `  200×\d+
healthz flood: ` + lat + `  200×\d+
logins: \d+ in \d+\.\ds, [\d.]+/s, 3 clients  ` + lat + `  401×\d+
$`)
	for _, fresh := range []string{"-fresh=false", "-fresh"} {
		var out, errs strings.Builder
		// An idle reading of 500ms and a flood of 1s: at least one health
		// check must end in each on a loaded CI host (race detector,
		// packages tested in parallel).
		args := []string{"-url", srv.URL + "/", "-clients", "3", "-duration", "1s", "-idle", "500ms", fresh}
		if code := run(context.Background(), args, &out, &errs); code != 0 {
			t.Fatalf("loginflood %v: exit %d, errors %q", args, code, errs.String())
		}
		if !want.MatchString(out.String()) {
			t.Errorf("loginflood %v output:\n%s\nwant it to match\n%s", args, out.String(), want)
		}
	}
	if logins.Load() == 0 || checks.Load() == 0 {
		t.Errorf("%d logins and %d health checks; want some of each", logins.Load(), checks.Load())
	}
	if body := <-emails; !regexp.MustCompile(`^\{"email":"[a-z2-7]{26}@flood\.invalid","password":"[A-Z2-7]{26}"\}$`).MatchString(body) {
		t.Errorf("login body %s", body)
	}

	for _, args := range [][]string{{"-clients", "0"}, {"-duration", "0s"}, {"-idle", "-1s"}, {"extra"}, {"-nonsense"}} {
		if code := run(context.Background(), args, io.Discard, io.Discard); code != 2 {
			t.Errorf("loginflood %v: exit %d; want 2", args, code)
		}
	}
}
