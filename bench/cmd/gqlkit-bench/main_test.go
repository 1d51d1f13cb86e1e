package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/bench/sample"
)

// TestServerAnswersReference posts the harness's two requests, exactly as
// run.sh does, and checks the status, the headers and the body bytes.
func TestServerAnswersReference(t *testing.T) {
	mux, err := newMux(false)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	reqs, err := sample.Requests()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reqs {
		t.Run(r.Name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewReader(r.Body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want 200; body %s", resp.StatusCode, got)
			}
			for name, want := range map[string]string{
				"Content-Type":  "application/json; charset=utf-8",
				"Cache-Control": "no-store",
			} {
				if v := resp.Header.Get(name); v != want {
					t.Errorf("%s %q, want %q", name, v, want)
				}
			}
			if !bytes.Equal(got, r.Expected) {
				t.Errorf("body\n got: %s\nwant: %s", got, r.Expected)
			}
		})
	}
}

// TestPprofOnlyWhenAsked checks that the profiles are not served by default.
func TestPprofOnlyWhenAsked(t *testing.T) {
	for _, tt := range []struct {
		pprof bool
		want  int
	}{{pprof: false, want: http.StatusNotFound}, {pprof: true, want: http.StatusOK}} {
		mux, err := newMux(tt.pprof)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/debug/pprof/", nil))
		if rec.Code != tt.want {
			t.Errorf("pprof %v: status %d, want %d", tt.pprof, rec.Code, tt.want)
		}
	}
}

// TestRunRejectsBadPort checks the flag and environment errors, which run
// reports before listening.
func TestRunRejectsBadPort(t *testing.T) {
	tests := []struct {
		args []string
		env  string
		want string
	}{
		{env: "http", want: `PORT="http" is not a port number`},
		{args: []string{"-port", "70000"}, want: "port 70000 is out of range"},
		{args: []string{"-port", "x"}, want: "invalid value"},
	}
	for _, tt := range tests {
		getenv := func(k string) string {
			if k == "PORT" {
				return tt.env
			}
			return ""
		}
		err := run(tt.args, getenv)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%q) with PORT=%q: error %v, want one containing %q", tt.args, tt.env, err, tt.want)
		}
	}
}
