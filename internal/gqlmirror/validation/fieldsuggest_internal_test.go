package validation

import (
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// TestNaturalCompare: the signs graphql-js 16.15's naturalCompare gives
// for the same pairs (checked with node).
func TestNaturalCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"a9", "a10", -1}, {"T2", "T10", -1}, {"ab", "abc", -1}, {"a00", "a0", 1}, {"a01", "a1", -1},
		{"x0y", "x00y", 1}, {"b", "a10", 1}, {"a", "a", 0}, {"T10", "T9", 1},
	} {
		got := naturalCompare(tc.a, tc.b)
		if got > 0 {
			got = 1
		} else if got < 0 {
			got = -1
		}
		if got != tc.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestFieldSuggestionsOrder: "Did you mean to use an inline fragment on"
// lists the types in graphql-js 16.15's order (each message checked with
// node against the same SDL and document): by how many possible types use
// them, then a super interface before its subtypes, then by name in
// natural order. gqlparser's rule gave "I", "Alpha", "Zed" (interfaces
// first), "Entry", "Named", … (no super type first) and "I", "T1",
// "T10", "T9".
func TestFieldSuggestionsOrder(t *testing.T) {
	for _, tc := range []struct{ sdl, query, want string }{
		{`interface I { f: Int } type Zed implements I { f: Int } type Alpha { f: Int } union U = Zed | Alpha type Query { u: U }`,
			`{ u { f } }`, `Cannot query field "f" on type "U". Did you mean to use an inline fragment on "Alpha", "I", or "Zed"?`},
		{`interface Named { name: String } interface Entry implements Named { name: String } type Book implements Named & Entry { name: String } type Author implements Named & Entry { name: String } type Review { stars: Int } union Search = Book | Author | Review type Query { maybe: Search }`,
			`{ maybe { name } }`, `Cannot query field "name" on type "Search". Did you mean to use an inline fragment on "Named", "Entry", "Author", or "Book"?`},
		{`interface I { f: Int } type T10 implements I { f: Int } type T9 implements I { f: Int } type T1 implements I { f: Int } type Other { g: Int } union U = T10 | T9 | T1 type Query { u: U }`,
			`{ u { f } }`, `Cannot query field "f" on type "U". Did you mean to use an inline fragment on "I", "T1", "T9", or "T10"?`},
		{`interface I { f: Int } type A implements I { f: Int g: Int } type Query { i: I }`,
			`{ i { h } }`, `Cannot query field "h" on type "I". Did you mean "f"?`},
	} {
		schema, err := gqlparser.LoadSchema(&ast.Source{Input: tc.sdl})
		if err != nil {
			t.Fatal(err)
		}
		doc, perr := parser.ParseQuery(&ast.Source{Input: tc.query})
		if perr != nil {
			t.Fatal(perr)
		}
		errs, fault := New(Config{Schema: schema}).Validate(doc, Options{})
		if fault != nil || len(errs) != 1 || errs[0].Message != tc.want {
			t.Errorf("%s\ngot %v %v\nwant %s", tc.query, errs, fault, tc.want)
		}
	}
}
