// Package coerce turns input values into the values resolvers receive:
// the variables of a request (from JSON or a Go caller's map), the
// literals of a document (arguments, defaults of variables, input
// objects), and the defaults of arguments and input fields; then runs the
// declarative rules of arguments before a field's resolver. It reads only
// the compiled schema (package schema), never package graphql's public
// definitions.
//
// Coerced values are built of map[string]any for input objects, []any for
// lists, the schema's internal values for enums, and whatever built-in or
// custom scalars parse to; [Clone] copies them for a caller that may
// change them.
package coerce
