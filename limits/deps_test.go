package limits_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies: limits stands alone. Outside the standard library it
// depends on gqlparser and on the kit's parser (internal/gqlmirror/syntax)
// only, never on the engine or on net/http, so that any gqlparser-based
// server can use it.
func TestDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	allowed := []string{
		"github.com/gqlkit/gqlkit/limits",
		"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax",
		"github.com/vektah/gqlparser/v2/",
	}
	deps := strings.Fields(string(out))
	for _, dep := range deps {
		first, _, _ := strings.Cut(dep, "/")
		switch {
		case dep == "net/http" || strings.HasPrefix(dep, "net/http/"):
			t.Errorf("package limits depends on %s", dep)
		case !strings.Contains(first, "."):
			continue // the standard library
		case !allowedDep(dep, allowed):
			t.Errorf("package limits depends on %s", dep)
		}
	}
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), deps)
	}
}

// allowedDep reports whether dep is one of allowed, or under one that ends
// in a slash.
func allowedDep(dep string, allowed []string) bool {
	for _, a := range allowed {
		if dep == a || strings.HasSuffix(a, "/") && strings.HasPrefix(dep, a) {
			return true
		}
	}
	return false
}
