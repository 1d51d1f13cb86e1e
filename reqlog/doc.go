// Package reqlog is net/http middleware that gives every request an id and
// writes one access log line per request through
// [github.com/rs/zerolog].
//
//	mux := http.NewServeMux()
//	// ... routes ...
//	handler := reqlog.Handler(logger)(mux)
//
// Mount it outermost, so that every other handler, the error presenter of
// gqlkit's errors package included, logs with the request id.
//
// # Request ids
//
// An incoming [Header] (X-Request-Id) is honoured when it is sane: 1 to
// [MaxIDLength] (64) ASCII letters, digits, dots, underscores, colons or
// hyphens (see [ValidID]), which covers UUIDs, xids and the ids of common
// proxies and load balancers while keeping log injection and log bloat out.
// Anything else, an empty or missing header included, is replaced by a
// fresh [xid] (20 characters, such as "d4l0b6mr9lppf8m1k0jg"). An id already
// chosen by an outer Handler is kept.
//
// The id is echoed in the X-Request-Id response header, set before the inner
// handler runs, and is available to it in two ways:
//
//   - [ID](ctx) returns it;
//   - [zerolog.Ctx](ctx) returns a logger, made for this request, that
//     writes it as "request_id" on every line.
//
// # The access line
//
// When the inner handler returns, Handler writes one line through the
// request's logger, with the message "request" and these fields:
//
//	request_id  the request id
//	method      the request method
//	path        the URL path, cut to 2 KiB; never the query string
//	status      the status sent: 200 when the handler wrote a body without
//	            calling WriteHeader, or wrote nothing at all; 0 when no
//	            status was sent (a hijacked connection, or a panic)
//	bytes       body bytes written
//	duration    time from the start of the request to the end of the
//	            handler, as zerolog's Dur writes it (milliseconds by default)
//	panic       true when the handler panicked (the panic is not recovered)
//
// The level is info, warn for 4xx statuses and 503 (a refusal under load,
// such as a response budget's, or a dependency down, whose cause its
// handler logs at error), and error for the other 5xx statuses and panics. Fields that inner handlers add to the request's logger with
// [zerolog.Logger.UpdateContext] (hlog.RemoteIPHandler, for instance) appear
// on the access line too.
//
// Query strings are never logged, since they may carry tokens, e-mail
// addresses or whole GraphQL documents, and no request header is logged, the
// Authorization header above all.
//
// # The response writer
//
// The inner handler gets a wrapper around the response writer. It keeps
// [http.Flusher], [http.Hijacker] and [io.ReaderFrom] (Hijack returns
// [http.ErrNotSupported] when the wrapped writer cannot hijack, as on
// HTTP/2) and has an Unwrap method, so [http.ResponseController] reaches
// everything else, deadlines and full duplex included. Informational
// statuses (1xx other than 101) pass through without being taken for the
// final status.
package reqlog
