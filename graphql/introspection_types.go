package graphql

import (
	"context"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// The introspection types, one constructor each, with graphql-js 16's
// descriptions. Their fields are thunks, so that the types can refer to each
// other: newIntrospectionTypes makes all of them before NewSchema reads any
// field.

// newTypeKindEnum makes __TypeKind.
func newTypeKindEnum() *Enum {
	return &Enum{Name: "__TypeKind", Description: "An enum describing what kind of type a given `__Type` is.", Values: []EnumValue{
		{Name: "SCALAR", Description: "Indicates this type is a scalar."},
		{Name: "OBJECT", Description: "Indicates this type is an object. `fields` and `interfaces` are valid fields."},
		{Name: "INTERFACE", Description: "Indicates this type is an interface. `fields`, `interfaces`, and `possibleTypes` are valid fields."},
		{Name: "UNION", Description: "Indicates this type is a union. `possibleTypes` is a valid field."},
		{Name: "ENUM", Description: "Indicates this type is an enum. `enumValues` is a valid field."},
		{Name: "INPUT_OBJECT", Description: "Indicates this type is an input object. `inputFields` is a valid field."},
		{Name: "LIST", Description: "Indicates this type is a list. `ofType` is a valid field."},
		{Name: "NON_NULL", Description: "Indicates this type is a non-null. `ofType` is a valid field."},
	}}
}

// newDirectiveLocationEnum makes __DirectiveLocation.
func newDirectiveLocationEnum() *Enum {
	var locs []EnumValue
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
		locs = append(locs, EnumValue{Name: l[0], Description: "Location adjacent to " + l[1] + "."})
	}
	return &Enum{Name: "__DirectiveLocation",
		Description: "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation describes one such possible adjacencies.",
		Values:      locs}
}

// newSchemaObject makes __Schema, whose resolvers read s.
func (it *introspectionTypes) newSchemaObject(s *Schema) *Object {
	return &Object{Name: "__Schema",
		Description: "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types and directives on the server, as well as the entry points for query, mutation, and subscription operations.",
		Fields: FieldsFunc(func() Fields {
			return Fields{
				{Name: "description", Type: String, Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) {
					return nullIfEmpty(s.description), nil
				}},
				{Name: "types", Type: NewNonNull(NewList(NewNonNull(it.typ))), Description: "A list of all types supported by this server.",
					Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) {
						out := make([]typeRef, len(s.types))
						for i, t := range s.types {
							out[i] = typeRef{t}
						}
						return out, nil
					}},
				{Name: "queryType", Type: NewNonNull(it.typ), Description: "The type that query operations will be rooted at.",
					Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) { return typeRef{objectDef(s.c.Query)}, nil }},
				{Name: "mutationType", Type: it.typ, Description: "If this server supports mutation, the type that mutation operations will be rooted at.",
					Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) {
						if s.c.Mutation == nil {
							return nil, nil
						}
						return typeRef{objectDef(s.c.Mutation)}, nil
					}},
				{Name: "subscriptionType", Type: it.typ, Description: "If this server support subscription, the type that subscription operations will be rooted at.",
					Resolve: always(nil)},
				{Name: "directives", Type: NewNonNull(NewList(NewNonNull(it.directive))), Description: "A list of all directives supported by this server.",
					Args:    []Argument{{Name: "includeDeprecated", Type: NewNonNull(Boolean), Default: false}},
					Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) { return s.specifiedDirectives(), nil }},
			}
		})}
}

// newTypeObject makes __Type, whose parent values are typeRefs.
func (it *introspectionTypes) newTypeObject(s *Schema) *Object {
	return &Object{Name: "__Type",
		Description: "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL as represented by the `__TypeKind` enum.\n\nDepending on the kind of a type, certain fields describe information about that type. Scalar types provide no information beyond a name, description and optional `specifiedByURL`, while Enum types provide their values. Object and Interface types provide the fields they describe. Abstract types, Union and Interface, provide the Object types possible at runtime. List and NonNull types compose other types.",
		Fields: FieldsFunc(func() Fields {
			inclDepr := includeDeprecatedArgs()
			return Fields{
				{Name: "kind", Type: NewNonNull(it.typeKind), Resolve: resolveOn(typeRef.kind)},
				{Name: "name", Type: String, Resolve: resolveOn(typeRef.name)},
				{Name: "description", Type: String, Resolve: resolveOn(typeRef.description)},
				{Name: "specifiedByURL", Type: String, Resolve: resolveOn(typeRef.specifiedByURL)},
				{Name: "fields", Type: NewList(NewNonNull(it.field)), Args: inclDepr, Resolve: resolveListOn(s.introFields)},
				{Name: "interfaces", Type: NewList(NewNonNull(it.typ)), Resolve: resolveOn(typeRef.interfaces)},
				{Name: "possibleTypes", Type: NewList(NewNonNull(it.typ)), Resolve: resolveOn(s.introPossibleTypes)},
				{Name: "enumValues", Type: NewList(NewNonNull(it.enumValue)), Args: inclDepr, Resolve: resolveListOn(typeRef.enumValues)},
				{Name: "inputFields", Type: NewList(NewNonNull(it.inputValue)), Args: inclDepr, Resolve: resolveListOn(s.introInputFields)},
				{Name: "ofType", Type: it.typ, Resolve: resolveOn(typeRef.ofType)},
				{Name: "isOneOf", Type: Boolean, Resolve: resolveOn(typeRef.isOneOf)},
			}
		})}
}

// newFieldObject makes __Field, whose parent values are *fieldInfo.
func (it *introspectionTypes) newFieldObject() *Object {
	return &Object{Name: "__Field",
		Description: "Object and Interface types are described by a list of Fields, each of which has a name, potentially a list of arguments, and a return type.",
		Fields: FieldsFunc(func() Fields {
			return append(Fields{
				{Name: "name", Type: NewNonNull(String), Resolve: resolveOn(func(f *fieldInfo) any { return f.Name })},
				{Name: "description", Type: String, Resolve: resolveOn(func(f *fieldInfo) any { return nullIfEmpty(f.Desc) })},
				{Name: "args", Type: NewNonNull(NewList(NewNonNull(it.inputValue))), Args: includeDeprecatedArgs(),
					Resolve: resolveListOn(func(f *fieldInfo, withDeprecated bool) any { return filterArgs(f.Args, withDeprecated) })},
				{Name: "type", Type: NewNonNull(it.typ), Resolve: resolveOn(func(f *fieldInfo) any { return typeRef{defOf(f.Type)} })},
			}, deprecationFields(func(f *fieldInfo) string { return f.Depr })...)
		})}
}

// newInputValueObject makes __InputValue, whose parent values are
// *argInfo: arguments and input fields.
func (it *introspectionTypes) newInputValueObject() *Object {
	return &Object{Name: "__InputValue",
		Description: "Arguments provided to Fields or Directives and the input fields of an InputObject are represented as Input Values which describe their type and optionally a default value.",
		Fields: FieldsFunc(func() Fields {
			return append(Fields{
				{Name: "name", Type: NewNonNull(String), Resolve: resolveOn(func(a *argInfo) any { return a.Name })},
				{Name: "description", Type: String, Resolve: resolveOn(func(a *argInfo) any { return nullIfEmpty(a.Desc) })},
				{Name: "type", Type: NewNonNull(it.typ), Resolve: resolveOn(func(a *argInfo) any { return typeRef{defOf(a.Type)} })},
				{Name: "defaultValue", Type: String, Description: "A GraphQL-formatted string representing the default value for this input value.",
					Resolve: resolveOn(func(a *argInfo) any {
						if a.DefaultAST == nil {
							return nil
						}
						return syntax.PrintValue(a.DefaultAST)
					})},
			}, deprecationFields(func(a *argInfo) string { return a.Depr })...)
		})}
}

// newEnumValueObject makes __EnumValue, whose parent values are *EnumValue.
func (it *introspectionTypes) newEnumValueObject() *Object {
	return &Object{Name: "__EnumValue",
		Description: "One possible value for a given Enum. Enum values are unique values, not a placeholder for a string or numeric value. However an Enum value is returned in a JSON response as a string.",
		Fields: FieldsFunc(func() Fields {
			return append(Fields{
				{Name: "name", Type: NewNonNull(String), Resolve: resolveOn(func(v *EnumValue) any { return v.Name })},
				{Name: "description", Type: String, Resolve: resolveOn(func(v *EnumValue) any { return nullIfEmpty(v.Description) })},
			}, deprecationFields(func(v *EnumValue) string { return v.DeprecationReason })...)
		})}
}

// newDirectiveObject makes __Directive, whose parent values are
// *directiveInfo. No directive is deprecated or repeatable.
func (it *introspectionTypes) newDirectiveObject() *Object {
	return &Object{Name: "__Directive",
		Description: "A Directive provides a way to describe alternate runtime execution and type validation behavior in a GraphQL document.\n\nIn some cases, you need to provide options to alter GraphQL's execution behavior in ways field arguments will not suffice, such as conditionally including or skipping a field. Directives provide this by describing additional information to the executor.",
		Fields: FieldsFunc(func() Fields {
			return Fields{
				{Name: "name", Type: NewNonNull(String), Resolve: resolveOn(func(d *directiveInfo) any { return d.name })},
				{Name: "description", Type: String, Resolve: resolveOn(func(d *directiveInfo) any { return nullIfEmpty(d.desc) })},
				{Name: "isRepeatable", Type: NewNonNull(Boolean), Resolve: always(false)},
				{Name: "locations", Type: NewNonNull(NewList(NewNonNull(it.directiveLocation))),
					Resolve: resolveOn(func(d *directiveInfo) any { return d.locations })},
				{Name: "args", Type: NewNonNull(NewList(NewNonNull(it.inputValue))), Args: includeDeprecatedArgs(),
					Resolve: resolveListOn(func(d *directiveInfo, withDeprecated bool) any { return filterArgs(d.args, withDeprecated) })},
				{Name: "isDeprecated", Type: NewNonNull(Boolean), Resolve: always(false)},
				{Name: "deprecationReason", Type: String, Resolve: always(nil)},
			}
		})}
}

// deprecationFields makes the isDeprecated and deprecationReason fields of
// an introspection type whose parent values P have a deprecation reason.
func deprecationFields[P any](reason func(P) string) Fields {
	return Fields{
		{Name: "isDeprecated", Type: NewNonNull(Boolean), Resolve: resolveOn(func(p P) any { return reason(p) != "" })},
		{Name: "deprecationReason", Type: String, Resolve: resolveOn(func(p P) any { return nullIfEmpty(reason(p)) })},
	}
}
