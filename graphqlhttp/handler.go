package graphqlhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
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
	bufs      sync.Pool
	// maxResponse is the effective Config.MaxResponseBytes (0: none).
	maxResponse int
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
	h := &Handler{schema: schema, cfg: cfg, limits: cfg.Limits.Effective(), cache: newCache(cfg.CacheSize, cfg.CacheBytes)}
	h.presenter = apierror.Presenter{Debug: cfg.Debug, Logger: cfg.Logger}
	switch {
	case cfg.MaxResponseBytes == 0:
		h.maxResponse = DefaultMaxResponseBytes
	case cfg.MaxResponseBytes > 0:
		h.maxResponse = cfg.MaxResponseBytes
	}
	h.bufs.New = func() any { b := make([]byte, 0, 4096); return &b }
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

// failure is a request that is answered without executing.
type failure struct {
	status int
	errs   []errorObject
	allow  string
}

func fail(status int, code apierror.Code, msg string) *failure {
	return &failure{status: status, errs: []errorObject{simpleError(code, msg)}}
}

// ServeHTTP answers one GraphQL request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header()["Cache-Control"] = headerNoStore
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			obj := h.presenter.GraphQL(r.Context(), apierror.Recovered(v))
			h.writeErrors(w, r, http.StatusInternalServerError, []errorObject{{Message: obj.Message, Extensions: obj.Extensions}})
		}
	}()

	ctx := r.Context()
	if h.cfg.Auth != nil {
		authCtx, err := h.cfg.Auth.AuthenticateContext(r)
		if err != nil {
			ctxlog.For(ctx, h.cfg.Logger).Info().Err(err).Msg("graphql: invalid credentials")
			h.unauthenticated(w, r)
			return
		}
		if authCtx != nil {
			ctx = authCtx
		}
	}

	p, f := h.readParams(w, r)
	if f != nil {
		h.answer(w, r, f)
		return
	}
	doc := h.document(p.query)
	if doc.fault != nil {
		obj := h.presenter.GraphQL(ctx, doc.fault)
		h.writeErrors(w, r, http.StatusInternalServerError, []errorObject{{Message: obj.Message, Extensions: obj.Extensions}})
		return
	}
	if doc.errs != nil {
		h.answer(w, r, &failure{status: http.StatusBadRequest, errs: doc.errs})
		return
	}
	op := doc.operation(h.schema, p.operationName)
	if op.errs != nil {
		h.answer(w, r, &failure{status: http.StatusBadRequest, errs: op.errs})
		return
	}
	if r.Method == http.MethodGet && op.op.Kind() != ast.Query {
		h.answer(w, r, &failure{status: http.StatusMethodNotAllowed, allow: "POST",
			errs: []errorObject{simpleError(apierror.CodeBadUserInput, "Mutations can only be sent with POST.")}})
		return
	}
	vars, verrs := op.op.CoerceVariables(p.variables)
	for _, e := range verrs {
		var pe *graphql.PanicError
		if errors.As(e.Err, &pe) { // a custom scalar's parser panicked: a server bug
			obj := h.presenter.GraphQL(ctx, pe)
			h.writeErrors(w, r, http.StatusInternalServerError, []errorObject{{Message: obj.Message, Extensions: obj.Extensions}})
			return
		}
	}
	if len(verrs) > 0 {
		h.answer(w, r, &failure{status: http.StatusBadRequest, errs: requestErrors(verrs)})
		return
	}
	if op.op.Kind() == ast.Mutation {
		if _, ok := h.userID(ctx); !ok {
			h.unauthenticated(w, r)
			return
		}
	}

	ctx = context.WithValue(ctx, requestKey{}, r)
	if h.maxResponse > 0 {
		ctx = graphql.WithMaxResponseBytes(ctx, h.maxResponse)
	}
	bp := h.bufs.Get().(*[]byte)
	res := op.op.ExecuteCoerced(ctx, (*bp)[:0], vars, h.cfg.Root)
	out := res.Data
	if len(res.Errors) > 0 {
		out = append(out, `,"errors":[`...)
		for i, e := range res.Errors {
			if i > 0 {
				out = append(out, ',')
			}
			obj := h.presenter.GraphQL(ctx, e)
			b, err := marshal(errorObject{Message: obj.Message, Locations: locationsOf(obj.Locations), Path: obj.Path, Extensions: extensionsOf(obj)})
			if err != nil {
				b, _ = marshal(simpleError(apierror.CodeInternal, "Internal server error."))
			}
			out = append(out, b...)
		}
		out = append(out, ']')
	}
	out = append(out, '}')
	h.writeParts(w, r, http.StatusOK, dataPrefix, out)
	if cap(out) <= 1<<20 {
		*bp = out[:0]
		h.bufs.Put(bp)
	}
}

func extensionsOf(e *gqlerror.Error) any {
	if len(e.Extensions) == 0 {
		return nil
	}
	return e.Extensions
}

func (h *Handler) userID(ctx context.Context) (int64, bool) {
	if h.cfg.Auth == nil {
		return 0, false
	}
	return h.cfg.Auth.UserID(ctx)
}

func (h *Handler) unauthenticated(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("WWW-Authenticate", "Bearer")
	h.writeErrors(w, r, http.StatusUnauthorized, []errorObject{simpleError(apierror.CodeUnauthenticated, "Unauthenticated.")})
}

// document returns the checked and validated document for a query text,
// from the cache or computed now.
func (h *Handler) document(query string) *document {
	if d := h.cache.get(query); d != nil {
		return d
	}
	d := &document{query: query}
	d.doc, d.errs, d.weight, d.fault = h.check(query)
	if d.weight == 0 {
		d.weight = documentWeight(len(query), 0, 0, 0, len(d.errs))
	}
	if d.fault == nil { // a server fault is answered, not remembered
		h.cache.add(d)
	}
	return d
}

// check runs steps 2 to 4 of the data flow: the pre-parse scan, parsing,
// the depth and node limits, and validation. weight estimates the memory
// a validated document takes in the cache; it is 0 for a refused one.
func (h *Handler) check(query string) (doc *ast.QueryDocument, errs []errorObject, weight int, fault error) {
	var le *limits.Error
	stats, err := h.limits.Scan(query)
	if err != nil {
		if errors.As(err, &le) {
			return nil, []errorObject{limitError(le)}, 0, nil
		}
		return nil, []errorObject{simpleError(apierror.CodeParseFailed, err.Error())}, 0, nil
	}
	if ref := stats.UndefinedVariable; ref.Name != "" {
		// Validation would refuse the document with this error, among
		// others: one per such reference, up to MaxErrors. The first one is
		// answer enough, and spares parsing a document that may be made of
		// thousands of them.
		return nil, []errorObject{undefinedVariableError(ref)}, 0, nil
	}
	maxTokens := h.limits.MaxTokens
	if maxTokens < 0 {
		maxTokens = 0
	}
	doc, perr := graphql.ParseQuery(query, maxTokens)
	if perr != nil {
		if errors.Is(perr, graphql.ErrTokenLimit) {
			return nil, []errorObject{limitError(&limits.Error{Limit: limits.Tokens, Max: maxTokens, Found: maxTokens + 1})}, 0, nil
		}
		return nil, []errorObject{{Message: perr.Message, Locations: locationsOf(perr.Locations),
			Extensions: codeExt{apierror.CodeParseFailed}}}, 0, nil
	}
	ds, err := h.limits.CheckDocument(doc)
	if err != nil {
		if errors.As(err, &le) {
			return nil, []errorObject{limitError(le)}, 0, nil
		}
		return nil, []errorObject{simpleError(apierror.CodeGraphQLValidation, "The document could not be checked.")}, 0, nil
	}
	if errs := h.schema.Validate(doc, graphql.ValidateOptions{DisableIntrospection: !h.cfg.Introspection}); len(errs) > 0 {
		for _, e := range errs {
			var pe *graphql.PanicError
			if errors.As(e.Err, &pe) { // a custom scalar's literal parser panicked
				return nil, nil, 0, pe
			}
		}
		return nil, requestErrors(errs), 0, nil
	}
	return doc, nil, documentWeight(len(query), stats.Tokens, ds.Nodes, len(doc.Operations), 0), nil
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
		errs: []errorObject{simpleError(apierror.CodeBadUserInput, "Only GET and POST requests are supported.")}}
}

func (h *Handler) readGET(r *http.Request) (params, *failure) {
	q := r.URL.Query()
	var p params
	if !q.Has("query") {
		return p, fail(http.StatusBadRequest, apierror.CodeBadUserInput, "The query parameter is missing.")
	}
	p.query = q.Get("query")
	p.operationName = q.Get("operationName")
	if raw := q.Get("variables"); raw != "" {
		vars, f := decodeVariables([]byte(raw))
		if f != nil {
			return p, f
		}
		p.variables = vars
	}
	if max := h.limits.MaxLength; max >= 0 && len(p.query) > max {
		return p, &failure{status: http.StatusBadRequest, errs: []errorObject{limitError(&limits.Error{Limit: limits.Length, Max: max, Found: len(p.query)})}}
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
// length limit.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, buf []byte) ([]byte, *failure) {
	max := int64(h.limits.MaxLength)
	if max < 0 {
		max = 1 << 30
	}
	tooLarge := func(found int64) *failure {
		return &failure{status: http.StatusBadRequest, errs: []errorObject{limitError(&limits.Error{Limit: limits.Length, Max: int(max), Found: int(found)})}}
	}
	if r.ContentLength > max {
		return buf, tooLarge(r.ContentLength)
	}
	if r.ContentLength > 0 && int64(cap(buf)) < r.ContentLength+1 {
		buf = make([]byte, 0, r.ContentLength+1)
	}
	body := http.MaxBytesReader(w, r.Body, max)
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

// jsonDepth returns how deeply the arrays and objects of a JSON text nest.
// It stops counting once the depth exceeds limit, returning limit+1.
func jsonDepth(b []byte, limit int) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return deepest
				}
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// MaxVariablesNesting bounds how deeply the JSON of the variables may nest.
const MaxVariablesNesting = 64

// answer writes a response for a request that did not execute.
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, f *failure) {
	if f.allow != "" {
		w.Header().Set("Allow", f.allow)
	}
	h.writeErrors(w, r, f.status, f.errs)
}

// marshal encodes v as JSON without HTML escaping, as graphql-js writes
// "<EOF>" in a message.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func (h *Handler) writeErrors(w http.ResponseWriter, r *http.Request, status int, errs []errorObject) {
	b, err := marshal(struct {
		Errors []errorObject `json:"errors"`
	}{errs})
	if err != nil {
		b = []byte(`{"errors":[{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`)
	}
	h.write(w, r, status, b)
}

const (
	contentJSON     = "application/json"
	contentResponse = "application/graphql-response+json"
)

// Header values set on every response, shared to save allocations; they
// are never modified.
var (
	headerJSON     = []string{contentJSON + "; charset=utf-8"}
	headerResponse = []string{contentResponse + "; charset=utf-8"}
	headerNoStore  = []string{"no-store"}
)

var dataPrefix = []byte(`{"data":`)

func (h *Handler) write(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h.writeParts(w, r, status, nil, body)
}

// writeParts writes head and body as one response body.
func (h *Handler) writeParts(w http.ResponseWriter, r *http.Request, status int, head, body []byte) {
	hdr := w.Header()
	if responseType(r.Header.Get("Accept")) == contentResponse {
		hdr["Content-Type"] = headerResponse
	} else {
		hdr["Content-Type"] = headerJSON
	}
	hdr.Set("Content-Length", strconv.Itoa(len(head)+len(body)))
	w.WriteHeader(status)
	if len(head) > 0 {
		_, _ = w.Write(head)
	}
	_, _ = w.Write(body)
}

// responseType picks the media type of the response: the GraphQL response
// type when the client accepts it at least as much as application/json.
func responseType(accept string) string {
	if accept == "" || accept == "*/*" || accept == contentJSON {
		return contentJSON
	}
	accept = strings.ToLower(accept)
	if !strings.Contains(accept, contentResponse) {
		return contentJSON
	}
	qResponse, qJSON := -1.0, -1.0
	for _, part := range strings.Split(accept, ",") {
		mt, ps, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := ps["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch mt {
		case contentResponse:
			qResponse = max(qResponse, q)
		case contentJSON:
			qJSON = max(qJSON, q)
		}
	}
	if qResponse > 0 && qResponse >= qJSON {
		return contentResponse
	}
	return contentJSON
}
