package limits

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		config  Config
		query   string
		wantOps int    // operations in the document returned
		wantErr *Error // limit error
		// wantSyntax is the syntax error's message and location, if any.
		wantSyntax *gqlerror.Error
	}{
		{name: "valid", query: "query Q { a { b } } query R { ...F } fragment F on Query { c }", wantOps: 2},
		{
			name:    "length",
			config:  Config{MaxLength: 10},
			query:   "{ a { b } }",
			wantErr: &Error{Limit: Length, Max: 10, Found: 11},
		},
		{
			name:    "tokens",
			config:  Config{MaxTokens: 5},
			query:   "{ a { b } }",
			wantErr: &Error{Limit: Tokens, Max: 5, Found: 6, Line: 1, Column: 11},
		},
		{
			name:    "nesting",
			config:  Config{MaxNesting: 1},
			query:   "{ a { b } }",
			wantErr: &Error{Limit: Nesting, Max: 1, Found: 2, Line: 1, Column: 5},
		},
		{
			name:    "depth",
			config:  Config{MaxDepth: 1},
			query:   "{ a { b } }",
			wantErr: &Error{Limit: Depth, Max: 1, Found: 2, Line: 1, Column: 7},
		},
		{
			name:    "nodes",
			config:  Config{MaxNodes: 1},
			query:   "{ a { b } }",
			wantErr: &Error{Limit: Nodes, Max: 1, Found: 2, Line: 1, Column: 7},
		},
		{
			name:    "limits run before validation",
			query:   deep(11) + " fragment Unknown on Nothing { x }",
			wantErr: &Error{Limit: Depth, Max: 10, Found: 11, Line: 1, Column: 54},
		},
		{
			name:       "syntax error",
			query:      "{ a(",
			wantSyntax: &gqlerror.Error{Message: "Expected Name, found <EOF>", Locations: []gqlerror.Location{{Line: 1, Column: 5}}},
		},
		{
			name:       "not an executable document",
			query:      "type Query { a: Int }",
			wantSyntax: &gqlerror.Error{Message: `Unexpected Name "type"`, Locations: []gqlerror.Location{{Line: 1, Column: 1}}},
		},
		{
			name:    "every limit off",
			config:  Config{MaxLength: NoLimit, MaxTokens: NoLimit, MaxNesting: NoLimit, MaxDepth: NoLimit, MaxNodes: NoLimit},
			query:   "{" + strings.Repeat(" a", 30000) + " }",
			wantOps: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := tt.config.Check(tt.query)
			switch {
			case tt.wantSyntax != nil:
				var got *gqlerror.Error
				if !errors.As(err, &got) {
					t.Fatalf("Check error = %v (%T), want *gqlerror.Error", err, err)
				}
				if got.Message != tt.wantSyntax.Message || len(got.Locations) != 1 || got.Locations[0] != tt.wantSyntax.Locations[0] {
					t.Errorf("Check error = %q at %v, want %q at %v", got.Message, got.Locations, tt.wantSyntax.Message, tt.wantSyntax.Locations)
				}
			default:
				assertLimitError(t, err, tt.wantErr)
			}
			if err != nil {
				if doc != nil {
					t.Errorf("Check returned a document with error %v", err)
				}
				return
			}
			if doc == nil || len(doc.Operations) != tt.wantOps {
				t.Fatalf("Check document = %v, want %d operations", doc, tt.wantOps)
			}
		})
	}
}

func TestEffective(t *testing.T) {
	tests := []struct {
		name   string
		config Config
		want   Config
	}{
		{
			name:   "zero is the defaults",
			config: Config{},
			want:   Config{MaxLength: 20000, MaxTokens: 20000, MaxNesting: 64, MaxDepth: 10, MaxNodes: 500, MaxCost: 5000},
		},
		{
			name:   "set values are kept",
			config: Config{MaxLength: 1, MaxTokens: 2, MaxNesting: 3, MaxDepth: 4, MaxNodes: 5, MaxCost: 6},
			want:   Config{MaxLength: 1, MaxTokens: 2, MaxNesting: 3, MaxDepth: 4, MaxNodes: 5, MaxCost: 6},
		},
		{
			name:   "negative is NoLimit",
			config: Config{MaxLength: -5, MaxTokens: NoLimit, MaxNesting: -1, MaxDepth: -100, MaxNodes: -2, MaxCost: -3},
			want:   Config{MaxLength: NoLimit, MaxTokens: NoLimit, MaxNesting: NoLimit, MaxDepth: NoLimit, MaxNodes: NoLimit, MaxCost: NoLimit},
		},
		{
			name:   "only the cost set",
			config: Config{MaxCost: 100},
			want:   Config{MaxLength: 20000, MaxTokens: 20000, MaxNesting: 64, MaxDepth: 10, MaxNodes: 500, MaxCost: 100},
		},
		{
			name:   "only the cost off",
			config: Config{MaxCost: NoLimit},
			want:   Config{MaxLength: 20000, MaxTokens: 20000, MaxNesting: 64, MaxDepth: 10, MaxNodes: 500, MaxCost: NoLimit},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.config.Effective(); got != tt.want {
				t.Errorf("%+v.Effective() = %+v, want %+v", tt.config, got, tt.want)
			}
		})
	}
}

// TestCheckCost checks the boundaries of MaxCost: the default, a set
// maximum, the limit off, and the error, which has no location.
func TestCheckCost(t *testing.T) {
	tests := []struct {
		name   string
		config Config
		cost   int
		want   *Error // nil: no error
	}{
		{name: "default, at the maximum", cost: 5000},
		{name: "default, one over", cost: 5001, want: &Error{Limit: Cost, Max: 5000, Found: 5001}},
		{name: "default, 500 aliases of posts(first: 50)", cost: 50500, want: &Error{Limit: Cost, Max: 5000, Found: 50500}},
		{name: "zero cost", cost: 0},
		{name: "set, at the maximum", config: Config{MaxCost: 10}, cost: 10},
		{name: "set, one over", config: Config{MaxCost: 10}, cost: 11, want: &Error{Limit: Cost, Max: 10, Found: 11}},
		{name: "set, saturated", config: Config{MaxCost: 10}, cost: math.MaxInt, want: &Error{Limit: Cost, Max: 10, Found: math.MaxInt}},
		{name: "off", config: Config{MaxCost: NoLimit}, cost: math.MaxInt},
		{name: "other limits do not matter", config: Config{MaxNodes: 1, MaxDepth: NoLimit}, cost: 4999},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.config.CheckCost(tt.cost)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("CheckCost(%d) = %v, want nil", tt.cost, err)
				}
				return
			}
			var lerr *Error
			if !errors.As(err, &lerr) {
				t.Fatalf("CheckCost(%d) = %v, want an *Error", tt.cost, err)
			}
			if *lerr != *tt.want {
				t.Errorf("CheckCost(%d) = %+v, want %+v", tt.cost, *lerr, *tt.want)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		err  *Error
		want string
	}{
		{err: &Error{Limit: Length, Max: 20000, Found: 20001}, want: "query length 20001 bytes exceeds the maximum of 20000 bytes"},
		{err: &Error{Limit: Tokens, Max: 20000, Found: 20001, Line: 3, Column: 4}, want: "query token count 20001 exceeds the maximum of 20000"},
		{err: &Error{Limit: Nesting, Max: 64, Found: 65}, want: "query bracket nesting 65 exceeds the maximum of 64"},
		{err: &Error{Limit: Depth, Max: 10, Found: 11}, want: "query depth 11 exceeds the maximum of 10"},
		{err: &Error{Limit: Nodes, Max: 500, Found: 501}, want: "query node count 501 exceeds the maximum of 500"},
		{err: &Error{Limit: Cost, Max: 5000, Found: 50500}, want: "query cost 50500 exceeds the maximum of 5000"},
		{err: &Error{Limit: "price", Max: 1, Found: 2}, want: `query limit "price": found 2 exceeds the maximum of 1`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q, want %q", *tt.err, got, tt.want)
		}
	}
}
