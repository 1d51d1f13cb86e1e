// Package introspection is GraphQL's introspection over a compiled
// schema: the types __Schema, __Type, __Field, __InputValue, __EnumValue,
// __Directive, __TypeKind and __DirectiveLocation, built directly as
// compiled nodes (package schema) whose resolvers read only the compiled
// schema, with graphql-js 16's descriptions, and the query type's __schema
// and __type fields; and the directives every schema has.
//
// Package graphql calls [New] before it collects the schema's types: it
// mirrors the introspection types with public definitions (so that
// Schema.Types lists them, and its collection order, its name checks and
// the validation schema see them as graphql-js does), and fills the
// [schema.Schema] the resolvers read once the schema is compiled.
//
// The parent values of the objects are *schema.Type for __Type,
// *schema.Field for __Field, *schema.Arg for __InputValue (arguments and
// input fields), *schema.EnumValue for __EnumValue and *schema.Directive
// for __Directive; __Schema reads the schema given to New, whatever its
// parent.
package introspection
