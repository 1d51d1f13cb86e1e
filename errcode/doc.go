// Package errcode holds the kit's error values: the codes clients read in
// extensions.code, their HTTP statuses and default messages, the
// client-safe [Error] that resolvers and handlers return, and the
// [PanicError] that wraps a recovered panic.
//
// It sits below both sides: it imports neither net/http nor a logger (of
// the kit, only package validate, for the summary of a validation
// failure), so that the GraphQL engine (package graphql) and the HTTP
// layers (graphqlhttp, errors) share one table of codes. Applications usually reach these
// values through package errors, imported as apierror, which declares
// them again beside the presenter; both names denote the same types and
// values.
package errcode
