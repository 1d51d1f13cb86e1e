package graphql

import (
	"context"
	"reflect"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql/internal/exec"
	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/validation"
)

// QuickValid exposes the fast path of Validate to the package's tests.
func (s *Schema) QuickValid(doc *ast.QueryDocument) bool { return s.validator.QuickValid(doc) }

// FullRules runs what Validate runs when the fast path declines: the
// fragment nesting check and every rule.
func (s *Schema) FullRules(doc *ast.QueryDocument, opts ValidateOptions) gqlerror.List {
	return s.validator.FullRules(doc, validation.Options{DisableIntrospection: opts.DisableIntrospection, MaxErrors: opts.MaxErrors})
}

// ParseDocument exposes ParseQuery's parser, without the checks that follow
// it, to the package's tests.
func ParseDocument(query string, maxTokens int) (*ast.QueryDocument, *gqlerror.Error) {
	var lits syntax.LiteralMemory
	return syntax.Parse(query, maxTokens, &lits)
}

// CheckParsed exposes the checks ParseQuery applies to a parsed document.
func CheckParsed(query string, doc *ast.QueryDocument) (*ast.QueryDocument, *gqlerror.Error) {
	return checkParsed(query, doc)
}

// ShortInt exposes the quick read of short Int literals to the package's
// tests.
func ShortInt(s string) (int, bool) { return syntax.ShortInt(s) }

// DirectLeaf writes typeName.field of parent by the direct leaf path, once
// a read by the general path has shown the field's accessor parent's Go
// type, and reports whether the path applied.
func (s *Schema) DirectLeaf(typeName, field string, parent any) (string, bool) {
	for o, info := range s.objects {
		if o.Name != typeName {
			continue
		}
		fi := info.ByName[field]
		rv := reflect.ValueOf(parent)
		ctx := context.Background()
		if _, err := fi.Read.Read(&ctx, rv); err != nil {
			return err.Error(), false
		}
		return exec.DirectLeaf(fi, rv)
	}
	return "no type " + typeName, false
}

// ReferenceValidate is Validate as it was before it trimmed list literals
// for the walk, stopped at ValidateOptions.MaxErrors (which it ignores)
// and had a ValuesOfCorrectType of its own (see
// validation.Validator.ReferenceValidate). The tests compare Validate with
// it.
func (s *Schema) ReferenceValidate(doc *ast.QueryDocument, opts ValidateOptions) (errs gqlerror.List, bug error) {
	defer func() {
		if p := recover(); p != nil {
			errs, bug = nil, fault.Recovered(p)
		}
	}()
	return s.validator.ReferenceValidate(doc, validation.Options{DisableIntrospection: opts.DisableIntrospection})
}

// TrimmedLists returns how many list literals of doc the walk of the rules
// would see shortened, and puts them back.
func (s *Schema) TrimmedLists(doc *ast.QueryDocument) int { return s.validator.TrimmedLists(doc) }
