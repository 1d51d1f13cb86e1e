// Package articles serves a REST API for articles in the shapes a Laravel
// client expects: public reads of published articles, paginated, and
// writes by authenticated users. It is an [http.Handler] that mounts on
// any router, over a [Store] that keeps the data.
//
// The kit's store is [github.com/gqlkit/gqlkit/sqlstore.Articles], which
// the Articles method of the Store of the packages named after their
// database returns: [github.com/gqlkit/gqlkit/postgres] (PostgreSQL
// through pgx) and [github.com/gqlkit/gqlkit/sqlite] (SQLite through
// modernc.org/sqlite, no cgo). [github.com/gqlkit/gqlkit/articles/storetest]
// checks any implementation.
//
// # Mounting
//
// [NewHandler] returns a [Handler] that routes by itself. Mount it at the
// collection's path and below: bare for GET, so that reads stay public
// even for a client holding a stale token, and otherwise wrapped in the
// auth package's Optional middleware, which verifies a token when one is
// sent (the handler refuses writes without an authenticated user on its
// own, and answers 405 to methods it does not serve):
//
//	h, err := articles.NewHandler(store, articles.Config{})
//	mux.Handle("GET /api/articles", h)
//	mux.Handle("GET /api/articles/", h)
//	mux.Handle("/api/articles", verifier.Optional(h))
//	mux.Handle("/api/articles/", verifier.Optional(h))
//
// Mounted elsewhere, set [Config.Prefix], or strip the prefix:
//
//	mux.Handle("/v2/articles/", http.StripPrefix("/v2/articles", h))
//
// For routers with patterns of their own (http.ServeMux method patterns,
// chi, gorilla/mux, echo), [Handler.List], [Handler.Show], [Handler.Create] and
// [Handler.Delete] serve one route each. Show and Delete read the article
// id from the path value "article" (or "id"), which http.ServeMux and chi
// set, and else, for routers that keep their parameters to themselves
// (gorilla/mux's mux.Vars, echo's c.Param), from the last segment of the
// path when it is the one segment after the collection: after the subtree
// of an http.ServeMux pattern that ends in a slash, after [Config.Prefix],
// or after a segment equal to the last segment of Config.Prefix
// ("articles" by default; mounted as "/v2/posts/{id}", set Prefix
// "/v2/posts"). A deeper path ("/api/articles/5/comments/3") or one with
// an encoded slash ("/api/articles/5%2F3") has no id: a 404, as an
// article that does not exist. Mount them on a route that ends with the
// id.
//
//	mux.HandleFunc("GET /api/articles", h.List)
//	mux.Handle("POST /api/articles", verifier.Required(http.HandlerFunc(h.Create)))
//	mux.HandleFunc("GET /api/articles/{article}", h.Show)
//	mux.Handle("DELETE /api/articles/{article}", verifier.Required(http.HandlerFunc(h.Delete)))
//
//	r := muxrouter.NewRouter() // gorilla/mux
//	r.HandleFunc("/api/articles/{id}", h.Show).Methods("GET", "HEAD")
//
//	e := echo.New()
//	e.GET("/api/articles/:id", echo.WrapHandler(http.HandlerFunc(h.Show)))
//
// Writes read the user from the request context through [Config.UserID],
// auth.UserID by default: auth's middlewares, or any that calls
// auth.WithUserID, will do; another authentication scheme passes its own
// accessor.
//
// # Routes
//
//	GET    {prefix}?page=&per_page=   200 {data: [article…], links, meta}
//	GET    {prefix}?cursor=&per_page= 200 {data: [article…], path, per_page, next_cursor, …}
//	GET    {prefix}/{article}         200 {data: article}; 404 when missing or unpublished
//	POST   {prefix}                   201 {data: article} and Location; user_id from the token
//	DELETE {prefix}/{article}         204; 403 for another's article; 404 when missing
//
// HEAD is served like GET, but for the collection, whose page is not read
// for it (see [Handler.List]); other methods get 405 with an Allow header. An
// {article} that is not a positive integer in plain decimal ("0", "-1",
// "007", "abc") is a 404, as is a deeper path.
//
// An article is exactly
//
//	{"id": 1, "user_id": 1, "title": "…", "body": "…", "published": true,
//	 "created_at": "2025-01-02T03:04:05.123456Z", "updated_at": "…",
//	 "author": {"id": 1, "name": "Ada"}}
//
// with timestamps in UTC as [TimeFormat]; the author never carries an
// e-mail address or password. Answers are application/json and, like
// PHP's json_encode, leave <, > and & unescaped.
//
// # Creating
//
// The body must be a JSON object sent as application/json (or any
// application/*+json type); anything else is a 415. It is validated as a
// Laravel controller with the rules
//
//	'title'     => 'required|string|max:200',
//	'body'      => 'required|string',
//	'published' => 'boolean',
//
// validates it behind Laravel's TrimStrings and ConvertEmptyStringsToNull
// middlewares. The rules are declared once, with package
// [github.com/gqlkit/gqlkit/validate], and exported as [TitleRules],
// [BodyRules] and [PublishedRules], so that the GraphQL side (a
// createArticle resolver, say) validates its arguments with the same
// rules and messages (see TitleRules for how). The handler decodes each
// member (numbers as json.Number, a missing key as validate.Missing),
// trims strings and takes an empty one for null, then runs the rules:
//
//   - title and body must be strings: null, a missing key, a string of
//     white space only, [] and {} are "required" failures; numbers,
//     booleans and other arrays or objects are "string" failures;
//   - both are stored trimmed of white space, as Laravel stores them;
//   - the title may have at most [MaxTitleLength] (200) characters after
//     trimming, counted in Unicode code points;
//   - neither may contain a NUL character (PostgreSQL cannot store it);
//   - published is optional (default false) and must be true, false, 1, 0,
//     "1" or "0"; null, "true" and 1.0 are refused;
//   - other keys, user_id and id included, are ignored.
//
// Every rule a field fails adds its message, in rule order, unless the
// field is missing or empty (then "required" alone): a title over 200
// characters that holds a NUL gets both messages, as in Laravel. A title
// that is not a string gets "must be a string." alone: once String fails,
// the size rules do not measure it (Laravel would measure a number by its
// digits, which passes, and count an array's items).
//
// A failure is a 422 in Laravel's shape, with its default English
// messages, fields in rule order:
//
//	{"message": "The title field is required. (and 1 more error)",
//	 "errors": {"title": ["The title field is required."], "body": ["The body field is required."]}}
//
// Malformed JSON is a 400 "Malformed JSON."; valid JSON that is not an
// object (an array, a string, null) a 400 "The request body must be a JSON
// object."; a body over [Config.MaxBodyBytes] (1 MiB) a 413.
//
// # Listing
//
// The list holds published articles only, newest first (created_at
// descending, then id descending). per_page (1 to [MaxPerPage], default
// [DefaultPerPage]) and page (from 1, default 1) must be integers in plain
// decimal; anything else, an empty value included, is a 422 such as
//
//	{"message": "The per page field must not be greater than 100.",
//	 "errors": {"per_page": ["The per page field must not be greater than 100."]}}
//
// A repeated parameter takes its last value, as in PHP; a query string
// that does not parse is a 400. The answer is the envelope of Laravel's
// paginated resource collections (without meta.links):
//
//	{"data": […],
//	 "links": {"first": "…?page=1&per_page=15", "last": "…", "prev": null, "next": "…?page=2&per_page=15"},
//	 "meta": {"current_page": 1, "from": 1, "last_page": 4, "path": "https://host/api/articles",
//	          "per_page": 15, "to": 15, "total": 50}}
//
// Links are absolute and keep per_page; their scheme and host come from
// [Config.BaseURL] or the request. A page past the end is a 200 with empty
// data and null from and to. The page and its total are one snapshot of the
// store (see [Store.ListPublished]); a list costs at most three queries
// whatever the page size (the stores of this module use one, two past the
// end).
//
// The page is read whole, and the store's database connection given back,
// before any of it is sent: a client that reads slowly, or not at all,
// holds no connection, and a store failure is a 500 like any other. The
// answer then goes out with a Content-Length. What list answers hold
// meanwhile is bounded: one answer by [Config.MaxListBytes] (16 MiB; a
// larger page is a 400 with [MessagePageTooLarge]), and all of them at
// once by a response budget ([Config.ResponseBudget], 64 MiB), of which
// one client holds a small part (one large page at a time); a list that
// finds no room is a 503 with [MessageBusy] and Retry-After: 1, and never
// waits for room while the store reads its rows. A client that takes none
// of a large answer, a list's or a show's, for [Config.StallTimeout]
// (5 s) is cut off, and what the answer holds goes back.
//
// # Cursor pages
//
// With a cursor parameter the list is read by keyset instead of by
// offset, in the shape of Laravel's cursorPaginate:
//
//	{"data": […], "path": "https://host/api/articles", "per_page": 15,
//	 "next_cursor": "AQ…", "next_page_url": "https://host/api/articles?cursor=AQ…&per_page=15",
//	 "prev_cursor": null, "prev_page_url": null}
//
// An empty cursor (?cursor= or ?cursor) asks for the first page; the
// next_page_url and prev_page_url of each page lead on, with per_page
// kept. Without a cursor parameter, page and per_page work as above. A
// cursor names an article's place in the list (its created_at and id)
// and a direction; each page is one statement, a WHERE on (created_at,
// id) that the index on (published, created_at) serves, with no OFFSET
// and no count ([Store.ListPublishedFrom]): deep pages cost what the
// first does, and articles created or deleted while a client pages move
// no other article, so each one that stays published is seen exactly
// once. As in Laravel, prev_cursor is null on the first page and when a
// page read backward reaches the top; next_cursor is null when a page
// read forward reaches the end; both are null on an empty page.
//
// Cursors are opaque: base64url, tagged for this list, so that a cursor
// changed by one character, cut short or made for another list (a
// GraphQL connection's, say) is a 422, never a 500 or a page from
// somewhere else:
//
//	{"message": "The selected cursor is invalid.",
//	 "errors": {"cursor": ["The selected cursor is invalid."]}}
//
// A cursor with a page parameter is a 422 with [MessageCursorWithPage];
// per_page is checked as for offset pages. A client may forge a cursor
// on purpose, which lets it choose where its page starts and nothing
// more.
//
// # Deleting
//
// The author may delete their article, published or not. Another user gets
// 403 "You can only delete your own articles.", published or not (reads
// alone hide unpublished articles). A missing article is a 404.
//
// # Errors
//
// Every error answer is JSON {"message": "…"}:
//
//	400 The page is larger than the limit; ask for fewer articles per page.
//	401 Unauthenticated.   a write without a user in the context, by a user
//	                       who no longer exists, or whose token was revoked
//	                       while the body was read (auth.Recheck; nothing
//	                       is written); with WWW-Authenticate: Bearer
//	403 You can only delete your own articles.
//	404 Not found.
//	405 Method not allowed.
//	500 Internal server error.
//	503 The server is busy; try again shortly.
//	                       a list the response budget has no room for now;
//	                       with Retry-After: 1
//	503 Service unavailable.
//	                       a write whose token could not be checked again
//	                       (auth.ErrUnavailable)
//
// A 500 answers any error a store returns besides [ErrUnknownUser],
// [ErrNotAuthor] and errcode.ErrNotFound, unless the Hooks of
// [Config.Presenter] map it to a coded error (a unique violation to
// VALIDATION_FAILED, say); it is logged in full with the request id (the
// Presenter's Logger, else the request's reqlog logger, else
// slog.Default()). The store errors carry their client view, and the handler
// answers them through apierror.Presenter, so a GraphQL resolver that
// returns one unchanged gets the same answer.
//
// # Concurrency
//
// A [Handler]'s settings are fixed by [NewHandler]; the response budget
// its lists share is guarded. It is safe for concurrent use, and so are
// the stores of this module.
package articles
