package errcode_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
)

// TestCodeForStatusTexts: the package's own table of status texts gives
// the codes net/http's texts would.
func TestCodeForStatusTexts(t *testing.T) {
	for status := 400; status < 500; status++ {
		text := http.StatusText(status)
		if text == "" {
			if got := errcode.CodeForStatus(status); got != "BAD_REQUEST" {
				t.Errorf("CodeForStatus(%d) = %s, want BAD_REQUEST", status, got)
			}
			continue
		}
		if got := errcode.CodeForStatus(status); got == "BAD_REQUEST" && status != http.StatusBadRequest {
			t.Errorf("CodeForStatus(%d) = BAD_REQUEST, want the code of %q", status, text)
		}
	}
	for status, want := range map[int]errcode.Code{409: "CONFLICT", 418: "IM_A_TEAPOT", 413: "REQUEST_ENTITY_TOO_LARGE",
		429: "TOO_MANY_REQUESTS", 401: errcode.CodeUnauthenticated, 503: errcode.CodeInternal} {
		if got := errcode.CodeForStatus(status); got != want {
			t.Errorf("CodeForStatus(%d) = %s, want %s", status, got, want)
		}
	}
}

func ExampleCode_Status() {
	fmt.Println(errcode.CodeNotFound.Status(), errcode.CodeNotFound.DefaultMessage())
	// Output: 404 Not found.
}
