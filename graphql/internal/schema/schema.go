package schema

// Schema is the compiled schema as a whole: what introspection reads of
// it besides its types' nodes.
type Schema struct {
	Description string
	Query       *Object
	Mutation    *Object // nil when the schema has no mutations
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
