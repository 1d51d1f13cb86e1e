package graphqlhttp

import (
	"encoding/json"
	"errors"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/limits"
)

type location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// errorObject is a GraphQL error as written to clients.
type errorObject struct {
	Message    string     `json:"message"`
	Locations  []location `json:"locations,omitempty"`
	Path       ast.Path   `json:"path,omitempty"`
	Extensions any        `json:"extensions,omitempty"`
}

type codeExt struct {
	Code apierror.Code `json:"code"`
}

type limitExt struct {
	Code  apierror.Code `json:"code"`
	Limit limitInfo     `json:"limit"`
}

type limitInfo struct {
	Name  limits.Name `json:"name"`
	Max   int         `json:"max"`
	Found int         `json:"found"`
}

func locationsOf(ls []gqlerror.Location) []location {
	var out []location
	for _, l := range ls {
		if l.Line > 0 && l.Column > 0 {
			out = append(out, location{l.Line, l.Column})
		}
	}
	return out
}

func simpleError(code apierror.Code, msg string) errorObject {
	return errorObject{Message: msg, Extensions: codeExt{code}}
}

// undefinedVariableError is the error of gqlparser's NoUndefinedVariables
// rule for ref.
func undefinedVariableError(ref limits.VariableRef) errorObject {
	msg := `Variable "$` + ref.Name + `" is not defined.`
	if ref.Operation != "" {
		msg = `Variable "$` + ref.Name + `" is not defined by operation "` + ref.Operation + `".`
	}
	return errorObject{Message: msg, Locations: []location{{ref.Line, ref.Column}},
		Extensions: codeExt{apierror.CodeGraphQLValidation}}
}

func limitError(e *limits.Error) errorObject {
	obj := errorObject{Message: e.Error(), Extensions: limitExt{Code: apierror.CodeQueryLimitExceeded,
		Limit: limitInfo{Name: e.Limit, Max: e.Max, Found: e.Found}}}
	if e.Line > 0 && e.Column > 0 {
		obj.Locations = []location{{e.Line, e.Column}}
	}
	return obj
}

// requestErrors turns errors found before execution (validation, operation
// selection, variables) into error objects with their codes, at most
// MaxErrors of them.
func requestErrors(errs gqlerror.List) []errorObject {
	if len(errs) == 0 {
		return nil
	}
	out := make([]errorObject, 0, min(len(errs), MaxErrors))
	for _, e := range errs {
		if len(out) == MaxErrors {
			break
		}
		code := apierror.CodeGraphQLValidation
		switch {
		case errors.Is(e.Err, graphql.ErrInvalidVariables), errors.Is(e.Err, graphql.ErrInvalidOperation):
			code = apierror.CodeBadUserInput
		}
		out = append(out, errorObject{Message: e.Message, Locations: locationsOf(e.Locations), Extensions: extensionsWith(code, e.Extensions)})
	}
	return out
}

// extensionsWith returns the extensions of a request error: those the
// error brings (a custom scalar's parser may add some, as graphql-js lets a
// GraphQLError do) with code set, which always wins. Extensions that do
// not marshal as JSON are dropped.
func extensionsWith(code apierror.Code, ext map[string]any) any {
	if len(ext) == 0 {
		return codeExt{code}
	}
	out := make(map[string]any, len(ext)+1)
	for k, v := range ext {
		out[k] = v
	}
	out["code"] = code
	if _, err := json.Marshal(out); err != nil {
		return codeExt{code}
	}
	return out
}
