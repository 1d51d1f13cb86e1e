package errcode

import "strings"

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
// missing from it answers 400 with defaultMessage.
var codes = map[Code]codeInfo{
	CodeUnauthenticated:     {401, MessageUnauthenticated, true},
	CodeForbidden:           {403, MessageForbidden, true},
	CodeNotFound:            {404, MessageNotFound, true},
	CodeValidationFailed:    {422, MessageValidationFailed, true},
	CodeInternal:            {500, MessageInternal, true},
	CodeClientClosedRequest: {StatusClientClosedRequest, "The request was canceled.", false},
	CodeTimeout:             {504, "The operation did not complete in time.", false},
	CodeUnavailable:         {503, MessageUnavailable, false},
	CodeParseFailed:         {400, "The query could not be parsed.", false},
	CodeGraphQLValidation:   {400, "The query is not valid.", false},
	CodeBadUserInput:        {400, "The variables are not valid.", false},
	CodeQueryLimitExceeded:  {400, "The query exceeds a limit.", false},
	CodeResponseTooLarge:    {400, "The response is larger than the limit.", false},
}

// StatusClientClosedRequest is the status recorded when the client went away
// before its answer was ready (nginx's 499): the work was cancelled, nobody
// receives the answer, and it is no server error.
const StatusClientClosedRequest = 499

// statusText holds the texts of the client error statuses, as net/http
// writes them, for [CodeForStatus]; the package imports no net/http.
var statusText = map[int]string{
	400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
	404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
	407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
	410: "Gone", 411: "Length Required", 412: "Precondition Failed",
	413: "Request Entity Too Large", 414: "Request URI Too Long",
	415: "Unsupported Media Type", 416: "Requested Range Not Satisfiable",
	417: "Expectation Failed", 418: "I'm a teapot", 421: "Misdirected Request",
	422: "Unprocessable Entity", 423: "Locked", 424: "Failed Dependency",
	425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required",
	429: "Too Many Requests", 431: "Request Header Fields Too Large",
	451: "Unavailable For Legal Reasons",
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
	return 400
}

// DefaultMessage is the client message of an error with code c and no
// message of its own: "Not found." for NOT_FOUND, "Internal server
// error." for INTERNAL_SERVER_ERROR, and "The request could not be
// completed." for a code the kit does not know.
func (c Code) DefaultMessage() string {
	if info, ok := codes[c]; ok {
		return info.message
	}
	return defaultMessage
}

// CodeForStatus returns the code of an HTTP-style error (see [StatusCoder])
// with the given status: 401, 403, 404 and 422 give [CodeUnauthenticated],
// [CodeForbidden], [CodeNotFound] and [CodeValidationFailed]; 500 and above
// give [CodeInternal]; any other status gives its text (as net/http.StatusText has it) in upper
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
	text := statusText[status]
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
