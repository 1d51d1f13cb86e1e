package relay_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/limits"
)

// postHTTP sends query with vars to a graphqlhttp server over s with the
// cost limit maxCost and returns the status and body.
func postHTTP(t *testing.T, s *store, maxCost int, query string, vars map[string]any) (int, string) {
	t.Helper()
	return postSchema(t, newSchema(t, s), maxCost, query, vars)
}

// postSchema sends query with vars to a graphqlhttp server of schema with
// the cost limit maxCost and returns the status and body.
func postSchema(t *testing.T, schema *graphql.Schema, maxCost int, query string, vars map[string]any) (int, string) {
	t.Helper()
	cfg := graphqlhttp.Config{Limits: limits.Config{MaxCost: maxCost}}
	cfg.Presenter.Logger = slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(schema, cfg)
	if err != nil {
		t.Fatalf("graphqlhttp.New: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return resp.StatusCode, string(b)
}

// costBody is graphqlhttp's answer to an operation over the cost limit.
func costBody(max, found int) string {
	return fmt.Sprintf(`{"errors":[{"message":"query cost %d exceeds the maximum of %d","extensions":{"code":"QUERY_LIMIT_EXCEEDED","limit":{"name":"cost","max":%d,"found":%d}}}]}`,
		found, max, max, found)
}

// TestCost checks the cost of connection fields over HTTP: a selection
// of cost 3 (edges, node, id) counted first times, MaxPageSize (50) times
// past it, and for last, for first: null and for neither: each case runs
// at its cost and is refused one below it.
func TestCost(t *testing.T) {
	const q = `query($first: Int, $last: Int) { postsConnection(first: $first, last: $last) { edges { node { id } } } }`
	cases := []struct {
		name string
		vars map[string]any
		cost int
	}{
		{"first 2", map[string]any{"first": 2}, 1 + 2*3},
		{"first 50", map[string]any{"first": 50}, 1 + 50*3},
		{"first 2147483647", map[string]any{"first": 2147483647}, 1 + 50*3},
		{"last 2", map[string]any{"last": 2}, 1 + 50*3},
		{"first null, last 5", map[string]any{"first": nil, "last": 5}, 1 + 50*3},
		{"neither", nil, 1 + 50*3},
		{"first 0", map[string]any{"first": 0}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(60)
			status, body := postHTTP(t, s, tc.cost, q, tc.vars)
			if status != 200 || !strings.HasPrefix(body, `{"data":{"postsConnection":{"edges":[`) {
				t.Errorf("at cost %d: %d %s, want 200 and a page", tc.cost, status, body)
			}
			if tc.cost == 1 {
				return
			}
			status, body = postHTTP(t, s, tc.cost-1, q, tc.vars)
			if want := costBody(tc.cost-1, tc.cost); status != 400 || body != want {
				t.Errorf("at cost %d of %d: %d %s\nwant 400 %s", tc.cost, tc.cost-1, status, body, want)
			}
		})
	}
	// The literal forms count alike.
	s := newStore(3)
	for _, lit := range []string{`first: 2147483647`, `first: null, last: 1`} {
		q := `{ postsConnection(` + lit + `) { edges { node { id } } } }`
		if status, body := postHTTP(t, s, 150, q, nil); status != 400 || body != costBody(150, 151) {
			t.Errorf("%s at 150: %d %s, want 400 %s", lit, status, body, costBody(150, 151))
		}
	}
}

// TestHTTP pages forward and refuses a tampered cursor over HTTP.
func TestHTTP(t *testing.T) {
	s := newStore(3)
	status, body := postHTTP(t, s, 0, `{ postsConnection(first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`, nil)
	var c connJSON
	if err := json.Unmarshal([]byte(body), &c); status != 200 || err != nil || strings.Join(c.ids(), ",") != "3,2" {
		t.Fatalf("first page: %d %s", status, body)
	}
	end := *c.Data.Conn.PageInfo.EndCursor
	status, body = postHTTP(t, s, 0, pageQuery, map[string]any{"first": 2, "after": end})
	if err := json.Unmarshal([]byte(body), &c); status != 200 || err != nil || strings.Join(c.ids(), ",") != "1" || c.Data.Conn.PageInfo.HasNextPage {
		t.Fatalf("second page: %d %s", status, body)
	}
	status, body = postHTTP(t, s, 0, pageQuery, map[string]any{"first": 2, "after": end[:len(end)-2] + "xy"})
	wantBad := `{"data":null,"errors":[{"message":"Argument \"after\" is not a cursor of this connection.","locations":[{"line":2,"column":3}],"path":["postsConnection"],"extensions":{"code":"BAD_USER_INPUT"}}]}`
	if status != 200 || body != wantBad {
		t.Errorf("tampered cursor: %d %s\nwant 200 %s", status, body, wantBad)
	}
}
