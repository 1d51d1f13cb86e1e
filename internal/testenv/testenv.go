// Package testenv holds helpers that tests share to say what they need
// from the run they are in.
//
// The kit's tests have two lanes. go test -short ./... is the fast lane,
// for use while editing: it runs every unit test and leaves out the runs
// that take seconds each by nature (end-to-end runs over real connections
// and real timeouts, generated or corpus-wide comparisons, and the
// conformance suites: graphql-js's, and the store suite on PostgreSQL).
// The full command, without -short, is the gate that CI runs. A slow test says so on its first line:
//
//	func TestLargeBodies(t *testing.T) {
//		testenv.SkipIfShort(t, "end-to-end: 3 MB bodies over a real connection")
//		…
//	}
package testenv

import (
	"os/exec"
	"strings"
	"testing"
)

// SkipIfShort skips t when the tests run with -short, giving why as the
// reason; otherwise it does nothing. Call it before the test does any
// work.
func SkipIfShort(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipped with -short: " + why)
	}
}

// Deps returns the packages that the package under test depends on, as
// `go list -deps .` lists them in the test's directory, itself included.
// It skips t when there is no go command, and fails it when the list
// cannot be made.
func Deps(t testing.TB) []string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), deps)
	}
	return deps
}

// Imports returns the packages matched by pattern (a go list pattern such
// as "./internal/..." relative to the test's directory), each with the
// packages it imports directly, as `go list` lists them. It skips t when
// there is no go command, and fails it when the list cannot be made.
func Imports(t testing.TB, pattern string) map[string][]string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the imports with")
	}
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", pattern).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 0 {
			imports[fields[0]] = fields[1:]
		}
	}
	if len(imports) == 0 {
		t.Fatalf("go list %s listed no package", pattern)
	}
	return imports
}
