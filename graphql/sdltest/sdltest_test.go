package sdltest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/sdltest"
)

// recorder is a testing.TB that records what Check reports.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed bool
	out    strings.Builder
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestSchemaFile/sub" }
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	fmt.Fprintf(&r.out, format+"\n", args...)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(&r.out, format+"\n", args...)
}

// check runs sdltest.Check with a recorder, on a goroutine of its own (a
// Fatalf ends it).
func check(t *testing.T, s *graphql.Schema, path string) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sdltest.Check(r, s, path)
	}()
	<-done
	return r
}

func schemaWith(fields ...string) *graphql.Schema {
	var fs graphql.Fields
	for _, f := range fields {
		fs = append(fs, graphql.Field{Name: f, Type: graphql.String})
	}
	return graphql.MustSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: fs}})
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "schema.graphql")
	// The command is run from the module root: this package's folder is
	// graphql/sdltest in it.
	wantCmd := "UPDATE_SCHEMA=1 go test -run '^TestSchemaFile$' ./graphql/sdltest"

	t.Setenv(sdltest.UpdateEnv, "")
	r := check(t, schemaWith("a"), path)
	if !r.failed || !strings.Contains(r.out.String(), "does not exist") || !strings.Contains(r.out.String(), wantCmd) {
		t.Errorf("missing file: failed %v, said:\n%s\nwant a failure naming %q", r.failed, r.out.String(), wantCmd)
	}

	t.Setenv(sdltest.UpdateEnv, "1")
	if r := check(t, schemaWith("a", "b"), path); r.failed {
		t.Fatalf("update failed: %s", r.out.String())
	}
	if got, _ := os.ReadFile(path); string(got) != "type Query {\n  a: String\n  b: String\n}\n" {
		t.Errorf("written file %q", got)
	}

	t.Setenv(sdltest.UpdateEnv, "")
	if r := check(t, schemaWith("a", "b"), path); r.failed {
		t.Errorf("same schema: failed with\n%s", r.out.String())
	}
	r = check(t, schemaWith("a", "c", "b"), path)
	wantDiff := "@@ -1 +1 @@\n type Query {\n   a: String\n+  c: String\n   b: String\n }\n \n"
	if !r.failed || !strings.Contains(r.out.String(), wantDiff) || !strings.Contains(r.out.String(), wantCmd) {
		t.Errorf("changed schema: failed %v, said:\n%s\nwant the diff\n%s\nand %q", r.failed, r.out.String(), wantDiff, wantCmd)
	}
}

func TestDiff(t *testing.T) {
	tests := []struct{ name, a, b, want string }{
		{name: "equal", a: "x\ny", b: "x\ny", want: ""},
		{name: "changed line", a: "1\n2\n3\n4\n5\n6\n7\n8\n9", b: "1\n2\n3\n4\nfive\n6\n7\n8\n9",
			want: "@@ -2 +2 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8"},
		{name: "two hunks", a: "a\n1\n2\n3\n4\n5\n6\n7\n8\nb", b: "A\n1\n2\n3\n4\n5\n6\n7\n8\nB",
			want: "@@ -1 +1 @@\n-a\n+A\n 1\n 2\n 3\n@@ -7 +7 @@\n 6\n 7\n 8\n-b\n+B"},
		{name: "removed at the end", a: "x\ny\nz", b: "x",
			want: "@@ -1 +1 @@\n x\n-y\n-z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sdltest.Diff(tt.a, tt.b); got != tt.want {
				t.Errorf("Diff:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
