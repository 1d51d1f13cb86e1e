package introspection

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// DefaultDeprecationReason is the reason of a bare @deprecated.
const DefaultDeprecationReason = "No longer supported"

// Directives returns the directives of graphql-js 16, in its order, their
// arguments typed with boolean and str, the schema's Boolean and String.
func Directives(boolean, str *schema.Type) []*schema.Directive {
	ifArg := func(desc string) []*schema.Arg {
		return []*schema.Arg{{Name: "if", Type: nonNull(boolean), Desc: desc}}
	}
	executable := []string{"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"}
	return []*schema.Directive{
		{Name: "include", Desc: "Directs the executor to include this field or fragment only when the `if` argument is true.",
			Locations: executable, Args: ifArg("Included when true.")},
		{Name: "skip", Desc: "Directs the executor to skip this field or fragment when the `if` argument is true.",
			Locations: executable, Args: ifArg("Skipped when true.")},
		{Name: "deprecated", Desc: "Marks an element of a GraphQL schema as no longer supported.",
			Locations: []string{"FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INPUT_FIELD_DEFINITION", "ENUM_VALUE", "DIRECTIVE_DEFINITION"},
			Args: []*schema.Arg{{Name: "reason", Type: str, HasDefault: true, Default: DefaultDeprecationReason,
				DefaultAST: &ast.Value{Kind: ast.StringValue, Raw: DefaultDeprecationReason},
				Desc:       "Explains why this element was deprecated, usually also including a suggestion for how to access supported similar data. Formatted using the Markdown syntax, as specified by [CommonMark](https://commonmark.org/)."}}},
		{Name: "specifiedBy", Desc: "Exposes a URL that specifies the behavior of this scalar.",
			Locations: []string{"SCALAR"},
			Args:      []*schema.Arg{{Name: "url", Type: nonNull(str), Desc: "The URL that specifies the behavior of this scalar."}}},
		{Name: "oneOf", Desc: "Indicates exactly one field must be supplied and this field must not be `null`.",
			Locations: []string{"INPUT_OBJECT"}},
	}
}
