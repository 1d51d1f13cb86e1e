// Package errcode holds the kit's error values: the codes clients read in
// extensions.code, their HTTP statuses and default messages, the
// client-safe [Error] that resolvers and handlers return, the
// [ErrNotFound] sentinel, and the [PanicError] that wraps a recovered
// panic. Every package of the kit shares them; package errors (imported
// as apierror) presents them to clients.
//
// Of the kit it imports only package validate (a leaf, for the wording of
// validation summaries), and neither net/http nor a logger, so that the
// GraphQL engine (package graphql), the stores and the HTTP layers can all
// use one table of codes.
//
// # Returning errors
//
// A resolver or handler returns an [Error] when the client should learn
// what went wrong:
//
//	return nil, errcode.Forbidden("You can only delete your own articles.")
//	return nil, errcode.NotFound("")                         // "Not found."
//	return nil, errcode.ValidationFailed("", map[string][]string{
//		"input.title": {"The title field is required."},
//	})
//
// [New] builds one with any [Code]; a literal [Error] can add a Status, extra
// GraphQL extensions, or a cause (Err) that is logged but never shown.
// Stores and libraries need not import this package to be understood: the
// presenter also recognises [database/sql.ErrNoRows], any [StatusCoder]
// and any [Panic] anywhere in a chain wrapped with %w.
//
// # Validation messages
//
// [ValidationFailed] with an empty message summarises its fields as Laravel
// does: the first message, then " (and N more errors)". Maps have no order,
// so the first field is the first in sorted order; call [Summarize] with the
// fields' declaration order to pick it yourself.
package errcode
