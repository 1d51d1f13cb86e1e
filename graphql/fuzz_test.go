package graphql_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// FuzzExecute runs arbitrary documents and variables against the sample
// schema of the benchmark workload, and against a schema with an
// interface and unions (abstractFuzzSchema): the engine must never panic and must
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
	fuzzAgainst(f, abstractFuzzSeeds, benchSchema(f), abstractFuzzSchema(f))
}

// FuzzExecuteCyclic runs arbitrary documents against a schema whose types
// refer to themselves and to each other (User.friends, User.posts ->
// Post.author, Post.replies; input Filter.not, A.b -> B.a), seeded with
// fragment cycles and mutual recursion, and against one whose interface
// and union refer to themselves (abstractCyclicSchema): the engine must
// never crash (a stack overflow would end the fuzzer with the input
// written) and must answer well-formed JSON with data or errors.
func FuzzExecuteCyclic(f *testing.F) {
	for _, seed := range []struct{ query, vars string }{
		{`{user{...A ...B}}fragment A on User{posts{author{...A}}}fragment B on User{posts{author{...B}}}`, ``},
		{`{user{...A ...B}}fragment A on User{friends{...B}}fragment B on User{friends{...A}}`, ``},
		{`{user{...A ...B ...C}}fragment A on User{x:friends{...B}}fragment B on User{x:posts{...C}}fragment C on Post{author{...A}}`, ``},
		{`{user{...A}}fragment A on User{id ...A best{...A}}`, ``},
		{`{ ...G ...F } fragment F on Query { x: a ...G } fragment G on Query { x: b ...F }`, ``},
		{`query($v: Boolean!){user{...A @include(if:$v) ...A @skip(if:$v)}}fragment A on User{best{...A}}`, `{"v": true}`},
		{`query($v: Boolean!){user{best @include(if:$v){friends{posts{replies{author{best{id name}}}}}}}}`, `{"v": true}`},
		{`{user{...A}}fragment A on User{posts{replies{author{...B}}}}fragment B on User{best{name}}`, ``},
		{`query($f: Filter){search(where: $f)}`, `{"f": {"not": {"not": {"and": [{"tag": "x"}]}}}}`},
		{`{search(a: {b: {a: {b: {n: 2}}}})}`, ``},
		{`{__type(name:"User"){...T ...U}}fragment T on __Type{fields{type{...U}}}fragment U on __Type{ofType{...T}}`, ``},
		{`{ user { x: name } ...F } fragment F on Query { user { x: id } }`, ``},
	} {
		f.Add(seed.query, seed.vars)
	}
	fuzzAgainst(f, abstractCyclicSeeds, cyclicSchema(f), abstractCyclicSchema(f))
}

// fuzzAgainst adds seeds (beside those added already) and fuzzes every
// input against each of schemas.
func fuzzAgainst(f *testing.F, seeds []struct{ query, vars string }, schemas ...*graphql.Schema) {
	for _, seed := range seeds {
		f.Add(seed.query, seed.vars)
	}
	f.Fuzz(func(t *testing.T, query, vars string) {
		for _, s := range schemas {
			checkAnswer(t, s, query, vars)
		}
	})
}

// checkAnswer runs query with vars (JSON; ignored when it does not decode)
// and fails unless the answer is well-formed JSON with data or errors.
func checkAnswer(t *testing.T, s *graphql.Schema, query, vars string) {
	t.Helper()
	var variables map[string]any
	if vars != "" {
		if err := json.Unmarshal([]byte(vars), &variables); err != nil {
			variables = nil
		}
	}
	res := s.Do(context.Background(), graphql.Request{Query: query, Variables: variables, Present: graphql.Unmasked})
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
}
