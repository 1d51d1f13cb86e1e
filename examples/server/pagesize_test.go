package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestPostsPageSizeEdges sends the edge values of a 32-bit Int as
// posts(first:) to the real server, literally and as a variable: the
// resolver clamps first to 0..50, so every value in range answers 200 with
// at most 50 posts, and the cost limit counts the posts the resolver
// returns, not the ones asked for (posts(first: 2147483647) once cost
// 2147483648 and was refused). Values outside 32 bits are the client's
// mistake, a 400. The cost limit still refuses what costs too much.
func TestPostsPageSizeEdges(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			_, token := addUser(t, db, "Ada", "correct horse")
			p := db.start(t)
			s := &service{db: db, p: p}
			for i := range 51 {
				s.createPost(t, token, fmt.Sprintf("Post %d", i+1))
			}
			// ids returns the JSON of {"data":{"posts":[…]}} with the newest
			// n posts' ids.
			ids := func(n int) string {
				items := make([]string, n)
				for i := range n {
					items[i] = fmt.Sprintf(`{"id":"%d"}`, 51-i)
				}
				return `{"data":{"posts":[` + strings.Join(items, ",") + `]}}`
			}
			literal := func(first string) response {
				return s.graphql(t, "", `{ posts(first: `+first+`) { id } }`, nil)
			}
			variable := func(first json.Number) response {
				return s.graphql(t, "", `query ($n: Int) { posts(first: $n) { id } }`, map[string]any{"n": first})
			}
			for _, tt := range []struct {
				first string
				posts int
			}{
				{"2147483647", 50},
				{"2147483646", 50},
				{"51", 50},
				{"50", 50},
				{"49", 49},
				{"1", 1},
				{"0", 0},
				{"-1", 0},
				{"-2147483648", 0},
			} {
				literal(tt.first).check(t, http.StatusOK, ids(tt.posts))
				variable(json.Number(tt.first)).check(t, http.StatusOK, ids(tt.posts))
			}
			literal("null").check(t, http.StatusOK, ids(0))
			s.graphql(t, "", `{ posts { id } }`, nil).check(t, http.StatusOK, ids(10))

			for _, out := range []string{"2147483648", "-2147483649", "9223372036854775808"} {
				literal(out).check(t, http.StatusBadRequest,
					`{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: `+out+
						`","locations":[{"line":1,"column":16}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`)
				variable(json.Number(out)).check(t, http.StatusBadRequest,
					`{"errors":[{"message":"Variable \"$n\" got invalid value `+out+
						`; Int cannot represent non 32-bit signed integer value: `+out+
						`","locations":[{"line":1,"column":8}],"extensions":{"code":"BAD_USER_INPUT"}}]}`)
			}

			// 50 aliases of 50 posts with their authors: 50 × (1 + 50 × 3)
			// = 7550 (author and its name are 2), over the default maximum
			// of 5000, however large a page each asks for.
			var aliases strings.Builder
			for i := range 50 {
				fmt.Fprintf(&aliases, " a%d: posts(first: 2147483647) { id author { name } }", i)
			}
			s.graphql(t, "", "{"+aliases.String()+" }", nil).check(t, http.StatusBadRequest,
				`{"errors":[{"message":"query cost 7550 exceeds the maximum of 5000",`+
					`"extensions":{"code":"QUERY_LIMIT_EXCEEDED","limit":{"name":"cost","max":5000,"found":7550}}}]}`)
		})
	}
}
