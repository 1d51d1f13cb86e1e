package errcode_test

import (
	"errors"
	"fmt"

	"github.com/gqlkit/gqlkit/errcode"
)

func ExampleForbidden() {
	err := errcode.Forbidden("You can only delete your own articles.")
	fmt.Println(err.Code, err.StatusCode(), err.ClientMessage())
	fmt.Println(errcode.Forbidden("").ClientMessage())
	// Output:
	// FORBIDDEN 403 You can only delete your own articles.
	// This action is unauthorized.
}

func ExampleValidationFailed() {
	err := errcode.ValidationFailed("", map[string][]string{
		"title": {"The title field is required."},
		"body":  {"The body field is required."},
	})
	fmt.Println(err.StatusCode(), err)
	// Output:
	// 422 VALIDATION_FAILED "The body field is required. (and 1 more error)"
}

func ExampleSummarize() {
	fields := map[string][]string{
		"title": {"The title field is required."},
		"body":  {"The body field is required."},
	}
	// The order the fields are declared in picks the first message.
	fmt.Println(errcode.Summarize(fields, []string{"title", "body", "published"}))
	// Output:
	// The title field is required. (and 1 more error)
}

func ExampleRecovered() {
	resolve := func() (v any, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = errcode.Recovered(r)
			}
		}()
		panic(errors.New("index out of range")) // a bug somewhere below
	}

	_, err := resolve()
	var p errcode.Panic
	fmt.Println(errors.As(err, &p), p.PanicValue(), len(p.StackTrace()) > 0)
	// Output:
	// true index out of range true
}
