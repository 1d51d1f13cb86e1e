// Package scalar is the five built-in scalars (Int, Float, String,
// Boolean, ID) as the engine coerces and writes them, with graphql-js's
// rules and messages: input values ([Parse]), literals ([ParseLiteral])
// and resolved values ([Append], and [AppendValue] for a reflect.Value
// without boxing it). Package graphql's BuiltinScalar constants convert to
// [Kind].
package scalar
