// Package syntax reads GraphQL executable documents into gqlparser's AST.
//
// [Parse] reads a document exactly as gqlparser's
// parser.ParseQueryWithTokenLimit does (the version in gqlmirror's doc),
// node for node and position for position, and fails where it fails with
// its message and location, but takes its nodes from a few slabs instead
// of allocating per token. A [LiteralMemory] holds what the document's list
// and object literals hold, and can be reused from one document to the
// next.
//
// Two packages parse with it. Package graphql (ParseQuery, Parser) adds
// graphql-js's checks and its own causes of error; limits.Config.Check
// returns the very error gqlparser's parser returns, the message without
// the "Syntax Error: " that Parse puts before it.
package syntax

import "errors"

// ErrSyntax is the cause of the error [Parse] returns for text that is not
// a GraphQL document (graphql.ParseQuery puts graphql.ErrSyntax in its
// place).
var ErrSyntax = errors.New("graphql: syntax error")

// ErrTokenLimit is the cause of the error [Parse] returns when the document
// has more lexical tokens than allowed (graphql.ParseQuery puts
// graphql.ErrTokenLimit in its place).
var ErrTokenLimit = errors.New("graphql: too many tokens")

// HexValue returns the value of the four hex digits s starts with.
func HexValue(s string) (int, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v := 0
	for i := 0; i < 4; i++ {
		d, ok := hexDigit(s[i])
		if !ok {
			return 0, false
		}
		v = v*16 + d
	}
	return v, true
}

// hexDigit returns the value of the hex digit c.
func hexDigit(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'a' && c <= 'f':
		return int(c - 'a' + 10), true
	case c >= 'A' && c <= 'F':
		return int(c - 'A' + 10), true
	}
	return 0, false
}
