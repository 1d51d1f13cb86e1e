package graphql

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/limits"
)

// Defaults of a [Preparer] (see [PrepareConfig]).
const (
	// DefaultCacheSize is the number of documents the cache keeps.
	DefaultCacheSize = 1000
	// DefaultCacheBytes bounds the memory the cached documents are
	// estimated to take.
	DefaultCacheBytes = 64 << 20
	// DefaultMaxErrors is the most request errors a refusal lists.
	DefaultMaxErrors = 100
)

// PrepareConfig configures a [Preparer]. The zero value applies the
// default limits of package limits, keeps DefaultCacheSize documents
// within DefaultCacheBytes, and lists at most DefaultMaxErrors errors.
type PrepareConfig struct {
	// Limits bound the query text and its document; zero fields mean the
	// defaults of package limits, negative ones no bound. MaxCost is not
	// applied here but by [Operation.Execute] (ExecParams.MaxCost).
	Limits limits.Config

	// CacheSize is the number of validated documents kept, keyed by
	// query text; 0 means DefaultCacheSize, a negative value no cache. A
	// text is cached from the second time it is prepared within a recent
	// window, so that texts sent once neither evict useful documents nor
	// stay in memory.
	CacheSize int

	// CacheBytes bounds the memory the cached documents are estimated to
	// take; 0 means DefaultCacheBytes, a negative value no bound but
	// CacheSize.
	CacheBytes int

	// MaxErrors is the most request errors one refusal lists; 0 means
	// DefaultMaxErrors.
	MaxErrors int

	// IntrospectionVaries says that requests differ in whether they may
	// use __schema and __type (PrepareOptions.Introspection): documents
	// are then cached apart for each, in two caches that share CacheSize
	// and CacheBytes.
	IntrospectionVaries bool
}

// Preparer turns query texts into operations ready to execute, in one
// step: the scan of the text under the limits, the parse, the depth and
// node limits, validation against the schema, the selection and planning
// of the operation. It caches the documents it has checked, with their
// prepared operations, and the request errors of those it refused.
//
// A Preparer is safe for concurrent use. graphqlhttp prepares every
// request with one; [Schema.Do] with one that has no limits and no cache.
type Preparer struct {
	s         *Schema
	limits    limits.Config // effective
	maxErrors int
	cache     *cache
	// introCache holds the documents of requests allowed introspection
	// when that varies (nil otherwise): they are validated under other
	// rules.
	introCache *cache
	// parsers holds *Parser: a document the cache will not keep is parsed
	// on the memory of the last one released.
	parsers sync.Pool
	// scan and checkDoc say whether Prepare scans the text and checks the
	// document; Schema.Do's Preparer, whose limits are off and which has
	// no cache to weigh documents for, does neither.
	scan, checkDoc bool
	// raw leaves the request errors of parsing, validation and operation
	// selection as the engine made them, unpresented, for Schema.Do to
	// give to Request.Present (it has no cache).
	raw bool
}

// NewPreparer returns a Preparer of operations of s.
func NewPreparer(s *Schema, cfg PrepareConfig) *Preparer {
	p := &Preparer{s: s, limits: cfg.Limits.Effective(), maxErrors: cfg.MaxErrors}
	if p.maxErrors <= 0 {
		p.maxErrors = DefaultMaxErrors
	}
	if !cfg.IntrospectionVaries {
		p.cache = newCache(cfg.CacheSize, cfg.CacheBytes)
	} else {
		// Two caches, one per set of rules, that share the bounds.
		items, bytes := halfBound(cfg.CacheSize, DefaultCacheSize), halfBound(cfg.CacheBytes, DefaultCacheBytes)
		p.cache, p.introCache = newCache(items, bytes), newCache(items, bytes)
	}
	p.parsers.New = func() any { return new(Parser) }
	p.scan, p.checkDoc = true, true
	return p
}

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

// PrepareOptions are the inputs of one [Preparer.Prepare] besides the
// text. The zero value selects the only operation, without introspection
// and without tracing.
type PrepareOptions struct {
	// OperationName selects the operation; "" for a document's only one.
	OperationName string
	// Introspection allows __schema and __type.
	Introspection bool
	// Tracer, when set, is told of the scan, parse and validate phases
	// (see [Phase]); the validate phase of a document from the cache is
	// marked Cached, and has no scan and no parse before it.
	Tracer Tracer
}

// Prepared is an operation ready to execute, with the document it was
// prepared from. Release it once the request is answered, whatever
// Prepare returned.
type Prepared struct {
	// Operation is nil when Prepare refused the request.
	Operation *Operation
	p         *Preparer
	doc       *document
}

// Release ends the request's use of its document: one that no cache
// holds gives the memory of its parse back for the next one. The
// Operation stays valid; nothing of the document may be read afterwards.
func (pr Prepared) Release() {
	d := pr.doc
	if d == nil || d.parser == nil {
		return
	}
	d.parser.Release()
	pr.p.parsers.Put(d.parser)
	d.parser = nil
}

// Prepare returns the operation a request asks for, from the cache or
// checked now. A request the client got wrong is refused with its request
// errors, as clients see them (each with extensions.code, see
// [RequestError] and [LimitError]; at most MaxErrors): the text crosses a
// limit, does not parse or does not validate, or names no operation of
// it. The error is a server fault (a panic in a custom scalar's literal
// parser, say), to answer as an internal error. ctx is passed to the
// tracer.
func (p *Preparer) Prepare(ctx context.Context, query string, opts PrepareOptions) (Prepared, gqlerror.List, error) {
	var validateStart time.Time
	d, cached := p.document(ctx, query, &opts, &validateStart)
	pr := Prepared{p: p, doc: d}
	var errs gqlerror.List
	switch {
	case d.fault != nil:
	case d.errs != nil:
		errs = d.errs
	default:
		op := d.operation(p, opts.OperationName)
		pr.Operation, errs = op.op, op.errs
	}
	if opts.Tracer != nil && !validateStart.IsZero() {
		opts.Tracer.Phase(ctx, PhaseInfo{Phase: PhaseValidate, Start: validateStart,
			Duration: time.Since(validateStart), Cached: cached})
	}
	return pr, errs, d.fault
}

// MaxLength is the effective limit on the length of a query text, in
// bytes; negative when there is none. A transport that reads texts bounds
// them with it, and refuses a longer one with [Preparer.TooLong].
func (p *Preparer) MaxLength() int { return p.limits.MaxLength }

// TooLong returns the request error of a text of length bytes, longer
// than limit: MaxLength, or the transport's own bound on what it reads
// when there is none. length is at least limit+1 when the text's whole
// length is not known.
func (p *Preparer) TooLong(limit, length int) gqlerror.List {
	return gqlerror.List{LimitError(&limits.Error{Limit: limits.Length, Max: limit, Found: length})}
}

// MaxCost is the effective limit on the cost of an operation, for
// ExecParams.MaxCost: negative when there is none.
func (p *Preparer) MaxCost() int { return p.limits.MaxCost }

// CacheLen returns the number of documents cached and their estimated
// weight in bytes.
func (p *Preparer) CacheLen() (docs, bytes int) {
	for _, c := range []*cache{p.cache, p.introCache} {
		n, b := c.stats()
		docs, bytes = docs+n, bytes+b
	}
	return docs, bytes
}

// document returns the checked and validated document for a query text,
// from the cache (cached true) or computed now, and sets validateStart
// when the validate phase began (when tracing).
//
// A document the cache will not keep (its text is new to the doorkeeper,
// or there is no cache) is the request's alone: it is parsed with a pooled
// Parser, whose memory Release gives back once the request is answered,
// so that documents seen once leave no garbage. One the cache may keep is
// parsed on memory of its own.
func (p *Preparer) document(ctx context.Context, query string, opts *PrepareOptions, validateStart *time.Time) (d *document, cached bool) {
	c := p.cache
	if opts.Introspection && p.introCache != nil {
		c = p.introCache
	}
	if d := c.get(query); d != nil {
		if opts.Tracer != nil {
			*validateStart = time.Now()
		}
		return d, true
	}
	d = &document{query: query}
	offer := c.offer(query)
	var parser *Parser
	if !offer.again {
		parser = p.parsers.Get().(*Parser)
	}
	d.doc, d.errs, d.weight, d.fault = p.check(ctx, query, opts, parser, validateStart)
	if d.weight == 0 {
		d.weight = documentWeight(len(query), 0, 0, len(d.errs))
	}
	// A server fault is answered, not remembered.
	if d.fault != nil || !c.add(d, offer) {
		d.parser = parser // the request's alone: Release gives it back
	} else if parser != nil {
		// Cached after all (the same text was offered meanwhile): the
		// document keeps the parser's memory, which its next Parse leaves.
		p.parsers.Put(parser)
	}
	return d, false
}

// phase reports a phase that began at start to the tracer of opts, if any.
func phase(ctx context.Context, opts *PrepareOptions, ph Phase, start time.Time) {
	if opts.Tracer != nil {
		opts.Tracer.Phase(ctx, PhaseInfo{Phase: ph, Start: start, Duration: time.Since(start)})
	}
}

// now is the time, when tracing.
func now(opts *PrepareOptions) time.Time {
	if opts.Tracer == nil {
		return time.Time{}
	}
	return time.Now()
}

// check scans, parses, checks the depth and node limits of, and validates
// a text. weight estimates the memory a validated document takes in the
// cache; it is 0 for a refused one.
func (p *Preparer) check(ctx context.Context, query string, opts *PrepareOptions, parser *Parser, validateStart *time.Time) (doc *ast.QueryDocument, errs gqlerror.List, weight int, fault error) {
	var le *limits.Error
	var stats limits.Stats
	var err error
	if p.scan {
		start := now(opts)
		stats, err = p.limits.Scan(query)
		phase(ctx, opts, PhaseScan, start)
	}
	switch {
	case errors.As(err, &le):
		return nil, gqlerror.List{LimitError(le)}, 0, nil
	case err != nil:
		return nil, gqlerror.List{codedError(errcode.CodeParseFailed, err.Error())}, 0, nil
	case stats.UndefinedVariable.Name != "" && !p.raw:
		// Validation would refuse the document with this error, among
		// others: one per such reference, up to MaxErrors. The first one is
		// answer enough, and spares parsing a document that may be made of
		// thousands of them.
		return nil, gqlerror.List{undefinedVariableError(stats.UndefinedVariable)}, 0, nil
	}
	start := now(opts)
	doc, errs = p.parse(query, parser)
	phase(ctx, opts, PhaseParse, start)
	if errs != nil {
		return nil, errs, 0, nil
	}
	*validateStart = now(opts)
	var ds limits.DocStats
	if p.checkDoc {
		ds, err = p.limits.CheckDocument(doc)
	}
	switch {
	case errors.As(err, &le):
		return nil, gqlerror.List{LimitError(le)}, 0, nil
	case err != nil:
		return nil, gqlerror.List{codedError(errcode.CodeGraphQLValidation, "The document could not be checked.")}, 0, nil
	}
	verrs, fault := p.s.Validate(doc, ValidateOptions{DisableIntrospection: !opts.Introspection, MaxErrors: p.maxErrors})
	if fault != nil || len(verrs) > 0 {
		return nil, p.requestErrors(verrs), 0, fault
	}
	return doc, nil, documentWeight(len(query), stats.Tokens, ds.Nodes, 0), nil
}

// parse parses query under the token limit, with parser when not nil.
func (p *Preparer) parse(query string, parser *Parser) (*ast.QueryDocument, gqlerror.List) {
	if parser == nil {
		parser = new(Parser) // the document keeps its memory
	}
	maxTokens := max(p.limits.MaxTokens, 0)
	doc, perr := parser.Parse(query, maxTokens)
	switch {
	case perr == nil:
		return doc, nil
	case errors.Is(perr, ErrTokenLimit):
		return nil, gqlerror.List{LimitError(&limits.Error{Limit: limits.Tokens, Max: maxTokens, Found: maxTokens + 1})}
	}
	if p.raw {
		return nil, gqlerror.List{perr}
	}
	e := codedError(errcode.CodeParseFailed, perr.Message)
	e.Locations = perr.Locations
	return nil, gqlerror.List{e}
}

// requestErrors presents errors found before execution (see
// [RequestError]), at most MaxErrors of them, unless p is raw.
func (p *Preparer) requestErrors(errs gqlerror.List) gqlerror.List {
	if len(errs) == 0 {
		return nil
	}
	maxErrors := p.maxErrors
	if p.raw {
		return errs[:min(len(errs), maxErrors)]
	}
	out := make(gqlerror.List, 0, min(len(errs), maxErrors))
	for _, e := range errs[:min(len(errs), maxErrors)] {
		out = append(out, RequestError(e))
	}
	return out
}

// codedError is a request error with a code and no location.
func codedError(code errcode.Code, msg string) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": code}}
}

// undefinedVariableError is the error of gqlparser's NoUndefinedVariables
// rule for ref.
func undefinedVariableError(ref limits.VariableRef) *gqlerror.Error {
	msg := `Variable "$` + ref.Name + `" is not defined.`
	if ref.Operation != "" {
		msg = `Variable "$` + ref.Name + `" is not defined by operation "` + ref.Operation + `".`
	}
	e := codedError(errcode.CodeGraphQLValidation, msg)
	e.Locations = []gqlerror.Location{{Line: ref.Line, Column: ref.Column}}
	return e
}

// limitInfo is extensions.limit of a QUERY_LIMIT_EXCEEDED error, its
// members in this order.
type limitInfo struct {
	Name  limits.Name `json:"name"`
	Max   int         `json:"max"`
	Found int         `json:"found"`
}

// LimitError returns the request error clients see for a limit crossed:
// the message of le, its location when it has one, extensions.code
// QUERY_LIMIT_EXCEEDED and extensions.limit {name, max, found}. It
// presents the *limits.Error that [Operation.Execute] returns for an
// operation over ExecParams.MaxCost.
func LimitError(le *limits.Error) *gqlerror.Error {
	e := &gqlerror.Error{Message: le.Error(), Extensions: map[string]any{"code": errcode.CodeQueryLimitExceeded,
		"limit": limitInfo{Name: le.Limit, Max: le.Max, Found: le.Found}}}
	if le.Line > 0 && le.Column > 0 {
		e.Locations = []gqlerror.Location{{Line: le.Line, Column: le.Column}}
	}
	return e
}

// Public reports whether every root field the operation may select is
// public ([Field.Public]), so that it needs no authenticated user:
// graphqlhttp's mutation gate lets such a mutation through without
// credentials, and refuses one that may select any other field. It is
// decided once, when the operation is prepared, from the document alone:
// a field (or fragment) under @skip(if: true) or @include(if: false)
// written as a literal is not selected; one whose condition is a variable
// counts as selected, whatever the variables of an execution say, so the
// answer holds for every execution. __typename is public; so is an
// operation that selects nothing. Only mutation fields can be public: a
// query that selects a field reports false.
func (op *Operation) Public() bool { return op.p.Public }
