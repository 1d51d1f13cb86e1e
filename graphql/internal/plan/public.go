package plan

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file decides whether an operation is public: whether every field
// it may select is a mutation field marked Public.

// publicSelection reports whether every field that set, a selection set
// of root in doc, may select is public; depth bounds the nesting of its
// fragments (a document that exceeds it is not public).
func publicSelection(root *schema.Object, doc *ast.QueryDocument, set ast.SelectionSet, depth int) bool {
	if depth > maxPublicDepth {
		return false
	}
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			if excluded(sel.Directives) || sel.Name == "__typename" {
				continue
			}
			if fi := root.ByName[sel.Name]; fi == nil || !fi.Public {
				return false
			}
		case *ast.InlineFragment:
			if !excluded(sel.Directives) && !publicSelection(root, doc, sel.SelectionSet, depth+1) {
				return false
			}
		case *ast.FragmentSpread:
			if excluded(sel.Directives) {
				continue
			}
			f := doc.Fragments.ForName(sel.Name)
			if f == nil || !publicSelection(root, doc, f.SelectionSet, depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// maxPublicDepth is the deepest nesting of fragments publicSelection
// follows at the root of an operation.
const maxPublicDepth = 64

// excluded reports whether directives statically exclude their selection:
// @skip(if: true) or @include(if: false) with a literal, not a variable.
func excluded(directives ast.DirectiveList) bool {
	include, _ := StaticCondition(directives)
	return !include
}
