package articles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/cursor"
	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/internal/respbudget"
	"github.com/gqlkit/gqlkit/internal/stall"
)

// Defaults of [Config].
const (
	// DefaultPrefix is the path of the collection when [Config.Prefix] is
	// empty.
	DefaultPrefix = "/api/articles"
	// DefaultMaxBodyBytes caps the body of a create request (1 MiB) when
	// [Config.MaxBodyBytes] is zero.
	DefaultMaxBodyBytes = 1 << 20
	// DefaultMaxListBytes bounds one list answer (16 MiB) when
	// [Config.MaxListBytes] is zero.
	DefaultMaxListBytes = 16 << 20
	// DefaultResponseBudget bounds the list answers held at once (64 MiB)
	// when [Config.ResponseBudget] is zero.
	DefaultResponseBudget = respbudget.DefaultSize
	// DefaultResponseBudgetWait bounds how long a list waits for its
	// first share of the response budget when
	// [Config.ResponseBudgetWait] is zero.
	DefaultResponseBudgetWait = respbudget.DefaultWait
	// DefaultStallTimeout bounds how long a client may take none of a
	// large answer when [Config.StallTimeout] is zero.
	DefaultStallTimeout = stall.DefaultTimeout
)

// Config configures a [Handler]. The zero value means the documented
// defaults.
type Config struct {
	// Prefix is the path of the collection when the Handler is mounted as
	// a whole without http.StripPrefix, as in
	// mux.Handle("/api/articles/", h): "{Prefix}" and "{Prefix}/" are the
	// collection and "{Prefix}/{article}" one article. A request path that
	// does not start with Prefix is taken as already stripped: "" and "/"
	// are the collection and "/{article}" one article. Empty means
	// DefaultPrefix ("/api/articles"). Prefix plays no part in the route
	// methods [Handler.List] and friends.
	Prefix string

	// BaseURL is the scheme and host (and any path prefix a proxy strips)
	// that clients use, such as "https://api.example.com"; pagination
	// links and the Location header start with it, followed by the path
	// of the request as the client sent it. Empty means the request's own:
	// "https" when it came over TLS, "http" otherwise, and its Host header.
	// Set it behind a proxy that terminates TLS; forwarding headers such
	// as X-Forwarded-Proto are not trusted.
	BaseURL string

	// MaxBodyBytes caps the body of a create request; a larger one is
	// answered 413. Zero means DefaultMaxBodyBytes (1 MiB).
	MaxBodyBytes int64

	// MaxListBytes bounds one list answer. A list is read whole before
	// any of it is sent (see ResponseBudget), and per_page goes up to 100
	// articles of up to MaxBodyBytes each: a page whose answer would be
	// larger is not sent, the client gets 400 {"message":
	// MessagePageTooLarge} and should ask for fewer articles per page.
	// Zero means DefaultMaxListBytes (16 MiB); a negative value means no
	// bound, which [NewHandler] allows only with the budget off.
	MaxListBytes int64

	// ResponseBudget bounds the memory that all list answers hold at
	// once. A list is read whole, and the store's database connection
	// given back, before any byte goes to the client, so that a client
	// that reads slowly, or not at all, holds no connection; its answer
	// holds a share of the budget instead, from before the query until
	// it is written (see StallTimeout for a client that does not read
	// it).
	//
	// A quarter of the budget is kept for first shares: every list starts
	// with one of 256 KiB (at most MaxListBytes), which holds most pages,
	// waiting for it up to ResponseBudgetWait while the store holds
	// nothing yet. A page that outgrows it takes MaxListBytes of the other
	// three quarters in one step, at once or not at all: no list waits for
	// room while it holds a database connection, and pages read at the
	// same time never each hold a part of the room and refuse each other
	// the rest. Once read, the share shrinks to the answer's buffer. One
	// client (the host of r.RemoteAddr; an IPv6 address counts as its /64)
	// holds at most an eighth of the first quarter, and MaxListBytes of
	// the rest: one large page under way at a time, until it is written.
	// Requests whose RemoteAddr cannot be read (a Unix socket's listener)
	// have no part of their own. Behind a reverse proxy every request
	// comes from the proxy's address, so the service's proxy middleware
	// must rewrite RemoteAddr before the handler, or every client counts
	// as one.
	//
	// A list that gets no room, first or as it grows, is answered 503
	// {"message": MessageBusy} with Retry-After: 1, and holds nothing by
	// then, nor while the store closes its rows. Zero means
	// DefaultResponseBudget (64 MiB: room for three pages of the default
	// MaxListBytes besides the first shares); a negative value turns the
	// budget off (each answer is still bounded by MaxListBytes).
	// [NewHandler] refuses a budget whose quarter cannot hold a first
	// share, or whose other three quarters cannot hold MaxListBytes.
	ResponseBudget int64
	// ResponseBudgetWait bounds how long a list waits for its first share
	// of the budget; zero means DefaultResponseBudgetWait (10 s).
	ResponseBudgetWait time.Duration

	// StallTimeout cuts off a client that stops reading an answer of
	// 64 KiB or more, a list or a show (one article may be megabytes):
	// the answer is written 64 KiB at a time, and when the client takes
	// none of a part within StallTimeout, the connection's write deadline
	// is brought forward to now, which ends the write and the connection
	// and gives back what the answer holds, a list's share of the budget
	// included. Only the writer's deadline is used
	// (http.ResponseController): the server's WriteTimeout is never
	// lengthened, and a middleware's writer without Unwrap is not
	// watched. Zero means DefaultStallTimeout (5 s, a rate of at least
	// 13 KB/s); a negative value turns the watch off, leaving the
	// server's WriteTimeout as the only bound.
	StallTimeout time.Duration

	// Now is the clock that stamps new articles; nil means time.Now.
	// Stores keep its value in UTC, truncated to microseconds.
	Now func() time.Time

	// UserID reports the authenticated user a request's context carries;
	// writes (create, delete) without one are answered 401. nil means
	// auth.UserID, which auth's middlewares fill; another authentication
	// scheme passes its own accessor.
	//
	// Whichever it is, a write asks auth.Recheck right before the store
	// writes (after the body is read): a token that auth's Verifier let
	// through and that was revoked since gets the middlewares' 401 and
	// writes nothing, and a token store that cannot answer the 503. A
	// request auth's Verifier did not authenticate has nothing to
	// re-check, for one context lookup, so this needs no setting of its
	// own: another scheme with revocation of its own checks again in its
	// store.
	UserID func(ctx context.Context) (int64, bool)

	// Presenter answers every error and logs what clients may not see
	// (see apierror.Presenter); pass the value given to
	// graphqlhttp.Config.Presenter, so that both APIs answer an error
	// alike. Its Debug shows the real message of unexpected failures,
	// which clients otherwise see as a 500 {"message":"Internal server
	// error."} (never in production); its Logger receives their real
	// cause, with the request's context and its request id (nil: the
	// logger of the request's reqlog.Handler, else slog.Default()); its
	// Hooks map a store's domain errors before they are
	// classified and report every unexpected failure once. The zero value
	// masks, logs to the request's logger, and maps nothing.
	Presenter apierror.Presenter
}

// Handler serves the articles REST API. Build it with [NewHandler]; it is
// safe for concurrent use.
//
// Mounted as a whole it routes by itself (see [Handler.ServeHTTP]); its
// methods [Handler.List], [Handler.Show], [Handler.Create] and
// [Handler.Delete] serve one route each for routers with their own
// patterns.
type Handler struct {
	store   Store
	prefix  string
	base    *url.URL // nil: from the request
	maxBody int64
	now     func() time.Time
	userID  func(context.Context) (int64, bool)
	errs    apierror.Presenter

	// The list answers: the response budget (nil when off), the bound
	// on one answer (0: none), the stall timeout (0: none), and pooled
	// answers (*listAnswer) whose buffers hold at most poolCap bytes.
	budget  *respbudget.Budget
	maxList int
	stall   time.Duration
	answers sync.Pool
	poolCap int

	cursors cursor.Codec // of the cursor pages
}

// NewHandler returns a Handler serving store. It reports every problem of
// cfg at once.
func NewHandler(store Store, cfg Config) (*Handler, error) {
	h := &Handler{
		store:   store,
		prefix:  cfg.Prefix,
		maxBody: cfg.MaxBodyBytes,
		now:     cfg.Now,
		userID:  cfg.UserID,
		errs:    cfg.Presenter,
		cursors: cursor.New(cursorBinding, nil),
	}
	var errs []error
	if store == nil {
		errs = append(errs, errors.New("articles: the store is nil"))
	}
	switch {
	case h.prefix == "":
		h.prefix = DefaultPrefix
	case !strings.HasPrefix(h.prefix, "/"):
		errs = append(errs, fmt.Errorf("articles: Config.Prefix %q does not start with a slash", cfg.Prefix))
	default:
		h.prefix = strings.TrimRight(h.prefix, "/")
	}
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("articles: Config.BaseURL: %w", err))
		case u.Scheme != "http" && u.Scheme != "https", u.Host == "", u.User != nil, u.RawQuery != "", u.Fragment != "":
			errs = append(errs, fmt.Errorf("articles: Config.BaseURL %q is not an http or https URL with a host and without user, query or fragment", cfg.BaseURL))
		default:
			u.Path = strings.TrimRight(u.Path, "/")
			u.RawPath = strings.TrimRight(u.RawPath, "/")
			h.base = u
		}
	}
	switch {
	case h.maxBody == 0:
		h.maxBody = DefaultMaxBodyBytes
	case h.maxBody < 0:
		errs = append(errs, fmt.Errorf("articles: Config.MaxBodyBytes %d is negative", cfg.MaxBodyBytes))
	}
	var err error
	if h.budget, h.maxList, err = listBudget(cfg); err != nil {
		errs = append(errs, err)
	}
	h.poolCap = firstListShare
	if h.maxList > 0 {
		h.poolCap = min(h.poolCap, h.maxList)
	}
	switch {
	case cfg.StallTimeout == 0:
		h.stall = DefaultStallTimeout
	case cfg.StallTimeout > 0:
		h.stall = cfg.StallTimeout
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.userID == nil {
		h.userID = auth.UserID
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return h, nil
}

// Allowed methods of the two resources.
const (
	allowCollection = "GET, HEAD, POST"
	allowItem       = "GET, HEAD, DELETE"
)

// ServeHTTP routes a request by its path (see [Config.Prefix]) and method:
//
//	GET, HEAD {prefix}            List
//	POST      {prefix}            Create
//	GET, HEAD {prefix}/{article}  Show
//	DELETE    {prefix}/{article}  Delete
//
// Another method is a 405 with an Allow header, a deeper path a 404.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest := r.URL.Path
	if p, ok := strings.CutPrefix(rest, h.prefix); ok && (p == "" || p[0] == '/') {
		rest = p
	}
	if rest == "" || rest == "/" {
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			h.list(w, r)
		case http.MethodPost:
			h.create(w, r)
		default:
			methodNotAllowed(w, allowCollection)
		}
		return
	}
	id, ok := strings.CutPrefix(rest, "/")
	if !ok || strings.Contains(id, "/") {
		h.errs.WriteREST(w, r, errcode.ErrNotFound)
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		h.show(w, r, id)
	case http.MethodDelete:
		h.delete(w, r, id)
	default:
		methodNotAllowed(w, allowItem)
	}
}

// List serves GET (and HEAD) of the collection: a page of published
// articles, newest first, by page and per_page or, with a cursor
// parameter, by keyset (see the package documentation). HEAD checks the paging as GET does and answers
// 200 with the Content-Type of a list, without reading the page (its
// length, and whether it fits the budget, are known only once it is read):
// no Content-Length. Other methods get a 405.
func (h *Handler) List(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET, HEAD")
		return
	}
	h.list(w, r)
}

// Show serves GET (and HEAD) of one published article. The id is the path
// value "article", or "id" when there is no "article", as set by an
// http.ServeMux pattern such as "GET /api/articles/{article}" or by chi.
// On a router that sets no path values (gorilla/mux, echo through
// echo.WrapHandler, httprouter) it is the last segment of the request's
// path, taken only when it is the one segment after the collection:
// after the subtree of an http.ServeMux pattern ending in a slash
// ("GET /api/articles/"); else after [Config.Prefix] itself, or after a
// segment equal to the last segment of Config.Prefix ("/per/articles/7"
// with the default prefix: mount Show and Delete on a route such as
// "/v2/posts/{id}" or "/v2/posts/:id" with Prefix "/v2/posts"), or as the
// only segment of a path already stripped ("/7"). A path with an encoded
// slash (%2F) has no id. A request without an id, or with an id that is
// not a positive integer, is a 404, as an article that does not exist.
// Other methods get a 405.
func (h *Handler) Show(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET, HEAD")
		return
	}
	h.show(w, r, h.pathID(r))
}

// Create serves POST of the collection: it stores the article in the JSON
// body on behalf of the authenticated user ([Config.UserID]), and answers 201
// with the article and its Location. Once the body is read and valid, the
// token is checked again (auth.Recheck): one revoked while the client sent
// the body gets 401 and nothing is stored. Other methods get a 405.
func (h *Handler) Create(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, http.MethodPost)
		return
	}
	h.create(w, r)
}

// Delete serves DELETE of one article on behalf of the authenticated user
// ([Config.UserID]), reading the id like [Handler.Show] (so a deeper path,
// such as "/api/articles/5/comments/3" on a prefix route, deletes nothing
// and is a 404), with the token
// checked again right before the delete (auth.Recheck). It answers 204.
// Other methods get a 405.
func (h *Handler) Delete(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodDelete {
		methodNotAllowed(w, http.MethodDelete)
		return
	}
	h.delete(w, r, h.pathID(r))
}

func (h *Handler) show(w http.ResponseWriter, r *http.Request, rawID string) {
	id, ok := parseID(rawID)
	if !ok {
		h.errs.WriteREST(w, r, errcode.ErrNotFound)
		return
	}
	a, err := h.store.FindPublished(r.Context(), id)
	if err != nil {
		h.errs.WriteREST(w, r, err)
		return
	}
	h.writeArticle(w, r, http.StatusOK, a)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	if !h.hasBase(w, r) {
		return
	}
	userID, ok := h.userID(r.Context())
	if !ok {
		h.errs.WriteREST(w, r, errcode.Unauthenticated(""))
		return
	}
	if !httpjson.IsJSON(r.Header.Get("Content-Type")) {
		httpjson.WriteMessage(w, http.StatusUnsupportedMediaType, httpjson.MessageNotJSON)
		return
	}
	fields, f := httpjson.ReadObject(w, r, h.maxBody)
	if f != nil {
		f.Write(w)
		return
	}
	in, problems := decodeCreate(fields)
	if len(problems) > 0 {
		httpjson.WriteValidationFailed(w, problems)
		return
	}
	if !h.recheck(w, r) {
		return
	}
	a, err := h.store.CreateArticle(r.Context(), NewArticle{
		UserID:    userID,
		Title:     in.title,
		Body:      in.body,
		Published: in.published,
		CreatedAt: h.now(),
	})
	if err != nil {
		h.errs.WriteREST(w, r, err)
		return
	}
	w.Header().Set("Location", h.collectionURL(r)+"/"+strconv.FormatInt(a.ID, 10))
	h.writeArticle(w, r, http.StatusCreated, a)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request, rawID string) {
	userID, ok := h.userID(r.Context())
	if !ok {
		h.errs.WriteREST(w, r, errcode.Unauthenticated(""))
		return
	}
	id, ok := parseID(rawID)
	if !ok {
		h.errs.WriteREST(w, r, errcode.ErrNotFound)
		return
	}
	if !h.recheck(w, r) {
		return
	}
	if err := h.store.DeleteArticle(r.Context(), id, userID); err != nil {
		h.errs.WriteREST(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// recheck asks auth again, right before a write, whether the request's
// token was revoked since the middleware let it through (auth.Recheck):
// the body may have taken the client as long as it liked. It reports
// whether the write may go ahead; if not, it has answered as auth's
// middlewares do: 401 for a revoked token, 503 when the token store
// could not answer. A request that auth's Verifier did not authenticate
// (another scheme behind Config.UserID) has nothing to re-check.
func (h *Handler) recheck(w http.ResponseWriter, r *http.Request) bool {
	err := auth.Recheck(r.Context())
	switch {
	case err == nil:
		return true
	case errors.Is(err, auth.ErrUnavailable):
		ctxlog.Log(r.Context(), h.errs.Logger, slog.LevelError, "articles: the write's token could not be checked again", ctxlog.Err(err))
		httpjson.WriteMessage(w, http.StatusServiceUnavailable, errcode.MessageUnavailable)
	default:
		h.errs.WriteREST(w, r, &errcode.Error{Code: errcode.CodeUnauthenticated, Err: err})
	}
	return false
}

// MessageNoHost answers a list or create request without a Host header
// when no [Config.BaseURL] is set: its links could not be absolute.
const MessageNoHost = "The request has no Host header."

// hasBase reports whether links for r can be made: a BaseURL, or r's
// Host (an HTTP/1.0 request may have none). It answers 400 otherwise,
// rather than writing links such as http:///api/articles.
func (h *Handler) hasBase(w http.ResponseWriter, r *http.Request) bool {
	if h.base != nil || r.Host != "" {
		return true
	}
	httpjson.WriteMessage(w, http.StatusBadRequest, MessageNoHost)
	return false
}

// collectionURL is the absolute URL, without query or trailing slash, of
// the collection a list or create request was sent to: the base URL, then
// the path as the client sent it (r.RequestURI, which http.StripPrefix
// leaves alone).
func (h *Handler) collectionURL(r *http.Request) string {
	path := r.URL.EscapedPath()
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil && r.RequestURI != "*" {
		path = u.EscapedPath()
	}
	path = strings.TrimRight(path, "/")
	if h.base != nil {
		return h.base.Scheme + "://" + h.base.Host + h.base.EscapedPath() + path
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + path
}
