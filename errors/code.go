package errors

import (
	"net/http"
	"strings"
)

// Code is the machine-readable kind of an error. Clients read it from
// extensions.code of a GraphQL error; it also decides the HTTP status of a
// REST answer (see [Code.Status]).
//
// The constants below are the codes the kit itself produces. Code is a plain
// string type, so an application may define its own codes; an unlisted code
// answers 400 unless the [Error] carries an explicit Status.
type Code string

// Codes produced by the kit.
const (
	// CodeParseFailed: the GraphQL document does not parse.
	CodeParseFailed Code = "GRAPHQL_PARSE_FAILED"
	// CodeGraphQLValidation: the document is not valid against the schema.
	CodeGraphQLValidation Code = "GRAPHQL_VALIDATION_FAILED"
	// CodeBadUserInput: the variables do not fit the operation.
	CodeBadUserInput Code = "BAD_USER_INPUT"
	// CodeQueryLimitExceeded: the document is too long, deep or large.
	CodeQueryLimitExceeded Code = "QUERY_LIMIT_EXCEEDED"
	// CodeUnauthenticated: no valid credentials were sent (HTTP 401).
	CodeUnauthenticated Code = "UNAUTHENTICATED"
	// CodeForbidden: the caller may not do this (HTTP 403).
	CodeForbidden Code = "FORBIDDEN"
	// CodeNotFound: the resource does not exist (HTTP 404).
	CodeNotFound Code = "NOT_FOUND"
	// CodeValidationFailed: the input breaks the application's rules; the
	// per-field messages travel with it (HTTP 422).
	CodeValidationFailed Code = "VALIDATION_FAILED"
	// CodeInternal: anything the kit does not recognise; the message is
	// masked (HTTP 500).
	CodeInternal Code = "INTERNAL_SERVER_ERROR"
	// CodeClientClosedRequest: the client disconnected and its request was
	// cancelled (status 499, logged at info level; nobody reads the answer).
	CodeClientClosedRequest Code = "CLIENT_CLOSED_REQUEST"
)

// Default client messages, used when an [Error] has no Message of its own.
const (
	MessageUnauthenticated  = "Unauthenticated."
	MessageForbidden        = "This action is unauthorized."
	MessageNotFound         = "Not found."
	MessageValidationFailed = "The given data was invalid."
	MessageInternal         = "Internal server error."
)

// Status returns the HTTP status that answers an error with code c:
//
//	UNAUTHENTICATED            401
//	FORBIDDEN                  403
//	NOT_FOUND                  404
//	VALIDATION_FAILED          422
//	INTERNAL_SERVER_ERROR      500
//	CLIENT_CLOSED_REQUEST      499
//	GRAPHQL_PARSE_FAILED,
//	GRAPHQL_VALIDATION_FAILED,
//	BAD_USER_INPUT,
//	QUERY_LIMIT_EXCEEDED,
//	any other code             400
func (c Code) Status() int {
	switch c {
	case CodeUnauthenticated:
		return http.StatusUnauthorized
	case CodeForbidden:
		return http.StatusForbidden
	case CodeNotFound:
		return http.StatusNotFound
	case CodeValidationFailed:
		return http.StatusUnprocessableEntity
	case CodeInternal:
		return http.StatusInternalServerError
	case CodeClientClosedRequest:
		return StatusClientClosedRequest
	default:
		return http.StatusBadRequest
	}
}

// defaultMessage is the client message of an error with code c and no
// message of its own.
func (c Code) defaultMessage() string {
	switch c {
	case CodeUnauthenticated:
		return MessageUnauthenticated
	case CodeForbidden:
		return MessageForbidden
	case CodeNotFound:
		return MessageNotFound
	case CodeValidationFailed:
		return MessageValidationFailed
	case CodeInternal:
		return MessageInternal
	case CodeParseFailed:
		return "The query could not be parsed."
	case CodeGraphQLValidation:
		return "The query is not valid."
	case CodeBadUserInput:
		return "The variables are not valid."
	case CodeQueryLimitExceeded:
		return "The query exceeds a limit."
	default:
		return "The request could not be completed."
	}
}

// CodeForStatus returns the code of an HTTP-style error (see [StatusCoder])
// with the given status: 401, 403, 404 and 422 give [CodeUnauthenticated],
// [CodeForbidden], [CodeNotFound] and [CodeValidationFailed]; 500 and above
// give [CodeInternal]; any other status gives its [http.StatusText] in upper
// snake case ("CONFLICT" for 409, "IM_A_TEAPOT" for 418, "BAD_REQUEST" for
// 400 and for statuses without a text).
func CodeForStatus(status int) Code {
	switch status {
	case http.StatusUnauthorized:
		return CodeUnauthenticated
	case http.StatusForbidden:
		return CodeForbidden
	case http.StatusNotFound:
		return CodeNotFound
	case http.StatusUnprocessableEntity:
		return CodeValidationFailed
	}
	if status >= 500 {
		return CodeInternal
	}
	text := http.StatusText(status)
	if text == "" {
		return "BAD_REQUEST"
	}
	var b strings.Builder
	sep := false
	for _, r := range text {
		switch {
		case 'a' <= r && r <= 'z':
			r -= 'a' - 'A'
		case 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		case r == ' ' || r == '-':
			sep = b.Len() > 0
			continue
		default: // the apostrophe of "I'm a teapot"
			continue
		}
		if sep {
			b.WriteByte('_')
			sep = false
		}
		b.WriteRune(r)
	}
	return Code(b.String())
}
