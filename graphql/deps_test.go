package graphql_test

import (
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/internal/testenv"
)

// TestEngineDependencies: the engine knows nothing of HTTP or logging. Its
// dependencies hold no net/http, no logger and no package of the HTTP
// side, so that a program can execute GraphQL without them, and the error
// codes it shares with the HTTP side come from the leaf package errcode.
func TestEngineDependencies(t *testing.T) {
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
	for _, dep := range testenv.Deps(t) {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("package graphql depends on %s", dep)
			}
		}
	}
}
