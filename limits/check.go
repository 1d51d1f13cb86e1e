package limits

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// Check runs every limit on a query and returns its parsed document: it
// scans the text ([Config.Scan]), parses it (MaxTokens as the parser's
// token limit too), and checks the document ([Config.CheckDocument]). It
// is the whole pre-validation step for a caller that uses the package
// alone; the document it returns has not been validated against any
// schema.
//
// The parser is the kit's own, the one package graphql parses with: it
// reads a document exactly as gqlparser's parser.ParseQueryWithTokenLimit
// does, into the same AST, node for node and position for position, and
// refuses what gqlparser refuses with the same error, without allocating
// for every token.
//
// A limit crossed is an [*Error]. A syntax error is a *gqlerror.Error with
// gqlparser's message and location; its message is safe to show to
// clients.
func (c Config) Check(query string) (*ast.QueryDocument, error) {
	if _, err := c.Scan(query); err != nil {
		return nil, err
	}
	tokenLimit := bound(c.MaxTokens, DefaultMaxTokens)
	if c.MaxTokens < 0 {
		tokenLimit = 0 // the parser's "no limit"
	}
	var lits syntax.LiteralMemory // the document keeps its literals' memory
	doc, perr := syntax.Parse(query, tokenLimit, &lits)
	if perr != nil {
		return nil, parserError(perr)
	}
	if _, err := c.CheckDocument(doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// parserError is the error gqlparser's parser returns in place of e: the
// same location and message, without the "Syntax Error: " the kit's
// engine puts before it, and without a cause.
func parserError(e *gqlerror.Error) *gqlerror.Error {
	return &gqlerror.Error{Message: strings.TrimPrefix(e.Message, "Syntax Error: "), Locations: e.Locations}
}
