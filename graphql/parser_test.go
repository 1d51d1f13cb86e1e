package graphql_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlkit/gqlkit/graphql"
)

// parseAccepted are documents gqlparser reads, one or more for each
// feature of the language.
var parseAccepted = []string{
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
	// numbers as gqlparser's lexer cuts them
	"{ a(x: 1 a: 2) }", "{ a(x: 1, y: 0x1: 2) }", "{ a(x: 1e5e: 2) }", "{ a(x: [1-2 3.5e+7E 0.0e-0]) }",
	// comments, where gqlparser attaches them and where it drops them
	"# c\n{a}",
	"#c0\n{ #c1\n a(x: #c2\n $v #c3\n y: #c4\n [ #c5\n 1 ] z: #c6\n {#c7\n f: #c8\n 1}) #c9\n @d #c10\n (a: 1) }",
	"# op\nquery Q #n\n( #v\n $v: #t\n Int #d\n = #dv\n 1) { ... #s\n F #i\n ... #on\n on T { a } } # end",
	"#a\n#b\n\n#c\n{ a #d\n#e\n}\n#f",
	"# \u00e9 ü \u2028 \x7f\t\n{ a }",
	"#\n{ a }#", "#\xff\xfe\n{ a }", "{ a #\xc3\n}",
	"{ a #\r\n b #\r c }",
	// descriptions
	`"desc" query { a }`, `"""block""" query Q { a }`, `"d" fragment F on T { a }`,
	`query ("d" $v: Int, """e""" $w: Int) { a }`,
	"# before\n\"d\" # after\nquery { a }",
	"# before\n\"d\"\nfragment F on T { a }",
	"\"d\" # after\nmutation { a }",
	"query ( # before\n \"d\" # after\n $v: Int) { a }",
	`fragment F("d" $v: Int) on T { a }`, `"\u00e9\n" query { a }`,
	// strings and escapes
	`{a(s: "x\"y")}`, `{a(s: "\\ \/ \b \f \n \r \t \" end")}`, `{a(s: "\u0041\u00e9\u2603")}`, `{ a(x: "\u1234") }`,
	`{a(s: "\uD83D\uDE00 pair")}`, `{a(s: "\uD83D\u0041")}`, `{a(s: "\uDE00")}`, `{a(s: "x\uD83D")}`,
	`{a(s: "\u{1F600} \u{41} \u{0} \u{00000041} \u{10FFFF}")}`, `{a(s: "\ud83d\ude00")}`,
	"{a(s: \"\xff raw \\n then \xff\")}", "{a(s: \"\xff no escape\")}",
	"{a(s: \"tab\there\")}",
	// block strings
	`{a(s: """b""")}`, `{a(s: """""")}`, `{a(s: """a \""" b""")}`, `{a(s: """ends in quotes"""")}`,
	`{a(s: """two"""""  b: 1)}`, `{a(s: """"""")}`, `{a(s: """\n""")}`, `{a(s: """x\"y""")}`,
	"{a(s: \"\"\"\n    first\n      second\n    third\n  \"\"\")}",
	"{a(s: \"\"\"  one\n   two\n\"\"\")}",
	"{a(s: \"\"\"\n\n  only\n\n\"\"\")}",
	"{a(s: \"\"\"   \n  \t \n\"\"\")}",
	"{a(s: \"\"\"line\r\nline\rline\n\"\"\") b}",
	"{a(s: \"\"\"\r\n  x\r\n  y\r\n\"\"\")\r\n b}",
	"{a(s: \"\"\"\t\tx\n\t y\n\"\"\")}",
	"{a(s: \"\"\"\xff\n  \xfe\"\"\")}",
	"{a(s: \"\"\"é\n  ü\n  \"\"\") b}",
	"{a(s: \"\"\"\n a\n\n  b\n \"\"\")}",
	"{a(s: \"\"\"\n  a\n \n  b\n\"\"\")}",
	"query Q(\"\"\"\n multi\n line\n\"\"\" $v: Int) { a }",
	"{a(s: \"\"\"\n  a \\\"\"\" b\n  c\"\"\")}", "{a(s: \"\"\"\r\n  x\r\n\t\"\"\")}",
	// a byte order mark, anywhere white space may be
	"\ufeff{a}", "{\ufeffa\ufeff}\ufeff", "{a\ufeffb}",
	// "on" as a string starts a type condition
	"{ ... \"on\" T { a } }", "{ ... \"\"\"on\"\"\" T { a } }",
	// punctuators gqlparser knows, in names' places
	"{ a, b,, c }",
	// nesting just below the bound
	"{" + strings.Repeat("a{", 998) + "b" + strings.Repeat("}", 999),
	"{ a(x: " + strings.Repeat("[", 998) + strings.Repeat("]", 998) + ") }",
	"query ($v: " + strings.Repeat("[", 1000) + "Int" + strings.Repeat("]", 1000) + ") { a }",
}

// parseRefused are documents gqlparser refuses (or ParseQuery's checks
// after it): one or more for each place where its parser or its lexer
// fails.
var parseRefused = []string{
	"", " \n# comment\n", "{", "{ a", "{ a }}", "{ }", "{ a { } }", "{ a() }", "query () { a }", "query Q($v) { a }",
	"{ a(x: $v) } fragment on on T { a }", "fragment on T { a }", "fragment F T { a }", "fragment F on { a }",
	`fragment "on" on T { a }`, `fragment F "on" T { a }`, "fragment F on T", "fragment", "query", "query Q", "query Q @",
	"query Q($v: Int = $w) { a }", "query Q($v: Int = ) { a }", "query Q($: Int) { a }", "query Q(v: Int) { a }",
	"query Q($v Int) { a }", "query Q($v: ) { a }", "query Q($v: [Int) { a }", "query Q($v: Int!!) { a }",
	"type T { a }", "schema { query: Q }", "extend type Q { a }", "Query { a }",
	`"d" { a }`, `"" { a }`, `"""d""" { a }`, `"""""" { a }`, "\"d\" # c\n{ a }", "\"d\" #c1\n#c2\n{ a }",
	"\"\"\"a\nb\"\"\" { a }", `"d"`, `"d" "e" query { a }`, `"d" fragment`, `"d" { a } "e"`,
	"{ a(x: 1.) }", "{ a(x: 01) }", "{ a(x: -) }", "{ a(x: -a) }", "{ a(x: .5) }", "{ a(x: 1e) }", "{ a(x: 1e+) }",
	"{ a(x: 1.e5) }", "{ a(x: 00) }", "{ a(x: -01) }", "{ a(x: 1..2) }", "{ a(x: 1", "{ a(x: -",
	"{ a(x: \"unterminated) }", "{ a(x: \"unterminated", "{ a(x: \"line\nbreak\") }", "{ a(x: \"cr\rx\") }",
	"{ a(x: 'q') }", "{ é }", "{ a(x: [[[", "{ a(x: {", "{ a(x: {b}) }", "{ a(x: {b: }) }", "{ a(x: [1 2) }",
	"{ a(x: \"\\x\") }", "{ a(x: \"\\", "{ a(x: \"\\u12\") }", "{ a(x: \"\\u123g\") }", "{ a(x: \"\\u1234",
	"{ a(x: 1a) }", "{ a(x: [1.5.5]) }", "{ a(x: \"\\u{}\") }", "{ a(x: \"\\u{110000}\") }", "{ a(x: \"\\u{D800}\") }",
	"{ a(x: \"\\u{123456789}\") }", "{ a(x: \"\\u{FFFFFFFF}\") }", "{ a(x: \"\\u{12\") }", "{ a(x: \"\\u{1g}\") }",
	"{ a(x: \"\\u{\") }", "{ a(x: \"\\u\") }", "{ a(x: \"\\uD83D\\uDE0", "{ a(x: \"\\uD83D\\uDE00", "{ a(x: \"a\x01b\") }", "{ a(x: \"\\é\") }",
	"{ a(x: \"\"\"unterminated) }", "{ a(x: \"\"\"un\nterminated\n  ", "{ a(x: \"\"\"a\x01\"\"\") }",
	"{ a(x: \"\"\"line\nx\x00\"\"\") }", "{ a(x: \"\"\"a\"\"\" b\"\"\"c\n\"\"\") }",
	"{ a \x00 }", "{ a \x7f }", "{ a \x1f }", "{ a \xef }", "{ a \xef\xbb }", "\xef\xbb\xbf\xef{ a }",
	"{ a & }", "{ a | }", "{ a .. }", "{ a . }", "{ ..a }", "{ ... }", "{ ... on }", "{ ... on T }", "{ ...on {a} }",
	"{ ... \"on\" }", "{ ... 1 }", "{ a @ }", "{ a @d( }", "{ a @1 }", "{ a: }", "{ a: 1 }", "{ a(: 1) }",
	"{ a(x 1) }", "{ a(x: $) }", "{ a(x: $1) }", "query Q($v: Int = {a: $v}) { a }", "query Q($v: Int = [$v]) { a }",
	"{ a(x: ...) }", "{ a(x: ) }", "{ a(x: &) }", "{ a(x: |) }", "{ a(x: #c\n) }", "{ a(x: \"\"\"b\"\"\" y: \"\"\"\nc\n  d\"\"\" ) }z",
	"{ a }\n#c\n}", "{ a } #c\n query", "query Q @d(x: $v) { a } }", "{ a }\r\n\r\n  !",
	"{ a(s: \"é\") é }", "{ a(s: \"\"\"é\"\"\") é }", "\"\\n\" { a }", "\"\\u00e9\" { a }", "#\xff\n{ é }",
	"{ a(x: \"\"\"a\n\n  \"\"\" ) ! }", "{ a(x: \"\"\"\n\n\"\"\" ) ! }", "{ a(x: \"\"\"\r\n\r\n\"\"\" ) ! }",
	"{" + strings.Repeat("a{", 1000) + "b" + strings.Repeat("}", 1001),
	"{" + strings.Repeat("... on T {", 1000) + "a" + strings.Repeat("}", 1001),
	"{ a(x: " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + ") }",
	"{ a(x: " + strings.Repeat("{a: ", 1000) + "1" + strings.Repeat("}", 1000) + ") }",
	"query ($v: " + strings.Repeat("[", 1001) + "Int" + strings.Repeat("]", 1001) + ") { a }",
	"{" + strings.Repeat("a{", 600) + "b(x: " + strings.Repeat("[", 500),
	strings.Repeat("[", 2000),
}

// formerlyDeclined are the documents the parser's fast path left to
// gqlparser, when it had one: now the parser reads them, or refuses them
// as gqlparser does.
var formerlyDeclined = []string{
	"# c\n{a}", `{a(s: "\n")}`, `{a(s: "x\"y")}`, `{a(s: """b""")}`, "\ufeff{a}",
	`"desc" query { a }`, `query ("d" $v: Int) { a }`, "{ a(x: 1a) }", "{ a(x: 01) }", "{ a(x: 1.) }",
	"{ a(x: -) }", "{ a(x: .5) }", "{ a }}", "{ a(x: $v) } fragment on on T { a }", "{ a() }", "query () { a }",
	"{ }", "{ a { } }", "{ ... \"on\" T { a } }", "query Q($v: Int = $w) { a }", "{ a(x: \"unterminated) }", "{ a(x: 'q') }",
	"{ é }", "{ a(x: [[[", strings.Repeat("[", 2000),
}

// parseLimited are documents with the token limits to read them under; each
// limit is the number of tokens (comments included) to the point of
// interest, and the test tries one less and one more as well.
var parseLimited = []struct {
	query  string
	tokens int
}{
	{query: "{ a b c }", tokens: 5},
	{query: "# c1\n# c2\n{ a }", tokens: 5},
	{query: "{ a } # c", tokens: 4},
	{query: "{ a #c1\n#c2\n b }", tokens: 6},
	{query: `"d" query Q($v: [Int] = [1, {a: 2}]) @d { a(x: $v) ... F ... on T { b } }`, tokens: 40},
	{query: "{ a(x: 1a) }", tokens: 6},
	{query: "{ a(x: \"\\u0041\" y: \"\"\"b\"\"\") }", tokens: 10},
	{query: "query ($v: [[Int]]) { a }", tokens: 12},
	{query: "{ a(x: [[[]]]) }", tokens: 8},
	{query: "{ a }\n#1\n#2\n#3", tokens: 5},
	{query: "{ a }", tokens: 0},
	// the token limit and the nesting bound, whichever comes first
	{query: "{" + strings.Repeat("a{", 1000) + "b" + strings.Repeat("}", 1001), tokens: 2000},
	{query: "query ($v: " + strings.Repeat("[", 1001) + "Int" + strings.Repeat("]", 1001) + ") { a }", tokens: 1006},
}

// oracle is ParseQuery as the kit had it with gqlparser's parser:
// gqlparser's error behind "Syntax Error: ", or the document with the kit's
// checks after it.
func oracle(query string, maxTokens int) (*ast.QueryDocument, *gqlerror.Error) {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, maxTokens)
	if err != nil {
		var ge *gqlerror.Error
		if !errors.As(err, &ge) {
			return nil, &gqlerror.Error{Message: "Syntax Error: " + err.Error(), Err: graphql.ErrSyntax}
		}
		if strings.HasPrefix(ge.Message, "exceeded token limit") {
			return nil, &gqlerror.Error{Message: ge.Message, Err: graphql.ErrTokenLimit}
		}
		return nil, &gqlerror.Error{Message: "Syntax Error: " + ge.Message, Locations: ge.Locations, Err: graphql.ErrSyntax}
	}
	return graphql.CheckParsed(query, doc)
}

// checkQuickParse compares the kit's parser with gqlparser's on query, under
// the token limit maxTokens: the parser alone (the same document, or the
// same error), and ParseQuery with its checks (the same result as
// gqlparser's parser followed by them).
func checkQuickParse(t *testing.T, query string, maxTokens int) {
	t.Helper()
	got, gotErr := graphql.ParseDocument(query, maxTokens)
	want, wantErr := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, maxTokens)
	switch {
	case wantErr != nil && gotErr == nil:
		t.Fatalf("%q (limit %d): parsed, gqlparser fails: %v", query, maxTokens, wantErr)
	case wantErr != nil:
		w := wantErr.(*gqlerror.Error)
		if msg := strings.TrimPrefix(gotErr.Message, "Syntax Error: "); msg != w.Message || !reflect.DeepEqual(gotErr.Locations, w.Locations) {
			t.Fatalf("%q (limit %d): error %q at %v, gqlparser's %q at %v", query, maxTokens, msg, gotErr.Locations, w.Message, w.Locations)
		}
	case gotErr != nil:
		t.Fatalf("%q (limit %d): %v, gqlparser reads it", query, maxTokens, gotErr)
	case !reflect.DeepEqual(got, want):
		t.Fatalf("%q (limit %d) read differently:\n%s\ngqlparser:\n%s", query, maxTokens, dumpDocument(got), dumpDocument(want))
	}
	gotDoc, gotErr := graphql.ParseQuery(query, maxTokens)
	wantDoc, wantErr2 := oracle(query, maxTokens)
	if !reflect.DeepEqual(gotDoc, wantDoc) || !reflect.DeepEqual(gotErr, wantErr2) {
		t.Fatalf("ParseQuery(%q, %d) = %v, %#v\nwant %v, %#v", query, maxTokens, gotDoc != nil, gotErr, wantDoc != nil, wantErr2)
	}
	checkParser(t, query, maxTokens, wantDoc, wantErr2)
}

// parserFiller is a document whose literals fill a Parser's memory with
// values of every kind, before and between the parses checkParser makes.
var parserFiller = `{ f(a: [[1, 2.5], {b: "x", c: [null, true, E]}, """z""", [], {}], d: {e: {f: [[["deep"]]]}}) g(h: [` +
	strings.Repeat(`{i: [3], j: "k"} `, 20) + `]) }`

// checkParser checks that a Parser reads query as ParseQuery does, want
// and wantErr, on memory a released document left, and that a document it
// parsed and did not release keeps its memory through the next parses.
func checkParser(t *testing.T, query string, maxTokens int, want *ast.QueryDocument, wantErr *gqlerror.Error) {
	t.Helper()
	var p graphql.Parser
	parse := func(what string) *ast.QueryDocument {
		t.Helper()
		doc, err := p.Parse(query, maxTokens)
		if !reflect.DeepEqual(doc, want) || !reflect.DeepEqual(err, wantErr) {
			t.Fatalf("Parser.Parse(%q, %d) %s = %v, %#v\nwant %v, %#v", query, maxTokens, what, doc != nil, err, want != nil, wantErr)
		}
		return doc
	}
	fill := func() {
		t.Helper()
		if _, err := p.Parse(parserFiller, 0); err != nil {
			t.Fatalf("the filler: %v", err)
		}
	}
	fill()
	p.Release()
	kept := parse("on reused memory")
	fill() // must not reuse kept's memory: it was not released
	if !reflect.DeepEqual(kept, want) {
		t.Fatalf("Parser.Parse(%q, %d): the document changed with the parse after it:\n%s", query, maxTokens, dumpDocument(kept))
	}
	p.Release()
	parse("after a release")
	p.Release()
	p.Release() // a second release gives nothing back twice
	fill()
	p.Release()
	parse("after two releases")
}

// dumpDocument shows a document with what ast.Dump leaves out: positions
// and comments.
func dumpDocument(doc *ast.QueryDocument) string {
	var b strings.Builder
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if p, ok := v.Interface().(*ast.Position); ok {
				fmt.Fprintf(&b, "%s: start %d end %d line %d column %d\n", path, p.Start, p.End, p.Line, p.Column)
				return
			}
			walk(v.Elem(), path)
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.String:
			if v.String() != "" {
				fmt.Fprintf(&b, "%s = %q\n", path, v.String())
			}
		case reflect.Bool, reflect.Int:
			if !v.IsZero() {
				fmt.Fprintf(&b, "%s = %v\n", path, v)
			}
		}
	}
	walk(reflect.ValueOf(doc), "doc")
	return b.String()
}

// TestQuickParse compares the parser with gqlparser's on every document
// above, of the tests and of the conformance corpus.
func TestQuickParse(t *testing.T) {
	for _, q := range parseAccepted {
		if _, err := graphql.ParseDocument(q, 0); err != nil {
			t.Errorf("%q: %v", q, err)
		}
		checkQuickParse(t, q, 0)
	}
	for _, q := range parseRefused {
		if _, err := graphql.ParseQuery(q, 0); err == nil {
			t.Errorf("%q: parsed", q)
		}
		checkQuickParse(t, q, 0)
	}
	for _, c := range parseLimited {
		for _, n := range []int{c.tokens - 1, c.tokens, c.tokens + 1} {
			checkQuickParse(t, c.query, n)
		}
	}
	for _, q := range append(append(quickCorpus(t), parseAccepted...), formerlyDeclined...) {
		checkQuickParse(t, q, 0)
		checkQuickParse(t, q, 12)
	}
}

// FuzzQuickParse: on any text and token limit, the parser reads what
// gqlparser's reads into a deeply equal document, positions and comments
// included, and fails where it fails with the same message and location.
func FuzzQuickParse(f *testing.F) {
	for _, q := range append(append(append(quickCorpus(f), parseAccepted...), parseRefused...), formerlyDeclined...) {
		f.Add(q, 0)
	}
	for _, c := range parseLimited {
		f.Add(c.query, c.tokens)
	}
	f.Fuzz(func(t *testing.T, query string, maxTokens int) {
		checkQuickParse(t, query, max(maxTokens, 0)%100)
	})
}

// parseVocabulary is what TestParseRandomDocuments builds documents of:
// tokens, valid or not, white space and comments.
var parseVocabulary = []string{
	"{", "}", "(", ")", "[", "]", ":", "$", "@", "!", "=", "...", "&", "|", ".", "'", "é", "\x01", "\ufeff",
	"query", "mutation", "subscription", "fragment", "on", "a", "b", "true", "null", "type",
	"1", "-2.5e3", "1a", "01", "1.", "-", `"s"`, `""`, `"on"`, `"\n"`, `"\u00e9"`, `"\uD83D\uDE00"`, `"\q"`, `"open`,
	`"""b"""`, "\"\"\"\n  x\n   y\n\"\"\"", `"""on"""`, `""""""`, "\"\"\"open", "#c\n", "# c\r\n", "#", " ", "\n", "\r\n", "\r", ",", "\t",
}

// randomDocument is a generator of documents for TestParseRandomDocuments.
type randomDocument struct {
	rng    *rand.Rand
	tokens []string
}

func (g *randomDocument) emit(tokens ...string) { g.tokens = append(g.tokens, tokens...) }

func (g *randomDocument) pick(choices ...string) string { return choices[g.rng.IntN(len(choices))] }

// maybe reports true one time in n.
func (g *randomDocument) maybe(n int) bool { return g.rng.IntN(n) == 0 }

func (g *randomDocument) document() {
	for range g.rng.IntN(3) + 1 {
		if g.maybe(4) {
			g.emit(g.pick(`"d"`, `""`, `"""d"""`, "\"\"\"\n  a\n   b\n\"\"\"", `"\u00e9\n"`))
		}
		switch {
		case g.maybe(4):
			g.emit("fragment", g.pick("F", "G", "on"))
			g.variables()
			g.emit("on", "T")
			g.directives(1)
			g.selectionSet(0)
		case g.maybe(3):
			g.selectionSet(0)
		default:
			g.emit(g.pick("query", "mutation", "subscription"))
			if g.maybe(2) {
				g.emit("Q")
			}
			g.variables()
			g.directives(1)
			g.selectionSet(0)
		}
	}
}

func (g *randomDocument) variables() {
	if !g.maybe(3) {
		return
	}
	g.emit("(")
	for range g.rng.IntN(3) + 1 {
		if g.maybe(5) {
			g.emit(g.pick(`"v"`, `"""v"""`))
		}
		g.emit("$", g.pick("v", "w"), ":")
		g.typeReference(0)
		if g.maybe(3) {
			g.emit("=")
			g.value(0, true)
		}
		g.directives(1)
	}
	g.emit(")")
}

func (g *randomDocument) typeReference(depth int) {
	if depth < 3 && g.maybe(3) {
		g.emit("[")
		g.typeReference(depth + 1)
		g.emit("]")
	} else {
		g.emit(g.pick("Int", "String", "T"))
	}
	if g.maybe(3) {
		g.emit("!")
	}
}

func (g *randomDocument) directives(n int) {
	for range g.rng.IntN(n + 1) {
		g.emit("@", g.pick("d", "skip", "include"))
		g.arguments(1, false)
	}
}

func (g *randomDocument) arguments(depth int, isConst bool) {
	if !g.maybe(2) {
		return
	}
	g.emit("(")
	for range g.rng.IntN(3) + 1 {
		g.emit(g.pick("x", "y", "on", "true"), ":")
		g.value(depth, isConst)
	}
	g.emit(")")
}

func (g *randomDocument) value(depth int, isConst bool) {
	switch n := g.rng.IntN(12); {
	case n == 0 && depth < 4:
		g.emit("[")
		for range g.rng.IntN(3) {
			g.value(depth+1, isConst)
		}
		g.emit("]")
	case n == 1 && depth < 4:
		g.emit("{")
		for range g.rng.IntN(3) {
			g.emit(g.pick("a", "b"), ":")
			g.value(depth+1, isConst)
		}
		g.emit("}")
	case n == 2 && !isConst:
		g.emit("$", "v")
	default:
		g.emit(g.pick("1", "-0", "2.5", "1e3", "-1.5E-2", `"s"`, `""`, `"a\"b"`, `"\u0041\u{1F600}"`, `"""b"""`,
			"\"\"\"\n  x\n\"\"\"", "true", "false", "null", "RED", "on"))
	}
}

func (g *randomDocument) selectionSet(depth int) {
	g.emit("{")
	for range g.rng.IntN(3) + 1 {
		switch {
		case g.maybe(5):
			g.emit("...", g.pick("F", "G"))
			g.directives(1)
		case g.maybe(5) && depth < 4:
			g.emit("...")
			if g.maybe(2) {
				g.emit("on", "T")
			}
			g.directives(1)
			g.selectionSet(depth + 1)
		default:
			if g.maybe(4) {
				g.emit(g.pick("al", "on", "query"), ":")
			}
			g.emit(g.pick("a", "b", "fragment", "on"))
			g.arguments(depth, false)
			g.directives(1)
			if depth < 4 && g.maybe(3) {
				g.selectionSet(depth + 1)
			}
		}
	}
	g.emit("}")
}

// text joins the tokens with white space, comments or nothing, after
// spoiling the document one time in two: a token replaced, inserted or
// removed, or the text cut short.
func (g *randomDocument) text() string {
	if len(g.tokens) > 0 && g.maybe(2) {
		i := g.rng.IntN(len(g.tokens))
		switch g.rng.IntN(4) {
		case 0:
			g.tokens[i] = parseVocabulary[g.rng.IntN(len(parseVocabulary))]
		case 1:
			g.tokens = append(g.tokens[:i], append([]string{parseVocabulary[g.rng.IntN(len(parseVocabulary))]}, g.tokens[i:]...)...)
		case 2:
			g.tokens = append(g.tokens[:i], g.tokens[i+1:]...)
		default:
			g.tokens = g.tokens[:i]
		}
	}
	var b strings.Builder
	for _, tok := range g.tokens {
		b.WriteString(tok)
		b.WriteString(g.pick(" ", " ", " ", "\n", ",", "\r\n", "\r", " #c\n", "#\n#d\r\n", "\ufeff", "\t", ""))
	}
	return b.String()
}

// TestParseRandomDocuments compares the parser with gqlparser's on random
// documents (a fixed seed), most of them spoiled, under random token
// limits. FuzzQuickParse goes on from here with new documents in CI.
func TestParseRandomDocuments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 8000
	if testing.Short() {
		n = 2000
	}
	for range n {
		g := &randomDocument{rng: rng}
		g.document()
		limit := 0
		if g.maybe(4) {
			limit = rng.IntN(60)
		}
		checkQuickParse(t, g.text(), limit)
	}
}

// TestParseComments pins where comments go, as gqlparser has it: to the
// next node that takes one, the comments before a description joined to
// those after it; never to a query shorthand nor to a value other than a
// list or an object (gqlparser's composite literals read the parser's
// current comment after the calls that consume the node's tokens, when
// there is none left).
func TestParseComments(t *testing.T) {
	query := `# op
"desc" # after desc
query Q( # var
  $v: [Int] = # list
    [1] # dropped: no node after it takes one
) {
  # field
  a(
    # arg
    x: $v # y's
    y: # object
    { # child
      f: 1 }
  )
  # spread
  ... F
  # inline
  ... on T { b }
}
# dropped
{ c }
fragment F on T { d }`
	checkQuickParse(t, query, 0)
	doc, err := graphql.ParseQuery(query, 0)
	if err != nil {
		t.Fatal(err)
	}
	texts := func(g *ast.CommentGroup) string {
		if g == nil {
			return "nil"
		}
		var out []string
		for _, c := range g.List {
			out = append(out, c.Value)
		}
		return strings.Join(out, "|")
	}
	op := doc.Operations[0]
	a := op.SelectionSet[0].(*ast.Field)
	y := a.Arguments[1]
	for _, c := range []struct {
		node string
		got  *ast.CommentGroup
		want string
	}{
		{node: "operation", got: op.Comment, want: "# op|# after desc"},
		{node: "variable definition", got: op.VariableDefinitions[0].Comment, want: "# var"},
		{node: "list value", got: op.VariableDefinitions[0].DefaultValue.Comment, want: "# list"},
		{node: "list item", got: op.VariableDefinitions[0].DefaultValue.Children[0].Value.Comment, want: "nil"},
		{node: "field", got: a.Comment, want: "# field"},
		{node: "argument", got: a.Arguments[0].Comment, want: "# arg"},
		{node: "variable value", got: a.Arguments[0].Value.Comment, want: "nil"},
		{node: "argument after a value", got: y.Comment, want: "# y's"},
		{node: "object value", got: y.Value.Comment, want: "# object"},
		{node: "object field", got: y.Value.Children[0].Comment, want: "# child"},
		{node: "scalar value", got: y.Value.Children[0].Value.Comment, want: "nil"},
		{node: "fragment spread", got: op.SelectionSet[1].(*ast.FragmentSpread).Comment, want: "# spread"},
		{node: "inline fragment", got: op.SelectionSet[2].(*ast.InlineFragment).Comment, want: "# inline"},
		{node: "query shorthand", got: doc.Operations[1].Comment, want: "nil"},
		{node: "fragment definition", got: doc.Fragments[0].Comment, want: "nil"},
	} {
		if got := texts(c.got); got != c.want {
			t.Errorf("%s: comments %s, want %s", c.node, got, c.want)
		}
	}
	if op.Description != "desc" {
		t.Errorf("description %q, want desc", op.Description)
	}
}
