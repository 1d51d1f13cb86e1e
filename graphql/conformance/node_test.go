package conformance_test

import (
	"context"
	"testing"

	"github.com/gqlkit/gqlkit/internal/graphqljs"
)

// graphqlJS is the graphql-js side of the suite (package graphqljs runs
// it), on the scripts in node/.
type graphqlJS struct{ graphqljs.JS }

// nodeReady makes sure node and the pinned graphql-js are there, or skips
// the test (fails it under CI); see graphqljs.Ready.
func nodeReady(t *testing.T) graphqlJS {
	t.Helper()
	return graphqlJS{graphqljs.Ready(t, "node")}
}

// run runs node/run.mjs with args and stdin, and returns what it printed.
func (js graphqlJS) run(ctx context.Context, t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	return js.Run(ctx, t, stdin, args...)
}
