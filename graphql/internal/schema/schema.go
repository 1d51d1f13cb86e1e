package schema

import "context"

// Schema is the compiled schema as a whole: what planning and execution
// read of it (its entry points and the introspection fields every query
// type has), and what introspection reads besides its types' nodes.
type Schema struct {
	Query    *Object
	Mutation *Object // nil when the schema has no mutations
	// Typename is String!, the type of __typename.
	Typename *Type
	// SchemaField and TypeField are the query type's __schema and __type.
	SchemaField, TypeField *Field
	// Named holds every named type by name.
	Named map[string]*Type
	// Abstract: the schema has an interface or a union.
	Abstract bool
	// PointerEnums: some enum has pointer internal values.
	PointerEnums bool

	// BatchParents makes the parents of a batch call: the value its
	// resolver is given (a graphql.BatchParents) and its items, to fill.
	BatchParents func(n int) (parents any, items []any)
	// StartField and EndField show tracer, a graphql.Tracer that the
	// executor holds as it was given (wrapping it would cost an allocation
	// per execution), a field that runs its resolver.
	StartField func(tracer any, ctx context.Context, info Info) context.Context
	EndField   func(tracer any, ctx context.Context, info Info, err error)

	// Description is the schema's description, "" for none.
	Description string
	// Types holds every named type, introspection types included, in
	// graphql-js's collection order (that of graphql.Schema.Types).
	Types []*Type
	// Directives are the directives the schema has, in graphql-js's order.
	Directives []*Directive
}

// Directive is a directive definition.
type Directive struct {
	Name      string
	Desc      string
	Locations []string // __DirectiveLocation names
	Args      []*Arg
}
