// Package errors turns any error into what a client may see, for GraphQL
// and for REST alike: it masks what clients must not read, logs each error
// once, runs the application's hooks, and writes GraphQL errors and REST
// bodies. The codes and the client-safe errors that resolvers and handlers
// return live in package [github.com/gqlkit/gqlkit/errcode], which every
// package of the kit shares.
//
// # Importing
//
// The package is named errors, like the standard library's, and code that
// presents errors nearly always needs the standard one too. Import it
// under the alias apierror, the name every gqlkit file, example and document
// uses:
//
//	import (
//		"errors"
//
//		"github.com/gqlkit/gqlkit/errcode"
//		apierror "github.com/gqlkit/gqlkit/errors"
//	)
//
// The package never re-exports standard functions: use errors.Is, errors.As
// and fmt.Errorf from the standard library.
//
// # Errors it recognises
//
// A resolver or handler returns an [errcode.Error] when the client should
// learn what went wrong:
//
//	return nil, errcode.Forbidden("You can only delete your own articles.")
//	return nil, errcode.NotFound("")                         // "Not found."
//	return nil, errcode.ValidationFailed("", map[string][]string{
//		"input.title": {"The title field is required."},
//	})
//
// Three other kinds of errors are recognised anywhere in a chain wrapped with
// %w, so stores and libraries need not know package errcode:
//
//   - "not found" errors: [errcode.ErrNotFound], [database/sql.ErrNoRows] and
//     pgx.ErrNoRows, which matches it, become NOT_FOUND, "Not found.", 404;
//   - HTTP-style errors: any error with a StatusCode() int method
//     ([errcode.StatusCoder]) and a status in 400..499 keeps its Error text
//     as the message and its status; its code comes from
//     [errcode.CodeForStatus] (FORBIDDEN for 403, CONFLICT for 409, ...). An
//     [*http.MaxBytesError] counts as a 413 with the message "The request
//     body is too large.";
//   - recovered panics, as an [errcode.Panic] such as [*errcode.PanicError]
//     (see [errcode.Recovered]).
//
// # What clients see
//
// The presenter looks along the chain (depth first, as [errors.As] does)
// for the first error that decides the answer:
//
//	first decisive error            message                   code                    status
//	*errcode.Error (status < 500)   its Message               its Code                its StatusCode()
//	HTTP-style (status 400..499)    its Error()               CodeForStatus(status)   its status
//	ErrNotFound, sql.ErrNoRows      "Not found."              NOT_FOUND               404
//	*gqlerror.Error without Err     its Message               extensions.code         from the code
//	anything else, panics,          "Internal server error."  INTERNAL_SERVER_ERROR   500
//	statuses of 500 and more
//
// A *gqlerror.Error whose Err is nil was made by the GraphQL engine, parser
// or validator: its message is safe and its extensions are kept (except
// gqlparser's "file"). Without a "code" extension it gets
// GRAPHQL_VALIDATION_FAILED, or INTERNAL_SERVER_ERROR when it has a path (an
// execution error such as a null in a non-null field). A *gqlerror.Error
// whose Err is set is the engine's wrapper around a resolver's error: the
// rules above apply to Err, and the wrapper lends its path and locations.
//
// [Presenter.GraphQL] returns a *gqlerror.Error shaped
// {message, locations?, path?, extensions: {code, status?, validation?}}:
// extensions.status is present for HTTP-style errors and for an
// [errcode.Error] with an explicit Status; extensions.validation holds an
// error's Fields.
//
//	{"message":"Not found.","path":["post"],"extensions":{"code":"NOT_FOUND"}}
//
// [Presenter.REST] and [Presenter.WriteREST] answer with the status and a
// [Body]: {"message": "..."}, plus "errors" with the per-field messages,
// which is Laravel's shape:
//
//	422 {"message":"The body field is required. (and 1 more error)",
//	     "errors":{"body":["The body field is required."],"title":["The title field is required."]}}
//	500 {"message":"Internal server error."}
//
// [Status] and [CodeOf] tell the status and code an error would get,
// without presenting or logging it.
//
// [Presenter.Debug] (development only) shows the real text of masked errors in
// message; the code stays INTERNAL_SERVER_ERROR and the status 500.
//
// # Logging
//
// Each call of a presenting method logs at most one line (and one more for
// each hook that panics; see below) through [log/slog]: to
// [Presenter.Logger], else the logger of the request's reqlog.Handler,
// else [slog.Default]. The line is logged with the request's context, so
// that the service's [slog.Handler] can add what the context holds (a
// trace id), and carries the request id that reqlog gave the request in
// "request_id". A masked error is logged at error level with its full
// text in "error", "code", "status", the GraphQL path in "graphql_path" and,
// for a panic, its value in "panic" and its stack in "stack". A known
// [errcode.Error] with a cause (Err) is logged at info level the same way,
// so that the reason behind, say, a 401 is on record. Nothing else is logged. The
// *gqlerror.Error that GraphQL returns has no cause, so presenting it again
// does not log it twice.
//
// # Hooks
//
// [Presenter.Hooks] is where an application joins in, once for both APIs
// (graphqlhttp.Config.Presenter, articles.Config.Presenter and
// idempotency.Config.Presenter take the same [Presenter] value):
//
//   - Map runs first, on the resolver's or handler's own error, and may
//     replace it, typically with an [errcode.Error] that keeps the original as
//     its Err: a unique violation becomes a 422 VALIDATION_FAILED, a lock
//     timeout a 409 CONFLICT. The rules above then apply to what it
//     returned; a GraphQL error keeps its path and locations. Errors the
//     engine made are not mapped.
//   - Report runs once per masked error, right after its log line (and
//     also when the logger is disabled), with the code, status, GraphQL
//     path, request id, error and, for a panic, stack: the place to feed
//     an error tracker.
//
// A hook cannot drop an error or break an answer: a Map that returns nil
// keeps the error, and a hook that panics is recovered and logged at error
// level with its stack, as if it had not been set.
package errors
