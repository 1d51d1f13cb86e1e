// Package testbin builds a Go command once per test run, for tests that
// run it as a child process (the example server's end-to-end tests and
// the load tools' tests).
//
// The command is built without the race detector even under go test -race:
// its packages run their own tests with -race, and a race-enabled server
// would make every bcrypt hash about ten times slower.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Command is a Go command built on first use. Its zero value is not
// usable; make one with [New].
type Command struct {
	module string // the folder go build runs in; "" for the test's own
	pkg    string // the package path go build is given
	name   string // the binary's file name

	once sync.Once
	dir  string
	path string
	err  error
}

// New returns a Command that builds pkg (a path go build understands,
// relative to the test's package folder) into a binary called name.
func New(pkg, name string) *Command {
	return &Command{pkg: pkg, name: name}
}

// InModule returns a Command that builds pkg of the module in the folder
// module (relative to the test's package folder), for a command that
// lives in another module than its test: InModule("../../examples",
// "./server", "server").
func InModule(module, pkg, name string) *Command {
	return &Command{module: module, pkg: pkg, name: name}
}

// Path builds the command the first time it is called and returns the
// binary's path; a failed build fails t, on this and every later call.
func (c *Command) Path(t testing.TB) string {
	t.Helper()
	c.once.Do(func() {
		c.dir, c.err = os.MkdirTemp("", "gqlkit-testbin-")
		if c.err != nil {
			return
		}
		c.path = filepath.Join(c.dir, c.name)
		build := exec.Command("go", "build", "-o", c.path, c.pkg)
		build.Dir = c.module
		if out, err := build.CombinedOutput(); err != nil {
			c.err = fmt.Errorf("go build %s: %v\n%s", c.pkg, err, out)
		}
	})
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c.path
}

// Remove deletes the built binary, if any. Call it from TestMain once
// m.Run has returned.
func (c *Command) Remove() {
	if c.dir != "" {
		_ = os.RemoveAll(c.dir)
	}
}
