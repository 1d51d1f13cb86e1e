package testenv_test

import (
	"testing"

	"github.com/gqlkit/gqlkit/internal/testenv"
)

func TestSkipIfShort(t *testing.T) {
	ran := false
	t.Run("inner", func(t *testing.T) {
		testenv.SkipIfShort(t, "the reason")
		ran = true
	})
	if ran == testing.Short() {
		t.Errorf("with -short=%v the test ran: %v", testing.Short(), ran)
	}
}
