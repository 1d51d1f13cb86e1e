package graphqlhttp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/internal/respbudget"
)

// Handler serves a schema over HTTP. Make one with [New]; it is safe for
// concurrent use and holds no per-request state, so any number of
// processes can serve the same schema (only the document cache is
// per process).
type Handler struct {
	schema    *graphql.Schema
	cfg       Config
	presenter apierror.Presenter
	// prep turns query texts into operations: limits, parsing,
	// validation, the document cache.
	prep *graphql.Preparer
	bufs sync.Pool
	// execs holds *execState: what each execution needs besides the
	// request.
	execs sync.Pool
	// maxResponse is the effective Config.MaxResponseBytes (0: none).
	maxResponse int
	// budget bounds the response data of all executions at once (nil:
	// none).
	budget *respbudget.Budget
	// stall is the effective Config.StallTimeout (0: none).
	stall time.Duration
	// gate is h.mutationGate, bound once.
	gate func(context.Context, *graphql.Operation) error
	// tracer is the Tracer of the executions (see execTracer).
	tracer graphql.Tracer
}

// New returns the endpoint for schema. It refuses a nil schema, and a
// schema with mutations without a Config.Auth to let any of them through;
// the error names every problem of cfg at once.
func New(schema *graphql.Schema, cfg Config) (*Handler, error) {
	if schema == nil {
		return nil, errors.New("graphqlhttp: New needs a schema")
	}
	var problems []error
	if schema.AST().Mutation != nil && cfg.Auth == nil {
		problems = append(problems, errors.New("graphqlhttp: the schema has mutations but Config.Auth is nil, so every mutation would be refused"))
	}
	h := &Handler{schema: schema, cfg: cfg}
	h.prep = graphql.NewPreparer(schema, graphql.PrepareConfig{Limits: cfg.Limits, CacheSize: cfg.CacheSize,
		CacheBytes: cfg.CacheBytes, MaxErrors: MaxErrors, IntrospectionVaries: cfg.AllowIntrospection != nil})
	h.presenter = cfg.Presenter
	switch {
	case cfg.MaxResponseBytes == 0:
		h.maxResponse = DefaultMaxResponseBytes
	case cfg.MaxResponseBytes > 0:
		h.maxResponse = cfg.MaxResponseBytes
	}
	var err error
	if h.budget, err = budgetConfig(cfg, h.maxResponse); err != nil {
		problems = append(problems, err)
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	switch {
	case cfg.StallTimeout == 0:
		h.stall = DefaultStallTimeout
	case cfg.StallTimeout > 0:
		h.stall = cfg.StallTimeout
	}
	h.execs.New = func() any { return &execState{data: make([]byte, 0, 4096), out: make([]byte, 0, 4096)} }
	h.bufs.New = func() any { b := make([]byte, 0, 4096); return &b }
	h.gate = h.mutationGate
	h.tracer = execTracer(cfg)
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

func fail(status int, code errcode.Code, msg string) *failure {
	return &failure{status: status, errs: gqlerror.List{simpleError(code, msg)}}
}

// errUnauthenticated is the failure of a mutation without a user and of
// credentials that are present but invalid; errCredentialsUnavailable,
// of credentials that could not be checked again before a mutation.
var (
	errUnauthenticated        = errors.New("graphqlhttp: unauthenticated")
	errCredentialsUnavailable = errors.New("graphqlhttp: credentials could not be checked")
)

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
	op, pr, f := h.operation(ctx, p, r.Method, h.introspection(ctx), tr)
	defer pr.Release()
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
	h.answer(r.Context(), w, r, &failure{fault: errcode.Recovered(v)})
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
		var sc errcode.StatusCoder
		if errors.As(err, &sc) && sc.StatusCode() == http.StatusServiceUnavailable {
			// The credentials could not be checked (a revocation store
			// is down): refused, never let through, and not the client's
			// fault.
			ctxlog.Log(ctx, h.presenter.Logger, slog.LevelError, "graphql: credentials could not be checked", ctxlog.Err(err))
			return ctx, credentialsUnavailable()
		}
		ctxlog.Log(ctx, h.presenter.Logger, slog.LevelInfo, "graphql: invalid credentials", ctxlog.Err(err))
		return ctx, unauthenticated()
	}
	if authCtx == nil {
		return ctx, nil
	}
	return authCtx, nil
}

func unauthenticated() *failure {
	return fail(http.StatusUnauthorized, errcode.CodeUnauthenticated, errcode.MessageUnauthenticated)
}

// credentialsUnavailable answers credentials that could not be checked.
func credentialsUnavailable() *failure {
	return fail(http.StatusServiceUnavailable, errcode.CodeUnavailable, errcode.MessageUnavailable)
}

// operation returns the prepared operation a request names, or the
// failure to answer with: the engine's refusal, or a mutation sent with
// GET. intro says whether the request may use introspection. The
// Prepared is to be released once the request is answered.
func (h *Handler) operation(ctx context.Context, p params, method string, intro bool, tr *trace) (*graphql.Operation, graphql.Prepared, *failure) {
	opts := graphql.PrepareOptions{OperationName: p.operationName, Introspection: intro}
	if tr != nil {
		ctx, opts.Tracer = tr.ctx, tr.t
	}
	pr, errs, fault := h.prep.Prepare(ctx, p.query, opts)
	switch {
	case fault != nil:
		return nil, pr, &failure{fault: fault}
	case errs != nil:
		return nil, pr, &failure{status: http.StatusBadRequest, errs: errs}
	case method == http.MethodGet && pr.Operation.Kind() != ast.Query:
		f := fail(http.StatusMethodNotAllowed, errcode.CodeBadUserInput, "Mutations can only be sent with POST.")
		f.allow = "POST"
		return nil, pr, f
	}
	return pr.Operation, pr, nil
}

// mutationGate refuses a mutation without an authenticated user, after
// the body is read, the response budget's first share is lent and the
// variables are coerced, and before any resolver runs, unless the
// mutation may select only public fields (graphql.Operation.Public,
// decided when it was prepared). When Config.Auth is a [Rechecker] and
// the request has a user, it asks it again whether the credentials still
// hold: a revocation that landed since they were checked (while the
// client sent the body, or the request waited for its share) stops the
// mutation, public or not, with the 401 or the 503 it would have got at
// the door.
func (h *Handler) mutationGate(ctx context.Context, op *graphql.Operation) error {
	if op.Kind() != ast.Mutation || h.cfg.Auth == nil {
		return nil
	}
	if _, ok := h.cfg.Auth.Subject(ctx); !ok {
		if op.Public() {
			return nil
		}
		return errUnauthenticated
	}
	rc, ok := h.cfg.Auth.(Rechecker)
	if !ok {
		return nil
	}
	err := rc.Recheck(ctx)
	var sc errcode.StatusCoder
	switch {
	case err == nil:
		return nil
	case errors.As(err, &sc) && sc.StatusCode() == http.StatusServiceUnavailable:
		ctxlog.Log(ctx, h.presenter.Logger, slog.LevelError, "graphql: credentials could not be checked again before the mutation", ctxlog.Err(err))
		return errCredentialsUnavailable
	}
	ctxlog.Log(ctx, h.presenter.Logger, slog.LevelInfo, "graphql: credentials no longer valid at the mutation", ctxlog.Err(err))
	return errUnauthenticated
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
		errs: gqlerror.List{simpleError(errcode.CodeBadUserInput, "Only GET and POST requests are supported.")}}
}

func (h *Handler) readGET(r *http.Request) (params, *failure) {
	q := r.URL.Query()
	var p params
	if !q.Has("query") {
		return p, fail(http.StatusBadRequest, errcode.CodeBadUserInput, "The query parameter is missing.")
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
	if max := h.prep.MaxLength(); max >= 0 && len(p.query) > max {
		return p, &failure{status: http.StatusBadRequest, errs: h.prep.TooLong(max, len(p.query))}
	}
	return p, nil
}

func (h *Handler) readPOST(w http.ResponseWriter, r *http.Request) (params, *failure) {
	var p params
	isJSON, ok := contentType(r.Header.Get("Content-Type"))
	if !ok {
		return p, fail(http.StatusUnsupportedMediaType, errcode.CodeBadUserInput,
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
	max := int64(h.prep.MaxLength())
	if max < 0 {
		max = 1 << 30
	}
	tooLarge := func(found int64) *failure {
		return &failure{status: http.StatusBadRequest, errs: h.prep.TooLong(int(max), int(found))}
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
			return buf, fail(http.StatusBadRequest, errcode.CodeBadUserInput, "The request body could not be read.")
		}
	}
}
