package introspection

import "github.com/gqlkit/gqlkit/graphql/internal/schema"

// The descriptions of the introspection types, graphql-js 16's.
const (
	descSchema            = "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types and directives on the server, as well as the entry points for query, mutation, and subscription operations."
	descType              = "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL as represented by the `__TypeKind` enum.\n\nDepending on the kind of a type, certain fields describe information about that type. Scalar types provide no information beyond a name, description and optional `specifiedByURL`, while Enum types provide their values. Object and Interface types provide the fields they describe. Abstract types, Union and Interface, provide the Object types possible at runtime. List and NonNull types compose other types."
	descField             = "Object and Interface types are described by a list of Fields, each of which has a name, potentially a list of arguments, and a return type."
	descInputValue        = "Arguments provided to Fields or Directives and the input fields of an InputObject are represented as Input Values which describe their type and optionally a default value."
	descEnumValue         = "One possible value for a given Enum. Enum values are unique values, not a placeholder for a string or numeric value. However an Enum value is returned in a JSON response as a string."
	descDirective         = "A Directive provides a way to describe alternate runtime execution and type validation behavior in a GraphQL document.\n\nIn some cases, you need to provide options to alter GraphQL's execution behavior in ways field arguments will not suffice, such as conditionally including or skipping a field. Directives provide this by describing additional information to the executor."
	descTypeKind          = "An enum describing what kind of type a given `__Type` is."
	descDirectiveLocation = "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation describes one such possible adjacencies."
)

// typeKinds returns the values of __TypeKind.
func typeKinds() []schema.EnumValue {
	return []schema.EnumValue{
		{Name: "SCALAR", Desc: "Indicates this type is a scalar."},
		{Name: "OBJECT", Desc: "Indicates this type is an object. `fields` and `interfaces` are valid fields."},
		{Name: "INTERFACE", Desc: "Indicates this type is an interface. `fields`, `interfaces`, and `possibleTypes` are valid fields."},
		{Name: "UNION", Desc: "Indicates this type is a union. `possibleTypes` is a valid field."},
		{Name: "ENUM", Desc: "Indicates this type is an enum. `enumValues` is a valid field."},
		{Name: "INPUT_OBJECT", Desc: "Indicates this type is an input object. `inputFields` is a valid field."},
		{Name: "LIST", Desc: "Indicates this type is a list. `ofType` is a valid field."},
		{Name: "NON_NULL", Desc: "Indicates this type is a non-null. `ofType` is a valid field."},
	}
}

// directiveLocations returns the values of __DirectiveLocation.
func directiveLocations() []schema.EnumValue {
	var out []schema.EnumValue
	for _, l := range [][2]string{
		{"QUERY", "a query operation"}, {"MUTATION", "a mutation operation"}, {"SUBSCRIPTION", "a subscription operation"},
		{"FIELD", "a field"}, {"FRAGMENT_DEFINITION", "a fragment definition"}, {"FRAGMENT_SPREAD", "a fragment spread"},
		{"INLINE_FRAGMENT", "an inline fragment"}, {"VARIABLE_DEFINITION", "a variable definition"},
		{"SCHEMA", "a schema definition"}, {"SCALAR", "a scalar definition"}, {"OBJECT", "an object type definition"},
		{"FIELD_DEFINITION", "a field definition"}, {"ARGUMENT_DEFINITION", "an argument definition"},
		{"INTERFACE", "an interface definition"}, {"UNION", "a union definition"}, {"ENUM", "an enum definition"},
		{"ENUM_VALUE", "an enum value definition"}, {"INPUT_OBJECT", "an input object type definition"},
		{"INPUT_FIELD_DEFINITION", "an input object field definition"}, {"DIRECTIVE_DEFINITION", "a directive definition"},
	} {
		out = append(out, schema.EnumValue{Name: l[0], Desc: "Location adjacent to " + l[1] + "."})
	}
	return out
}
