package graphql

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// QuickValid exposes the fast path of Validate to the package's tests.
func (s *Schema) QuickValid(doc *ast.QueryDocument) bool { return s.quickValid(doc) }

// FullRules runs what Validate runs when the fast path declines: the
// fragment nesting check and every rule.
func (s *Schema) FullRules(doc *ast.QueryDocument, opts ValidateOptions) gqlerror.List {
	if err := checkSpreadNesting(doc); err != nil {
		return gqlerror.List{err}
	}
	return s.runRules(doc, opts)
}

// QuickParse exposes the fast path of ParseQuery to the package's tests.
func QuickParse(query string, maxTokens int) *ast.QueryDocument { return quickParse(query, maxTokens) }
