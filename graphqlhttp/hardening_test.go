package graphqlhttp_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/internal/httpjson/oversize"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

const msgExtensions = "The extensions parameter must be a JSON object."

// TestExtensionsMustBeAnObject checks graphql-http's audits 58B0–58B3:
// extensions that is not a JSON object is a 400, over POST and GET; an
// object or null is accepted and not used.
func TestExtensionsMustBeAnObject(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	refused := want{status: 400, body: errorsBody(msgExtensions, "BAD_USER_INPUT")}
	ok := want{status: 200, body: helloData}
	post := func(ext string) request {
		return request{contentType: "application/json", body: `{"query":"{ hello }","extensions":` + ext + `}`}
	}
	get := func(ext string) request {
		return request{method: "GET", rawQuery: "query=%7B+hello+%7D&extensions=" + url.QueryEscape(ext)}
	}
	for _, tt := range []struct {
		name string
		req  request
		want want
	}{
		{"POST string", post(`"string"`), refused},
		{"POST number", post(`0`), refused},
		{"POST boolean", post(`false`), refused},
		{"POST array", post(`["array"]`), refused},
		{"POST a string holding an object", post(`"{}"`), refused},
		{"POST non-object before query", request{contentType: "application/json",
			body: `{"extensions":1,"query":"{ hello }"}`}, refused},
		{"POST object", post(`{"persistedQuery":{"version":1}}`), ok},
		{"POST null", post(`null`), ok},
		{"GET string", get(`"string"`), refused},
		{"GET number", get(`0`), refused},
		{"GET array", get(`[]`), refused},
		{"GET malformed", get(`{x`), refused},
		{"GET object", get(`{"a":1}`), ok},
		{"GET null", get(`null`), ok},
		{"GET empty", get(``), ok},
	} {
		t.Run(tt.name, func(t *testing.T) {
			check(t, tt.req, ts.send(t, tt.req), tt.want)
		})
	}
}

// TestUnauthenticatedResultIs401 checks the status of an executed
// operation whose resolvers found the token's user gone: 401 when data is
// null and every error is UNAUTHENTICATED, 200 as usual otherwise.
func TestUnauthenticatedResultIs401(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	goneAt := func(field string, column int) string {
		return fmt.Sprintf(`{"message":"Unauthenticated.","locations":[{"line":1,"column":%d}],"path":["%s"],"extensions":{"code":"UNAUTHENTICATED"}}`, column, field)
	}
	for _, tt := range []struct {
		name  string
		query string
		want  want
	}{
		{"mutation whose user is gone", "mutation { leave }",
			want{status: 401, wwwAuth: "Bearer", body: `{"data":null,"errors":[` + goneAt("leave", 12) + `]}`}},
		{"mutation after another field", "mutation { whoami leave }",
			want{status: 401, wwwAuth: "Bearer", body: `{"data":null,"errors":[` + goneAt("leave", 19) + `]}`}},
		{"query whose data is nulled", "{ hello gone }",
			want{status: 401, wwwAuth: "Bearer", body: `{"data":null,"errors":[` + goneAt("gone", 9) + `]}`}},
		{"partial data stays 200", "{ hello goneOrNull }",
			want{status: 200, body: `{"data":{"hello":"world","goneOrNull":null},"errors":[` + goneAt("goneOrNull", 9) + `]}`}},
		{"another error besides stays 200", "{ forbidden gone }",
			want{status: 200, body: `{"data":null,"errors":[{"message":"You may not read this.","locations":[{"line":1,"column":3}],"path":["forbidden"],"extensions":{"code":"FORBIDDEN"}},` + goneAt("gone", 13) + `]}`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := request{contentType: "application/json", body: jsonBody(tt.query, "", ""), authorization: ts.token(t, 3)}
			check(t, req, ts.send(t, req), tt.want)
		})
	}
}

// TestMalformedAuthorization checks that an Authorization header the
// verifier cannot use is a 401 for every operation, queries included,
// like an invalid token: never an anonymous request.
func TestMalformedAuthorization(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	token := strings.TrimPrefix(ts.token(t, 3), "Bearer ")
	unauthenticated := want{status: 401, wwwAuth: "Bearer", body: errorsBody(msgUnauthenticated, "UNAUTHENTICATED")}
	for _, header := range []string{"Bearer\t" + token, "Bearer", "Bearer ", "", "Basic dXNlcjpwYXNz", "Token " + token, token} {
		for _, req := range []request{
			{contentType: "application/json", body: jsonBody("{ hello }", "", "")},
			{method: "GET", rawQuery: getQuery("{ hello }", "", "")},
			{contentType: "application/json", body: jsonBody("mutation { whoami }", "", "")},
		} {
			req.authorization, req.emptyAuthorization = header, true
			got := ts.send(t, req)
			if got.status != unauthenticated.status {
				t.Errorf("%q, %s %s: status %d, want 401", header, req.method, req.body, got.status)
				continue
			}
			check(t, req, got, unauthenticated)
		}
	}
	if n := ts.mutations.Load(); n != 0 {
		t.Errorf("%d mutations ran", n)
	}
}

// TestOversizedBodyAnswered checks that a body over the cap gets its 400
// through to a client that sends it whole without waiting for
// "100 Continue", whether it asks for Connection: close or not, and that
// the connection ends gracefully instead of being reset with the body
// unread. The endpoint is mounted behind reqlog, whose ResponseWriter
// wrapper must not hide the refusal from net/http.
func TestOversizedBodyAnswered(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: bodies of megabytes over a real connection")
	ts := newTestServer(t, graphqlhttp.Config{})
	addr := ts.Listener.Addr().String()
	for _, size := range []int{1<<20 + 50<<10, 3 << 20} {
		for _, header := range [][]string{nil, {"Connection: close"}} {
			req := oversize.Request{Path: "/api/graphql", Header: header, Size: size}
			msg := fmt.Sprintf("query length %d bytes exceeds the maximum of 20000 bytes", size)
			oversize.Check(t, addr, req, 400, limitBody(msg, "length", 20000, size, 0, 0))
			req.Chunked = true
			oversize.Check(t, addr, req, 400, limitBody("query length 20001 bytes exceeds the maximum of 20000 bytes", "length", 20000, 20001, 0, 0))
		}
	}
}
