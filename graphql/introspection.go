package graphql

import (
	"context"
)

// introspectionTypes are the __Schema, __Type, … objects of one schema. They
// are ordinary objects with resolvers over the schema's compiled types.
type introspectionTypes struct {
	schema, typ, field, inputValue, enumValue, directive *Object
	typeKind, directiveLocation                          *Enum
}

func (it *introspectionTypes) all() []NamedType {
	return []NamedType{it.schema, it.typ, it.field, it.inputValue, it.enumValue, it.directive, it.typeKind, it.directiveLocation}
}

// typeRef is the parent value of __Type: a named type or a wrapper.
type typeRef struct{ t Type }

func describe(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func reasonOf(r string) any {
	if r == "" {
		return nil
	}
	return r
}

func includeDeprecated(args Args) bool { return args.Bool("includeDeprecated") }

func newIntrospectionTypes(s *Schema) *introspectionTypes {
	it := &introspectionTypes{}
	kinds := []EnumValue{
		{Name: "SCALAR", Description: "Indicates this type is a scalar."},
		{Name: "OBJECT", Description: "Indicates this type is an object. `fields` and `interfaces` are valid fields."},
		{Name: "INTERFACE", Description: "Indicates this type is an interface. `fields`, `interfaces`, and `possibleTypes` are valid fields."},
		{Name: "UNION", Description: "Indicates this type is a union. `possibleTypes` is a valid field."},
		{Name: "ENUM", Description: "Indicates this type is an enum. `enumValues` is a valid field."},
		{Name: "INPUT_OBJECT", Description: "Indicates this type is an input object. `inputFields` is a valid field."},
		{Name: "LIST", Description: "Indicates this type is a list. `ofType` is a valid field."},
		{Name: "NON_NULL", Description: "Indicates this type is a non-null. `ofType` is a valid field."},
	}
	it.typeKind = &Enum{Name: "__TypeKind", Description: "An enum describing what kind of type a given `__Type` is.", Values: kinds}
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
	it.directiveLocation = &Enum{Name: "__DirectiveLocation",
		Description: "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation describes one such possible adjacencies.",
		Values:      locs}

	nnString := NewNonNull(String)
	nnBool := NewNonNull(Boolean)
	inclDepr := []Argument{{Name: "includeDeprecated", Type: Boolean, Default: false}}

	it.schema = &Object{Name: "__Schema",
		Description: "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types and directives on the server, as well as the entry points for query, mutation, and subscription operations.",
		Fields: FieldsFunc(func() Fields {
			return Fields{
				{Name: "description", Type: String, Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) {
					return describe(s.description), nil
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
					Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) { return typeRef{s.query.obj}, nil }},
				{Name: "mutationType", Type: it.typ, Description: "If this server supports mutation, the type that mutation operations will be rooted at.",
					Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) {
						if s.mutation == nil {
							return nil, nil
						}
						return typeRef{s.mutation.obj}, nil
					}},
				{Name: "subscriptionType", Type: it.typ, Description: "If this server support subscription, the type that subscription operations will be rooted at.",
					Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) { return nil, nil }},
				{Name: "directives", Type: NewNonNull(NewList(NewNonNull(it.directive))), Description: "A list of all directives supported by this server.",
					Args:    []Argument{{Name: "includeDeprecated", Type: nnBool, Default: false}},
					Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) { return specifiedDirectives(), nil }},
			}
		})}

	it.typ = &Object{Name: "__Type",
		Description: "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL as represented by the `__TypeKind` enum.\n\nDepending on the kind of a type, certain fields describe information about that type. Scalar types provide no information beyond a name, description and optional `specifiedByURL`, while Enum types provide their values. Object and Interface types provide the fields they describe. Abstract types, Union and Interface, provide the Object types possible at runtime. List and NonNull types compose other types.",
		Fields: FieldsFunc(func() Fields {
			ref := func(p any) Type { return p.(typeRef).t }
			return Fields{
				{Name: "kind", Type: NewNonNull(it.typeKind), Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					switch ref(p).(type) {
					case BuiltinScalar, *Scalar:
						return "SCALAR", nil
					case *Object:
						return "OBJECT", nil
					case *Enum:
						return "ENUM", nil
					case *InputObject:
						return "INPUT_OBJECT", nil
					case *List:
						return "LIST", nil
					}
					return "NON_NULL", nil
				}},
				{Name: "name", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					if nt, ok := ref(p).(NamedType); ok {
						return nt.TypeName(), nil
					}
					return nil, nil
				}},
				{Name: "description", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					switch x := ref(p).(type) {
					case BuiltinScalar:
						return describe(x.Description()), nil
					case *Scalar:
						return describe(x.Description), nil
					case *Object:
						return describe(x.Description), nil
					case *Enum:
						return describe(x.Description), nil
					case *InputObject:
						return describe(x.Description), nil
					}
					return nil, nil
				}},
				{Name: "specifiedByURL", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					if sc, ok := ref(p).(*Scalar); ok {
						return describe(sc.SpecifiedByURL), nil
					}
					return nil, nil
				}},
				{Name: "fields", Type: NewList(NewNonNull(it.field)), Args: inclDepr,
					Resolve: func(_ context.Context, p any, args Args, _ ResolveInfo) (any, error) {
						o, ok := ref(p).(*Object)
						if !ok {
							return nil, nil
						}
						out := []*fieldInfo{}
						for _, f := range s.objects[o].fields {
							if f.depr == "" || includeDeprecated(args) {
								out = append(out, f)
							}
						}
						return out, nil
					}},
				{Name: "interfaces", Type: NewList(NewNonNull(it.typ)), Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					if _, ok := ref(p).(*Object); ok {
						return []typeRef{}, nil
					}
					return nil, nil
				}},
				{Name: "possibleTypes", Type: NewList(NewNonNull(it.typ)), Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) {
					return nil, nil
				}},
				{Name: "enumValues", Type: NewList(NewNonNull(it.enumValue)), Args: inclDepr,
					Resolve: func(_ context.Context, p any, args Args, _ ResolveInfo) (any, error) {
						e, ok := ref(p).(*Enum)
						if !ok {
							return nil, nil
						}
						out := []*EnumValue{}
						for i := range e.Values {
							if e.Values[i].DeprecationReason == "" || includeDeprecated(args) {
								out = append(out, &e.Values[i])
							}
						}
						return out, nil
					}},
				{Name: "inputFields", Type: NewList(NewNonNull(it.inputValue)), Args: inclDepr,
					Resolve: func(_ context.Context, p any, args Args, _ ResolveInfo) (any, error) {
						o, ok := ref(p).(*InputObject)
						if !ok {
							return nil, nil
						}
						return filterArgs(s.inputs[o].fields, includeDeprecated(args)), nil
					}},
				{Name: "ofType", Type: it.typ, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					switch x := ref(p).(type) {
					case *List:
						return typeRef{x.OfType}, nil
					case *NonNull:
						return typeRef{x.OfType}, nil
					}
					return nil, nil
				}},
				{Name: "isOneOf", Type: Boolean, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					if _, ok := ref(p).(*InputObject); ok {
						return false, nil
					}
					return nil, nil
				}},
			}
		})}

	it.field = &Object{Name: "__Field",
		Description: "Object and Interface types are described by a list of Fields, each of which has a name, potentially a list of arguments, and a return type.",
		Fields: FieldsFunc(func() Fields {
			f := func(p any) *fieldInfo { return p.(*fieldInfo) }
			return Fields{
				{Name: "name", Type: nnString, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) { return f(p).name, nil }},
				{Name: "description", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return describe(f(p).desc), nil
				}},
				{Name: "args", Type: NewNonNull(NewList(NewNonNull(it.inputValue))), Args: inclDepr,
					Resolve: func(_ context.Context, p any, args Args, _ ResolveInfo) (any, error) {
						return filterArgs(f(p).args, includeDeprecated(args)), nil
					}},
				{Name: "type", Type: NewNonNull(it.typ), Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return typeRef{f(p).typ}, nil
				}},
				{Name: "isDeprecated", Type: nnBool, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return f(p).depr != "", nil
				}},
				{Name: "deprecationReason", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return reasonOf(f(p).depr), nil
				}},
			}
		})}

	it.inputValue = &Object{Name: "__InputValue",
		Description: "Arguments provided to Fields or Directives and the input fields of an InputObject are represented as Input Values which describe their type and optionally a default value.",
		Fields: FieldsFunc(func() Fields {
			a := func(p any) *argInfo { return p.(*argInfo) }
			return Fields{
				{Name: "name", Type: nnString, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) { return a(p).name, nil }},
				{Name: "description", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return describe(a(p).desc), nil
				}},
				{Name: "type", Type: NewNonNull(it.typ), Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return typeRef{a(p).typ}, nil
				}},
				{Name: "defaultValue", Type: String, Description: "A GraphQL-formatted string representing the default value for this input value.",
					Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
						if a(p).defAST == nil {
							return nil, nil
						}
						return printValue(a(p).defAST), nil
					}},
				{Name: "isDeprecated", Type: nnBool, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return a(p).depr != "", nil
				}},
				{Name: "deprecationReason", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return reasonOf(a(p).depr), nil
				}},
			}
		})}

	it.enumValue = &Object{Name: "__EnumValue",
		Description: "One possible value for a given Enum. Enum values are unique values, not a placeholder for a string or numeric value. However an Enum value is returned in a JSON response as a string.",
		Fields: FieldsFunc(func() Fields {
			v := func(p any) *EnumValue { return p.(*EnumValue) }
			return Fields{
				{Name: "name", Type: nnString, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) { return v(p).Name, nil }},
				{Name: "description", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return describe(v(p).Description), nil
				}},
				{Name: "isDeprecated", Type: nnBool, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return v(p).DeprecationReason != "", nil
				}},
				{Name: "deprecationReason", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return reasonOf(v(p).DeprecationReason), nil
				}},
			}
		})}

	it.directive = &Object{Name: "__Directive",
		Description: "A Directive provides a way to describe alternate runtime execution and type validation behavior in a GraphQL document.\n\nIn some cases, you need to provide options to alter GraphQL's execution behavior in ways field arguments will not suffice, such as conditionally including or skipping a field. Directives provide this by describing additional information to the executor.",
		Fields: FieldsFunc(func() Fields {
			d := func(p any) *directiveInfo { return p.(*directiveInfo) }
			return Fields{
				{Name: "name", Type: nnString, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) { return d(p).name, nil }},
				{Name: "description", Type: String, Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) {
					return describe(d(p).desc), nil
				}},
				{Name: "isRepeatable", Type: nnBool, Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) { return false, nil }},
				{Name: "locations", Type: NewNonNull(NewList(NewNonNull(it.directiveLocation))),
					Resolve: func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) { return d(p).locations, nil }},
				{Name: "args", Type: NewNonNull(NewList(NewNonNull(it.inputValue))), Args: inclDepr,
					Resolve: func(_ context.Context, p any, args Args, _ ResolveInfo) (any, error) {
						return filterArgs(d(p).args, includeDeprecated(args)), nil
					}},
				{Name: "isDeprecated", Type: nnBool, Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) { return false, nil }},
				{Name: "deprecationReason", Type: String, Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) { return nil, nil }},
			}
		})}
	return it
}

func filterArgs(args []*argInfo, withDeprecated bool) []*argInfo {
	out := []*argInfo{}
	for _, a := range args {
		if a.depr == "" || withDeprecated {
			out = append(out, a)
		}
	}
	return out
}
