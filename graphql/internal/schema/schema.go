package schema

// Schema is what planning and execution read of a whole compiled schema:
// its entry points and the introspection fields every query type has.
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

	// SchemaValue is the value of __schema; TypeValue returns the value of
	// __type(name:), nil when no type has the name. Introspection's
	// resolvers read them.
	SchemaValue any
	TypeValue   func(name string) any
	// BatchParents makes the parents of a batch call: the value its
	// resolver is given (a graphql.BatchParents) and its items, to fill.
	BatchParents func(n int) (parents any, items []any)
}
