package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/bench/rest"
)

// TestSeedThenServe seeds a SQLite file as run.sh does, then serves it
// with both handlers on loopback and compares their answers to the
// benchmark's request.
func TestSeedThenServe(t *testing.T) {
	spec := "sqlite:" + filepath.Join(t.TempDir(), "rest.db")
	if err := run([]string{"-db", spec, "-seed"}, noEnv); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-db", spec, "-seed"}, noEnv); err == nil || !strings.Contains(err.Error(), "already holds") {
		t.Errorf("second -seed: %v, want an error saying the database already holds articles", err)
	}
	db, err := rest.Open(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bodies := map[string][]byte{}
	for _, impl := range []string{"kit", "bare"} {
		h, err := newMux(db, impl, false)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/api/articles?per_page=15", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = "bench.test"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("%s: %d %s, want 200 application/json", impl, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !bytes.Contains(body, []byte(`"total":200}}`)) || !bytes.HasPrefix(body, []byte(`{"data":[{"id":200,`)) {
			t.Errorf("%s: body %.80s … %s, want the 15 newest of 200", impl, body, body[max(0, len(body)-40):])
		}
		bodies[impl] = body
	}
	if !bytes.Equal(bodies["kit"], bodies["bare"]) {
		t.Errorf("bodies differ:\nkit:  %s\nbare: %s", bodies["kit"], bodies["bare"])
	}
}

// TestPprofOnlyWhenAsked checks that the profiles are not served by default.
func TestPprofOnlyWhenAsked(t *testing.T) {
	db, err := rest.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "rest.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tt := range []struct {
		pprof bool
		want  int
	}{{pprof: false, want: http.StatusNotFound}, {pprof: true, want: http.StatusOK}} {
		h, err := newMux(db, "kit", tt.pprof)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/debug/pprof/", nil))
		if rec.Code != tt.want {
			t.Errorf("pprof %v: status %d, want %d", tt.pprof, rec.Code, tt.want)
		}
	}
}

// TestRunRefuses checks the errors of the command line, the environment
// and the schema guard, none of which needs a database.
func TestRunRefuses(t *testing.T) {
	sqlite := "sqlite:" + filepath.Join(t.TempDir(), "x.db")
	for _, tt := range []struct {
		name string
		args []string
		port string
		want string
	}{
		{name: "no db", args: nil, want: "-db is required"},
		{name: "bad impl", args: []string{"-db", sqlite, "-impl", "fast"}, want: `-impl "fast": want kit or bare`},
		{name: "bad port", args: []string{"-db", sqlite, "-port", "70000"}, want: "port 70000 is out of range"},
		{name: "bad PORT", args: []string{"-db", sqlite}, port: "http", want: `PORT="http" is not a port number`},
		{name: "argument", args: []string{"-db", sqlite, "extra"}, want: `unexpected argument "extra"`},
		{name: "seed and drop", args: []string{"-db", "postgres://127.0.0.1:1/x?search_path=rest_bench", "-seed", "-drop"}, want: "-seed and -drop exclude each other"},
		{name: "drop sqlite", args: []string{"-db", sqlite, "-drop"}, want: "-drop is for PostgreSQL only"},
		{name: "bad db", args: []string{"-db", "mysql://x"}, want: `database "mysql://x": want sqlite:PATH or a postgres:// URL`},
		{name: "no schema", args: []string{"-db", "postgres://127.0.0.1:1/x", "-seed"}, want: "no search_path"},
		{name: "foreign schema", args: []string{"-db", "postgres://127.0.0.1:1/x?search_path=public", "-drop"}, want: `schema "public": only schemas named rest_bench… are dropped`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := func(k string) string {
				if k == "PORT" {
					return tt.port
				}
				return ""
			}
			err := run(tt.args, env)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run(%q): %v, want an error containing %q", tt.args, err, tt.want)
			}
		})
	}
	if _, err := os.Stat(strings.TrimPrefix(sqlite, "sqlite:")); !os.IsNotExist(err) {
		t.Errorf("a refused command created the database file: %v", err)
	}
}

func noEnv(string) string { return "" }
