package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRun drives every sub-command against a stand-in server, reading
// this process's memory, so that the program keeps working.
func TestRun(t *testing.T) {
	var posts, articles atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/articles":
			articles.Add(1)
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"data":{"id":1}}`))
		case r.Method == http.MethodPost && r.URL.Path == "/api/graphql" && bytes.Contains(body, []byte("createPost")):
			posts.Add(1)
			_, _ = w.Write([]byte(`{"data":{"createPost":{"id":"1"}}}`))
		default:
			_, _ = w.Write([]byte(`{"data":[]}`))
		}
	}))
	defer srv.Close()
	pid := strconv.Itoa(os.Getpid())
	for _, c := range []struct {
		args []string
		want string
	}{
		{args: []string{"seed-articles", "-url", srv.URL, "-token", "t", "-n", "3", "-size", "100"}},
		{args: []string{"seed-posts", "-url", srv.URL, "-token", "t", "-n", "2", "-size", "100"}},
		{args: []string{"rest", "-url", srv.URL, "-pid", pid, "-concurrency", "2", "-rounds", "2"},
			want: "rest: 2×2 requests in"},
		{args: []string{"graphql", "-url", srv.URL, "-pid", pid, "-concurrency", "2", "-rounds", "1", "-aliases", "3", "-idle", "1ms"},
			want: "graphql: VmRSS"},
	} {
		var out, errs strings.Builder
		if code := run(context.Background(), c.args, &out, &errs); code != 0 || !strings.Contains(out.String(), c.want) {
			t.Errorf("memload %v: exit %d, output %q, errors %q; want 0 and %q", c.args, code, out.String(), errs.String(), c.want)
		}
	}
	if articles.Load() != 3 || posts.Load() != 2 {
		t.Errorf("seeded %d articles and %d posts, want 3 and 2", articles.Load(), posts.Load())
	}
	for _, args := range [][]string{{}, {"rest", "-concurrency", "0"}, {"rest", "extra"}, {"rest"}, {"nonsense"}} {
		if code := run(context.Background(), args, io.Discard, io.Discard); code == 0 {
			t.Errorf("memload %v: exit 0, want an error", args)
		}
	}
}
