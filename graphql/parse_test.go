package graphql_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		tokens  int
		wantErr string // message, then the locations as line:column
		cause   error
	}{
		{name: "ok", query: `{ a }`},
		{name: "empty", query: ``, wantErr: `Syntax Error: Unexpected <EOF>. [1:1]`, cause: graphql.ErrSyntax},
		{name: "blank", query: " \n# comment\n", wantErr: `Syntax Error: Unexpected <EOF>. [3:1]`, cause: graphql.ErrSyntax},
		{name: "fragment only", query: `fragment F on Query { a }`},
		{name: "syntax", query: `{ a `, wantErr: `Syntax Error: Expected Name, found <EOF> [1:5]`, cause: graphql.ErrSyntax},
		{name: "lone surrogate", query: `{ a(s: "\uD83D") }`, wantErr: `Syntax Error: Invalid Unicode escape sequence: "\uD83D". [1:9]`, cause: graphql.ErrSyntax},
		{name: "lone low surrogate", query: "{ a(s: \"x\\uDE00\") }", wantErr: `Syntax Error: Invalid Unicode escape sequence: "\uDE00". [1:10]`, cause: graphql.ErrSyntax},
		{name: "surrogate pair", query: `{ a(s: "\uD83D\uDE00") }`},
		{name: "surrogate escape in a comment", query: "# \\uD83D\n{ a }"},
		{name: "surrogate escape in a block string", query: `{ a(s: """\uD83D""") }`},
		{name: "token limit", query: `{ a b c }`, tokens: 3, wantErr: `exceeded token limit of 3 []`, cause: graphql.ErrTokenLimit},
		{name: "under the token limit", query: `{ a b c }`, tokens: 5},
		{name: "comments are tokens", query: "# c1\n# c2\n{ a }", tokens: 4, wantErr: `exceeded token limit of 4 []`, cause: graphql.ErrTokenLimit},
		{name: "a trailing comment is a token", query: "{ a } # c", tokens: 3, wantErr: `exceeded token limit of 3 []`, cause: graphql.ErrTokenLimit},
		{name: "the end is not a token", query: "{ a } # c", tokens: 4},
		{name: "a negative limit refuses every token", query: "{ a }", tokens: -1, wantErr: `exceeded token limit of -1 []`, cause: graphql.ErrTokenLimit},
		{name: "comments, descriptions, escapes, block strings", query: "\ufeff# c\n\"\"\"op\"\"\" query Q(\"v\" $v: Int = 1) " +
			`{ a(s: "\u{1F600}\t\"", b: """ x \""" """) }`},
		// gqlparser's error sites
		{name: "expected", query: "query Q($v Int) { a }", wantErr: `Syntax Error: Expected :, found Name [1:12]`, cause: graphql.ErrSyntax},
		{name: "expected a selection set", query: "fragment F on T", wantErr: `Syntax Error: Expected {, found <EOF> [1:16]`, cause: graphql.ErrSyntax},
		{name: "unexpected", query: "{ a }}", wantErr: `Syntax Error: Unexpected } [1:6]`, cause: graphql.ErrSyntax},
		{name: "unexpected name", query: "type T { a }", wantErr: `Syntax Error: Unexpected Name "type" [1:1]`, cause: graphql.ErrSyntax},
		{name: "variable in a constant", query: "query Q($v: Int = [$v]) { a }", wantErr: `Syntax Error: Unexpected $ [1:20]`, cause: graphql.ErrSyntax},
		{name: "empty selection set", query: "{ a { } }", wantErr: `Syntax Error: expected at least one definition, found } [1:7]`, cause: graphql.ErrSyntax},
		{name: "empty arguments", query: "{ a() }", wantErr: `Syntax Error: expected at least one definition, found ) [1:5]`, cause: graphql.ErrSyntax},
		{name: "fragment without on", query: "fragment F T { a }", wantErr: `Syntax Error: Expected "on", found Name "T" [1:12]`, cause: graphql.ErrSyntax},
		{name: "fragment named on", query: `fragment "on" on T { a }`, wantErr: `Syntax Error: Unexpected String "on" [1:11]`, cause: graphql.ErrSyntax},
		{name: "nesting", query: "{" + strings.Repeat("a{", 1000) + "b" + strings.Repeat("}", 1001),
			wantErr: `Syntax Error: exceeded maximum nesting depth of 1000 [1:2001]`, cause: graphql.ErrSyntax},
		{name: "nesting of a list type", query: "query ($v: " + strings.Repeat("[", 1001) + "Int" + strings.Repeat("]", 1001) + ") { a }",
			wantErr: `Syntax Error: exceeded maximum nesting depth of 1000 [1:1013]`, cause: graphql.ErrSyntax},
		{name: "description on a shorthand", query: `"d" { a }`, wantErr: `Syntax Error: Unexpected String "d" [1:2]`, cause: graphql.ErrSyntax},
		{name: "description and comment on a shorthand", query: "\"d\" #c1\n#c2\n{ a }", wantErr: `Syntax Error: Unexpected Comment "#c2" [2:1]`, cause: graphql.ErrSyntax},
		{name: "a block string is on its last line", query: "\"\"\"a\nb\"\"\" { a }", wantErr: `Syntax Error: Unexpected BlockString "a\nb" [2:-1]`, cause: graphql.ErrSyntax},
		{name: "a column after CRLF counts the LF", query: "{ a }\r\n\r\n  !", wantErr: `Syntax Error: Unexpected ! [3:4]`, cause: graphql.ErrSyntax},
		// the lexer's messages never show: the parser reports the invalid
		// token where the lexer stopped
		{name: "unterminated string", query: `{ a(x: "open) }`, wantErr: `Syntax Error: Unexpected <Invalid> [1:16]`, cause: graphql.ErrSyntax},
		{name: "bad escape", query: `{ a(x: "\u{110000}") }`, wantErr: `Syntax Error: Unexpected <Invalid> [1:10]`, cause: graphql.ErrSyntax},
		{name: "digit after 0", query: "{ a(x: -01) }", wantErr: `Syntax Error: Unexpected <Invalid> [1:10]`, cause: graphql.ErrSyntax},
		{name: "invalid character", query: "{ é }", wantErr: `Syntax Error: Expected Name, found <Invalid> [1:3]`, cause: graphql.ErrSyntax},
		{name: "number run into a name", query: "{ a(x: 1a) }", wantErr: `Syntax Error: Expected :, found ) [1:10]`, cause: graphql.ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := graphql.ParseQuery(tt.query, tt.tokens)
			if tt.wantErr == "" {
				if err != nil || doc == nil {
					t.Fatalf("ParseQuery: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("ParseQuery succeeded, want %s", tt.wantErr)
			}
			var at []string
			for _, l := range err.Locations {
				at = append(at, l.String())
			}
			if got := err.Message + " [" + strings.Join(at, " ") + "]"; got != tt.wantErr {
				t.Errorf("error:\n got %s\nwant %s", got, tt.wantErr)
			}
			if !errors.Is(err, tt.cause) {
				t.Errorf("error %v does not wrap %v", err, tt.cause)
			}
		})
	}
}

// TestParserReusesMemory: a Parser that releases every document parses the
// largest list document the default limits accept again and again without
// allocating its 9,994 items anew, where ParseQuery allocates them all.
func TestParserReusesMemory(t *testing.T) {
	query := "{l(v:[" + strings.Repeat("[]", 9994) + "]w:1)}"
	var p graphql.Parser
	reused := testing.AllocsPerRun(20, func() {
		if _, err := p.Parse(query, 20000); err != nil {
			t.Fatal(err)
		}
		p.Release()
	})
	fresh := testing.AllocsPerRun(20, func() {
		if _, err := graphql.ParseQuery(query, 20000); err != nil {
			t.Fatal(err)
		}
	})
	// The items take over a hundred chunks; the rest of the document a
	// dozen allocations (10 here; under the race detector, whose runtime
	// allocates and collects on its own schedule, 14 to 21).
	t.Logf("allocations per parse: %v with a Parser that releases, %v with ParseQuery", reused, fresh)
	if reused > fresh/4 || fresh < 100 {
		t.Errorf("allocations per parse: %v with a Parser that releases, %v with ParseQuery", reused, fresh)
	}
}

// TestShortInt: the quick read of short Int literals agrees with strconv
// on whatever it reads, and reads every integer of up to nine digits
// written as the lexer writes them.
func TestShortInt(t *testing.T) {
	for _, s := range []string{"0", "-0", "7", "-7", "123456789", "-999999999", "007", "1a", "-", "", "1234567890", "--1", "+1", "٣"} {
		// Whatever it reads, strconv reads alike; what it leaves, strconv
		// reads or refuses.
		n, ok := graphql.ShortInt(s)
		if want, err := strconv.Atoi(s); ok && (err != nil || n != want) {
			t.Errorf("ShortInt(%q) = %d, strconv says %d, %v", s, n, want, err)
		}
	}
	for i := -1_000_000_000; i <= 1_000_000_000; i += 997_331 {
		s := strconv.Itoa(i)
		if n, ok := graphql.ShortInt(s); len(strings.TrimPrefix(s, "-")) <= 9 && (!ok || n != i) {
			t.Errorf("ShortInt(%q) = %d, %v", s, n, ok)
		}
	}
}
