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

import "testing"

// SkipIfShort skips t when the tests run with -short, giving why as the
// reason; otherwise it does nothing. Call it before the test does any
// work.
func SkipIfShort(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipped with -short: " + why)
	}
}
