package graphql_test

import (
	"context"
	"encoding/json"
	"testing"
)

// FuzzExecute runs arbitrary documents and variables against the sample
// schema of the benchmark workload: the engine must never panic and must
// always answer well-formed JSON, with data or errors.
func FuzzExecute(f *testing.F) {
	for _, seed := range []struct{ query, vars string }{
		{benchQueryA, `{"n": 20}`},
		{benchQueryB, ``},
		{`query($id: ID!, $skip: Boolean!) { post(id: $id) { id ... on Post @skip(if: $skip) { title } author { name } } }`, `{"id": 3, "skip": false}`},
		{`{ posts(first: 3) { ...P tags } } fragment P on Post { id title createdAt author { id } }`, ``},
		{`{ __schema { types { name kind fields { name } } } }`, ``},
		{`{ __type(name: "Post") { name fields(includeDeprecated: true) { name args { name defaultValue } } } }`, ``},
		{`query Q($n: Int = 2147483648) { posts(first: $n) { id } }`, `{"n": "x"}`},
		{`{ a: posts { id } a: posts { title } }`, ``},
		{`mutation { posts { id } }`, ``},
		{`{ posts(first: -1) { id } post(id: "") { id } }`, `{}`},
		{`query($v: [Int!]) { posts(first: 1) { id } }`, `{"v": [1, null]}`},
		{`{`, ``},
	} {
		f.Add(seed.query, seed.vars)
	}
	s := benchSchema(f)
	f.Fuzz(func(t *testing.T, query, vars string) {
		var variables map[string]any
		if vars != "" {
			if err := json.Unmarshal([]byte(vars), &variables); err != nil {
				variables = nil
			}
		}
		res := s.Do(context.Background(), query, "", variables)
		out, err := res.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON: %v", err)
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON for %q: %s", query, out)
		}
		if res.Data == nil && len(res.Errors) == 0 {
			t.Fatalf("no data and no errors for %q", query)
		}
	})
}
