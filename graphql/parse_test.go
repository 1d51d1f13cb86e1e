package graphql_test

import (
	"errors"
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
