package graphql

import (
	"encoding/json"
	"errors"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
)

// ErrSyntax is the cause of the error [ParseQuery] returns for text that is
// not a GraphQL document.
var ErrSyntax = errors.New("graphql: syntax error")

// ErrTokenLimit is the cause of the error [ParseQuery] returns when the
// document has more lexical tokens than allowed.
var ErrTokenLimit = errors.New("graphql: too many tokens")

// ErrInvalidDocument is the cause of errors in a validated document that the
// engine finds while preparing it, such as a literal that cannot be coerced
// to its argument's type.
var ErrInvalidDocument = errors.New("graphql: invalid document")

// ErrInvalidOperation is the cause of errors reported when no operation can
// be selected: an empty document, an unknown operation name, or several
// operations and no name.
var ErrInvalidOperation = errors.New("graphql: no operation to execute")

// ErrInvalidVariables is the cause (errors.Is) of every error reported for
// variable values that cannot be coerced to their declared types.
var ErrInvalidVariables = coerce.ErrInvalidVariables

// RequestError returns e, an error the engine reports before execution
// (from [ParseQuery], [Schema.Validate], [Schema.Prepare] or the variables
// of [Operation.Execute]), as clients see it: its message and locations,
// without its cause (one of this package's sentinels, no secret), and with
// extensions.code set: BAD_USER_INPUT for variables and operation
// selection, GRAPHQL_PARSE_FAILED for syntax and the token limit,
// GRAPHQL_VALIDATION_FAILED otherwise. Extensions a custom scalar's parser
// added are kept beside the code, which always wins, unless they cannot be
// written as JSON. graphqlhttp and [Schema.Do] present request errors so.
func RequestError(e *gqlerror.Error) *gqlerror.Error {
	code := errcode.CodeGraphQLValidation
	switch {
	case errors.Is(e.Err, ErrInvalidVariables), errors.Is(e.Err, ErrInvalidOperation):
		code = errcode.CodeBadUserInput
	case errors.Is(e.Err, ErrSyntax), errors.Is(e.Err, ErrTokenLimit):
		code = errcode.CodeParseFailed
	}
	ext := make(map[string]any, len(e.Extensions)+1)
	for k, v := range e.Extensions {
		ext[k] = v
	}
	ext["code"] = code
	if len(e.Extensions) > 0 {
		if _, err := json.Marshal(ext); err != nil {
			ext = map[string]any{"code": code}
		}
	}
	return &gqlerror.Error{Message: e.Message, Locations: e.Locations, Extensions: ext}
}
