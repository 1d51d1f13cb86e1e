// Package exec holds the parts of executing an operation that know
// nothing of the schema's types: reading a field from its parent's Go
// value, the default resolver ([FieldReader]), the direct reads of leaf
// fields from a struct's memory ([DirectRead]), and what a panic or an
// error from user code becomes ([Recovered], [BoundedError]).
//
// The executor that walks a plan and completes values by their GraphQL
// type is package graphql's; it reads fields with these.
package exec
