package graphql_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlkit/gqlkit/graphql"
)

// quickParsed are documents the fast path of ParseQuery must read itself.
var quickParsed = []string{
	"{a}",
	"query Feed($n: Int) { posts(first: $n) { id title tags createdAt author { id name } } }",
	`{ post(id: "7") { id title author { name } } }`,
	"query Q($a: [[Int!]]! = [[1, -2], []], $b: String = \"x y\", $c: Float = -1.5e-3, $d: E = RED, $e: Boolean = false, $f: I = {a: null, b: {c: [1.0]}}) { f }",
	"mutation M { like(id: \"1\") @skip(if: $v) @include(if: true) { id } }",
	"subscription S { a }",
	"{ ...F ... on T { a } ... @skip(if: true) { b } ... { c } } fragment F on T @d { x: a(b: [{c: ENUM}]) }",
	"fragment F($v: Int = 1) on T { a }",
	"query ($v: Int @deprecated) { a }",
	"{\r\n\ta,\n\r  b\r c }",
	"{ a(s: \"héllo wörld ✓ 😀\") b(s: \"\") }",
	"{ on: a fragment: b query(true: true, false: false, null: null) { x } }",
}

func TestQuickParse(t *testing.T) {
	for _, q := range quickParsed {
		if graphql.QuickParse(q, 0) == nil {
			t.Errorf("the fast path declined %q", q)
		}
		checkQuickParse(t, q, 0)
	}
	// Outside the subset, or errors: gqlparser parses these.
	for _, q := range []string{
		"# c\n{a}", `{a(s: "\n")}`, `{a(s: "x\"y")}`, `{a(s: """b""")}`, "\ufeff{a}",
		`"desc" query { a }`, `query ("d" $v: Int) { a }`, "{ a(x: 1a) }", "{ a(x: 01) }", "{ a(x: 1.) }",
		"{ a(x: -) }", "{ a(x: .5) }", "{ a }}", "{ a(x: $v) } fragment on on T { a }", "{ a() }", "query () { a }",
		"{ }", "{ a { } }", "{ ... \"on\" T { a } }", "query Q($v: Int = $w) { a }", "{ a(x: \"unterminated) }", "{ a(x: 'q') }",
		"{ é }", "{ a(x: [[[", strings.Repeat("[", 2000),
	} {
		if graphql.QuickParse(q, 0) != nil {
			t.Errorf("the fast path read %q", q)
		}
	}
	// The token limit: the fast path leaves the error to gqlparser.
	if graphql.QuickParse("{ a b c }", 4) != nil || graphql.QuickParse("{ a b c }", 5) == nil {
		t.Error("token limit: {a b c} is 5 tokens")
	}
	deep := "{" + strings.Repeat("a{", 998) + "b" + strings.Repeat("}", 999)
	checkQuickParse(t, deep, 0)
	if graphql.QuickParse(deep, 0) == nil {
		t.Error("998 nested selection sets: declined")
	}
}

// TestQuickParseMatchesParser compares the fast path with gqlparser on every
// document of the tests and of the conformance corpus.
func TestQuickParseMatchesParser(t *testing.T) {
	for _, q := range append(quickCorpus(t), quickParsed...) {
		checkQuickParse(t, q, 0)
		checkQuickParse(t, q, 12)
	}
}

// FuzzQuickParse: whatever the fast path reads, gqlparser reads into a
// deeply equal document, positions included.
func FuzzQuickParse(f *testing.F) {
	for _, q := range append(quickCorpus(f), quickParsed...) {
		f.Add(q, 0)
	}
	f.Fuzz(func(t *testing.T, query string, maxTokens int) {
		checkQuickParse(t, query, max(maxTokens, 0)%100)
	})
}

func checkQuickParse(t *testing.T, query string, maxTokens int) {
	t.Helper()
	got := graphql.QuickParse(query, maxTokens)
	if got == nil {
		return
	}
	want, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, maxTokens)
	if err != nil {
		t.Fatalf("the fast path read %q (limit %d), gqlparser refuses it: %v", query, maxTokens, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the fast path read %q (limit %d) differently:\n%s\ngqlparser:\n%s", query, maxTokens, ast.Dump(got), ast.Dump(want))
	}
}
