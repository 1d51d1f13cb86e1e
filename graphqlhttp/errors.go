package graphqlhttp

import (
	"github.com/vektah/gqlparser/v2/gqlerror"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/limits"
)

// limitInfo is extensions.limit of a QUERY_LIMIT_EXCEEDED error, its
// members in this order.
type limitInfo struct {
	Name  limits.Name `json:"name"`
	Max   int         `json:"max"`
	Found int         `json:"found"`
}

// simpleError is a request error with a code and no location.
func simpleError(code apierror.Code, msg string) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": code}}
}

// undefinedVariableError is the error of gqlparser's NoUndefinedVariables
// rule for ref.
func undefinedVariableError(ref limits.VariableRef) *gqlerror.Error {
	msg := `Variable "$` + ref.Name + `" is not defined.`
	if ref.Operation != "" {
		msg = `Variable "$` + ref.Name + `" is not defined by operation "` + ref.Operation + `".`
	}
	e := simpleError(apierror.CodeGraphQLValidation, msg)
	e.Locations = []gqlerror.Location{{Line: ref.Line, Column: ref.Column}}
	return e
}

func limitError(le *limits.Error) *gqlerror.Error {
	e := &gqlerror.Error{Message: le.Error(), Extensions: map[string]any{"code": apierror.CodeQueryLimitExceeded,
		"limit": limitInfo{Name: le.Limit, Max: le.Max, Found: le.Found}}}
	if le.Line > 0 && le.Column > 0 {
		e.Locations = []gqlerror.Location{{Line: le.Line, Column: le.Column}}
	}
	return e
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
