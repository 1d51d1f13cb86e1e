package graphqlhttp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// TestResolverErrors checks what clients see of each kind of resolver
// error, masked and in debug mode.
func TestResolverErrors(t *testing.T) {
	tests := []struct {
		name      string
		query     string
		body      string // with masking
		debugBody string // with Config.Presenter.Debug
	}{
		{name: "unknown error is masked", query: "{ hello fail }",
			body:      `{"data":{"hello":"world","fail":null},"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":9}],"path":["fail"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`,
			debugBody: `{"data":{"hello":"world","fail":null},"errors":[{"message":` + quote(secretCause) + `,"locations":[{"line":1,"column":9}],"path":["fail"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`},
		{name: "panic is masked", query: "{ panic hello }",
			body:      `{"data":{"panic":null,"hello":"world"},"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":3}],"path":["panic"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`,
			debugBody: `{"data":{"panic":null,"hello":"world"},"errors":[{"message":"panic: resolver exploded","locations":[{"line":1,"column":3}],"path":["panic"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`},
		{name: "FORBIDDEN keeps its message and code", query: "{ forbidden }",
			body: `{"data":{"forbidden":null},"errors":[{"message":"You may not read this.","locations":[{"line":1,"column":3}],"path":["forbidden"],"extensions":{"code":"FORBIDDEN"}}]}`},
		{name: "VALIDATION_FAILED carries extensions.validation", query: "{ invalid }",
			body: `{"data":{"invalid":null},"errors":[{"message":"The title field is required.","locations":[{"line":1,"column":3}],"path":["invalid"],"extensions":{"code":"VALIDATION_FAILED","validation":{"input.title":["The title field is required."]}}}]}`},
		{name: "HTTP-style error keeps its message and status", query: "{ conflict }",
			body: `{"data":{"conflict":null},"errors":[{"message":"The post was changed by someone else.","locations":[{"line":1,"column":3}],"path":["conflict"],"extensions":{"code":"CONFLICT","status":409}}]}`},
		{name: "errors in selection order", query: "{ c: conflict f: forbidden }",
			body: `{"data":{"c":null,"f":null},"errors":[{"message":"The post was changed by someone else.","locations":[{"line":1,"column":3}],"path":["c"],"extensions":{"code":"CONFLICT","status":409}},{"message":"You may not read this.","locations":[{"line":1,"column":15}],"path":["f"],"extensions":{"code":"FORBIDDEN"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, debug := range []bool{false, true} {
				ts := newTestServer(t, graphqlhttp.Config{Presenter: apierror.Presenter{Debug: debug}})
				req := request{contentType: "application/json", body: jsonBody(tt.query, "", ""), requestID: "resolver-1"}
				body := tt.body
				if debug && tt.debugBody != "" {
					body = tt.debugBody
				}
				check(t, req, ts.send(t, req), want{status: 200, body: body})
			}
		})
	}
}

// TestMaskedErrorIsLogged checks that the cause of a masked error is logged
// once, with the request id and the field's path.
func TestMaskedErrorIsLogged(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	req := request{contentType: "application/json", body: jsonBody("{ fail }", "", ""), requestID: "req-masked-1"}
	ts.send(t, req)
	lines := logLines(t, ts.logs, "password authentication failed")
	if len(lines) != 1 {
		t.Fatalf("got %d log lines with the cause, want 1:\n%s", len(lines), ts.logs.String())
	}
	wantFields := map[string]any{
		"level":        "error",
		"request_id":   "req-masked-1",
		"error":        secretCause,
		"code":         "INTERNAL_SERVER_ERROR",
		"status":       float64(500),
		"graphql_path": "fail",
	}
	for k, v := range wantFields {
		if lines[0][k] != v {
			t.Errorf("log line %s = %v, want %v", k, lines[0][k], v)
		}
	}
}

// TestPanickingResolver checks that a resolver panic is a masked field
// error, is logged with the request id, and leaves the server serving.
func TestPanickingResolver(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	for i := range 3 {
		req := request{contentType: "application/json", body: jsonBody("{ panic }", "", ""), requestID: fmt.Sprintf("panic-%d", i)}
		check(t, req, ts.send(t, req), want{status: 200,
			body: `{"data":{"panic":null},"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":3}],"path":["panic"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`})
		req = request{contentType: "application/json", body: jsonBody("{ hello }", "", ""), requestID: fmt.Sprintf("after-panic-%d", i)}
		check(t, req, ts.send(t, req), want{status: 200, body: helloData})
	}
	lines := logLines(t, ts.logs, panicValue)
	if len(lines) != 3 {
		t.Fatalf("got %d log lines with the panic, want 3:\n%s", len(lines), ts.logs.String())
	}
	for i, l := range lines {
		if l["request_id"] != fmt.Sprintf("panic-%d", i) || l["level"] != "error" || l["graphql_path"] != "panic" {
			t.Errorf("log line %d = %v, want level error, request_id panic-%d, graphql_path panic", i, l, i)
		}
	}
}

// panickingAuth is an Authenticator with a bug.
type panickingAuth struct{}

func (panickingAuth) AuthenticateContext(*http.Request) (context.Context, error) {
	panic(authenticateBug)
}

func (panickingAuth) Subject(context.Context) (string, bool) { return "", false }

// TestPanicOutsideResolvers checks that a panic in the handler's own path
// (here in Config.Auth) is a masked 500, logged with its stack.
func TestPanicOutsideResolvers(t *testing.T) {
	for _, debug := range []bool{false, true} {
		ts := newTestServer(t, graphqlhttp.Config{Presenter: apierror.Presenter{Debug: debug}, Auth: panickingAuth{}})
		req := request{contentType: "application/json", body: jsonBody("{ hello }", "", ""), requestID: "auth-panic"}
		msg := "Internal server error."
		if debug {
			msg = "panic: " + authenticateBug
		}
		check(t, req, ts.send(t, req), want{status: 500, body: errorsBody(msg, "INTERNAL_SERVER_ERROR")})
		lines := logLines(t, ts.logs, "internal server error")
		if len(lines) != 1 {
			t.Fatalf("debug %v: got %d error lines, want 1:\n%s", debug, len(lines), ts.logs.String())
		}
		l := lines[0]
		if l["request_id"] != "auth-panic" || l["panic"] != authenticateBug || !strings.Contains(fmt.Sprint(l["stack"]), "goroutine") {
			t.Errorf("debug %v: log line = %v, want the request id, the panic value and a stack", debug, l)
		}
	}
}

// unavailableAuth is an Authenticator whose credential store is down: its
// error has StatusCode 503, as auth.ErrUnavailable does.
type unavailableAuth struct{}

type storeDown struct{}

func (storeDown) Error() string   { return "token store: connection refused" }
func (storeDown) StatusCode() int { return http.StatusServiceUnavailable }

func (unavailableAuth) AuthenticateContext(*http.Request) (context.Context, error) {
	return nil, fmt.Errorf("checking revocation: %w", storeDown{})
}

func (unavailableAuth) Subject(context.Context) (string, bool) { return "", false }

// TestCredentialsUnavailable checks that credentials that cannot be
// checked refuse the request (fail closed) with a masked 503, the cause in
// the log only.
func TestCredentialsUnavailable(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{Auth: unavailableAuth{}})
	req := request{contentType: "application/json", body: jsonBody("{ hello }", "", ""), requestID: "store-down"}
	check(t, req, ts.send(t, req), want{status: 503, body: errorsBody("Service unavailable.", "SERVICE_UNAVAILABLE")})
	lines := logLines(t, ts.logs, "credentials could not be checked")
	if len(lines) != 1 || lines[0]["level"] != "error" || !strings.Contains(fmt.Sprint(lines[0]["error"]), "connection refused") {
		t.Errorf("log lines = %v; want one error line with the cause", lines)
	}
}

// TestLiteralAndVariableErrors checks that a fault in the document is
// GRAPHQL_VALIDATION_FAILED while the same fault in variables is
// BAD_USER_INPUT, both 400 without data and before any resolver.
func TestLiteralAndVariableErrors(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	tests := []struct {
		name, query, variables, body string
	}{
		{name: "Int literal over 32 bits", query: "{ echoInt(v: 2147483648) }",
			body: errorsBodyAt("Int cannot represent non 32-bit signed integer value: 2147483648", "GRAPHQL_VALIDATION_FAILED", 1, 14)},
		{name: "Int literal under 32 bits", query: "{ echoInt(v: -2147483649) }",
			body: errorsBodyAt("Int cannot represent non 32-bit signed integer value: -2147483649", "GRAPHQL_VALIDATION_FAILED", 1, 14)},
		{name: "Int literal over 32 bits in an input object", query: "{ search(filter: {limit: 2147483648}) }",
			body: errorsBodyAt("Int cannot represent non 32-bit signed integer value: 2147483648", "GRAPHQL_VALIDATION_FAILED", 1, 26)},
		{name: "Int literal at the 32-bit edge", query: "{ a: echoInt(v: 2147483647) b: echoInt(v: -2147483648) }",
			body: `{"data":{"a":2147483647,"b":-2147483648}}`},
		{name: "unknown input field in a literal", query: "{ search(filter: {nope: 1}) }",
			body: errorsBodyAt(`Field "nope" is not defined by type "Filter".`, "GRAPHQL_VALIDATION_FAILED", 1, 19)},
		{name: "input literal with defaults", query: `{ search(filter: {name: "x"}) }`,
			body: `{"data":{"search":"{\"limit\":10,\"name\":\"x\"}"}}`},
		{name: "Int variable over 32 bits", query: "query($v: Int) { echoInt(v: $v) }", variables: `{"v":2147483648}`,
			body: errorsBodyAt(`Variable "$v" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value: 2147483648`, "BAD_USER_INPUT", 1, 7)},
		{name: "Int variable over 32 bits in an input object", query: "query($f: Filter) { search(filter: $f) }", variables: `{"f":{"limit":2147483648}}`,
			body: errorsBodyAt(`Variable "$f" got invalid value 2147483648 at "f.limit"; Int cannot represent non 32-bit signed integer value: 2147483648`, "BAD_USER_INPUT", 1, 7)},
		{name: "unknown input field in a variable", query: "query($f: Filter) { search(filter: $f) }", variables: `{"f":{"nope":1}}`,
			body: errorsBodyAt(`Variable "$f" got invalid value { nope: 1 }; Field "nope" is not defined by type "Filter".`, "BAD_USER_INPUT", 1, 7)},
		{name: "input variable with defaults", query: "query($f: Filter) { search(filter: $f) }", variables: `{"f":{"name":"x"}}`,
			body: `{"data":{"search":"{\"limit\":10,\"name\":\"x\"}"}}`},
		{name: "every variable error is listed", query: "query($a: Int!, $b: Int!) { a: echoInt(v: $a) b: echoInt(v: $b) }", variables: `{"a":1.5}`,
			body: `{"errors":[{"message":"Variable \"$a\" got invalid value 1.5; Int cannot represent non-integer value: 1.5","locations":[{"line":1,"column":7}],"extensions":{"code":"BAD_USER_INPUT"}},` +
				`{"message":"Variable \"$b\" of required type \"Int!\" was not provided.","locations":[{"line":1,"column":17}],"extensions":{"code":"BAD_USER_INPUT"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status := 400
			if strings.HasPrefix(tt.body, `{"data"`) {
				status = 200
			}
			req := request{contentType: "application/json", body: jsonBody(tt.query, tt.variables, "")}
			check(t, req, ts.send(t, req), want{status: status, body: tt.body})
		})
	}
}

// TestRequestErrorsAreCapped checks that a document with more than
// MaxErrors validation errors, within every limit, lists only the first
// MaxErrors of them.
func TestRequestErrorsAreCapped(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})

	t.Run("unknown fields", func(t *testing.T) {
		var q strings.Builder
		q.WriteString("{")
		for i := range 150 {
			fmt.Fprintf(&q, " x%03d", i)
		}
		q.WriteString(" }")
		var want strings.Builder
		want.WriteString(`{"errors":[`)
		for i := range graphqlhttp.MaxErrors {
			if i > 0 {
				want.WriteString(",")
			}
			fmt.Fprintf(&want, `{"message":"Cannot query field \"x%03d\" on type \"Query\".","locations":[{"line":1,"column":%d}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}`, i, 3+5*i)
		}
		want.WriteString("]}")
		req := request{contentType: "application/json", body: jsonBody(q.String(), "", "")}
		check(t, req, ts.send(t, req), wantBody(400, want.String()))
	})

	t.Run("500 conflicting aliases", func(t *testing.T) {
		// gqlparser reports each of the 62500 conflicting pairs.
		q := "{" + strings.Repeat(" a:echoInt a:echoStr", 250) + " }"
		req := request{contentType: "application/graphql", body: q}
		got := ts.send(t, req)
		var resp struct {
			Data   json.RawMessage `json:"data"`
			Errors []struct {
				Message    string `json:"message"`
				Extensions struct {
					Code string `json:"code"`
				} `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal([]byte(got.body), &resp); err != nil {
			t.Fatalf("body is not JSON: %v", err)
		}
		if got.status != 400 || resp.Data != nil || len(resp.Errors) != graphqlhttp.MaxErrors {
			t.Fatalf("status %d, data %s, %d errors; want 400, no data, %d errors", got.status, resp.Data, len(resp.Errors), graphqlhttp.MaxErrors)
		}
		for i, e := range resp.Errors {
			if e.Extensions.Code != "GRAPHQL_VALIDATION_FAILED" || !strings.HasPrefix(e.Message, `Fields "a" conflict because "echoInt" and "echoStr" are different fields.`) {
				t.Errorf("errors[%d] = %+v, want a GRAPHQL_VALIDATION_FAILED conflict", i, e)
			}
		}
		checkErrorObjects(t, got.body)
	})
}

func wantBody(status int, body string) want { return want{status: status, body: body} }

// TestIntrospectionOff checks the default: __schema and __type refused
// wherever they hide, __typename answered, and no suggestions in messages.
func TestIntrospectionOff(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	const (
		schemaRefused = "GraphQL introspection is not allowed, but the query contained __schema."
		typeRefused   = "GraphQL introspection is not allowed, but the query contained __type."
	)
	tests := []struct {
		name, query string
		want        want
	}{
		{name: "__schema", query: "{ __schema { queryType { name } } }",
			want: wantBody(400, errorsBodyAt(schemaRefused, "GRAPHQL_VALIDATION_FAILED", 1, 3))},
		{name: "__type", query: `{ __type(name: "Query") { name } }`,
			want: wantBody(400, errorsBodyAt(typeRefused, "GRAPHQL_VALIDATION_FAILED", 1, 3))},
		{name: "__type with a variable", query: `query($n: String!) { __type(name: $n) { name } }`,
			want: wantBody(400, errorsBodyAt(typeRefused, "GRAPHQL_VALIDATION_FAILED", 1, 22))},
		{name: "aliased __schema in an inline fragment", query: "{ ... on Query { s: __schema { queryType { name } } } }",
			want: wantBody(400, errorsBodyAt(schemaRefused, "GRAPHQL_VALIDATION_FAILED", 1, 18))},
		{name: "__typename", query: "{ __typename }",
			want: wantBody(200, `{"data":{"__typename":"Query"}}`)},
		{name: "nested __typename", query: "{ post(id: 1) { __typename author { __typename } } }",
			want: wantBody(200, `{"data":{"post":{"__typename":"Post","author":{"__typename":"User"}}}}`)},
		{name: "no suggestion for a field", query: "{ helo }",
			want: wantBody(400, errorsBodyAt(`Cannot query field "helo" on type "Query".`, "GRAPHQL_VALIDATION_FAILED", 1, 3))},
		{name: "no suggestion for a sub-field", query: "{ post(id: 1) { titel } }",
			want: wantBody(400, errorsBodyAt(`Cannot query field "titel" on type "Post".`, "GRAPHQL_VALIDATION_FAILED", 1, 17))},
		{name: "no suggestion for an argument", query: "{ echoInt(vv: 1) }",
			want: wantBody(400, errorsBodyAt(`Unknown argument "vv" on field "Query.echoInt".`, "GRAPHQL_VALIDATION_FAILED", 1, 3))}, // gqlparser places it at the field
		{name: "no suggestion for an input field", query: `{ search(filter: {nam: "x"}) }`,
			want: wantBody(400, errorsBodyAt(`Field "nam" is not defined by type "Filter".`, "GRAPHQL_VALIDATION_FAILED", 1, 19))},
		{name: "no suggestion for a type", query: "query($f: Filtr) { search(filter: $f) }",
			want: wantBody(400, `{"errors":[{"message":"Unknown type \"Filtr\".","locations":[{"line":1,"column":7}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}},`+
				`{"message":"Variable \"$f\" of type \"Filtr\" used in position expecting type \"Filter\".","locations":[{"line":1,"column":35}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := request{contentType: "application/json", body: jsonBody(tt.query, "", "")}
			got := ts.send(t, req)
			check(t, req, got, tt.want)
			if strings.Contains(got.body, "Did you mean") {
				t.Errorf("body makes a suggestion: %s", got.body)
			}
		})
	}
}

// TestIntrospectionOn checks that graphql-js's introspection query with
// every option passes the default limits, that a cyclic introspection
// query is refused, and that suggestions are back.
func TestIntrospectionOn(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{Introspection: true})
	iq, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("standard query", func(t *testing.T) {
		for _, req := range []request{
			{contentType: "application/json", body: jsonBody(string(iq), "", "IntrospectionQuery")},
			{method: "GET", rawQuery: getQuery(string(iq), "", "")},
		} {
			got := ts.send(t, req)
			if got.status != 200 {
				t.Fatalf("status = %d, want 200; body %s", got.status, got.body)
			}
			var resp struct {
				Data struct {
					Schema struct {
						QueryType, MutationType struct{ Name, Kind string }
						SubscriptionType        *struct{}
						Types                   []struct {
							Kind, Name string
							Fields     []struct{ Name string }
						}
						Directives []struct{ Name string }
					} `json:"__schema"`
				} `json:"data"`
				Errors json.RawMessage `json:"errors"`
			}
			if err := json.Unmarshal([]byte(got.body), &resp); err != nil {
				t.Fatalf("body is not JSON: %v", err)
			}
			s := resp.Data.Schema
			if resp.Errors != nil || s.QueryType.Name != "Query" || s.MutationType.Name != "Mutation" || s.SubscriptionType != nil {
				t.Fatalf("errors %s, query type %v, mutation type %v, subscription type %v; want no errors, Query, Mutation, none",
					resp.Errors, s.QueryType, s.MutationType, s.SubscriptionType)
			}
			kinds := map[string]string{}
			for _, typ := range s.Types {
				kinds[typ.Name] = typ.Kind
			}
			for name, kind := range map[string]string{"Query": "OBJECT", "Mutation": "OBJECT", "Post": "OBJECT", "User": "OBJECT",
				"CreatePostInput": "INPUT_OBJECT", "Filter": "INPUT_OBJECT", "JSON": "SCALAR", "Int": "SCALAR", "__Type": "OBJECT", "__TypeKind": "ENUM"} {
				if kinds[name] != kind {
					t.Errorf("type %s has kind %q, want %q", name, kinds[name], kind)
				}
			}
			var directives []string
			for _, d := range s.Directives {
				directives = append(directives, d.Name)
			}
			for _, d := range []string{"include", "skip", "deprecated", "specifiedBy"} {
				if !strings.Contains(" "+strings.Join(directives, " ")+" ", " "+d+" ") {
					t.Errorf("directives %v lack %s", directives, d)
				}
			}
		}
	})

	tests := []struct {
		name, query string
		want        want
	}{
		{name: "cyclic query", query: "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }",
			want: wantBody(400, errorsBodyAt("Maximum introspection depth exceeded", "GRAPHQL_VALIDATION_FAILED", 1, 3))},
		{name: "__type", query: `{ __type(name: "Post") { name kind fields { name } } }`,
			want: wantBody(200, `{"data":{"__type":{"name":"Post","kind":"OBJECT","fields":[{"name":"id"},{"name":"title"},{"name":"body"},{"name":"tags"},{"name":"createdAt"},{"name":"author"}]}}}`)},
		{name: "suggestions", query: "{ helo }",
			want: wantBody(400, errorsBodyAt(`Cannot query field "helo" on type "Query". Did you mean "hello"?`, "GRAPHQL_VALIDATION_FAILED", 1, 3))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := request{contentType: "application/json", body: jsonBody(tt.query, "", "")}
			check(t, req, ts.send(t, req), tt.want)
		})
	}
}

// TestCustomScalarErrors checks a custom scalar's parse errors, as a
// literal and as a variable, and that its parser panicking on a variable is
// a masked 500 (a server bug, logged), not a client error.
func TestCustomScalarErrors(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	tests := []struct {
		name, query, variables string
		want                   want
	}{
		{name: "literal", query: `{ shout(v: "hi") }`, want: wantBody(200, `{"data":{"shout":"HI"}}`)},
		{name: "variable", query: `query($v: Loud) { shout(v: $v) }`, variables: `{"v":"hi"}`, want: wantBody(200, `{"data":{"shout":"HI"}}`)},
		{name: "bad literal", query: `{ shout(v: 1) }`,
			want: wantBody(400, errorsBodyAt(`Expected value of type "Loud", found 1; Loud must be a string`, "GRAPHQL_VALIDATION_FAILED", 1, 12))},
		{name: "bad variable", query: `query($v: Loud) { shout(v: $v) }`, variables: `{"v":1}`,
			want: wantBody(400, errorsBodyAt(`Variable "$v" got invalid value 1; Expected type "Loud". Loud must be a string`, "BAD_USER_INPUT", 1, 7))},
		{name: "parser panics on a variable", query: `query($v: Loud) { shout(v: $v) }`, variables: `{"v":"boom"}`,
			want: wantBody(500, errorsBody("Internal server error.", "INTERNAL_SERVER_ERROR"))},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := request{contentType: "application/json", body: jsonBody(tt.query, tt.variables, ""), requestID: fmt.Sprintf("scalar-%d", i)}
			check(t, req, ts.send(t, req), tt.want)
		})
	}
	lines := logLines(t, ts.logs, "Loud parser exploded")
	if len(lines) != 1 || lines[0]["request_id"] != fmt.Sprintf("scalar-%d", len(tests)-1) || lines[0]["level"] != "error" {
		t.Errorf("log lines with the panic = %v, want one error line with the request id", lines)
	}
}

// TestResponseSizeLimit: the data of one response is bounded; past
// Config.MaxResponseBytes the client gets null data and one error.
func TestResponseSizeLimit(t *testing.T) {
	var q strings.Builder
	q.WriteString("{")
	for i := range 100 {
		fmt.Fprintf(&q, " a%d: hello", i)
	}
	q.WriteString(" }")
	for _, tc := range []struct {
		name string
		max  int
		want want
	}{
		{name: "past the limit", max: 500, want: want{status: 200,
			body: `{"data":null,"errors":[{"message":"The response is larger than the limit of 500 bytes.","extensions":{"code":"RESPONSE_TOO_LARGE"}}]}`}},
		{name: "no limit", max: -1, want: want{status: 200}},
		{name: "the default", max: 0, want: want{status: 200}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := graphqlhttp.Config{MaxResponseBytes: tc.max}
			if tc.max < 0 {
				cfg.ResponseBudget = -1 // a budget needs a bound on each response
			}
			ts := newTestServer(t, cfg)
			req := request{contentType: "application/json", body: jsonBody(q.String(), "", "")}
			got := ts.send(t, req)
			if tc.want.body == "" {
				if got.status != 200 || !strings.HasPrefix(got.body, `{"data":{"a0":"world",`) || strings.Contains(got.body, "errors") {
					t.Errorf("got %d %.80s…, want the whole answer", got.status, got.body)
				}
				return
			}
			check(t, req, got, tc.want)
		})
	}
}
