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

// TestStageDependencies: the stages of the engine live in packages under
// graphql/internal, and their imports point one way: none imports package
// graphql (whose public types sit above them all), and each imports only
// the stages below it, in the order of stageLayers. A new stage package
// must be given its layer here.
func TestStageDependencies(t *testing.T) {
	const internal = "github.com/gqlkit/gqlkit/graphql/internal/"
	stageLayers := map[string]int{
		"response": 0, // the JSON text of a response
		"sdl":      0, // the schema printed as SDL
		"scalar":   1, // the built-in scalars, read and written
		"fault":    1, // what user code's panics and errors become
		"access":   2, // what execution reads of Go values
		"schema":   3, // the schema compiled for the engine
		"coerce":   4, // input values coerced, argument rules run
		"plan":     5, // operations planned: selections, conditions, cost
		"exec":     6, // plans executed into the response's data

		"introspection": 4, // the introspection types, over the compiled schema
	}
	for pkg, imports := range testenv.Imports(t, "./internal/...") {
		name, ok := strings.CutPrefix(pkg, internal)
		if !ok {
			t.Errorf("go list listed %s, outside %s", pkg, internal)
			continue
		}
		stage := strings.SplitN(name, "/", 2)[0]
		layer, known := stageLayers[stage]
		if !known {
			t.Errorf("%s has no layer in stageLayers", pkg)
			continue
		}
		for _, imp := range imports {
			if imp == "github.com/gqlkit/gqlkit/graphql" {
				t.Errorf("%s imports package graphql", pkg)
			}
			dep, isStage := strings.CutPrefix(imp, internal)
			if !isStage {
				continue
			}
			depStage := strings.SplitN(dep, "/", 2)[0]
			if depStage != stage && stageLayers[depStage] >= layer {
				t.Errorf("%s imports %s, which is not below it", pkg, imp)
			}
		}
	}
}
