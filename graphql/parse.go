package graphql

import (
	"strings"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// ParseQuery parses a query document into gqlparser's AST, stopping after
// maxTokens lexical tokens, comments included (0 means no limit). It reads
// the document exactly as gqlparser's parser.ParseQueryWithTokenLimit
// would, node for node and position for position, and refuses what it
// refuses with the same message and location, with its own parser, which
// takes its nodes from a few slabs instead of allocating per token. Its
// error message starts with "Syntax Error:" and is located in the text
// (the token limit's has no location and wraps [ErrTokenLimit]). Besides
// gqlparser's checks it refuses, as graphql-js does, a document with no
// definitions and a string holding a lone UTF-16 surrogate escape (such as
// "\uD83D").
func ParseQuery(query string, maxTokens int) (*ast.QueryDocument, *gqlerror.Error) {
	var lits syntax.LiteralMemory
	return parseChecked(query, maxTokens, &lits)
}

// parseChecked parses query with its literals' contents from lits and
// applies checkParsed.
func parseChecked(query string, maxTokens int, lits *syntax.LiteralMemory) (*ast.QueryDocument, *gqlerror.Error) {
	doc, err := syntax.Parse(query, maxTokens, lits)
	if err != nil {
		switch err.Err { // the parser's causes, as this package names them
		case syntax.ErrSyntax:
			err.Err = ErrSyntax
		case syntax.ErrTokenLimit:
			err.Err = ErrTokenLimit
		}
		return nil, err
	}
	return checkParsed(query, doc)
}

// A Parser parses documents as [ParseQuery] does, and reuses the memory of
// what a document's list and object literals hold (their items and
// fields: most of a document made of values) for the documents it parses
// after the document is released. A server that answers documents it
// never sees again (clients that write their values into the text) parses
// them that way without leaving garbage: graphqlhttp does, for every
// document its cache does not keep.
//
// The zero value is ready to use. A Parser is not safe for concurrent use:
// keep one per goroutine, or in a sync.Pool. It keeps at most about 4 MB
// for reuse; until it is used again, that memory may still refer to the
// documents that used it (to their texts, for instance).
type Parser struct {
	lits syntax.LiteralMemory
}

// Parse parses query as ParseQuery does. The document's memory is its own
// unless [Parser.Release] gives it back to p.
func (p *Parser) Parse(query string, maxTokens int) (*ast.QueryDocument, *gqlerror.Error) {
	p.lits.Forget() // the last document keeps its memory: it was not released
	return parseChecked(query, maxTokens, &p.lits)
}

// Release gives the memory of what the list and object literals of the
// last document p parsed hold back to p, for its next Parse to reuse.
// Call it once nothing reads that document any more: no Validate, Prepare
// or walk of it, and no node of its literals kept. The operations
// prepared from it stay valid, whatever they are used for later: once
// prepared, an [Operation] reads nothing inside its document's literals
// (it coerces again only copies of them). After a Parse that failed,
// Release gives back what the parse took; a second Release does nothing.
func (p *Parser) Release() {
	p.lits.Release()
}

// checkParsed applies to a parsed document the checks of graphql-js that
// gqlparser leaves out.
func checkParsed(query string, doc *ast.QueryDocument) (*ast.QueryDocument, *gqlerror.Error) {
	if len(doc.Operations) == 0 && len(doc.Fragments) == 0 {
		line, col := endOf(query)
		return nil, &gqlerror.Error{Message: "Syntax Error: Unexpected <EOF>.",
			Locations: []gqlerror.Location{{Line: line, Column: col}}, Err: ErrSyntax}
	}
	if strings.Contains(query, `\u`) {
		if line, col, bad := loneSurrogate(query); bad != "" {
			return nil, &gqlerror.Error{Message: `Syntax Error: Invalid Unicode escape sequence: "` + bad + `".`,
				Locations: []gqlerror.Location{{Line: line, Column: col}}, Err: ErrSyntax}
		}
	}
	return doc, nil
}

// endOf returns the line and column (in runes) just after the last
// character of s.
func endOf(s string) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
			line, col = line+1, 1
		case r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
	}
	return line, col
}

// loneSurrogate finds a \u escape of a UTF-16 surrogate that is not part of
// a pair, in a string literal (not in comments or block strings).
func loneSurrogate(s string) (line, col int, bad string) {
	line, lineStart := 1, 0
	colAt := func(i int) int { return utf8.RuneCountInString(s[lineStart:i]) + 1 }
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			line, lineStart = line+1, i+1
		case c == '#':
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
			i--
		case strings.HasPrefix(s[i:], `"""`):
			i += 3
			for i < len(s) && !strings.HasPrefix(s[i:], `"""`) {
				if strings.HasPrefix(s[i:], `\"""`) {
					i += 4
					continue
				}
				if s[i] == '\n' {
					line, lineStart = line+1, i+1
				}
				i++
			}
			i += 2
		case c == '"':
			for i++; i < len(s) && s[i] != '"' && s[i] != '\n'; i++ {
				if s[i] != '\\' || i+1 >= len(s) {
					continue
				}
				if s[i+1] != 'u' {
					i++
					continue
				}
				v, ok := syntax.HexValue(s[i+2:])
				if !ok {
					i++
					continue
				}
				switch {
				case v >= 0xD800 && v <= 0xDBFF:
					if strings.HasPrefix(s[i+6:], `\u`) {
						if w, ok := syntax.HexValue(s[i+8:]); ok && w >= 0xDC00 && w <= 0xDFFF {
							i += 11
							continue
						}
					}
					return line, colAt(i), s[i : i+6]
				case v >= 0xDC00 && v <= 0xDFFF:
					return line, colAt(i), s[i : i+6]
				}
				i += 5
			}
		}
	}
	return 0, 0, ""
}
