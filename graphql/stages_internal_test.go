package graphql

import (
	"testing"

	"github.com/gqlkit/gqlkit/graphql/internal/exec"
)

// TestMessageTimeoutIsTheExecutors: MessageTimeout, written out for the
// godoc, is the message the executor gives.
func TestMessageTimeoutIsTheExecutors(t *testing.T) {
	if MessageTimeout != exec.MessageTimeout {
		t.Errorf("MessageTimeout = %q, the executor says %q", MessageTimeout, exec.MessageTimeout)
	}
}
