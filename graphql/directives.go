package graphql

import "github.com/vektah/gqlparser/v2/ast"

// directiveInfo describes one of the directives every schema has.
type directiveInfo struct {
	name      string
	desc      string
	locations []string
	args      []*argInfo
}

// specifiedDirectives returns the directives of graphql-js 16, in its order.
// Their argument types, Boolean and String, are in every schema.
func (s *Schema) specifiedDirectives() []*directiveInfo {
	ifArg := func(desc string) []*argInfo {
		return []*argInfo{{Name: "if", Type: s.ref(NewNonNull(Boolean)), Desc: desc}}
	}
	executable := []string{"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"}
	return []*directiveInfo{
		{name: "include", desc: "Directs the executor to include this field or fragment only when the `if` argument is true.",
			locations: executable, args: ifArg("Included when true.")},
		{name: "skip", desc: "Directs the executor to skip this field or fragment when the `if` argument is true.",
			locations: executable, args: ifArg("Skipped when true.")},
		{name: "deprecated", desc: "Marks an element of a GraphQL schema as no longer supported.",
			locations: []string{"FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INPUT_FIELD_DEFINITION", "ENUM_VALUE", "DIRECTIVE_DEFINITION"},
			args: []*argInfo{{Name: "reason", Type: s.ref(String), HasDefault: true, Default: defaultDeprecationReason,
				DefaultAST: &ast.Value{Kind: ast.StringValue, Raw: defaultDeprecationReason},
				Desc:       "Explains why this element was deprecated, usually also including a suggestion for how to access supported similar data. Formatted using the Markdown syntax, as specified by [CommonMark](https://commonmark.org/)."}}},
		{name: "specifiedBy", desc: "Exposes a URL that specifies the behavior of this scalar.",
			locations: []string{"SCALAR"},
			args:      []*argInfo{{Name: "url", Type: s.ref(NewNonNull(String)), Desc: "The URL that specifies the behavior of this scalar."}}},
		{name: "oneOf", desc: "Indicates exactly one field must be supplied and this field must not be `null`.",
			locations: []string{"INPUT_OBJECT"}},
	}
}

const defaultDeprecationReason = "No longer supported"
