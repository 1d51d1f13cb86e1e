// Package reqlog is net/http middleware that gives every request an id and
// writes one access log line per request through [log/slog].
//
//	logger := slog.New(reqlog.NewIDHandler(slog.NewJSONHandler(os.Stderr, nil)))
//	mux := http.NewServeMux()
//	// ... routes ...
//	handler := reqlog.Handler(logger)(mux)
//
// Mount it around every other handler of the kit, so that they all log
// with the request id (the error presenter of gqlkit's errors package
// included).
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
// handler runs, and [ID](ctx) returns it to the handlers inside.
//
// # Log lines and the request's context
//
// Every line is logged with the request's context, the access line and the
// lines of the kit's handlers alike, so that the service's [slog.Handler]
// can add what the context holds. Two things reach a line that way:
//
//   - the request id, as "request_id" ([IDKey]): the access line and the
//     kit's lines carry it themselves; an [IDHandler] around the service's
//     handler adds it to the service's own lines too (and not a second
//     time to a line that has it);
//   - a trace id, or anything else a middleware put in the context: the
//     service's handler reads it there (for OpenTelemetry,
//     trace.SpanContextFromContext). The access line is logged with the
//     context Handler was given, so mount the middleware that starts the
//     request's span (otelhttp's, say) outside Handler for the access line
//     to have it; the kit's handlers inside see it either way.
//
// The request the inner handler gets is a copy with the new context; when
// a ServeMux inside sets its Pattern, Handler copies the Pattern back to the
// request it was given once the inner handler returns, so that middleware
// outside, such as otelhttp naming its span after the route, sees it.
//
// [Logger](ctx) returns the logger Handler was given (nil meaning
// [slog.Default]), for the handlers inside; the kit's handlers log there
// when their Config names no logger.
//
// # The access line
//
// When the inner handler returns, Handler writes one line through its
// logger, with the message "request" and these attributes:
//
//	request_id  the request id
//	method      the request method
//	path        the URL path, cut to 2 KiB; never the query string
//	status      the status sent: 200 when the handler wrote a body without
//	            calling WriteHeader, or wrote nothing at all; 0 when no
//	            status was sent (a hijacked connection, or a panic)
//	bytes       body bytes written
//	duration    time from the start of the request to the end of the
//	            handler, a [time.Duration] (slog's JSON handler writes
//	            nanoseconds)
//	panic       true when the handler panicked (the panic is not recovered)
//
// The level is info, warn for 4xx statuses and 503 (a refusal under load,
// such as a response budget's, or a dependency down, whose cause its
// handler logs at error), and error for the other 5xx statuses and panics.
// When the logger does not take the level, no line is made at all.
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
