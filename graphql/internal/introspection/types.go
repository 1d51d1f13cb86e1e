package introspection

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// Types are the introspection types of one schema and the query type's
// introspection fields.
type Types struct {
	Schema, Type, Field, InputValue, EnumValue, Directive *schema.Type // the objects
	TypeKind, DirectiveLocation                           *schema.Type // the enums
	// SchemaField and TypeField are the query type's __schema and __type
	// fields, which the planner and the executor answer themselves: they
	// have no resolver.
	SchemaField, TypeField *schema.Field
}

// All returns the introspection types.
func (it *Types) All() []*schema.Type {
	return []*schema.Type{it.Schema, it.Type, it.Field, it.InputValue, it.EnumValue, it.Directive, it.TypeKind, it.DirectiveLocation}
}

// New makes the introspection types of s, their fields typed with
// boolean and str, the schema's Boolean and String. The resolvers read s
// when they run, so it may be filled once the schema is compiled.
func New(s *schema.Schema, boolean, str *schema.Type) *Types {
	it := &Types{
		Schema:            newObject("__Schema", descSchema),
		Type:              newObject("__Type", descType),
		Field:             newObject("__Field", descField),
		InputValue:        newObject("__InputValue", descInputValue),
		EnumValue:         newObject("__EnumValue", descEnumValue),
		Directive:         newObject("__Directive", descDirective),
		TypeKind:          newEnum("__TypeKind", descTypeKind, typeKinds()),
		DirectiveLocation: newEnum("__DirectiveLocation", descDirectiveLocation, directiveLocations()),
	}
	r := resolvers{s: s}
	types := func(t *schema.Type) *schema.Type { return list(nonNull(t)) }
	setFields(it.Schema,
		field("description", "", str, r.schemaDescription),
		field("types", "A list of all types supported by this server.", nonNull(types(it.Type)), r.types),
		field("queryType", "The type that query operations will be rooted at.", nonNull(it.Type), r.queryType),
		field("mutationType", "If this server supports mutation, the type that mutation operations will be rooted at.", it.Type, r.mutationType),
		field("subscriptionType", "If this server support subscription, the type that subscription operations will be rooted at.", it.Type, always(nil)),
		field("directives", "A list of all directives supported by this server.", nonNull(types(it.Directive)), r.directives,
			includeDeprecated(nonNull(boolean))))
	setFields(it.Type,
		field("kind", "", nonNull(it.TypeKind), on(typeKind)),
		field("name", "", str, on(typeName)),
		field("description", "", str, on(func(t *schema.Type) any { return nullIfEmpty(t.Description) })),
		field("specifiedByURL", "", str, on(func(t *schema.Type) any { return nullIfEmpty(t.SpecifiedByURL) })),
		field("fields", "", types(it.Field), listOn(typeFields), includeDeprecated(boolean)),
		field("interfaces", "", types(it.Type), on(typeInterfaces)),
		field("possibleTypes", "", types(it.Type), on(possibleTypes)),
		field("enumValues", "", types(it.EnumValue), listOn(enumValues), includeDeprecated(boolean)),
		field("inputFields", "", types(it.InputValue), listOn(inputFields), includeDeprecated(boolean)),
		field("ofType", "", it.Type, on(ofType)),
		field("isOneOf", "", boolean, on(isOneOf)))
	setFields(it.Field, append([]*schema.Field{
		field("name", "", nonNull(str), on(func(f *schema.Field) any { return f.Name })),
		field("description", "", str, on(func(f *schema.Field) any { return nullIfEmpty(f.Desc) })),
		field("args", "", nonNull(types(it.InputValue)), listOn(func(f *schema.Field, withDeprecated bool) any {
			return filterArgs(f.Args, withDeprecated)
		}), includeDeprecated(boolean)),
		field("type", "", nonNull(it.Type), on(func(f *schema.Field) any { return f.Type })),
	}, deprecation(boolean, str, func(f *schema.Field) string { return f.Depr })...)...)
	setFields(it.InputValue, append([]*schema.Field{
		field("name", "", nonNull(str), on(func(a *schema.Arg) any { return a.Name })),
		field("description", "", str, on(func(a *schema.Arg) any { return nullIfEmpty(a.Desc) })),
		field("type", "", nonNull(it.Type), on(func(a *schema.Arg) any { return a.Type })),
		field("defaultValue", "A GraphQL-formatted string representing the default value for this input value.", str, on(defaultValue)),
	}, deprecation(boolean, str, func(a *schema.Arg) string { return a.Depr })...)...)
	setFields(it.EnumValue, append([]*schema.Field{
		field("name", "", nonNull(str), on(func(v *schema.EnumValue) any { return v.Name })),
		field("description", "", str, on(func(v *schema.EnumValue) any { return nullIfEmpty(v.Desc) })),
	}, deprecation(boolean, str, func(v *schema.EnumValue) string { return v.Depr })...)...)
	// No directive is deprecated or repeatable.
	setFields(it.Directive,
		field("name", "", nonNull(str), on(func(d *schema.Directive) any { return d.Name })),
		field("description", "", str, on(func(d *schema.Directive) any { return nullIfEmpty(d.Desc) })),
		field("isRepeatable", "", nonNull(boolean), always(false)),
		field("locations", "", nonNull(types(it.DirectiveLocation)), on(func(d *schema.Directive) any { return d.Locations })),
		field("args", "", nonNull(types(it.InputValue)), listOn(func(d *schema.Directive, withDeprecated bool) any {
			return filterArgs(d.Args, withDeprecated)
		}), includeDeprecated(boolean)),
		field("isDeprecated", "", nonNull(boolean), always(false)),
		field("deprecationReason", "", str, always(nil)))
	it.SchemaField = &schema.Field{Name: "__schema", Type: nonNull(it.Schema), Coord: "Query.__schema"}
	it.TypeField = &schema.Field{Name: "__type", Type: it.Type, Coord: "Query.__type",
		Args: []*schema.Arg{{Name: "name", Type: nonNull(str)}}}
	return it
}

// newObject makes an introspection object without its fields.
func newObject(name, desc string) *schema.Type {
	t := &schema.Type{Kind: schema.KindObject, Name: name, Description: desc}
	t.Object = &schema.Object{Type: t, Name: name, ByName: map[string]*schema.Field{}}
	return t
}

// newEnum makes an introspection enum, whose internal values are the
// values' names.
func newEnum(name, desc string, values []schema.EnumValue) *schema.Type {
	e := &schema.Enum{Values: values, ByName: map[string]any{}, ByValue: map[any]string{}}
	for _, v := range values {
		e.ByName[v.Name], e.ByValue[v.Name] = v.Name, v.Name
	}
	return &schema.Type{Kind: schema.KindEnum, Name: name, Description: desc, Enum: e}
}

// field makes a field of an introspection object.
func field(name, desc string, t *schema.Type, r schema.Resolver, args ...*schema.Arg) *schema.Field {
	return &schema.Field{Name: name, Desc: desc, Type: t, Resolve: r, Args: args, Cost: schema.Cost{Weight: 1, Size: 1}}
}

// setFields gives object o its fields, with their coordinates.
func setFields(o *schema.Type, fields ...*schema.Field) {
	for _, f := range fields {
		f.Coord = o.Name + "." + f.Name
		f.Read.Name = f.Name
		for _, a := range f.Args {
			a.Owner = "field " + f.Coord
		}
		o.Object.Fields = append(o.Object.Fields, f)
		o.Object.ByName[f.Name] = f
	}
}

// includeDeprecated is the argument of a list field that leaves
// deprecated items out unless asked, of type t (Boolean or Boolean!).
func includeDeprecated(t *schema.Type) *schema.Arg {
	return &schema.Arg{Name: "includeDeprecated", Type: t, HasDefault: true, Default: false,
		DefaultAST: &ast.Value{Kind: ast.BooleanValue, Raw: "false"}}
}

// deprecation makes the isDeprecated and deprecationReason fields of an
// introspection object whose parent values P have a deprecation reason.
func deprecation[P any](boolean, str *schema.Type, reason func(P) string) []*schema.Field {
	return []*schema.Field{
		field("isDeprecated", "", nonNull(boolean), on(func(p P) any { return reason(p) != "" })),
		field("deprecationReason", "", str, on(func(p P) any { return nullIfEmpty(reason(p)) })),
	}
}

func nonNull(t *schema.Type) *schema.Type { return &schema.Type{Kind: schema.KindNonNull, Of: t} }
func list(t *schema.Type) *schema.Type    { return &schema.Type{Kind: schema.KindList, Of: t} }
