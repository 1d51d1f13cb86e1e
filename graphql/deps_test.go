package graphql_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestEngineDependencies: the engine knows nothing of HTTP or logging. Its
// dependencies hold no net/http, no logger and no package of the HTTP
// side, so that a program can execute GraphQL without them, and the error
// codes it shares with the HTTP side come from the leaf package errcode.
func TestEngineDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	forbidden := []string{
		"net/http",
		"github.com/rs/zerolog",
		"github.com/rs/xid",
		"github.com/gqlkit/gqlkit/reqlog",
		"github.com/gqlkit/gqlkit/errors",
		"github.com/gqlkit/gqlkit/internal/httpjson",
		"github.com/gqlkit/gqlkit/internal/ctxlog",
		"github.com/gqlkit/gqlkit/graphqlhttp",
	}
	deps := strings.Fields(string(out))
	for _, dep := range deps {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("package graphql depends on %s", dep)
			}
		}
	}
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), deps)
	}
}
