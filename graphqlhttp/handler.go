package graphqlhttp

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/internal/respbudget"
	"github.com/gqlkit/gqlkit/limits"
)

// Handler serves a schema over HTTP. Make one with [New]; it is safe for
// concurrent use and holds no per-request state, so any number of
// processes can serve the same schema (only the document cache is
// per process).
type Handler struct {
	schema    *graphql.Schema
	cfg       Config
	limits    limits.Config // effective
	presenter apierror.Presenter
	cache     *cache
	// introCache holds the documents of requests allowed introspection
	// when Config.AllowIntrospection decides per request (nil otherwise):
	// they are validated under other rules.
	introCache *cache
	bufs       sync.Pool
	// execs holds *execState: what each execution needs besides the
	// request.
	execs sync.Pool
	// parsers holds *graphql.Parser: a document the cache will not keep is
	// parsed on the memory of the last one released (see document).
	parsers sync.Pool
	// maxResponse is the effective Config.MaxResponseBytes (0: none).
	maxResponse int
	// budget bounds the response data of all executions at once (nil:
	// none).
	budget *respbudget.Budget
	// stall is the effective Config.StallTimeout (0: none).
	stall time.Duration
	// gate is h.mutationGate, bound once.
	gate func(context.Context, *graphql.Operation) error
}

// New returns the endpoint for schema. It refuses a nil schema, and a
// schema with mutations without a Config.Auth to let any of them through.
func New(schema *graphql.Schema, cfg Config) (*Handler, error) {
	if schema == nil {
		return nil, errors.New("graphqlhttp: New needs a schema")
	}
	if schema.AST().Mutation != nil && cfg.Auth == nil {
		return nil, errors.New("graphqlhttp: the schema has mutations but Config.Auth is nil, so every mutation would be refused")
	}
	h := &Handler{schema: schema, cfg: cfg, limits: cfg.Limits.Effective()}
	if cfg.AllowIntrospection == nil {
		h.cache = newCache(cfg.CacheSize, cfg.CacheBytes)
	} else {
		// Two caches, one per set of rules, that share the bounds.
		items, bytes := halfBound(cfg.CacheSize, DefaultCacheSize), halfBound(cfg.CacheBytes, DefaultCacheBytes)
		h.cache, h.introCache = newCache(items, bytes), newCache(items, bytes)
	}
	if cfg.Timeout < 0 {
		return nil, errors.New("graphqlhttp: Config.Timeout is negative")
	}
	h.presenter = apierror.Presenter{Debug: cfg.Debug, Logger: cfg.Logger, Hooks: cfg.ErrorHooks}
	switch {
	case cfg.MaxResponseBytes == 0:
		h.maxResponse = DefaultMaxResponseBytes
	case cfg.MaxResponseBytes > 0:
		h.maxResponse = cfg.MaxResponseBytes
	}
	var err error
	if h.budget, err = budgetConfig(cfg, h.maxResponse); err != nil {
		return nil, err
	}
	switch {
	case cfg.StallTimeout == 0:
		h.stall = DefaultStallTimeout
	case cfg.StallTimeout > 0:
		h.stall = cfg.StallTimeout
	}
	h.execs.New = func() any { return &execState{data: make([]byte, 0, 4096), out: make([]byte, 0, 4096)} }
	h.bufs.New = func() any { b := make([]byte, 0, 4096); return &b }
	h.parsers.New = func() any { return new(graphql.Parser) }
	h.gate = h.mutationGate
	return h, nil
}

type requestKey struct{}

// Request returns the HTTP request being served, from the context that
// resolvers receive.
func Request(ctx context.Context) (*http.Request, bool) {
	r, ok := ctx.Value(requestKey{}).(*http.Request)
	return r, ok
}

// params are the GraphQL parameters of a request.
type params struct {
	query         string
	operationName string
	variables     map[string]any
}

// failure is a request that is answered without a GraphQL result: status
// and errs, or a server fault answered with a masked 500.
type failure struct {
	status int
	errs   gqlerror.List
	allow  string // the Allow header of a 405
	fault  error
}

func fail(status int, code apierror.Code, msg string) *failure {
	return &failure{status: status, errs: gqlerror.List{simpleError(code, msg)}}
}

// errUnauthenticated is the failure of a mutation without a user and of
// credentials that are present but invalid; errCredentialsUnavailable,
// of credentials that could not be checked again before a mutation.
var (
	errUnauthenticated        = errors.New("graphqlhttp: unauthenticated")
	errCredentialsUnavailable = errors.New("graphqlhttp: credentials could not be checked")
)

// halfBound is half of a cache bound (0 meaning def), at least 1, or the
// bound itself when it is negative (off).
func halfBound(v, def int) int {
	switch {
	case v < 0:
		return v
	case v == 0:
		v = def
	}
	return max(v/2, 1)
}

// ServeHTTP answers one GraphQL request: authenticate, read the
// parameters, find the checked document and its operation, execute.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Tracer != nil {
		h.serveTraced(w, r)
		return
	}
	h.serveHTTP(w, r, nil)
}

// serveTraced serves r under Config.Tracer.
func (h *Handler) serveTraced(w http.ResponseWriter, r *http.Request) {
	r, tr := h.startTrace(r)
	defer tr.end()
	h.serveHTTP(w, r, tr)
}

func (h *Handler) serveHTTP(w http.ResponseWriter, r *http.Request, tr *trace) {
	w.Header()["Cache-Control"] = headerNoStore
	defer h.recoverPanic(w, r)
	ctx, f := h.authenticate(r)
	if f == nil {
		f = h.serve(ctx, w, r, tr)
	}
	if f != nil {
		h.answer(ctx, w, r, f)
	}
}

func (h *Handler) serve(ctx context.Context, w http.ResponseWriter, r *http.Request, tr *trace) *failure {
	start := tr.now()
	p, f := h.readParams(w, r)
	tr.phase(graphql.PhaseRead, start)
	if f != nil {
		return f
	}
	if tr != nil {
		tr.info.Document = p.query
	}
	op, d, f := h.operation(p, r.Method, h.introspection(ctx), tr)
	defer h.done(d)
	if f != nil {
		return f
	}
	tr.operation(op)
	return h.execute(ctx, w, r, op, p.variables)
}

// introspection reports whether a request executed with ctx may use
// __schema and __type.
func (h *Handler) introspection(ctx context.Context) bool {
	if h.cfg.AllowIntrospection != nil {
		return h.cfg.AllowIntrospection(ctx)
	}
	return h.cfg.Introspection
}

// traceOf returns the trace of a request whose context is ctx, nil when
// the handler has no tracer.
func (h *Handler) traceOf(ctx context.Context) *trace {
	if h.cfg.Tracer == nil {
		return nil
	}
	return traceOf(ctx)
}

// recoverPanic answers a panic in the handler's own path (not in a
// resolver, which is a field error) with a masked 500.
func (h *Handler) recoverPanic(w http.ResponseWriter, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	h.answer(r.Context(), w, r, &failure{fault: apierror.Recovered(v)})
}

// authenticate checks the credentials of r, when Config.Auth is set, and
// returns the context to execute with.
func (h *Handler) authenticate(r *http.Request) (context.Context, *failure) {
	ctx := r.Context()
	if h.cfg.Auth == nil {
		return ctx, nil
	}
	authCtx, err := h.cfg.Auth.AuthenticateContext(r)
	if err != nil {
		var sc apierror.StatusCoder
		if errors.As(err, &sc) && sc.StatusCode() == http.StatusServiceUnavailable {
			// The credentials could not be checked (a revocation store
			// is down): refused, never let through, and not the client's
			// fault.
			ctxlog.For(ctx, h.cfg.Logger).Error().Err(err).Msg("graphql: credentials could not be checked")
			return ctx, credentialsUnavailable()
		}
		ctxlog.For(ctx, h.cfg.Logger).Info().Err(err).Msg("graphql: invalid credentials")
		return ctx, unauthenticated()
	}
	if authCtx == nil {
		return ctx, nil
	}
	return authCtx, nil
}

func unauthenticated() *failure {
	return fail(http.StatusUnauthorized, apierror.CodeUnauthenticated, apierror.MessageUnauthenticated)
}

// credentialsUnavailable answers credentials that could not be checked.
func credentialsUnavailable() *failure {
	return fail(http.StatusServiceUnavailable, apierror.CodeUnavailable, apierror.MessageUnavailable)
}

// operation returns the prepared operation a request names, from its
// checked document: the checks of [Handler.check], the choice of the
// operation, and the GET rule (no mutation over GET).
// intro says whether the request may use introspection.
func (h *Handler) operation(p params, method string, intro bool, tr *trace) (*graphql.Operation, *document, *failure) {
	defer tr.endValidate()
	doc := h.document(p.query, intro, tr)
	switch {
	case doc.fault != nil:
		return nil, doc, &failure{fault: doc.fault}
	case doc.errs != nil:
		return nil, doc, &failure{status: http.StatusBadRequest, errs: doc.errs}
	}
	op := doc.operation(h.schema, p.operationName)
	switch {
	case op.errs != nil:
		return nil, doc, &failure{status: http.StatusBadRequest, errs: op.errs}
	case method == http.MethodGet && op.op.Kind() != ast.Query:
		f := fail(http.StatusMethodNotAllowed, apierror.CodeBadUserInput, "Mutations can only be sent with POST.")
		f.allow = "POST"
		return nil, doc, f
	}
	return op.op, doc, nil
}

// mutationGate refuses a mutation without an authenticated user, after
// the body is read, the response budget's first share is lent and the
// variables are coerced, and before any resolver runs. When Config.Auth
// is a [Rechecker], it asks it again whether the credentials still hold:
// a revocation that landed since they were checked (while the client sent
// the body, or the request waited for its share) stops the mutation with
// the 401 or the 503 it would have got at the door.
func (h *Handler) mutationGate(ctx context.Context, op *graphql.Operation) error {
	if op.Kind() != ast.Mutation || h.cfg.Auth == nil {
		return nil
	}
	if _, ok := h.cfg.Auth.UserID(ctx); !ok {
		return errUnauthenticated
	}
	rc, ok := h.cfg.Auth.(Rechecker)
	if !ok {
		return nil
	}
	err := rc.Recheck(ctx)
	var sc apierror.StatusCoder
	switch {
	case err == nil:
		return nil
	case errors.As(err, &sc) && sc.StatusCode() == http.StatusServiceUnavailable:
		ctxlog.For(ctx, h.cfg.Logger).Error().Err(err).Msg("graphql: credentials could not be checked again before the mutation")
		return errCredentialsUnavailable
	}
	ctxlog.For(ctx, h.cfg.Logger).Info().Err(err).Msg("graphql: credentials no longer valid at the mutation")
	return errUnauthenticated
}

// document returns the checked and validated document for a query text,
// from the cache or computed now; intro says whether introspection is
// allowed.
//
// A document the cache will not keep (its text is new to the doorkeeper,
// or there is no cache) is the request's alone: it is parsed with a pooled
// graphql.Parser, whose memory done gives back once the request is
// answered, so that documents seen once leave no garbage. One the cache
// may keep is parsed on memory of its own.
func (h *Handler) document(query string, intro bool, tr *trace) *document {
	c := h.cache
	if intro && h.introCache != nil {
		c = h.introCache
	}
	if d := c.get(query); d != nil {
		tr.beginValidate(true)
		return d
	}
	d := &document{query: query}
	offer := c.offer(query)
	var parser *graphql.Parser
	if !offer.again {
		parser = h.parsers.Get().(*graphql.Parser)
	}
	d.doc, d.errs, d.weight, d.fault = h.check(query, intro, tr, parser)
	if d.weight == 0 {
		d.weight = documentWeight(len(query), 0, 0, len(d.errs))
	}
	// A server fault is answered, not remembered.
	if d.fault != nil || !c.add(d, offer) {
		d.parser = parser // the request's alone: done releases it
	} else if parser != nil {
		// Cached after all (the same text was offered meanwhile): the
		// document keeps the parser's memory, which its next Parse leaves.
		h.parsers.Put(parser)
	}
	return d
}

// done ends a request's use of d: a document no cache holds gives its
// parser's memory back for the next one.
func (h *Handler) done(d *document) {
	if d == nil || d.parser == nil {
		return
	}
	d.parser.Release()
	h.parsers.Put(d.parser)
	d.parser = nil
}

// check runs the checks before execution: the pre-parse scan, parsing, the
// depth and node limits, and validation. weight estimates the memory a
// validated document takes in the cache; it is 0 for a refused one.
func (h *Handler) check(query string, intro bool, tr *trace, parser *graphql.Parser) (doc *ast.QueryDocument, errs gqlerror.List, weight int, fault error) {
	var le *limits.Error
	start := tr.now()
	stats, err := h.limits.Scan(query)
	tr.phase(graphql.PhaseScan, start)
	switch {
	case errors.As(err, &le):
		return nil, gqlerror.List{limitError(le)}, 0, nil
	case err != nil:
		return nil, gqlerror.List{simpleError(apierror.CodeParseFailed, err.Error())}, 0, nil
	case stats.UndefinedVariable.Name != "":
		// Validation would refuse the document with this error, among
		// others: one per such reference, up to MaxErrors. The first one is
		// answer enough, and spares parsing a document that may be made of
		// thousands of them.
		return nil, gqlerror.List{undefinedVariableError(stats.UndefinedVariable)}, 0, nil
	}
	start = tr.now()
	doc, errs = h.parse(query, parser)
	tr.phase(graphql.PhaseParse, start)
	if errs != nil {
		return nil, errs, 0, nil
	}
	tr.beginValidate(false)
	ds, err := h.limits.CheckDocument(doc)
	switch {
	case errors.As(err, &le):
		return nil, gqlerror.List{limitError(le)}, 0, nil
	case err != nil:
		return nil, gqlerror.List{simpleError(apierror.CodeGraphQLValidation, "The document could not be checked.")}, 0, nil
	}
	verrs, fault := h.schema.Validate(doc, graphql.ValidateOptions{DisableIntrospection: !intro, MaxErrors: MaxErrors})
	if fault != nil || len(verrs) > 0 {
		return nil, requestErrors(verrs), 0, fault
	}
	return doc, nil, documentWeight(len(query), stats.Tokens, ds.Nodes, 0), nil
}

// parse parses query under the token limit, with parser when not nil.
func (h *Handler) parse(query string, parser *graphql.Parser) (*ast.QueryDocument, gqlerror.List) {
	if parser == nil {
		parser = new(graphql.Parser) // the document keeps its memory
	}
	maxTokens := max(h.limits.MaxTokens, 0)
	doc, perr := parser.Parse(query, maxTokens)
	switch {
	case perr == nil:
		return doc, nil
	case errors.Is(perr, graphql.ErrTokenLimit):
		return nil, gqlerror.List{limitError(&limits.Error{Limit: limits.Tokens, Max: maxTokens, Found: maxTokens + 1})}
	}
	e := simpleError(apierror.CodeParseFailed, perr.Message)
	e.Locations = perr.Locations
	return nil, gqlerror.List{e}
}

// readParams reads the GraphQL parameters of a GET or POST request.
func (h *Handler) readParams(w http.ResponseWriter, r *http.Request) (params, *failure) {
	switch r.Method {
	case http.MethodGet:
		return h.readGET(r)
	case http.MethodPost:
		return h.readPOST(w, r)
	}
	return params{}, &failure{status: http.StatusMethodNotAllowed, allow: "GET, POST",
		errs: gqlerror.List{simpleError(apierror.CodeBadUserInput, "Only GET and POST requests are supported.")}}
}

func (h *Handler) readGET(r *http.Request) (params, *failure) {
	q := r.URL.Query()
	var p params
	if !q.Has("query") {
		return p, fail(http.StatusBadRequest, apierror.CodeBadUserInput, "The query parameter is missing.")
	}
	p.query = q.Get("query")
	p.operationName = q.Get("operationName")
	if f := checkExtensions(q.Get("extensions")); f != nil {
		return p, f
	}
	if raw := q.Get("variables"); raw != "" {
		vars, f := decodeVariables([]byte(raw))
		if f != nil {
			return p, f
		}
		p.variables = vars
	}
	if max := h.limits.MaxLength; max >= 0 && len(p.query) > max {
		return p, &failure{status: http.StatusBadRequest, errs: gqlerror.List{limitError(&limits.Error{Limit: limits.Length, Max: max, Found: len(p.query)})}}
	}
	return p, nil
}

func (h *Handler) readPOST(w http.ResponseWriter, r *http.Request) (params, *failure) {
	var p params
	isJSON, ok := contentType(r.Header.Get("Content-Type"))
	if !ok {
		return p, fail(http.StatusUnsupportedMediaType, apierror.CodeBadUserInput,
			"The request body must be sent as application/json (or application/graphql).")
	}
	bp := h.bufs.Get().(*[]byte)
	defer h.bufs.Put(bp)
	body, f := h.readBody(w, r, (*bp)[:0])
	if cap(body) <= 1<<20 {
		*bp = body[:0]
	}
	if f != nil {
		return p, f
	}
	if !utf8.Valid(body) { // the kit's one rule for bodies (see internal/httpjson)
		return p, badRequest(httpjson.MessageNotUTF8)
	}
	if !isJSON {
		p.query = string(body)
		return p, nil
	}
	return decodeBody(body)
}

// contentType accepts application/json and application/graphql, with no
// parameter but a UTF-8 charset.
func contentType(header string) (isJSON, ok bool) {
	switch header { // the common spellings, without parsing
	case "application/json", "application/json; charset=utf-8", "application/json;charset=utf-8":
		return true, true
	case "application/graphql":
		return false, true
	}
	mediaType, params, err := mime.ParseMediaType(header)
	if err != nil {
		return false, false
	}
	for name, value := range params {
		if name != "charset" || !strings.EqualFold(value, "utf-8") {
			return false, false
		}
	}
	switch mediaType {
	case "application/json":
		return true, true
	case "application/graphql":
		return false, true
	}
	return false, false
}

// readBody reads the request body into buf, refusing more than the query
// length limit, as internal/httpjson does (net/http is told, so that the
// connection ends gracefully after the answer).
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, buf []byte) ([]byte, *failure) {
	max := int64(h.limits.MaxLength)
	if max < 0 {
		max = 1 << 30
	}
	tooLarge := func(found int64) *failure {
		return &failure{status: http.StatusBadRequest, errs: gqlerror.List{limitError(&limits.Error{Limit: limits.Length, Max: int(max), Found: int(found)})}}
	}
	if r.ContentLength > max {
		httpjson.RefuseBody(w, r) // so that the 400 reaches the client (see there)
		return buf, tooLarge(r.ContentLength)
	}
	if r.ContentLength > 0 && int64(cap(buf)) < r.ContentLength+1 {
		buf = make([]byte, 0, r.ContentLength+1)
	}
	body := httpjson.LimitBody(w, r, max)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return buf, tooLarge(max + 1)
			}
			return buf, fail(http.StatusBadRequest, apierror.CodeBadUserInput, "The request body could not be read.")
		}
	}
}
