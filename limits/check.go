package limits

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// Check runs every limit on a query and returns its parsed document: it
// scans the text ([Config.Scan]), parses it with gqlparser's
// parser.ParseQueryWithTokenLimit (MaxTokens as the parser's token limit
// too), and checks the document ([Config.CheckDocument]). It is the whole
// pre-validation step for a caller that uses the package alone; the
// document it returns has not been validated against any schema.
//
// A limit crossed is an [*Error]. A syntax error is the *gqlerror.Error
// from the parser, with its location; its message is safe to show to
// clients.
func (c Config) Check(query string) (*ast.QueryDocument, error) {
	if _, err := c.Scan(query); err != nil {
		return nil, err
	}
	tokenLimit := bound(c.MaxTokens, DefaultMaxTokens)
	if c.MaxTokens < 0 {
		tokenLimit = 0 // gqlparser's "no limit"
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, tokenLimit)
	if err != nil {
		return nil, err
	}
	if _, err := c.CheckDocument(doc); err != nil {
		return nil, err
	}
	return doc, nil
}
