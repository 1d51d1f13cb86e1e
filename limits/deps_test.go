package limits_test

import (
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/internal/testenv"
)

// TestDependencies: limits stands alone. Outside the standard library it
// depends on gqlparser and on the kit's parser (internal/gqlmirror/syntax)
// only, never on the engine or on net/http, so that any gqlparser-based
// server can use it.
func TestDependencies(t *testing.T) {
	allowed := []string{
		"github.com/gqlkit/gqlkit/limits",
		"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax",
		"github.com/vektah/gqlparser/v2/",
	}
	for _, dep := range testenv.Deps(t) {
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
