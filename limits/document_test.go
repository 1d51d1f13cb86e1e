package limits

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// parse parses a query that must be syntactically valid.
func parse(t testing.TB, q string) *ast.QueryDocument {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: q})
	if err != nil {
		t.Fatalf("parse %.60q: %v", q, err)
	}
	return doc
}

// deep returns a query whose fields f1 … fn are nested n deep.
func deep(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "{ f%d ", i)
	}
	b.WriteString(strings.Repeat("} ", n))
	return b.String()
}

// wide returns a query with the n fields f1 … fn side by side.
func wide(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, " f%d", i)
	}
	b.WriteString(" }")
	return b.String()
}

// chain returns a fragment chain: the operation spreads F1, each Fi spreads
// F(i+1) twice, and F<levels> is the field a, so the operation holds
// 2^(levels-1) field nodes once expanded. With field set, every Fi wraps
// its spreads in a field, so the depth grows by one per level too.
func chain(levels int, field bool) string {
	var b strings.Builder
	b.WriteString("{ ...F1 }\n")
	for i := 1; i < levels; i++ {
		if field {
			fmt.Fprintf(&b, "fragment F%d on Query { a { ...F%d ...F%d } }\n", i, i+1, i+1)
		} else {
			fmt.Fprintf(&b, "fragment F%d on Query { ...F%d ...F%d }\n", i, i+1, i+1)
		}
	}
	fmt.Fprintf(&b, "fragment F%d on Query { a }\n", levels)
	return b.String()
}

// pow2 is 2^n, saturating at math.MaxInt.
func pow2(n int) int {
	v := 1
	for range n {
		v = addSaturating(v, v)
	}
	return v
}

// at returns the position of the only occurrence of needle in the one-line
// query q.
func at(t testing.TB, q, needle string) (line, column int) {
	t.Helper()
	i := strings.Index(q, needle)
	if i < 0 || strings.Count(q, needle) != 1 || strings.ContainsAny(q[:i], "\r\n") {
		t.Fatalf("%q is not once on the first line of the query", needle)
	}
	return 1, len([]rune(q[:i])) + 1
}

// limitErr builds the *Error expected at needle in q.
func limitErr(t testing.TB, q, needle string, limit Name, maxValue, found int) *Error {
	t.Helper()
	line, column := at(t, q, needle)
	return &Error{Limit: limit, Max: maxValue, Found: found, Line: line, Column: column}
}

func TestCheckDocument(t *testing.T) {
	const overlapPair = "a:echoInt a:echoStr "
	var (
		hostile          = "{ " + strings.Repeat(overlapPair, 1000) + "}"
		hostileCrossing  = len("{ "+strings.Repeat(overlapPair, 250)) + 1
		introspectionDoc []byte
	)
	introspectionDoc, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	// gqlparser places a fragment spread at the fragment's name: F1 in
	// chain's first line, "{ ...F1 }".
	chainSpread := &Error{Line: 1, Column: 6}

	tests := []struct {
		name      string
		config    Config
		query     string
		wantStats DocStats
		wantErr   func(q string) *Error // nil: within the limits
	}{
		{
			name: "doc.go worked example",
			query: `query Feed {
			  posts { title author { name } ...Meta }
			  __typename
			}
			fragment Meta on Post { createdAt author { id } }`,
			wantStats: DocStats{Depth: 3, Nodes: 8},
		},
		{name: "one field is depth 1", query: "{ a }", wantStats: DocStats{Depth: 1, Nodes: 1}},
		{name: "a sub-selection is depth 2", query: "{ a { b } }", wantStats: DocStats{Depth: 2, Nodes: 2}},
		{name: "default depth at the maximum", query: deep(10), wantStats: DocStats{Depth: 10, Nodes: 10}},
		{
			name:      "default depth one over",
			query:     deep(11),
			wantStats: DocStats{Depth: 11, Nodes: 11},
			wantErr:   func(q string) *Error { return limitErr(t, q, "f11", Depth, 10, 11) },
		},
		{
			name:      "depth at a custom maximum",
			config:    Config{MaxDepth: 3},
			query:     "{ a { b { c } } }",
			wantStats: DocStats{Depth: 3, Nodes: 3},
		},
		{
			name:      "depth one over a custom maximum",
			config:    Config{MaxDepth: 2},
			query:     "{ a { b { c } } }",
			wantStats: DocStats{Depth: 3, Nodes: 3},
			wantErr:   func(q string) *Error { return limitErr(t, q, "c", Depth, 2, 3) },
		},
		{
			name:      "depth found is the operation's, at the first field over",
			config:    Config{MaxDepth: 2},
			query:     "{ a { b { c { d } } } e { f { g } } }",
			wantStats: DocStats{Depth: 4, Nodes: 7},
			wantErr:   func(q string) *Error { return limitErr(t, q, "c", Depth, 2, 4) },
		},
		{
			name:      "inline fragments add no depth",
			query:     "{ ... on Query { a { ... @skip(if: false) { b } } } }",
			wantStats: DocStats{Depth: 2, Nodes: 2},
		},
		{
			name:      "spreads add no depth",
			config:    Config{MaxDepth: 2},
			query:     "{ ...F } fragment F on Query { a { b } }",
			wantStats: DocStats{Depth: 2, Nodes: 2},
		},
		{
			name:      "depth crossed in a fragment points at the spread",
			config:    Config{MaxDepth: 2},
			query:     "{ a { ...F } } fragment F on T { b { c } }",
			wantStats: DocStats{Depth: 3, Nodes: 3},
			wantErr:   func(q string) *Error { return limitErr(t, q, "F }", Depth, 2, 3) },
		},
		{name: "default nodes at the maximum", query: wide(500), wantStats: DocStats{Depth: 1, Nodes: 500}},
		{
			name:      "default nodes one over",
			query:     wide(501),
			wantStats: DocStats{Depth: 1, Nodes: 501},
			wantErr:   func(q string) *Error { return limitErr(t, q, "f501", Nodes, 500, 501) },
		},
		{
			name:      "nodes at a custom maximum",
			config:    Config{MaxNodes: 3},
			query:     "{ a { b } c }",
			wantStats: DocStats{Depth: 2, Nodes: 3},
		},
		{
			name:      "nodes one over a custom maximum",
			config:    Config{MaxNodes: 2},
			query:     "{ a { b } c }",
			wantStats: DocStats{Depth: 2, Nodes: 3},
			wantErr:   func(q string) *Error { return limitErr(t, q, "c", Nodes, 2, 3) },
		},
		{
			name:      "nodes found is the operation's, at the first field over",
			config:    Config{MaxNodes: 2},
			query:     "{ a b c d }",
			wantStats: DocStats{Depth: 1, Nodes: 4},
			wantErr:   func(q string) *Error { return limitErr(t, q, "c", Nodes, 2, 4) },
		},
		{
			name:      "nodes are counted after fragment expansion",
			config:    Config{MaxNodes: 5},
			query:     "{ ...F ...F a } fragment F on Query { b c }",
			wantStats: DocStats{Depth: 1, Nodes: 5},
		},
		{
			name:      "nodes crossed by a spread point at the spread",
			config:    Config{MaxNodes: 3},
			query:     "{ a ...F } fragment F on Query { b c d }",
			wantStats: DocStats{Depth: 1, Nodes: 4},
			wantErr:   func(q string) *Error { return limitErr(t, q, "F }", Nodes, 3, 4) },
		},
		{
			name:      "hostile overlapping fields",
			query:     hostile,
			wantStats: DocStats{Depth: 1, Nodes: 2000},
			wantErr: func(string) *Error {
				return &Error{Limit: Nodes, Max: 500, Found: 2000, Line: 1, Column: hostileCrossing}
			},
		},
		{
			name:      "__typename is a node",
			config:    Config{MaxNodes: 3},
			query:     "{ __typename a { __typename } }",
			wantStats: DocStats{Depth: 2, Nodes: 3},
		},
		{
			name:      "introspection adds no depth",
			config:    Config{MaxDepth: 1},
			query:     "{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } } }",
			wantStats: DocStats{Depth: 0, Nodes: 13},
		},
		{
			name:      "introspection beside other fields",
			config:    Config{MaxDepth: 2},
			query:     `{ a { b } __type(name: "Query") { fields { type { ofType { name } } } } }`,
			wantStats: DocStats{Depth: 2, Nodes: 7},
		},
		{
			name:      "introspection fields are nodes",
			config:    Config{MaxNodes: 2},
			query:     `{ __type(name: "Query") { name kind } }`,
			wantStats: DocStats{Depth: 0, Nodes: 3},
			wantErr:   func(q string) *Error { return limitErr(t, q, "kind", Nodes, 2, 3) },
		},
		{
			name:      "wide introspection is rejected",
			query:     `{ __type(name: "Query") { ` + strings.Repeat("a:name a:kind ", 1000) + `} }`,
			wantStats: DocStats{Depth: 0, Nodes: 2001},
			wantErr: func(q string) *Error {
				column := len(`{ __type(name: "Query") { `+strings.Repeat("a:name a:kind ", 249)+"a:name ") + 1
				return &Error{Limit: Nodes, Max: 500, Found: 2001, Line: 1, Column: column}
			},
		},
		{
			name:      "fragments in introspection add no depth and are used",
			config:    Config{MaxDepth: 1},
			query:     "{ __schema { types { ...T } } } fragment T on __Type { kind ofType { kind ofType { kind } } }",
			wantStats: DocStats{Depth: 0, Nodes: 7},
		},
		{
			name:      "fragment with introspection spread outside it",
			config:    Config{MaxDepth: 1},
			query:     "{ ...F } fragment F on Query { a __schema { types { name } } }",
			wantStats: DocStats{Depth: 1, Nodes: 4},
		},
		{
			name:      "standard introspection query with every option",
			query:     string(introspectionDoc),
			wantStats: DocStats{Depth: 0, Nodes: 230},
		},
		{
			name:      "cycle between two fragments",
			query:     "{ ...A } fragment A on Query { a ...B } fragment B on Query { b ...A }",
			wantStats: DocStats{Depth: 1, Nodes: 2},
		},
		{
			name:      "fragment spreading itself",
			query:     "{ ...A } fragment A on Query { a { ...A } }",
			wantStats: DocStats{Depth: 1, Nodes: 1},
		},
		{
			// The document that sent graphql's overlap rule into endless
			// recursion: each fragment spreads itself in a sub-selection.
			name:      "two self-spreading fragments side by side",
			query:     "{ u { ...A ...B } } fragment A on U { p { a { ...A } } } fragment B on U { p { a { ...B } } }",
			wantStats: DocStats{Depth: 3, Nodes: 5},
		},
		{
			name:      "mutual recursion through sub-selections",
			query:     "{ u { ...A } } fragment A on U { f { ...B } } fragment B on U { g { ...A } }",
			wantStats: DocStats{Depth: 3, Nodes: 3},
		},
		{
			name:      "cycle among unused fragments",
			query:     "{ a } fragment A on Query { ...B } fragment B on Query { b { ...A } }",
			wantStats: DocStats{Depth: 1, Nodes: 2},
		},
		{
			name:      "unknown fragments count nothing",
			query:     "{ a ...Missing b { ...Nope } }",
			wantStats: DocStats{Depth: 1, Nodes: 2},
		},
		{
			name:      "unused fragment over the depth",
			config:    Config{MaxDepth: 2},
			query:     "{ a } fragment F on Query { b { c { d } } }",
			wantStats: DocStats{Depth: 3, Nodes: 4},
			wantErr:   func(q string) *Error { return limitErr(t, q, "d", Depth, 2, 3) },
		},
		{
			// a and F's first 499 fields make 500 nodes: f500 is one more.
			name:      "unused fragment over the nodes",
			query:     "{ a } fragment F on Query " + wide(501),
			wantStats: DocStats{Depth: 1, Nodes: 502},
			wantErr:   func(q string) *Error { return limitErr(t, q, "f500", Nodes, 500, 502) },
		},
		{
			name:      "fragment used by an unused fragment is within it",
			config:    Config{MaxNodes: 3},
			query:     "{ a } fragment F on Query { ...G ...G } fragment G on Query { b c }",
			wantStats: DocStats{Depth: 1, Nodes: 5},
			wantErr:   func(q string) *Error { return limitErr(t, q, "G }", Nodes, 3, 5) },
		},
		{
			name:      "second fragment of the same name is checked",
			config:    Config{MaxDepth: 1},
			query:     "{ ...F } fragment F on Query { a } fragment F on Query { b { c } }",
			wantStats: DocStats{Depth: 2, Nodes: 3},
			wantErr:   func(q string) *Error { return limitErr(t, q, "c", Depth, 1, 2) },
		},
		{
			name:      "the nodes of several operations add up",
			query:     "query A { a { b { c } } } query B { d e f g }",
			wantStats: DocStats{Depth: 3, Nodes: 7},
		},
		{
			name:      "every operation is checked",
			config:    Config{MaxDepth: 2},
			query:     "query A { a } query B { b { c { d } } }",
			wantStats: DocStats{Depth: 3, Nodes: 4},
			wantErr:   func(q string) *Error { return limitErr(t, q, "d", Depth, 2, 3) },
		},
		{
			name:      "depth is reported before nodes",
			config:    Config{MaxDepth: 1, MaxNodes: 1},
			query:     "{ a b { c } }",
			wantStats: DocStats{Depth: 2, Nodes: 3},
			wantErr:   func(q string) *Error { return limitErr(t, q, "c", Depth, 1, 2) },
		},
		{
			name:      "20-level doubling fragment bomb",
			query:     chain(21, false),
			wantStats: DocStats{Depth: 1, Nodes: pow2(20)},
			wantErr: func(string) *Error {
				return &Error{Limit: Nodes, Max: 500, Found: pow2(20), Line: chainSpread.Line, Column: chainSpread.Column}
			},
		},
		{
			name:      "40-level fragment chain",
			query:     chain(40, false),
			wantStats: DocStats{Depth: 1, Nodes: pow2(39)},
			wantErr: func(string) *Error {
				return &Error{Limit: Nodes, Max: 500, Found: pow2(39), Line: chainSpread.Line, Column: chainSpread.Column}
			},
		},
		{
			name:      "node count saturates",
			config:    Config{MaxNodes: NoLimit},
			query:     chain(70, false),
			wantStats: DocStats{Depth: 1, Nodes: math.MaxInt},
		},
		{
			name:      "deep fragment bomb fails on depth",
			query:     chain(40, true),
			wantStats: DocStats{Depth: 40, Nodes: pow2(40) - 1},
			wantErr: func(string) *Error {
				return &Error{Limit: Depth, Max: 10, Found: 40, Line: chainSpread.Line, Column: chainSpread.Column}
			},
		},
		{
			name:      "limits off",
			config:    Config{MaxDepth: NoLimit, MaxNodes: NoLimit},
			query:     chain(40, true),
			wantStats: DocStats{Depth: 40, Nodes: pow2(40) - 1},
		},
		{name: "no operations", query: "", wantStats: DocStats{}},
		{
			name:      "many fragments, indexed by name",
			query:     manyFragments(40),
			wantStats: DocStats{Depth: 1, Nodes: 40},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parse(t, tt.query)
			got, err := tt.config.CheckDocument(doc)
			if got != tt.wantStats {
				t.Errorf("CheckDocument stats = %+v, want %+v", got, tt.wantStats)
			}
			var want *Error
			if tt.wantErr != nil {
				want = tt.wantErr(tt.query)
			}
			assertLimitError(t, err, want)
		})
	}
}

// manyFragments returns an operation spreading n fragments of one field
// each, defined in reverse order.
func manyFragments(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " ...F%d", i)
	}
	b.WriteString(" }\n")
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "fragment F%d on Query { f%d }\n", i, i)
	}
	return b.String()
}

func TestCheckOperation(t *testing.T) {
	const q = "query A { a { b { c } } } query B { ...F } fragment F on Query { d } fragment Unused on Query { e { f { g } } }"
	doc := parse(t, q)
	config := Config{MaxDepth: 2}
	tests := []struct {
		name      string
		op        *ast.OperationDefinition
		wantStats DocStats
		wantErr   *Error
	}{
		{name: "within the limits", op: doc.Operations.ForName("B"), wantStats: DocStats{Depth: 1, Nodes: 1}},
		{
			name:      "over the depth",
			op:        doc.Operations.ForName("A"),
			wantStats: DocStats{Depth: 3, Nodes: 3},
			wantErr:   limitErr(t, q, "c", Depth, 2, 3),
		},
		{name: "nil operation", op: nil, wantStats: DocStats{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := config.CheckOperation(doc, tt.op)
			if got != tt.wantStats {
				t.Errorf("CheckOperation stats = %+v, want %+v", got, tt.wantStats)
			}
			assertLimitError(t, err, tt.wantErr)
		})
	}

	t.Run("nil document", func(t *testing.T) {
		op := doc.Operations.ForName("B")
		got, err := config.CheckOperation(nil, op)
		if want := (DocStats{}); got != want || err != nil {
			t.Errorf("CheckOperation(nil, B) = %+v, %v, want %+v, nil (the spread is unknown)", got, err, want)
		}
	})
}

// TestCheckDocumentBuiltASTs checks documents built in code, which may hold
// what the parser never produces: nil entries and missing positions.
func TestCheckDocumentBuiltASTs(t *testing.T) {
	field := func(name string, sub ...ast.Selection) *ast.Field {
		return &ast.Field{Name: name, SelectionSet: sub}
	}
	tests := []struct {
		name      string
		config    Config
		doc       *ast.QueryDocument
		wantStats DocStats
		wantErr   *Error
	}{
		{name: "nil document", doc: nil, wantStats: DocStats{}},
		{
			name: "nil entries",
			doc: &ast.QueryDocument{
				Operations: ast.OperationList{nil, {SelectionSet: ast.SelectionSet{
					nil,
					(*ast.Field)(nil),
					(*ast.InlineFragment)(nil),
					(*ast.FragmentSpread)(nil),
					&ast.FragmentSpread{Name: "F"},
					field("a"),
				}}},
				Fragments: ast.FragmentDefinitionList{nil, {Name: "F", SelectionSet: ast.SelectionSet{field("b", field("c"))}}},
			},
			wantStats: DocStats{Depth: 2, Nodes: 3},
		},
		{
			name:   "no positions",
			config: Config{MaxDepth: 1},
			doc: &ast.QueryDocument{
				Operations: ast.OperationList{{SelectionSet: ast.SelectionSet{field("a", field("b"))}}},
			},
			wantStats: DocStats{Depth: 2, Nodes: 2},
			wantErr:   &Error{Limit: Depth, Max: 1, Found: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.config.CheckDocument(tt.doc)
			if got != tt.wantStats {
				t.Errorf("CheckDocument stats = %+v, want %+v", got, tt.wantStats)
			}
			assertLimitError(t, err, tt.wantErr)
		})
	}
}

// TestCheckDocumentRepeatable checks that checking does not change the
// document: a second check gives the same answer.
func TestCheckDocumentRepeatable(t *testing.T) {
	doc := parse(t, chain(12, true))
	first, firstErr := Config{}.CheckDocument(doc)
	second, secondErr := Config{}.CheckDocument(doc)
	if first != second || fmt.Sprint(firstErr) != fmt.Sprint(secondErr) {
		t.Errorf("second check = %+v, %v, want %+v, %v", second, secondErr, first, firstErr)
	}
}

// TestConcurrentUse shares one Config and one document between goroutines;
// run with -race.
func TestConcurrentUse(t *testing.T) {
	doc := parse(t, chain(12, true)+"query Other { a { b } }")
	config := Config{MaxDepth: 20, MaxNodes: NoLimit}
	want, wantErr := config.CheckDocument(doc)
	if wantErr != nil {
		t.Fatal(wantErr)
	}
	done := make(chan DocStats)
	for range 4 {
		go func() {
			got, _ := config.CheckDocument(doc)
			done <- got
		}()
	}
	for range 4 {
		if got := <-done; got != want {
			t.Errorf("concurrent CheckDocument = %+v, want %+v", got, want)
		}
	}
}
