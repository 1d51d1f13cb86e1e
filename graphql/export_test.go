package graphql

import (
	"context"
	"reflect"

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

// ParseDocument exposes ParseQuery's parser, without the checks that follow
// it, to the package's tests.
func ParseDocument(query string, maxTokens int) (*ast.QueryDocument, *gqlerror.Error) {
	var lits literalMemory
	return parseDocument(query, maxTokens, &lits)
}

// CheckParsed exposes the checks ParseQuery applies to a parsed document.
func CheckParsed(query string, doc *ast.QueryDocument) (*ast.QueryDocument, *gqlerror.Error) {
	return checkParsed(query, doc)
}

// AppendString exposes the JSON string writer to the package's tests.
func AppendString(dst []byte, s string) []byte { return appendString(dst, s) }

// DirectLeaf writes typeName.field of parent by the direct leaf path, once
// a read by the general path has shown the field's accessor parent's Go
// type, and reports whether the path applied.
func (s *Schema) DirectLeaf(typeName, field string, parent any) (string, bool) {
	for o, info := range s.objects {
		if o.Name != typeName {
			continue
		}
		fi := info.byName[field]
		rv := reflect.ValueOf(parent)
		ctx := context.Background()
		if _, err := resolveDefault(&ctx, fi, rv); err != nil {
			return err.Error(), false
		}
		e := &executor{}
		handled, _ := e.directLeaf(&fieldPlan{info: fi, typ: fi.typ}, rv)
		return string(e.buf), handled
	}
	return "no type " + typeName, false
}
