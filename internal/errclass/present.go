package errclass

import (
	"fmt"
	"maps"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// GraphQL returns the GraphQL error object clients see for an error whose
// verdict is v, with message (v.Message, or the real text in debug mode)
// at path and locs. Its extensions hold v's extra entries and "code", and
// "status" and "validation" when v has them; gqlparser's "file" is left
// out. Its Err is nil.
func GraphQL(v Verdict, message string, path ast.Path, locs []gqlerror.Location) *gqlerror.Error {
	ext := make(map[string]any, len(v.Extensions)+3)
	maps.Copy(ext, v.Extensions)
	// gqlparser's source name is not for clients, and the keys the
	// presenter owns are its alone, present or not.
	delete(ext, "file")
	delete(ext, "status")
	delete(ext, "validation")
	ext["code"] = v.Code
	if v.ShowStatus {
		ext["status"] = v.Status
	}
	if len(v.Fields) > 0 {
		ext["validation"] = v.Fields
	}
	return &gqlerror.Error{Message: message, Path: path, Locations: locs, Extensions: ext}
}

// LogText is the text of err for logs: its whole chain, without the
// "input: path" prefix a *gqlerror.Error wrapping a resolver's error adds.
func LogText(err error) string {
	if e, ok := err.(*gqlerror.Error); ok && e != nil && e.Err != nil {
		err = e.Err
	}
	return fmt.Sprint(err) // fmt survives an Error method that panics
}
