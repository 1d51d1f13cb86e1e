// Package sdltest keeps a committed copy of a schema's SDL in step with the
// schema, so that every change of the schema shows in review as a change
// of that file:
//
//	func TestSchemaFile(t *testing.T) {
//		sdltest.Check(t, newSchema(), "schema.graphql")
//	}
//
// [Check] fails when the file differs from [graphql.Schema.SDL] (or is
// missing), with a diff and the command that updates it: the same test run
// with UPDATE_SCHEMA=1 writes the file instead of comparing it, and passes.
// Commit the file with the change of the schema.
package sdltest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// UpdateEnv is the environment variable that makes [Check] write the file
// rather than compare it: set to 1 (or any value but "" and "0").
const UpdateEnv = "UPDATE_SCHEMA"

// Check compares the SDL of schema, with a final newline, with the file at
// path (relative to the test's package folder, the working directory of
// go test). On a difference, or when the file is missing, it fails t with
// a diff (lines of the file marked -, lines of the schema marked +) and
// the command that updates the file. With UpdateEnv set it writes the
// file (creating its folder) and logs that it did.
func Check(t testing.TB, schema *graphql.Schema, path string) {
	t.Helper()
	want := schema.SDL() + "\n"
	if v := os.Getenv(UpdateEnv); v != "" && v != "0" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("sdltest: %v", err)
		}
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatalf("sdltest: %v", err)
		}
		t.Logf("sdltest: wrote the schema to %s (%s is set); commit it", path, UpdateEnv)
		return
	}
	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.Fatalf("sdltest: %s does not exist; create it with\n\t%s", path, updateCommand(t))
	case err != nil:
		t.Fatalf("sdltest: %v", err)
	}
	if got := string(raw); got != want {
		t.Errorf("sdltest: the schema differs from %s (- the file, + the schema):\n%s\nIf the change is intended, update the file with\n\t%s\nand commit it.",
			path, Diff(got, want), updateCommand(t))
	}
}

// updateCommand is the command line that reruns the test with UpdateEnv
// set, from the folder of the module's go.mod (or from the package's
// folder when none is found).
func updateCommand(t testing.TB) string {
	run := "'^" + strings.SplitN(t.Name(), "/", 2)[0] + "$'"
	pkg, module := ".", ""
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				if rel, err := filepath.Rel(dir, wd); err == nil {
					pkg, module = "./"+filepath.ToSlash(rel), dir
				}
				break
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if pkg == "./." {
		pkg = "."
	}
	cmd := fmt.Sprintf("%s=1 go test -run %s %s", UpdateEnv, run, pkg)
	if module != "" {
		cmd = fmt.Sprintf("(cd %s && %s)", module, cmd)
	}
	return cmd
}
