package limits

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// boundsCases are documents that gqlparser parses, with the depth and
// field bounds Scan must find in them and the DocStats CheckDocument finds.
// They are the seeds of FuzzScanBounds too.
var boundsCases = []struct {
	name       string
	query      string
	wantScan   Stats // Depth and Fields only
	wantChecks DocStats
}{
	{name: "shorthand", query: "{ a }", wantScan: Stats{Depth: 1, Fields: 1}, wantChecks: DocStats{Depth: 1, Nodes: 1}},
	{
		name:       "aliases are one field each",
		query:      "{ a: b c: d { e: f } g }",
		wantScan:   Stats{Depth: 2, Fields: 4},
		wantChecks: DocStats{Depth: 2, Nodes: 4},
	},
	{
		name:       "an alias, a comment and a colon",
		query:      "{ a # { b }\n : c { d } }",
		wantScan:   Stats{Depth: 2, Fields: 2},
		wantChecks: DocStats{Depth: 2, Nodes: 2},
	},
	{
		name:       "fields named like keywords",
		query:      "{ query fragment on true null { mutation subscription } }",
		wantScan:   Stats{Depth: 2, Fields: 7},
		wantChecks: DocStats{Depth: 2, Nodes: 7},
	},
	{
		name:       "arguments and directives are not fields",
		query:      `{ a(b: c, d: {e: {f: [g]}}) @skip(if: false) @h { i @include(if: $j) } k @l }`,
		wantScan:   Stats{Depth: 2, Fields: 3},
		wantChecks: DocStats{Depth: 2, Nodes: 3},
	},
	{
		name: "header, variables with object defaults and directives",
		query: `query Q($v: In = {a: {b: [{c: 1}]}}, $w: [Int!]! = [1] @d(x: {y: 2})) @e(f: {g: "}"}) {
		  a(v: $v) { b }
		}`,
		wantScan:   Stats{Depth: 2, Fields: 2},
		wantChecks: DocStats{Depth: 2, Nodes: 2},
	},
	{
		name:       "strings, block strings and comments hold no fields",
		query:      "\"\"\"{ x { y } }\"\"\" query { a(s: \"{ b { c\", t: \"\"\" { d { \"\"\") # { e { f\n g { h } }",
		wantScan:   Stats{Depth: 2, Fields: 3},
		wantChecks: DocStats{Depth: 2, Nodes: 3},
	},
	{
		name:       "inline fragments add no depth",
		query:      "{ ... on Q { a { ... { b } } } ... @include(if: true) { c } ... on on { on } }",
		wantScan:   Stats{Depth: 2, Fields: 4},
		wantChecks: DocStats{Depth: 2, Nodes: 4},
	},
	{
		name:       "a string after ... is read as on",
		query:      "{ ... \"on\" Q { a } ... \"\"\"\n  on\n\"\"\" Q { b { c } } }",
		wantScan:   Stats{Depth: 2, Fields: 3},
		wantChecks: DocStats{Depth: 2, Nodes: 3},
	},
	{
		name:       "ignored tokens",
		query:      "\uFEFF{a,b,,c{d}\r\n\te}",
		wantScan:   Stats{Depth: 2, Fields: 5},
		wantChecks: DocStats{Depth: 2, Nodes: 5},
	},
	{
		name:       "__typename is a field with depth",
		query:      "{ __typename a { __typename } }",
		wantScan:   Stats{Depth: 2, Fields: 3},
		wantChecks: DocStats{Depth: 2, Nodes: 3},
	},
	{
		name:       "introspection fields count but add no depth",
		query:      "{ __schema { types { fields { name } } } }",
		wantScan:   Stats{Depth: 0, Fields: 4},
		wantChecks: DocStats{Depth: 0, Nodes: 4},
	},
	{
		name:       "an aliased introspection field",
		query:      `{ s: __schema { types { name } } t: __type(name: "Q") { name } }`,
		wantScan:   Stats{Depth: 0, Fields: 5},
		wantChecks: DocStats{Depth: 0, Nodes: 5},
	},
	{
		name:       "an alias named __schema is an ordinary field",
		query:      "{ __schema: a { b } }",
		wantScan:   Stats{Depth: 2, Fields: 2},
		wantChecks: DocStats{Depth: 2, Nodes: 2},
	},
	{
		name:       "introspection below and beside fields",
		query:      `{ a { __type(name: "Q") { fields { type { name } } } b } c { d { e } } }`,
		wantScan:   Stats{Depth: 3, Fields: 9},
		wantChecks: DocStats{Depth: 3, Nodes: 9},
	},
	{
		name:       "several operations",
		query:      "query A { a { b { c } } } query B { d e f g } { h }",
		wantScan:   Stats{Depth: 3, Fields: 8},
		wantChecks: DocStats{Depth: 3, Nodes: 8},
	},
	{
		name:       "spreads are not expanded",
		query:      "{ ...F a } fragment F on Q { b { c } d }",
		wantScan:   Stats{Depth: 2, Fields: 4},
		wantChecks: DocStats{Depth: 2, Nodes: 4},
	},
	{
		name:       "doc.go worked example",
		query:      "query Feed { posts { title author { name } ...Meta } __typename } fragment Meta on Post { createdAt author { id } }",
		wantScan:   Stats{Depth: 3, Fields: 8},
		wantChecks: DocStats{Depth: 3, Nodes: 8},
	},
	{
		name:       "fragment header with variables and directives",
		query:      `fragment F($a: In = {b: 1}) on T @d(x: {y: 1}) { a { b } } { ...F }`,
		wantScan:   Stats{Depth: 2, Fields: 2},
		wantChecks: DocStats{Depth: 2, Nodes: 2},
	},
	{
		name:       "unused fragment",
		query:      "{ a } fragment U on Q { b { c { d } } }",
		wantScan:   Stats{Depth: 3, Fields: 4},
		wantChecks: DocStats{Depth: 3, Nodes: 4},
	},
	{
		name:       "fragment cycle",
		query:      "{ ...A } fragment A on Q { a ...B } fragment B on Q { b { ...A } }",
		wantScan:   Stats{Depth: 1, Fields: 2},
		wantChecks: DocStats{Depth: 1, Nodes: 2},
	},
	{
		name:       "unknown fragments",
		query:      "{ a ...Missing b { ...Nope } }",
		wantScan:   Stats{Depth: 1, Fields: 2},
		wantChecks: DocStats{Depth: 1, Nodes: 2},
	},
	{
		name:       "two fragments of one name",
		query:      "{ ...F } fragment F on Q { a } fragment F on Q { b { c } }",
		wantScan:   Stats{Depth: 2, Fields: 3},
		wantChecks: DocStats{Depth: 2, Nodes: 3},
	},
	{
		// CheckDocument drops T's depth where it is spread, inside
		// __schema, so the scan must not count it.
		name:       "fragment spread inside introspection",
		query:      "{ __schema { types { ...T } } } fragment T on __Type { ofType { ofType { name } } }",
		wantScan:   Stats{Depth: 0, Fields: 5},
		wantChecks: DocStats{Depth: 0, Nodes: 5},
	},
	{
		name:       "fragment spread inside introspection, later in the text",
		query:      "fragment T on __Type { ofType { ofType { name } } } { __type(name: \"Q\") { ... on __Type { ...T } } }",
		wantScan:   Stats{Depth: 0, Fields: 4},
		wantChecks: DocStats{Depth: 0, Nodes: 4},
	},
	{
		name:       "introspection without spreads inside keeps fragment depth",
		query:      "{ __schema { types { name } } ...F } fragment F on Query { a { b { c } } }",
		wantScan:   Stats{Depth: 3, Fields: 6},
		wantChecks: DocStats{Depth: 3, Nodes: 6},
	},
}

func TestScanBounds(t *testing.T) {
	introspection, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	cases := append(boundsCases[:len(boundsCases):len(boundsCases)], struct {
		name       string
		query      string
		wantScan   Stats
		wantChecks DocStats
	}{
		// Its fragments are spread inside __schema: their depth (TypeRef's
		// is 10) is left out. Its definitions hold 73 fields.
		name:       "standard introspection query",
		query:      string(introspection),
		wantScan:   Stats{Depth: 0, Fields: 73},
		wantChecks: DocStats{Depth: 0, Nodes: 230},
	})
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := unlimited().Scan(tt.query)
			if err != nil {
				t.Fatalf("Scan: %v", err)
			}
			if got.Depth != tt.wantScan.Depth || got.Fields != tt.wantScan.Fields {
				t.Errorf("Scan Depth, Fields = %d, %d, want %d, %d", got.Depth, got.Fields, tt.wantScan.Depth, tt.wantScan.Fields)
			}
			checked, err := unlimited().CheckDocument(parse(t, tt.query))
			if err != nil {
				t.Fatalf("CheckDocument: %v", err)
			}
			if checked != tt.wantChecks {
				t.Errorf("CheckDocument = %+v, want %+v", checked, tt.wantChecks)
			}
			if got.Depth > checked.Depth || got.Fields > checked.Nodes {
				t.Errorf("Scan Depth, Fields = %d, %d: over CheckDocument's %+v", got.Depth, got.Fields, checked)
			}
		})
	}
}

func TestScanDepthAndNodes(t *testing.T) {
	const overlapPair = "a:echoInt a:echoStr "
	var (
		hostile  = "{ " + strings.Repeat(overlapPair, 1000) + "}"
		nested64 = strings.Repeat("{a", 64) + strings.Repeat("}", 64)
	)
	tests := []struct {
		name      string
		config    Config
		query     string
		wantStats Stats
		// wantErr is Scan's error, wantCheck CheckDocument's on the parsed
		// query with the same Config; nil: within the limits.
		wantErr, wantCheck func(q string) *Error
	}{
		{
			name:      "default depth at the maximum",
			query:     deep(10),
			wantStats: Stats{Length: 71, Tokens: 30, Nesting: 10, Depth: 10, Fields: 10},
		},
		{
			name:      "default depth one over, at the field",
			query:     deep(11),
			wantStats: Stats{Length: 79, Tokens: 33, Nesting: 11, Depth: 11, Fields: 11},
			wantErr:   func(q string) *Error { return limitErr(t, q, "f11", Depth, 10, 11) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "f11", Depth, 10, 11) },
		},
		{
			name:      "nested 64 deep",
			query:     nested64,
			wantStats: Stats{Length: 192, Tokens: 192, Nesting: 64, Depth: 64, Fields: 64},
			wantErr:   func(string) *Error { return &Error{Limit: Depth, Max: 10, Found: 64, Line: 1, Column: 22} },
			wantCheck: func(string) *Error { return &Error{Limit: Depth, Max: 10, Found: 64, Line: 1, Column: 22} },
		},
		{
			name:      "default nodes at the maximum",
			query:     wide(500),
			wantStats: Stats{Length: 2395, Tokens: 502, Nesting: 1, Depth: 1, Fields: 500},
		},
		{
			name:      "default nodes one over, at the field",
			query:     wide(501),
			wantStats: Stats{Length: 2400, Tokens: 503, Nesting: 1, Depth: 1, Fields: 501},
			wantErr:   func(q string) *Error { return limitErr(t, q, "f501", Nodes, 500, 501) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "f501", Nodes, 500, 501) },
		},
		{
			name:      "2000 overlapping aliases",
			config:    Config{MaxLength: NoLimit},
			query:     hostile,
			wantStats: Stats{Length: 20003, Tokens: 6002, Nesting: 1, Depth: 1, Fields: 2000},
			wantErr: func(string) *Error {
				return &Error{Limit: Nodes, Max: 500, Found: 2000, Line: 1, Column: len("{ "+strings.Repeat(overlapPair, 250)) + 1}
			},
			wantCheck: func(string) *Error {
				return &Error{Limit: Nodes, Max: 500, Found: 2000, Line: 1, Column: len("{ "+strings.Repeat(overlapPair, 250)) + 1}
			},
		},
		{
			name:      "an alias and its name are one field",
			config:    Config{MaxNodes: 2},
			query:     "{ a: b c: d }",
			wantStats: Stats{Length: 13, Tokens: 8, Nesting: 1, Depth: 1, Fields: 2},
		},
		{
			name:      "depth over at an aliased field points at the alias",
			config:    Config{MaxDepth: 1},
			query:     "{ a { x: b } }",
			wantStats: Stats{Length: 14, Tokens: 8, Nesting: 2, Depth: 2, Fields: 2},
			wantErr:   func(q string) *Error { return limitErr(t, q, "x", Depth, 1, 2) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "x", Depth, 1, 2) },
		},
		{
			name:      "depth before nodes at the same field",
			config:    Config{MaxDepth: 1, MaxNodes: 1},
			query:     "{ a { b } }",
			wantStats: Stats{Length: 11, Tokens: 6, Nesting: 2, Depth: 2, Fields: 2},
			wantErr:   func(q string) *Error { return limitErr(t, q, "b", Depth, 1, 2) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "b", Depth, 1, 2) },
		},
		{
			name:      "depth reported before nodes crossed earlier in the operation",
			config:    Config{MaxDepth: 1, MaxNodes: 1},
			query:     "{ a b { c } } { d }",
			wantStats: Stats{Length: 19, Tokens: 7, Nesting: 2, Depth: 2, Fields: 3},
			wantErr:   func(q string) *Error { return limitErr(t, q, "c", Depth, 1, 2) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "c", Depth, 1, 2) },
		},
		{
			name:      "introspection adds no depth",
			config:    Config{MaxDepth: 1},
			query:     `{ __schema { types { fields { name } } } t: __type(name: "Q") { ofType { name } } }`,
			wantStats: Stats{Length: 83, Tokens: 26, Nesting: 4, Depth: 0, Fields: 7},
		},
		{
			name:      "introspection fields are nodes",
			config:    Config{MaxNodes: 2},
			query:     `{ __type(name: "Q") { name kind } }`,
			wantStats: Stats{Length: 35, Tokens: 12, Nesting: 2, Depth: 0, Fields: 3},
			wantErr:   func(q string) *Error { return limitErr(t, q, "kind", Nodes, 2, 3) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "kind", Nodes, 2, 3) },
		},
		{
			name:      "arguments, directives, variables, strings and comments hold no fields",
			config:    Config{MaxDepth: 1, MaxNodes: 1},
			query:     "query Q($v: In = {a: {b: 1}}) @d(x: {y: {z: 1}}) { a(s: \"{ b { c\") @e(f: {g: {h: 1}}) # { d {\n }",
			wantStats: Stats{Length: 96, Tokens: 57, Nesting: 4, Depth: 1, Fields: 1},
		},
		{
			// hello and a make 2 nodes: b is one more.
			name:      "two operations over the nodes together",
			config:    Config{MaxNodes: 2},
			query:     "query Small { hello } query Big { a b c }",
			wantStats: Stats{Length: 41, Tokens: 12, Nesting: 1, Depth: 1, Fields: 4},
			wantErr:   func(q string) *Error { return limitErr(t, q, "b c", Nodes, 2, 4) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "b c", Nodes, 2, 4) },
		},
		{
			// a and F's first 499 fields make 500 nodes: f500 is one more.
			name:      "unused fragment over the nodes",
			query:     "{ a } fragment F on Query " + wide(501),
			wantStats: Stats{Length: 2426, Tokens: 510, Nesting: 1, Depth: 1, Fields: 502},
			wantErr:   func(q string) *Error { return limitErr(t, q, "f500", Nodes, 500, 502) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "f500", Nodes, 500, 502) },
		},
		{
			// CheckDocument places the crossing at the spread.
			name:      "fragment too deep, reported at the end",
			config:    Config{MaxDepth: 2},
			query:     "{ ...F } fragment F on Query { b { c { d } } } { e }",
			wantStats: Stats{Length: 52, Tokens: 20, Nesting: 3, Depth: 3, Fields: 4},
			wantErr:   func(q string) *Error { return limitErr(t, q, "d", Depth, 2, 3) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "F }", Depth, 2, 3) },
		},
		{
			name:      "an operation too deep is reported before an earlier fragment",
			config:    Config{MaxDepth: 2},
			query:     "fragment F on Query { b { c { d } } } { x { y { z } } ...F }",
			wantStats: Stats{Length: 60, Tokens: 24, Nesting: 3, Depth: 3, Fields: 6},
			wantErr:   func(q string) *Error { return limitErr(t, q, "z", Depth, 2, 3) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "z", Depth, 2, 3) },
		},
		{
			name:      "fragment depth dropped by a spread inside introspection",
			config:    Config{MaxDepth: 2},
			query:     "fragment T on __Type { a { b { c } } } { __schema { types { ...T } } }",
			wantStats: Stats{Length: 70, Tokens: 23, Nesting: 3, Depth: 0, Fields: 5},
		},
		{
			name:      "tokens crossed before the operation ends",
			config:    Config{MaxTokens: 3, MaxNodes: 1},
			query:     "{ a b c }",
			wantStats: Stats{Length: 9, Tokens: 4, Nesting: 1, Depth: 1, Fields: 1},
			wantErr:   func(q string) *Error { return limitErr(t, q, "c", Tokens, 3, 4) },
			wantCheck: func(q string) *Error { return limitErr(t, q, "b", Nodes, 1, 3) },
		},
		{
			name:      "nesting crossed before the operation ends",
			config:    Config{MaxNesting: 1, MaxDepth: 1},
			query:     "{ a { b } }",
			wantStats: Stats{Length: 11, Tokens: 3, Nesting: 2, Depth: 0, Fields: 0},
			wantErr:   func(string) *Error { return &Error{Limit: Nesting, Max: 1, Found: 2, Line: 1, Column: 5} },
			wantCheck: func(q string) *Error { return limitErr(t, q, "b", Depth, 1, 2) },
		},
		{
			name:      "depth and nodes off",
			config:    Config{MaxLength: NoLimit, MaxDepth: NoLimit, MaxNodes: NoLimit},
			query:     hostile + nested64,
			wantStats: Stats{Length: 20195, Tokens: 6194, Nesting: 64, Depth: 64, Fields: 2064},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.config.Scan(tt.query)
			if got != tt.wantStats {
				t.Errorf("Scan stats = %+v, want %+v", got, tt.wantStats)
			}
			var want, wantCheck *Error
			if tt.wantErr != nil {
				want = tt.wantErr(tt.query)
			}
			assertLimitError(t, err, want)

			if tt.wantCheck != nil {
				wantCheck = tt.wantCheck(tt.query)
			}
			_, err = tt.config.CheckDocument(parse(t, tt.query))
			assertLimitError(t, err, wantCheck)
		})
	}
}

// TestScanAllocs checks that Scan allocates nothing on a query within the
// limits, fragments and introspection included.
func TestScanAllocs(t *testing.T) {
	introspection, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{smallQuery, largeDocument(), string(introspection)} {
		if n := testing.AllocsPerRun(10, func() { _, _ = Config{}.Scan(q) }); n != 0 {
			t.Errorf("Scan(%.40q) allocates %v times, want 0", q, n)
		}
	}
}

// FuzzScanBounds checks the depth and node bounds of Scan: measured without
// limits, they never exceed what CheckDocument finds in a document that
// gqlparser parses, and equal it when the document has no fragment
// definitions; Scan with depth and node limits fails exactly when those
// bounds cross them; a document Scan rejects for depth or nodes,
// CheckDocument rejects too, for the same limit when it is the only one
// set; and without fragment definitions, Scan's error is CheckDocument's.
// The seeds are boundsCases.
func FuzzScanBounds(f *testing.F) {
	for _, tt := range boundsCases {
		f.Add(tt.query, int16(0), int16(0))
		f.Add(tt.query, int16(1), int16(2))
	}
	f.Fuzz(func(t *testing.T, q string, maxDepth, maxNodes int16) {
		assertScanBounds(t, q, int(maxDepth), int(maxNodes))
	})
}

// assertScanBounds checks the properties of FuzzScanBounds on q with the
// given depth and node limits.
func assertScanBounds(t *testing.T, q string, maxDepth, maxNodes int) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("query %q: "+format, append([]any{q}, args...)...)
	}
	all, err := unlimited().Scan(q)
	if err != nil {
		fail("Scan without limits: %v", err)
	}
	if all.Depth > all.Fields {
		fail("Scan without limits = %+v: depth over fields", all)
	}

	config := unlimited()
	config.MaxDepth, config.MaxNodes = maxDepth, maxNodes
	limit := config.Effective()
	over := func(v, m int) bool { return m != NoLimit && v > m }
	got, scanErr := config.Scan(q)
	var lerr *Error
	switch crossed := over(all.Depth, limit.MaxDepth) || over(all.Fields, limit.MaxNodes); {
	case scanErr == nil && (crossed || got != all):
		fail("Scan(%+v) = %+v, nil; without limits %+v", limit, got, all)
	case scanErr == nil:
	case !errors.As(scanErr, &lerr) || !crossed:
		fail("Scan(%+v) error %v, without limits %+v", limit, scanErr, all)
	case lerr.Limit == Depth && (lerr.Max != limit.MaxDepth || lerr.Found <= lerr.Max || lerr.Found > all.Depth),
		lerr.Limit == Nodes && (lerr.Max != limit.MaxNodes || lerr.Found <= lerr.Max || lerr.Found > all.Fields),
		lerr.Limit != Depth && lerr.Limit != Nodes,
		lerr.Line < 1 || lerr.Column < 1:
		fail("Scan(%+v) error %+v, without limits %+v", limit, lerr, all)
	}

	doc, err := parser.ParseQuery(&ast.Source{Input: q})
	if err != nil {
		return
	}
	checked, err := unlimited().CheckDocument(doc)
	if err != nil {
		fail("CheckDocument without limits: %v", err)
	}
	if all.Depth > checked.Depth || all.Fields > checked.Nodes {
		fail("Scan bounds %+v over CheckDocument's %+v", all, checked)
	}
	exact := len(doc.Fragments) == 0
	if exact && (all.Depth != checked.Depth || all.Fields != checked.Nodes) {
		fail("Scan bounds %+v, CheckDocument %+v, without fragments", all, checked)
	}
	_, checkErr := config.CheckDocument(doc)
	if exact && !sameError(q, scanErr, checkErr) {
		fail("Scan(%+v) error %v, CheckDocument %v, without fragments", limit, scanErr, checkErr)
	}
	if lerr == nil {
		return
	}
	if checkErr == nil {
		fail("Scan(%+v) error %+v, CheckDocument passes", limit, lerr)
	}
	// With only that limit set, both reject for it, with the same error
	// when there are no fragments.
	only := unlimited()
	if lerr.Limit == Depth {
		only.MaxDepth = lerr.Max
	} else {
		only.MaxNodes = lerr.Max
	}
	_, scanErr = only.Scan(q)
	_, checkErr = only.CheckDocument(doc)
	var serr, cerr *Error
	if !errors.As(scanErr, &serr) || serr.Limit != lerr.Limit || !errors.As(checkErr, &cerr) || cerr.Limit != lerr.Limit {
		fail("Scan error %+v; with that limit alone, Scan %v, CheckDocument %v", lerr, scanErr, checkErr)
	}
	if exact && !sameError(q, scanErr, checkErr) {
		fail("with one limit, Scan error %+v, CheckDocument %+v, without fragments", serr, cerr)
	}
}

// sameError reports whether the errors of Scan and CheckDocument on q are
// both nil or the same *Error. gqlparser counts one column too many on a
// line that follows a CRLF between tokens, where Scan counts as the
// specification does, so columns are only compared without CRLFs.
func sameError(q string, scanErr, checkErr error) bool {
	var serr, cerr *Error
	errors.As(scanErr, &serr)
	errors.As(checkErr, &cerr)
	if serr == nil || cerr == nil {
		return serr == nil && cerr == nil && scanErr == nil && checkErr == nil
	}
	c := *cerr
	if strings.Contains(q, "\r\n") {
		c.Column = serr.Column
	}
	return *serr == c
}
