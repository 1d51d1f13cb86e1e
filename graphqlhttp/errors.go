package graphqlhttp

import (
	"encoding/json"
	"errors"

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
// selection, variables) into the errors clients see, with their codes, at
// most MaxErrors of them.
func requestErrors(errs gqlerror.List) gqlerror.List {
	if len(errs) == 0 {
		return nil
	}
	out := make(gqlerror.List, 0, min(len(errs), MaxErrors))
	for _, e := range errs {
		if len(out) == MaxErrors {
			break
		}
		code := apierror.CodeGraphQLValidation
		switch {
		case errors.Is(e.Err, graphql.ErrInvalidVariables), errors.Is(e.Err, graphql.ErrInvalidOperation):
			code = apierror.CodeBadUserInput
		}
		out = append(out, &gqlerror.Error{Message: e.Message, Locations: e.Locations, Extensions: extensionsWith(code, e.Extensions)})
	}
	return out
}

// extensionsWith returns the extensions of a request error: those the
// error brings (a custom scalar's parser may add some, as graphql-js lets a
// GraphQLError do) with code set, which always wins. Extensions that do
// not marshal as JSON are dropped.
func extensionsWith(code apierror.Code, ext map[string]any) map[string]any {
	out := make(map[string]any, len(ext)+1)
	for k, v := range ext {
		out[k] = v
	}
	out["code"] = code
	if len(ext) > 0 {
		if _, err := json.Marshal(out); err != nil {
			return map[string]any{"code": code}
		}
	}
	return out
}
