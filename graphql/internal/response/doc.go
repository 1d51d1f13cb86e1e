// Package response writes the JSON text of a GraphQL response as
// graphql-js writes it, byte for byte: strings escaped as JSON.stringify
// escapes them ([AppendString]), numbers as JavaScript prints them
// ([AppendFloat], [NumberString]), a custom scalar's serialised value
// ([AppendValue]) and error objects ([AppendError]). It also renders
// values for error messages as graphql-js's inspect does ([Inspect]), and
// keeps the response path of the value being written ([PathSeg],
// [PathIndexes]).
//
// The executor (package exec) appends the data with these; package
// graphql's Result.AppendJSON writes the whole response with them.
package response
