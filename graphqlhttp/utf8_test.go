package graphqlhttp_test

import (
	"testing"

	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// TestBodyNotUTF8 checks the kit's one rule for request bodies: bytes that
// are not UTF-8 are a 400 on every JSON endpoint, never replaced by U+FFFD
// and executed.
func TestBodyNotUTF8(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	for _, req := range []request{
		{contentType: "application/json", body: "{\"query\":\"{ hello }\",\"operationName\":\"\xff\"}"},
		{contentType: "application/graphql", body: "{ hello } # \xed\xa0\x80"},
	} {
		check(t, req, ts.send(t, req), want{status: 400, body: errorsBody("The request body is not valid UTF-8.", "BAD_USER_INPUT")})
	}
	if n := ts.mutations.Load(); n != 0 {
		t.Errorf("%d mutations ran", n)
	}
}
