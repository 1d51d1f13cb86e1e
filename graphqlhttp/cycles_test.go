package graphqlhttp_test

import (
	"fmt"
	"testing"

	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// TestFragmentCyclesAnswered sends documents whose fragments spread
// themselves inside sub-selections of a self-referring type (Node.child):
// with the default config they are answered with a 400 naming the cycle,
// and the server goes on answering. One of them (the first) used to
// overflow the stack in the overlapping-fields rule and end the process.
func TestFragmentCyclesAnswered(t *testing.T) {
	ts := newTestServer(t, graphqlhttp.Config{})
	cycle := func(name string, column int) string {
		return fmt.Sprintf(`{"message":"Cannot spread fragment \"%s\" within itself.","locations":[{"line":1,"column":%d}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}`, name, column)
	}
	tests := []struct {
		name, query, want string
	}{
		{"two self-spreading fragments side by side",
			`{node{...A ...B}}fragment A on Node{child{child{...A}}}fragment B on Node{child{child{...B}}}`,
			`{"errors":[` + cycle("A", 52) + `,` + cycle("B", 90) + `]}`},
		{"mutual recursion", `{node{...A}}fragment A on Node{child{...B}}fragment B on Node{child{...A}}`,
			errorsBodyAt(`Cannot spread fragment "A" within itself via "B".`, "GRAPHQL_VALIDATION_FAILED", 1, 72)},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, req := range []request{
				{contentType: "application/graphql", body: tt.query, requestID: fmt.Sprintf("cycle-%d", i)},
				{method: "GET", rawQuery: getQuery(tt.query, "", "")},
			} {
				check(t, req, ts.send(t, req), wantBody(400, tt.want))
			}
		})
	}
	req := request{contentType: "application/graphql", body: `{ node { name } }`}
	check(t, req, ts.send(t, req), wantBody(200, `{"data":{"node":{"name":"n"}}}`))
}
