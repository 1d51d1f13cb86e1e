package graphqlhttp

import (
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

// simpleError is a request error with a code and no location.
func simpleError(code errcode.Code, msg string) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": code}}
}

// requestErrors turns errors found before execution (validation, operation
// selection, variables) into the errors clients see (see
// graphql.RequestError), at most MaxErrors of them.
func requestErrors(errs gqlerror.List) gqlerror.List {
	if len(errs) == 0 {
		return nil
	}
	out := make(gqlerror.List, 0, min(len(errs), MaxErrors))
	for _, e := range errs[:min(len(errs), MaxErrors)] {
		out = append(out, graphql.RequestError(e))
	}
	return out
}
