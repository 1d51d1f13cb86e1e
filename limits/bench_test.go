package limits

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// smallQuery is a realistic 300-byte request: a named operation with
// variables, arguments, an inline fragment, a fragment and a comment.
const smallQuery = `query Feed($first: Int = 10, $tag: String) {
  # newest first
  posts(first: $first, tag: $tag) {
    id
    title
    tags
    createdAt
    author { id name }
    ... on Post { body }
    ...Meta
  }
  me: post(id: "42") { ...Meta title }
}

fragment Meta on Post { id createdAt author { name } }
`

// largeDocument returns a document just under the default length, within
// every default limit: aliased blocks of fields with arguments, long
// strings and comments, 450 field nodes in all.
func largeDocument() string {
	var b strings.Builder
	b.WriteString("query Large($first: Int = 10) {\n")
	for i := range 45 {
		fmt.Fprintf(&b, "  # block %d: the most recent posts matching a search, with their authors; brackets {[( in comments do not count; the feed page asks for this block on each visit and it must stay cheap\n", i)
		fmt.Fprintf(&b, "  p%d: posts(first: $first, filter: {tag: \"t%d\", order: [CREATED_DESC, ID], search: \"a long search phrase of several words {[( that brackets inside strings never count\"}) {\n", i, i)
		b.WriteString("    id title body tags createdAt\n    author { id name }\n    ... on Post { id }\n  }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func BenchmarkScan(b *testing.B) {
	for _, bm := range []struct {
		name  string
		query string
	}{
		{name: "query-300B", query: smallQuery},
		{name: "document-20KB", query: largeDocument()},
		// The most tokens the default limits allow, nearly all brackets of
		// list values: {l(v:[[][]…]w:1)}.
		{name: "lists-20KB", query: "{l(v:[" + strings.Repeat("[]", 9994) + "]w:1)}"},
		// Lists of enum values: names inside arguments.
		{name: "names-20KB", query: "{l(v:[" + strings.Repeat("[a]", 6663) + "])}"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			if _, err := (Config{}).Scan(bm.query); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(bm.query)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Config{}.Scan(bm.query)
			}
		})
	}
}

// hostileDocuments are queries of up to 20 KB that pass the length, token
// and nesting limits but not depth or nodes, which the scan finds before
// gqlparser spends milliseconds parsing them.
func hostileDocuments() []struct {
	name, query string
	limit       Name
} {
	// fill repeats unit between prefix and suffix up to 20000 bytes.
	fill := func(prefix, unit, suffix string) string {
		n := (DefaultMaxLength - len(prefix) - len(suffix)) / len(unit)
		return prefix + strings.Repeat(unit, n) + suffix
	}
	return []struct {
		name, query string
		limit       Name
	}{
		{name: "overlapping-aliases-20KB", query: fill("{ ", "a:echoInt a:echoStr ", "}"), limit: Nodes},
		{name: "conflicting-fields-20KB", query: fill("{ ", `a:posts{id} a:post(id:"1"){id} `, "}"), limit: Nodes},
		{name: "nesting-64-20KB", query: fill("{", "a"+strings.Repeat("{a", 62)+strings.Repeat("}", 62)+" ", "}"), limit: Depth},
	}
}

// BenchmarkScanHostile scans the hostile documents, which the scan rejects
// at the end of their one operation.
func BenchmarkScanHostile(b *testing.B) {
	for _, bm := range hostileDocuments() {
		b.Run(bm.name, func(b *testing.B) {
			var lerr *Error
			if _, err := (Config{}).Scan(bm.query); !errors.As(err, &lerr) || lerr.Limit != bm.limit {
				b.Fatalf("Scan error = %v, want the %s limit", err, bm.limit)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Config{}.Scan(bm.query)
			}
		})
	}
}

// BenchmarkParseHostile parses the hostile documents with gqlparser, the
// work the scan saves.
func BenchmarkParseHostile(b *testing.B) {
	for _, bm := range hostileDocuments() {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parser.ParseQuery(&ast.Source{Input: bm.query}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCheckDocument(b *testing.B) {
	introspection, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		b.Fatal(err)
	}
	for _, bm := range []struct {
		name    string
		query   string
		wantErr bool
	}{
		{name: "query-300B", query: smallQuery},
		{name: "document-20KB", query: largeDocument()},
		{name: "introspection", query: string(introspection)},
		{name: "many-fragments", query: manyFragments(200)},
		{name: "fragment-bomb-40", query: chain(40, false), wantErr: true},
	} {
		b.Run(bm.name, func(b *testing.B) {
			doc := parse(b, bm.query)
			if _, err := (Config{}).CheckDocument(doc); (err != nil) != bm.wantErr {
				b.Fatalf("CheckDocument error = %v, want error: %t", err, bm.wantErr)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Config{}.CheckDocument(doc)
			}
		})
	}
}

// BenchmarkCheck runs the whole pre-validation step, scan, parse and
// document check, on documents within the default limits.
func BenchmarkCheck(b *testing.B) {
	for _, bm := range []struct {
		name  string
		query string
	}{
		{name: "query-300B", query: smallQuery},
		{name: "document-20KB", query: largeDocument()},
	} {
		b.Run(bm.name, func(b *testing.B) {
			if _, err := (Config{}).Check(bm.query); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(bm.query)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Config{}.Check(bm.query)
			}
		})
	}
}
