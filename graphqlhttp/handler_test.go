package graphqlhttp_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

const (
	helloData = `{"data":{"hello":"world"}}`

	msgBatching        = "Batching is not supported: send one operation per request."
	msgNotJSON         = "The request body is not valid JSON."
	msgNotObject       = "The request body must be a JSON object."
	msgVariables       = "The variables parameter must be a JSON object."
	msgNoQuery         = "The query parameter is missing."
	msgQueryNotString  = "The query parameter must be a string."
	msgOpNameNotString = "The operationName parameter must be a string."
	msgMediaType       = "The request body must be sent as application/json (or application/graphql)."
	msgMethod          = "Only GET and POST requests are supported."
	msgGETMutation     = "Mutations can only be sent with POST."
	msgUnauthenticated = "Unauthenticated."
	msgTooDeep         = "The variables are nested more than 64 levels deep."
)

// nestedVariables returns a variables object whose value "v" nests arrays
// so that the whole object is depth levels deep.
func nestedVariables(depth int) string {
	return `{"v":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
}

// TestTransport sends one real request for every row of the HTTP contract
// of /api/graphql and checks status, headers and the exact body.
func TestTransport(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	const (
		appJSON  = "application/json"
		appGQL   = "application/graphql"
		grj      = "application/graphql-response+json"
		grjType  = grj + "; charset=utf-8"
		twoOps   = "query Q { hello } mutation M { whoami }"
		badReq   = 400
		notAllow = 405
	)
	tests := []struct {
		name string
		req  request
		want want
	}{
		// POST application/json
		{name: "POST json", req: request{contentType: appJSON, body: jsonBody("{ hello }", "", "")},
			want: want{status: 200, body: helloData}},
		{name: "POST json charset utf-8", req: request{contentType: "application/json; charset=utf-8", body: jsonBody("{ hello }", "", "")},
			want: want{status: 200, body: helloData}},
		{name: "POST json media type compared case-insensitively", req: request{contentType: "Application/JSON; Charset=UTF-8", body: jsonBody("{ hello }", "", "")},
			want: want{status: 200, body: helloData}},
		{name: "POST json variables and operationName", req: request{contentType: appJSON,
			body: jsonBody("query A { hello } query B($v: Int) { echoInt(v: $v) }", `{"v": 7}`, "B")},
			want: want{status: 200, body: `{"data":{"echoInt":7}}`}},
		{name: "POST json null members and unknown members", req: request{contentType: appJSON,
			body: `{"query":"{ hello }","variables":null,"operationName":null,"extensions":null,"id":"x"}`},
			want: want{status: 200, body: helloData}},
		{name: "POST json without a body-length", req: request{contentType: appJSON, body: jsonBody("{ hello }", "", ""), chunked: true},
			want: want{status: 200, body: helloData}},
		{name: "resolvers get the HTTP request", req: request{contentType: appJSON, body: jsonBody("{ userAgent }", "", "")},
			want: want{status: 200, body: `{"data":{"userAgent":"Go-http-client/1.1"}}`}},
		{name: "partial data", req: request{contentType: appJSON, body: jsonBody("{ hello forbidden }", "", "")},
			want: want{status: 200, body: `{"data":{"hello":"world","forbidden":null},"errors":[{"message":"You may not read this.","locations":[{"line":1,"column":9}],"path":["forbidden"],"extensions":{"code":"FORBIDDEN"}}]}`}},

		// POST application/graphql
		{name: "POST graphql", req: request{contentType: appGQL, body: "{ hello }"},
			want: want{status: 200, body: helloData}},
		{name: "POST graphql charset utf-8", req: request{contentType: appGQL + "; charset=utf-8", body: "{ hello }"},
			want: want{status: 200, body: helloData}},
		{name: "POST graphql empty body", req: request{contentType: appGQL},
			want: want{status: badReq, body: errorsBodyAt("Syntax Error: Unexpected <EOF>.", "GRAPHQL_PARSE_FAILED", 1, 1)}},

		// GET
		// Variables nest at most 64 levels, however they are sent.
		{name: "POST json variables 64 levels deep", req: request{contentType: appJSON, body: jsonBody("{ hello }", nestedVariables(64), "")},
			want: want{status: 200, body: helloData}},
		{name: "POST json variables 65 levels deep", req: request{contentType: appJSON, body: jsonBody("{ hello }", nestedVariables(65), "")},
			want: want{status: badReq, body: errorsBody(msgTooDeep, "BAD_USER_INPUT")}},
		{name: "POST json variables 5000 levels deep", req: request{contentType: appJSON, body: jsonBody("{ hello }", nestedVariables(5000), "")},
			want: want{status: badReq, body: errorsBody(msgTooDeep, "BAD_USER_INPUT")}},
		{name: "POST json extensions nested deeper are ignored", req: request{contentType: appJSON,
			body: `{"query":"{ hello }","extensions":` + nestedVariables(200) + `}`},
			want: want{status: 200, body: helloData}},
		{name: "POST json variables 65 levels deep after extensions", req: request{contentType: appJSON,
			body: `{"extensions":{"a":1},"query":"{ hello }","variables":` + nestedVariables(65) + `}`},
			want: want{status: badReq, body: errorsBody(msgTooDeep, "BAD_USER_INPUT")}},
		{name: "GET variables 64 levels deep", req: request{method: "GET", rawQuery: getQuery("{ hello }", nestedVariables(64), "")},
			want: want{status: 200, body: helloData}},
		{name: "GET variables 65 levels deep", req: request{method: "GET", rawQuery: getQuery("{ hello }", nestedVariables(65), "")},
			want: want{status: badReq, body: errorsBody(msgTooDeep, "BAD_USER_INPUT")}},

		{name: "GET query", req: request{method: "GET", rawQuery: getQuery("{ hello }", "", "")},
			want: want{status: 200, body: helloData}},
		{name: "GET variables and operationName", req: request{method: "GET",
			rawQuery: getQuery("query A { hello } query B($v: Int) { echoInt(v: $v) }", `{"v":-3}`, "B")},
			want: want{status: 200, body: `{"data":{"echoInt":-3}}`}},
		{name: "GET empty variables mean none", req: request{method: "GET", rawQuery: "query=%7B+hello+%7D&variables=&operationName="},
			want: want{status: 200, body: helloData}},
		{name: "GET null variables", req: request{method: "GET", rawQuery: "query=%7B+hello+%7D&variables=null"},
			want: want{status: 200, body: helloData}},
		{name: "GET query picked from a document with a mutation", req: request{method: "GET", rawQuery: getQuery(twoOps, "", "Q")},
			want: want{status: 200, body: helloData}},
		{name: "GET without query", req: request{method: "GET", rawQuery: "variables=%7B%7D"},
			want: want{status: badReq, body: errorsBody(msgNoQuery, "BAD_USER_INPUT")}},
		{name: "GET variables not an object", req: request{method: "GET", rawQuery: getQuery("{ hello }", "[]", "")},
			want: want{status: badReq, body: errorsBody(msgVariables, "BAD_USER_INPUT")}},
		{name: "GET variables malformed", req: request{method: "GET", rawQuery: getQuery("{ hello }", "{x", "")},
			want: want{status: badReq, body: errorsBody(msgVariables, "BAD_USER_INPUT")}},

		// GET with a mutation
		{name: "GET mutation", req: request{method: "GET", rawQuery: getQuery("mutation { whoami }", "", "")},
			want: want{status: notAllow, allow: "POST", body: errorsBody(msgGETMutation, "BAD_USER_INPUT")}},
		{name: "GET mutation picked by operationName", req: request{method: "GET", rawQuery: getQuery(twoOps, "", "M")},
			want: want{status: notAllow, allow: "POST", body: errorsBody(msgGETMutation, "BAD_USER_INPUT")}},

		// other methods
		{name: "PUT", req: request{method: "PUT", contentType: appJSON, body: jsonBody("{ hello }", "", "")},
			want: want{status: notAllow, allow: "GET, POST", body: errorsBody(msgMethod, "BAD_USER_INPUT")}},
		{name: "PATCH", req: request{method: "PATCH", contentType: appJSON, body: jsonBody("{ hello }", "", "")},
			want: want{status: notAllow, allow: "GET, POST", body: errorsBody(msgMethod, "BAD_USER_INPUT")}},
		{name: "DELETE", req: request{method: "DELETE"},
			want: want{status: notAllow, allow: "GET, POST", body: errorsBody(msgMethod, "BAD_USER_INPUT")}},
		{name: "OPTIONS", req: request{method: "OPTIONS"},
			want: want{status: notAllow, allow: "GET, POST", body: errorsBody(msgMethod, "BAD_USER_INPUT")}},
		{name: "HEAD", req: request{method: "HEAD", rawQuery: getQuery("{ hello }", "", "")},
			want: want{status: notAllow, allow: "GET, POST"}},

		// other content types
		{name: "no Content-Type", req: request{body: jsonBody("{ hello }", "", "")},
			want: want{status: 415, body: errorsBody(msgMediaType, "BAD_USER_INPUT")}},
		{name: "text/plain", req: request{contentType: "text/plain;charset=UTF-8", body: jsonBody("{ hello }", "", "")},
			want: want{status: 415, body: errorsBody(msgMediaType, "BAD_USER_INPUT")}},
		{name: "form", req: request{contentType: "application/x-www-form-urlencoded", body: "query=%7Bhello%7D"},
			want: want{status: 415, body: errorsBody(msgMediaType, "BAD_USER_INPUT")}},
		{name: "multipart", req: request{contentType: "multipart/form-data; boundary=x", body: "--x--"},
			want: want{status: 415, body: errorsBody(msgMediaType, "BAD_USER_INPUT")}},
		{name: "graphql+json", req: request{contentType: "application/graphql+json", body: jsonBody("{ hello }", "", "")},
			want: want{status: 415, body: errorsBody(msgMediaType, "BAD_USER_INPUT")}},
		{name: "json in another charset", req: request{contentType: "application/json; charset=utf-16", body: jsonBody("{ hello }", "", "")},
			want: want{status: 415, body: errorsBody(msgMediaType, "BAD_USER_INPUT")}},
		{name: "unparsable Content-Type", req: request{contentType: "application/json; charset", body: jsonBody("{ hello }", "", "")},
			want: want{status: 415, body: errorsBody(msgMediaType, "BAD_USER_INPUT")}},

		// JSON array body
		{name: "batch", req: request{contentType: appJSON, body: "[" + jsonBody("{ hello }", "", "") + "," + jsonBody("{ hello }", "", "") + "]"},
			want: want{status: badReq, body: errorsBody(msgBatching, "BAD_USER_INPUT")}},
		{name: "batch after white space", req: request{contentType: appJSON, body: " \r\n\t[]"},
			want: want{status: badReq, body: errorsBody(msgBatching, "BAD_USER_INPUT")}},

		// malformed JSON, variables not an object, no query, wrong types
		{name: "truncated JSON", req: request{contentType: appJSON, body: `{"query":`},
			want: want{status: badReq, body: errorsBody(msgNotJSON, "BAD_USER_INPUT")}},
		{name: "JSON with trailing data", req: request{contentType: appJSON, body: jsonBody("{ hello }", "", "") + " {}"},
			want: want{status: badReq, body: errorsBody(msgNotJSON, "BAD_USER_INPUT")}},
		{name: "empty body", req: request{contentType: appJSON},
			want: want{status: badReq, body: errorsBody(msgNotObject, "BAD_USER_INPUT")}},
		{name: "JSON null body", req: request{contentType: appJSON, body: "null"},
			want: want{status: badReq, body: errorsBody(msgNotObject, "BAD_USER_INPUT")}},
		{name: "JSON string body", req: request{contentType: appJSON, body: `"{ hello }"`},
			want: want{status: badReq, body: errorsBody(msgNotObject, "BAD_USER_INPUT")}},
		{name: "variables a list", req: request{contentType: appJSON, body: `{"query":"{ hello }","variables":[1]}`},
			want: want{status: badReq, body: errorsBody(msgVariables, "BAD_USER_INPUT")}},
		{name: "variables a string", req: request{contentType: appJSON, body: `{"query":"{ hello }","variables":"{}"}`},
			want: want{status: badReq, body: errorsBody(msgVariables, "BAD_USER_INPUT")}},
		{name: "variables a number", req: request{contentType: appJSON, body: `{"query":"{ hello }","variables":1}`},
			want: want{status: badReq, body: errorsBody(msgVariables, "BAD_USER_INPUT")}},
		{name: "no query", req: request{contentType: appJSON, body: `{"variables":{}}`},
			want: want{status: badReq, body: errorsBody(msgNoQuery, "BAD_USER_INPUT")}},
		{name: "null query", req: request{contentType: appJSON, body: `{"query":null}`},
			want: want{status: badReq, body: errorsBody(msgNoQuery, "BAD_USER_INPUT")}},
		{name: "query a number", req: request{contentType: appJSON, body: `{"query":1}`},
			want: want{status: badReq, body: errorsBody(msgQueryNotString, "BAD_USER_INPUT")}},
		{name: "query an object", req: request{contentType: appJSON, body: `{"query":{"text":"{ hello }"}}`},
			want: want{status: badReq, body: errorsBody(msgQueryNotString, "BAD_USER_INPUT")}},
		{name: "operationName a number", req: request{contentType: appJSON, body: `{"query":"{ hello }","operationName":1}`},
			want: want{status: badReq, body: errorsBody(msgOpNameNotString, "BAD_USER_INPUT")}},
		{name: "operationName a list", req: request{contentType: appJSON, body: `{"query":"{ hello }","operationName":["A"]}`},
			want: want{status: badReq, body: errorsBody(msgOpNameNotString, "BAD_USER_INPUT")}},

		// syntax, validation, limit and variable errors: 400 without data
		{name: "syntax error", req: request{contentType: appJSON, body: jsonBody("{ hello", "", "")},
			want: want{status: badReq, body: errorsBodyAt("Syntax Error: Expected Name, found <EOF>", "GRAPHQL_PARSE_FAILED", 1, 8)}},
		{name: "empty query", req: request{contentType: appJSON, body: jsonBody("", "", "")},
			want: want{status: badReq, body: errorsBodyAt("Syntax Error: Unexpected <EOF>.", "GRAPHQL_PARSE_FAILED", 1, 1)}},
		{name: "validation error", req: request{contentType: appJSON, body: jsonBody("{ hello nope }", "", "")},
			want: want{status: badReq, body: errorsBodyAt(`Cannot query field "nope" on type "Query".`, "GRAPHQL_VALIDATION_FAILED", 1, 9)}},
		{name: "limit error", req: request{contentType: appJSON, body: jsonBody("{ node { child { child { child { child { child { child { child { child { child { name } } } } } } } } } } }", "", "")},
			want: want{status: badReq, body: limitBody("query depth 11 exceeds the maximum of 10", "depth", 10, 11, 1, 82)}}, // at "name"
		{name: "variable error", req: request{contentType: appJSON, body: jsonBody("query($v: Int!) { echoInt(v: $v) }", `{"v":"7"}`, "")},
			want: want{status: badReq, body: errorsBodyAt(`Variable "$v" got invalid value "7"; Int cannot represent non-integer value: "7"`, "BAD_USER_INPUT", 1, 7)}},
		{name: "missing variable", req: request{contentType: appJSON, body: jsonBody("query($id: ID!) { post(id: $id) { id } }", `{}`, "")},
			want: want{status: badReq, body: errorsBodyAt(`Variable "$id" of required type "ID!" was not provided.`, "BAD_USER_INPUT", 1, 7)}},
		{name: "several operations and no name", req: request{contentType: appJSON, body: jsonBody(twoOps, "", "")},
			want: want{status: badReq, body: errorsBody("Must provide operation name if query contains multiple operations.", "BAD_USER_INPUT")}},
		{name: "unknown operation name", req: request{contentType: appJSON, body: jsonBody(twoOps, "", "Z")},
			want: want{status: badReq, body: errorsBody(`Unknown operation named "Z".`, "BAD_USER_INPUT")}},

		// Accept
		{name: "Accept graphql-response+json", req: request{contentType: appJSON, body: jsonBody("{ hello }", "", ""), accept: grj},
			want: want{status: 200, body: helloData, contentType: grjType}},
		{name: "Accept graphql-response+json, then json", req: request{contentType: appJSON, body: jsonBody("{ hello }", "", ""), accept: grj + ", application/json;q=0.9"},
			want: want{status: 200, body: helloData, contentType: grjType}},
		{name: "Accept graphql-response+json on an error", req: request{contentType: appJSON, body: jsonBody("{ nope }", "", ""), accept: grj},
			want: want{status: badReq, contentType: grjType, body: errorsBodyAt(`Cannot query field "nope" on type "Query".`, "GRAPHQL_VALIDATION_FAILED", 1, 3)}},
		{name: "Accept graphql-response+json on a 405", req: request{method: "PUT", accept: grj},
			want: want{status: notAllow, allow: "GET, POST", contentType: grjType, body: errorsBody(msgMethod, "BAD_USER_INPUT")}},
		{name: "Accept graphql-response+json on a 415", req: request{contentType: "text/plain", body: "{ hello }", accept: grj},
			want: want{status: 415, contentType: grjType, body: errorsBody(msgMediaType, "BAD_USER_INPUT")}},
		{name: "Accept json first", req: request{contentType: appJSON, body: jsonBody("{ hello }", "", ""), accept: "application/json, " + grj + ";q=0.9"},
			want: want{status: 200, body: helloData}},
		{name: "Accept anything", req: request{contentType: appJSON, body: jsonBody("{ hello }", "", ""), accept: "*/*"},
			want: want{status: 200, body: helloData}},
		{name: "Accept html", req: request{method: "GET", rawQuery: getQuery("{ hello }", "", ""), accept: "text/html"},
			want: want{status: 200, body: helloData}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.requestID = fmt.Sprintf("transport-%d", i)
			check(t, tt.req, ts.send(t, tt.req), tt.want)
		})
	}
	if n := ts.mutations.Load(); n != 0 {
		t.Errorf("mutation resolvers ran %d times, want 0", n)
	}
}

// limitBody is the body of a QUERY_LIMIT_EXCEEDED answer; line 0 means
// no location.
func limitBody(message, name string, max, found, line, column int) string {
	loc := ""
	if line > 0 {
		loc = fmt.Sprintf(`,"locations":[{"line":%d,"column":%d}]`, line, column)
	}
	return fmt.Sprintf(`{"errors":[{"message":%s%s,"extensions":{"code":"QUERY_LIMIT_EXCEEDED","limit":{"name":"%s","max":%d,"found":%d}}}]}`,
		quote(message), loc, name, max, found)
}

// TestRequestID checks that a request id is made when none is sent, and
// that the same id is on the response and on the access line.
func TestRequestID(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	got := ts.send(t, request{contentType: "application/json", body: jsonBody("{ hello }", "", "")})
	id := got.header.Get("X-Request-Id")
	if id == "" {
		t.Fatalf("X-Request-Id is missing")
	}
	check(t, request{requestID: id}, got, want{status: 200, body: helloData})

	// The access line is written when the handler returns, which may be
	// after the client has read a response: the client reuses its idle
	// connection for a second request, which is read only once the first
	// one's handler has returned.
	ts.send(t, request{contentType: "application/json", body: jsonBody("{ hello }", "", "")})
	lines := logLines(t, ts.logs, id)
	if len(lines) != 1 {
		t.Fatalf("log lines with the id %s: %v, want the access line", id, lines)
	}
	if lines[0]["message"] != "request" || lines[0]["status"] != float64(200) || lines[0]["method"] != "POST" {
		t.Errorf("access line = %v, want a request line with status 200", lines[0])
	}
}

// TestAuthentication checks the mutation gate and the 401 for a bad token,
// with a real auth.Verifier.
func TestAuthentication(t *testing.T) {
	const (
		appJSON = "application/json"
		twoOps  = "query Q { hello } mutation M { whoami }"
	)
	unauthenticated := want{status: 401, wwwAuth: "Bearer", body: errorsBody(msgUnauthenticated, "UNAUTHENTICATED")}
	tests := []struct {
		name          string
		req           request
		token         string // "valid", "expired", "forged" or an Authorization value
		want          want
		wantMutations int64
	}{
		{name: "mutation without a token",
			req: request{contentType: appJSON, body: jsonBody("mutation { whoami }", "", "")}, want: unauthenticated},
		{name: "mutation over application/graphql without a token",
			req: request{contentType: "application/graphql", body: "mutation { whoami }"}, want: unauthenticated},
		{name: "mutation with another scheme",
			req: request{contentType: appJSON, body: jsonBody("mutation { whoami }", "", "")}, token: "Basic dXNlcjpwYXNz", want: unauthenticated},
		{name: "mutation picked by operationName without a token",
			req: request{contentType: appJSON, body: jsonBody(twoOps, "", "M")}, want: unauthenticated},
		{name: "query picked by operationName needs no token",
			req: request{contentType: appJSON, body: jsonBody(twoOps, "", "Q")}, want: want{status: 200, body: helloData}},
		{name: "query without a token",
			req: request{contentType: appJSON, body: jsonBody("{ me }", "", "")}, want: want{status: 200, body: `{"data":{"me":null}}`}},
		{name: "query with another scheme",
			req: request{contentType: appJSON, body: jsonBody("{ me }", "", "")}, token: "Basic dXNlcjpwYXNz", want: unauthenticated},
		{name: "mutation with a valid token",
			req: request{contentType: appJSON, body: jsonBody("mutation { whoami }", "", "")}, token: "valid",
			want: want{status: 200, body: `{"data":{"whoami":3}}`}, wantMutations: 1},
		{name: "mutation picked by operationName with a valid token",
			req: request{contentType: appJSON, body: jsonBody(twoOps, "", "M")}, token: "valid",
			want: want{status: 200, body: `{"data":{"whoami":3}}`}, wantMutations: 1},
		{name: "lower-case scheme",
			req: request{contentType: appJSON, body: jsonBody("mutation { whoami }", "", "")}, token: "bearer-lower",
			want: want{status: 200, body: `{"data":{"whoami":3}}`}, wantMutations: 1},
		{name: "createPost takes the author from the token",
			req: request{contentType: appJSON, body: jsonBody(`mutation($in: CreatePostInput!) { createPost(input: $in) { id title tags author { id name } } }`,
				`{"in":{"title":"Hello","body":"World","tags":["a"]}}`, "")}, token: "valid",
			want: want{status: 200, body: `{"data":{"createPost":{"id":"51","title":"Hello","tags":["a"],"author":{"id":"3","name":"Grace Hopper"}}}}`}, wantMutations: 1},
		{name: "query with a valid token",
			req: request{contentType: appJSON, body: jsonBody("{ me }", "", "")}, token: "valid", want: want{status: 200, body: `{"data":{"me":3}}`}},
		{name: "query with an expired token",
			req: request{contentType: appJSON, body: jsonBody("{ hello }", "", "")}, token: "expired", want: unauthenticated},
		{name: "query with a forged token",
			req: request{contentType: appJSON, body: jsonBody("{ hello }", "", "")}, token: "forged", want: unauthenticated},
		{name: "query with a malformed token",
			req: request{contentType: appJSON, body: jsonBody("{ hello }", "", "")}, token: "Bearer abc.def.ghi", want: unauthenticated},
		{name: "query with an empty bearer token",
			req: request{contentType: appJSON, body: jsonBody("{ hello }", "", "")}, token: "Bearer ", want: unauthenticated},
		{name: "GET query with an expired token",
			req: request{method: "GET", rawQuery: getQuery("{ hello }", "", "")}, token: "expired", want: unauthenticated},
		{name: "mutation with an expired token",
			req: request{contentType: appJSON, body: jsonBody("mutation { whoami }", "", "")}, token: "expired", want: unauthenticated},
		{name: "GET mutation with a valid token",
			req: request{method: "GET", rawQuery: getQuery("mutation { whoami }", "", "")}, token: "valid",
			want: want{status: 405, allow: "POST", body: errorsBody(msgGETMutation, "BAD_USER_INPUT")}},
		{name: "invalid variables come before the gate",
			req:  request{contentType: appJSON, body: jsonBody(`mutation($in: CreatePostInput!) { createPost(input: $in) { id } }`, `{"in":{"title":"t"}}`, "")},
			want: want{status: 400, body: errorsBodyAt(`Variable "$in" got invalid value { title: "t" }; Field "body" of required type "String!" was not provided.`, "BAD_USER_INPUT", 1, 10)}},
		{name: "a 401 with graphql-response+json",
			req: request{contentType: appJSON, body: jsonBody("mutation { whoami }", "", ""), accept: "application/graphql-response+json"},
			want: want{status: 401, wwwAuth: "Bearer", contentType: "application/graphql-response+json; charset=utf-8",
				body: errorsBody(msgUnauthenticated, "UNAUTHENTICATED")}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, graphqlhttp.Config{})
			switch tt.token {
			case "valid":
				tt.req.authorization = ts.token(t, 3)
			case "bearer-lower":
				tt.req.authorization = "bearer " + strings.TrimPrefix(ts.token(t, 3), "Bearer ")
			case "expired":
				tt.req.authorization = expiredToken(t)
			case "forged":
				tt.req.authorization = forgedToken(t)
			default:
				tt.req.authorization = tt.token
			}
			tt.req.requestID = fmt.Sprintf("auth-%d", i)
			check(t, tt.req, ts.send(t, tt.req), tt.want)
			if n := ts.mutations.Load(); n != tt.wantMutations {
				t.Errorf("mutation resolvers ran %d times, want %d", n, tt.wantMutations)
			}
		})
	}
}

// TestAuthenticationLogsReason checks that the reason of a refused token is
// logged with the request id, and the token is not.
func TestAuthenticationLogsReason(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	token := expiredToken(t)
	req := request{contentType: "application/json", body: jsonBody("{ hello }", "", ""), authorization: token, requestID: "expired-1"}
	check(t, req, ts.send(t, req), want{status: 401, wwwAuth: "Bearer", body: errorsBody(msgUnauthenticated, "UNAUTHENTICATED")})
	lines := logLines(t, ts.logs, "graphql: invalid credentials")
	if len(lines) != 1 {
		t.Fatalf("got %d credential log lines, want 1: %s", len(lines), ts.logs.String())
	}
	if lines[0]["request_id"] != "expired-1" || !strings.Contains(fmt.Sprint(lines[0]["error"]), "token is expired") {
		t.Errorf("log line = %v, want request_id expired-1 and the expiry as the error", lines[0])
	}
	if strings.Contains(ts.logs.String(), strings.TrimPrefix(token, "Bearer ")) {
		t.Errorf("the log holds the token: %s", ts.logs.String())
	}
}

// TestNoAuthentication checks that New refuses a schema with mutations
// without an Authenticator, and that with one that never finds a user
// every mutation is refused and queries run.
func TestNoAuthentication(t *testing.T) {
	if h, err := graphqlhttp.New(sampleSchema(t), graphqlhttp.Config{Presenter: apierror.Presenter{Logger: nopLogger()}}); err == nil || h != nil {
		t.Fatalf("New without Auth on a schema with mutations = %v, %v; want an error", h, err)
	}
	h, err := graphqlhttp.New(sampleSchema(t), graphqlhttp.Config{Presenter: apierror.Presenter{Logger: nopLogger()}, Auth: nobody{}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := &testServer{Server: newServer(t, h)}
	req := request{contentType: "application/json", authorization: "Bearer whatever",
		body: jsonBody(`mutation { createPost(input: {title: "t", body: "b"}) { id } }`, "", "")}
	check(t, req, srv.send(t, req), want{status: 401, wwwAuth: "Bearer", body: errorsBody(msgUnauthenticated, "UNAUTHENTICATED")})
	req = request{contentType: "application/json", authorization: "Bearer whatever", body: jsonBody(`{ post(id: 2) { id title } }`, "", "")}
	check(t, req, srv.send(t, req), want{status: 200, body: `{"data":{"post":{"id":"2","title":"Post 2"}}}`})
}

func TestNewRefusesNilSchema(t *testing.T) {
	h, err := graphqlhttp.New(nil, graphqlhttp.Config{})
	if err == nil || h != nil {
		t.Fatalf("New(nil) = %v, %v; want an error", h, err)
	}
}

// TestAnswersWithoutAccessLog checks, through a recorder, that answers of
// every kind carry Cache-Control: no-store when the access log (and with it
// the request id) is left to a middleware outside the handler.
func TestAnswersWithoutAccessLog(t *testing.T) {
	h, err := graphqlhttp.New(sampleSchema(t), graphqlhttp.Config{Presenter: apierror.Presenter{Logger: nopLogger()}, Auth: nobody{}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	for _, tt := range []struct {
		method, contentType, body string
		status                    int
	}{
		{http.MethodPost, "application/json", `{"query":"{ posts(first: 1) { id } }"}`, 200},
		{http.MethodPost, "application/json", `{"query":"{ nope }"}`, 400},
		{http.MethodPost, "text/plain", `{ posts { id } }`, 415},
		{http.MethodPut, "", ``, 405},
		{http.MethodPost, "application/graphql", `mutation { createPost(input: {title: "t", body: "b"}) { id } }`, 401},
	} {
		req := httptestRequest(tt.method, tt.contentType, tt.body)
		rec := record(h, req)
		if rec.Code != tt.status || rec.Header().Get("Cache-Control") != "no-store" || rec.Header().Get("X-Request-Id") != "" {
			t.Errorf("%s %s %s: status %d, Cache-Control %q, X-Request-Id %q; want %d, no-store and no id (no reqlog)",
				tt.method, tt.contentType, tt.body, rec.Code, rec.Header().Get("Cache-Control"), rec.Header().Get("X-Request-Id"), tt.status)
		}
	}
}
