// Package graphqlhttp serves a [graphql.Schema] over HTTP as an
// [http.Handler] that any router can mount:
//
//	h, err := graphqlhttp.New(schema, graphqlhttp.Config{
//		Auth: verifier, // *auth.Verifier: the mutation gate
//	})
//	mux.Handle("/api/graphql", h)
//	handler := reqlog.Handler(logger)(mux) // request ids and access lines
//
// # Requests
//
// POST with Content-Type application/json (a charset parameter, if any, must
// be utf-8) and a body {"query", "variables", "operationName",
// "extensions"}; POST with application/graphql and the query as the body;
// GET with the same parameters in the query string, variables JSON-encoded.
// variables and extensions must be JSON objects (or null); extensions is
// otherwise not used. A mutation sent with GET is refused with 405 and Allow: POST; other
// methods get 405 with Allow: GET, POST; other content types 415. A JSON
// array (a batch) is refused. The body is capped at the query length limit.
//
// Every request then goes through these steps, in this order:
//
//  1. credentials, when [Config.Auth] is set: an Authorization header that
//     is present but holds no valid bearer token (an invalid token, a
//     malformed header, another scheme) is a 401 whatever the operation;
//  2. the document, by the engine's [graphql.Preparer]: scanned before
//     parsing (length, tokens, nesting), parsed, checked for depth and
//     field nodes after fragment expansion (the nodes of all its
//     operations together), then validated. The outcome of these steps,
//     errors included, is cached by query text in a bounded LRU from the
//     text's second request, so a repeated query costs one map lookup and
//     a hostile document never reaches the validator's expensive rules. A
//     document the cache will not keep is parsed on memory a pooled
//     graphql.Parser reuses once the request is answered. A document that
//     uses a variable its operation does not declare is refused before
//     parsing, with the validation error of the first such reference only;
//  3. the operation that operationName selects, prepared once per document
//     (by the Preparer too);
//  4. variables, coerced by the engine, and the operation's cost (see
//     graphql.Cost), refused past limits.Config.MaxCost with a 400
//     QUERY_LIMIT_EXCEEDED;
//  5. the mutation gate: a mutation with no authenticated user
//     ([Authenticator.Subject]) is a 401 with WWW-Authenticate: Bearer,
//     before any resolver runs, unless every field it may select is
//     public (graphql.Field.Public, decided once per prepared operation:
//     graphql.Operation.Public) ([New] refuses a schema with mutations and
//     no [Config.Auth]); with a [Rechecker] (*auth.Verifier is one), so is
//     a mutation whose credentials were revoked since the request's
//     headers came, and one whose credentials cannot be checked again is a
//     503;
//  6. execution, with the *http.Request reachable through [Request], under
//     [Config.Timeout] when set: past it, the fields not yet resolved are
//     null with one TIMEOUT error.
//
// [Config.Tracer] sees each of these steps as a phase (read, scan, parse,
// validate, coerce, execute, write), the fields that run a resolver, and
// the end of the request.
//
// # Responses
//
// Every response carries Cache-Control: no-store and is JSON:
// application/graphql-response+json when the Accept header prefers it,
// application/json otherwise.
//
//   - 200 {"data": …} or {"data": …, "errors": […]}: executed; a failed field
//     is null and listed with its path. When data is null and every error
//     is UNAUTHENTICATED (a resolver found the token's user gone), the
//     same body is a 401 with WWW-Authenticate: Bearer.
//   - 400 {"errors": […]} with no data: syntax (GRAPHQL_PARSE_FAILED),
//     validation (GRAPHQL_VALIDATION_FAILED), limits (QUERY_LIMIT_EXCEEDED
//     with extensions.limit = {name, max, found}), variables and request
//     parameters (BAD_USER_INPUT). At most [MaxErrors] errors are listed.
//   - 401 UNAUTHENTICATED, 405, 415 as above; 500 for a panic outside
//     resolvers.
//   - 503 SERVICE_UNAVAILABLE with Retry-After: the response budget
//     ([Config.ResponseBudget]) had no room for the request, or for its
//     data once it outgrew its first share, within
//     [Config.ResponseBudgetWait] (unless [Config.Timeout] passed first:
//     then the answer is 200 with data null and the TIMEOUT error); no
//     data is sent.
//
// Past [Config.MaxResponseBytes] the answer is 200 with data null and one
// RESPONSE_TOO_LARGE error (its cause is graphql.ErrResponseTooLarge).
//
// # Memory and slow clients
//
// Executions share a response budget ([Config.ResponseBudget]): each
// starts with a first share ([Config.FirstShare]) from a part of the
// budget that large answers cannot take, grows into the rest when its data
// outgrows it (execution pauses, and goes on: every resolver runs once;
// a long string is measured before it is copied), holds only the buffers
// of its answer while the answer is written, and gives them back once it
// is, or once it fails, a panic included. One client (the request's
// RemoteAddr host, an IPv6 /64) holds at most a small part of the first
// shares and one large answer at a time, and its mutations overdraw the
// budget only while it holds less than one. A client that takes none of a large answer for
// [Config.StallTimeout] is cut off. Behind a reverse proxy, have the
// proxy middleware rewrite RemoteAddr first (chi's middleware.RealIP,
// gorilla's handlers.ProxyHeaders), or every client counts as one.
//
// Field errors pass through the presenter of package errors: errors with a
// code (FORBIDDEN, NOT_FOUND, VALIDATION_FAILED with extensions.validation,
// …) keep their message; an error with a StatusCode() below 500 keeps its
// message and shows the status in extensions.status; anything else is
// "Internal server error." (INTERNAL_SERVER_ERROR) and its real cause is
// logged once with the request id. The Debug of [Config.Presenter] shows
// real messages.
//
// # Introspection
//
// Off by default; [Config.AllowIntrospection] decides per request when set.
// When off, __schema and __type are refused with a 400,
// __typename works, and no validation message suggests names ("Did you
// mean …"), so that errors do not reveal the schema. When on, introspection
// sub-trees are bounded by the introspection depth rule of graphql-js
// instead of the depth limit, so the standard introspection query of
// graphql-js passes under the default limits.
//
// # Logging
//
// The handler writes no access lines and gives no request ids: mount
// package reqlog's middleware around it, or around the whole router. The
// causes of masked errors and refused credentials, and the answers clients
// did not take (they went away, or were cut off after
// [Config.StallTimeout]; at info), go to the Logger of [Config.Presenter]
// (a [log/slog.Logger]), else the logger of the request's reqlog.Handler,
// else slog.Default(). Each line is logged with the
// request's context, so that the service's slog.Handler can add what it
// holds (a trace id), and carries the request id that reqlog gave the
// request as "request_id".
package graphqlhttp
