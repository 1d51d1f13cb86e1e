package limits

import (
	"errors"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// TestScanCounts pins the token and nesting counts of Scan. Where the text
// is a valid document, gqlparser's own token count must agree.
func TestScanCounts(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  Stats
		valid bool // the parser accepts it, so its token count must agree
	}{
		{name: "empty", query: "", want: Stats{}, valid: true},
		{name: "only ignored tokens", query: " \t,\r\n\uFEFF", want: Stats{Length: 8}, valid: true},
		{name: "shorthand", query: "{ a }", want: Stats{Length: 5, Tokens: 3, Nesting: 1, Depth: 1, Fields: 1}, valid: true},
		{
			name:  "punctuators names numbers",
			query: `query Q($v: [Int!] = [1, -2]) { a(x: $v, y: -1.5e+3, z: 0) }`,
			want:  Stats{Length: 60, Tokens: 31, Nesting: 2, Depth: 1, Fields: 1},
			valid: true,
		},
		{name: "spread", query: "{ ...F } fragment F on Q { a }", want: Stats{Length: 30, Tokens: 11, Nesting: 1, Depth: 1, Fields: 1}, valid: true},
		{name: "inline fragment and directive", query: "{ ... on Q @skip(if: true) { a } }", want: Stats{Length: 34, Tokens: 15, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "comments are tokens", query: "# c1\n# c2\n{ a }", want: Stats{Length: 15, Tokens: 5, Nesting: 1, Depth: 1, Fields: 1}, valid: true},
		{name: "brackets in a comment", query: "{ a # } { [ ( ] )\n b }", want: Stats{Length: 22, Tokens: 5, Nesting: 1, Depth: 1, Fields: 2}, valid: true},
		{name: "comment ends at CR", query: "{ a # {{{\r b }", want: Stats{Length: 14, Tokens: 5, Nesting: 1, Depth: 1, Fields: 2}, valid: true},
		{name: "brackets in a string", query: `{ a(s: "{[(") }`, want: Stats{Length: 15, Tokens: 8, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "escaped quote in a string", query: `{ a(s: "\"{[(\\") }`, want: Stats{Length: 19, Tokens: 8, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "unicode escape in a string", query: `{ a(s: "\u007B\u{1F600}{") }`, want: Stats{Length: 28, Tokens: 8, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "multibyte text in a string", query: `{ a(s: "é{ü") }`, want: Stats{Length: 17, Tokens: 8, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "brackets in a block string", query: "{ a(s: \"\"\" { [ (\n ( \"\"\") }", want: Stats{Length: 26, Tokens: 8, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "escaped delimiter in a block string", query: `{ a(s: """ \""" { """) }`, want: Stats{Length: 24, Tokens: 8, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "escaped delimiter after a backslash", query: `{ a(s: """\\""" {""") }`, want: Stats{Length: 23, Tokens: 8, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "block string closed by four quotes", query: `{ a(s: """x"""") }`, want: Stats{Length: 18, Tokens: 8, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "empty string then name", query: `{ a(s: "") b }`, want: Stats{Length: 14, Tokens: 9, Nesting: 2, Depth: 1, Fields: 2}, valid: true},
		{name: "description", query: `"d{" query Q { a }`, want: Stats{Length: 18, Tokens: 6, Nesting: 1, Depth: 1, Fields: 1}, valid: true},
		{name: "block description", query: "\"\"\"d\n{\"\"\" query Q { a }", want: Stats{Length: 23, Tokens: 6, Nesting: 1, Depth: 1, Fields: 1}, valid: true},
		{name: "number then name", query: "{ a(x:1y:2) }", want: Stats{Length: 13, Tokens: 11, Nesting: 2, Depth: 1, Fields: 1}, valid: true},
		{name: "doc.go token example", query: "query Q($id: ID!) { post(id: $id) { title } }", want: Stats{Length: 45, Tokens: 21, Nesting: 2, Depth: 2, Fields: 2}, valid: true},
		{name: "doc.go nesting example", query: `{ posts(filter: {tags: ["a"]}) { title } }`, want: Stats{Length: 42, Tokens: 17, Nesting: 4, Depth: 2, Fields: 2}, valid: true},
		{name: "nesting counts all three brackets", query: "{ a(x: [[{b: 1}]]) }", want: Stats{Length: 20, Tokens: 16, Nesting: 5, Depth: 1, Fields: 1}, valid: true},
		{name: "nesting is brackets open at once", query: "{ a { b } c { d } }", want: Stats{Length: 19, Tokens: 10, Nesting: 2, Depth: 2, Fields: 4}, valid: true},
		// Text the parser rejects is still counted, and never fails.
		{name: "unterminated string ends at line end", query: "{ a(s: \"{[(\n b) }", want: Stats{Length: 17, Tokens: 9, Nesting: 2, Depth: 1, Fields: 1}},
		{name: "unterminated block string runs to the end", query: `{ a(s: """ {{{ ) }`, want: Stats{Length: 18, Tokens: 6, Nesting: 2, Depth: 1, Fields: 1}},
		{name: "backslash at the end of a string", query: `"\`, want: Stats{Length: 2, Tokens: 1}},
		{name: "unbalanced closers", query: "}}} {", want: Stats{Length: 5, Tokens: 4, Nesting: 1}},
		{name: "lone dots", query: ". ..", want: Stats{Length: 4, Tokens: 3}},
		{name: "invalid characters", query: "'é\x01?", want: Stats{Length: 5, Tokens: 4}},
		{name: "lone minus", query: "-", want: Stats{Length: 1, Tokens: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Config{}.Scan(tt.query)
			if err != nil {
				t.Fatalf("Scan(%q) error = %v, want nil", tt.query, err)
			}
			if got != tt.want {
				t.Errorf("Scan(%q) = %+v, want %+v", tt.query, got, tt.want)
			}
			if tt.valid {
				assertParserTokens(t, tt.query, got.Tokens)
			}
		})
	}
}

// assertParserTokens checks that gqlparser counts tokens tokens in the
// valid document q: it parses with a token limit of tokens and fails with
// tokens-1.
func assertParserTokens(t *testing.T, q string, tokens int) {
	t.Helper()
	if _, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: q}, max(tokens, 1)); err != nil {
		t.Fatalf("gqlparser with token limit %d: %v", max(tokens, 1), err)
	}
	if tokens <= 1 {
		return // a limit of 0 means none
	}
	_, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: q}, tokens-1)
	if err == nil || !strings.Contains(err.Error(), "exceeded token limit") {
		t.Errorf("gqlparser with token limit %d: error = %v, want the token limit exceeded", tokens-1, err)
	}
}

func TestScanLimits(t *testing.T) {
	tests := []struct {
		name      string
		config    Config
		query     string
		wantStats Stats
		wantErr   *Error // nil: within the limits
	}{
		{
			name:      "default length at the maximum",
			query:     "{ a" + strings.Repeat(" ", DefaultMaxLength-4) + "}",
			wantStats: Stats{Length: 20000, Tokens: 3, Nesting: 1, Depth: 1, Fields: 1},
		},
		{
			name:      "default length one over",
			query:     "{ a" + strings.Repeat(" ", DefaultMaxLength-3) + "}",
			wantStats: Stats{Length: 20001},
			wantErr:   &Error{Limit: Length, Max: 20000, Found: 20001},
		},
		{
			name:      "length at a custom maximum",
			config:    Config{MaxLength: 5},
			query:     "{ a }",
			wantStats: Stats{Length: 5, Tokens: 3, Nesting: 1, Depth: 1, Fields: 1},
		},
		{
			name:      "length one over a custom maximum",
			config:    Config{MaxLength: 4},
			query:     "{ a }",
			wantStats: Stats{Length: 5},
			wantErr:   &Error{Limit: Length, Max: 4, Found: 5},
		},
		{
			name:      "length off",
			config:    Config{MaxLength: NoLimit, MaxTokens: NoLimit, MaxNodes: NoLimit},
			query:     "{" + strings.Repeat(" a", 20000) + " }",
			wantStats: Stats{Length: 40003, Tokens: 20002, Nesting: 1, Depth: 1, Fields: 20000},
		},
		{
			// With the default length no query can hold more than 20000
			// tokens, so the default token limit is tested without it.
			name:      "default tokens at the maximum",
			config:    Config{MaxLength: NoLimit},
			query:     strings.Repeat("{}", DefaultMaxTokens/2),
			wantStats: Stats{Length: 20000, Tokens: 20000, Nesting: 1},
		},
		{
			name:      "default tokens one over",
			config:    Config{MaxLength: NoLimit},
			query:     strings.Repeat("{}", DefaultMaxTokens/2) + "!!",
			wantStats: Stats{Length: 20002, Tokens: 20001, Nesting: 1},
			wantErr:   &Error{Limit: Tokens, Max: 20000, Found: 20001, Line: 1, Column: 20001},
		},
		{
			name:      "tokens at a custom maximum",
			config:    Config{MaxTokens: 5},
			query:     "# c\n{ a b }",
			wantStats: Stats{Length: 11, Tokens: 5, Nesting: 1, Depth: 1, Fields: 2},
		},
		{
			name:      "tokens one over a custom maximum, at the token",
			config:    Config{MaxTokens: 3},
			query:     "# c\n{ a\r\n  b }",
			wantStats: Stats{Length: 14, Tokens: 4, Nesting: 1},
			wantErr:   &Error{Limit: Tokens, Max: 3, Found: 4, Line: 3, Column: 3},
		},
		{
			name:      "a comment is the token over",
			config:    Config{MaxTokens: 3},
			query:     "{ a }\n  # c",
			wantStats: Stats{Length: 11, Tokens: 4, Nesting: 1, Depth: 1, Fields: 1},
			wantErr:   &Error{Limit: Tokens, Max: 3, Found: 4, Line: 2, Column: 3},
		},
		{
			name:      "column counts runes",
			config:    Config{MaxTokens: 7},
			query:     `{ a(s: "ééé") b }`,
			wantStats: Stats{Length: 20, Tokens: 8, Nesting: 2, Depth: 1, Fields: 1},
			wantErr:   &Error{Limit: Tokens, Max: 7, Found: 8, Line: 1, Column: 15},
		},
		{
			name:      "tokens off",
			config:    Config{MaxTokens: NoLimit},
			query:     strings.Repeat("!", 20000),
			wantStats: Stats{Length: 20000, Tokens: 20000},
		},
		{
			name:      "default nesting at the maximum",
			query:     "{ a(x: " + strings.Repeat("[", 62) + strings.Repeat("]", 62) + ") }",
			wantStats: Stats{Length: 134, Tokens: 131, Nesting: 64, Depth: 1, Fields: 1},
		},
		{
			name:      "default nesting one over, at the bracket",
			query:     "{ a(x: " + strings.Repeat("[", 63) + strings.Repeat("]", 63) + ") }",
			wantStats: Stats{Length: 136, Tokens: 68, Nesting: 65, Depth: 1, Fields: 1},
			wantErr:   &Error{Limit: Nesting, Max: 64, Found: 65, Line: 1, Column: 70},
		},
		{
			name:      "nesting at a custom maximum",
			config:    Config{MaxNesting: 3},
			query:     "{ a { b(x: 1) } }",
			wantStats: Stats{Length: 17, Tokens: 11, Nesting: 3, Depth: 2, Fields: 2},
		},
		{
			name:      "nesting one over a custom maximum",
			config:    Config{MaxNesting: 2},
			query:     "{ a {\n  b(x: 1) } }",
			wantStats: Stats{Length: 19, Tokens: 5, Nesting: 3, Depth: 1, Fields: 1},
			wantErr:   &Error{Limit: Nesting, Max: 2, Found: 3, Line: 2, Column: 4},
		},
		{
			name:      "nesting off",
			config:    Config{MaxNesting: NoLimit},
			query:     strings.Repeat("[", 1000),
			wantStats: Stats{Length: 1000, Tokens: 1000, Nesting: 1000},
		},
		{
			name:      "brackets in strings and comments do not nest",
			config:    Config{MaxNesting: 2},
			query:     "{ a(s: \"{{{\", t: \"\"\"[[[\\\"\"\"(((\"\"\") # (((\n}",
			wantStats: Stats{Length: 42, Tokens: 12, Nesting: 2, Depth: 1, Fields: 1},
		},
		{
			name:      "length is checked before tokens",
			config:    Config{MaxLength: 3, MaxTokens: 1},
			query:     "{ a }",
			wantStats: Stats{Length: 5},
			wantErr:   &Error{Limit: Length, Max: 3, Found: 5},
		},
		{
			name:      "the token over is counted before its bracket",
			config:    Config{MaxTokens: 2, MaxNesting: 2},
			query:     "{ [ (",
			wantStats: Stats{Length: 5, Tokens: 3, Nesting: 2},
			wantErr:   &Error{Limit: Tokens, Max: 2, Found: 3, Line: 1, Column: 5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.config.Scan(tt.query)
			if got != tt.wantStats {
				t.Errorf("Scan stats = %+v, want %+v", got, tt.wantStats)
			}
			assertLimitError(t, err, tt.wantErr)
		})
	}
}

// assertLimitError checks that err is want (nil for no error).
func assertLimitError(t *testing.T, err error, want *Error) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("error = %v, want nil", err)
		}
		return
	}
	var got *Error
	if !errors.As(err, &got) {
		t.Fatalf("error = %v (%T), want %+v", err, err, *want)
	}
	if *got != *want {
		t.Errorf("error = %+v, want %+v", *got, *want)
	}
}

func TestPosition(t *testing.T) {
	const q = "a\nb\r\ncd\ré\uFEFFx"
	tests := []struct {
		off                  int
		wantLine, wantColumn int
	}{
		{off: 0, wantLine: 1, wantColumn: 1},
		{off: 2, wantLine: 2, wantColumn: 1},
		{off: 5, wantLine: 3, wantColumn: 1},
		{off: 6, wantLine: 3, wantColumn: 2},
		{off: 8, wantLine: 4, wantColumn: 1},
		{off: 10, wantLine: 4, wantColumn: 2}, // after é (2 bytes)
		{off: 13, wantLine: 4, wantColumn: 3}, // after the byte order mark (3 bytes)
		{off: len(q), wantLine: 4, wantColumn: 4},
	}
	for _, tt := range tests {
		line, column := position(q, tt.off)
		if line != tt.wantLine || column != tt.wantColumn {
			t.Errorf("position(%q, %d) = %d:%d, want %d:%d", q, tt.off, line, column, tt.wantLine, tt.wantColumn)
		}
	}
}

// TestScanPositionMatchesParser checks that a limit error points where
// gqlparser points at the same token, across CRLF, tabs, comments and
// multi-byte characters.
func TestScanPositionMatchesParser(t *testing.T) {
	const q = "query Q {\r\n  a(s: \"é{\") # ü\n\tb { c(x: [\"\"\"\n\"\"\", 2]) }\n}"
	doc, err := parser.ParseQuery(&ast.Source{Input: q})
	if err != nil {
		t.Fatal(err)
	}
	// The list value's bracket opens the fourth level: {, {, (, [.
	b := doc.Operations[0].SelectionSet[1].(*ast.Field)
	list := b.SelectionSet[0].(*ast.Field).Arguments[0].Value

	_, err = Config{MaxNesting: 3}.Scan(q)
	want := &Error{Limit: Nesting, Max: 3, Found: 4, Line: list.Position.Line, Column: list.Position.Column}
	assertLimitError(t, err, want)
	if want.Line != 3 || want.Column != 11 {
		t.Errorf("gqlparser puts the list at %d:%d, want 3:11", want.Line, want.Column)
	}
}
