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
	// CodeTimeout: the operation ran past its deadline and the fields not
	// resolved by then are null (graphqlhttp.Config.Timeout). A server-side
	// outcome: 504 in REST terms, a span error for tracers.
	CodeTimeout Code = "TIMEOUT"
	// CodeUnavailable: a service the request depends on cannot answer,
	// such as the store of revoked tokens (HTTP 503). A server-side
	// outcome: the cause is logged, never shown.
	CodeUnavailable Code = "SERVICE_UNAVAILABLE"
	// CodeResponseTooLarge: the answer would be larger than the server's
	// bound on one answer (graphqlhttp.Config.MaxResponseBytes); the
	// client should ask for less (HTTP 400).
	CodeResponseTooLarge Code = "RESPONSE_TOO_LARGE"
)

// Default client messages, used when an [Error] has no Message of its own.
const (
	MessageUnauthenticated  = "Unauthenticated."
	MessageForbidden        = "This action is unauthorized."
	MessageNotFound         = "Not found."
	MessageValidationFailed = "The given data was invalid."
	MessageInternal         = "Internal server error."
	MessageUnavailable      = "Service unavailable."
)

// codeInfo is what the kit knows of one of its codes.
type codeInfo struct {
	status  int    // HTTP status of a REST answer
	message string // client message when an error has none
	// fromStatus makes the code the one [CodeForStatus] gives for status.
	fromStatus bool
}

// codes is the one table from code to status and default message; a code
// missing from it answers 400 with [defaultMessage].
var codes = map[Code]codeInfo{
	CodeUnauthenticated:     {http.StatusUnauthorized, MessageUnauthenticated, true},
	CodeForbidden:           {http.StatusForbidden, MessageForbidden, true},
	CodeNotFound:            {http.StatusNotFound, MessageNotFound, true},
	CodeValidationFailed:    {http.StatusUnprocessableEntity, MessageValidationFailed, true},
	CodeInternal:            {http.StatusInternalServerError, MessageInternal, true},
	CodeClientClosedRequest: {StatusClientClosedRequest, "The request was canceled.", false},
	CodeTimeout:             {http.StatusGatewayTimeout, "The operation did not complete in time.", false},
	CodeUnavailable:         {http.StatusServiceUnavailable, MessageUnavailable, false},
	CodeParseFailed:         {http.StatusBadRequest, "The query could not be parsed.", false},
	CodeGraphQLValidation:   {http.StatusBadRequest, "The query is not valid.", false},
	CodeBadUserInput:        {http.StatusBadRequest, "The variables are not valid.", false},
	CodeQueryLimitExceeded:  {http.StatusBadRequest, "The query exceeds a limit.", false},
	CodeResponseTooLarge:    {http.StatusBadRequest, "The response is larger than the limit.", false},
}

// defaultMessage is the message of a code the table does not hold.
const defaultMessage = "The request could not be completed."

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
//	RESPONSE_TOO_LARGE,
//	any other code             400
func (c Code) Status() int {
	if info, ok := codes[c]; ok {
		return info.status
	}
	return http.StatusBadRequest
}

// defaultMessage is the client message of an error with code c and no
// message of its own.
func (c Code) defaultMessage() string {
	if info, ok := codes[c]; ok {
		return info.message
	}
	return defaultMessage
}

// CodeForStatus returns the code of an HTTP-style error (see [StatusCoder])
// with the given status: 401, 403, 404 and 422 give [CodeUnauthenticated],
// [CodeForbidden], [CodeNotFound] and [CodeValidationFailed]; 500 and above
// give [CodeInternal]; any other status gives its [http.StatusText] in upper
// snake case ("CONFLICT" for 409, "IM_A_TEAPOT" for 418, "BAD_REQUEST" for
// 400 and for statuses without a text).
func CodeForStatus(status int) Code {
	for code, info := range codes {
		if info.fromStatus && info.status == status {
			return code
		}
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
