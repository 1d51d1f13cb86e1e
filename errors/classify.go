package errors

import (
	"net/http"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/errclass"
)

// Status returns the HTTP status a REST answer to err has; see the package
// documentation for the rules. A nil err gives 500.
func Status(err error) int { return classify(err).Status }

// CodeOf returns the code clients see for err; see the package
// documentation for the rules. A nil err gives [errcode.CodeInternal].
func CodeOf(err error) errcode.Code { return classify(err).Code }

// bodyTooLarge is the client message of an [http.MaxBytesError].
const bodyTooLarge = "The request body is too large."

// classify decides what clients see of err (see the package documentation),
// an *http.MaxBytesError being an HTTP-style 413.
func classify(err error) errclass.Verdict { return errclass.Classify(err, httpErrors) }

// httpErrors decides the net/http errors classify knows.
func httpErrors(err error) (errclass.Verdict, bool) {
	if _, ok := err.(*http.MaxBytesError); ok {
		return errclass.HTTPStyle(http.StatusRequestEntityTooLarge, bodyTooLarge), true
	}
	return errclass.Verdict{}, false
}
