// Package otelgraphql reports GraphQL requests to OpenTelemetry: it is a
// [graphql.Tracer] for graphqlhttp.Config.Tracer (or
// graphql.ExecParams.Tracer) that makes spans and a duration histogram.
//
//	tracer, err := otelgraphql.New(otelgraphql.Config{
//		TracerProvider: tp, // an sdk/trace TracerProvider, say
//		MeterProvider:  mp, // optional
//	})
//	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Tracer: tracer})
//
// The core packages of gqlkit (graphql, graphqlhttp, errors, ...) import no
// OpenTelemetry module: only a program that imports this package does.
//
// # Spans
//
// Every request is an operation span, of kind SERVER as the OpenTelemetry
// semantic conventions for GraphQL server spans ask. It is a child of the
// span in the request's context, such as otelhttp's HTTP server span. Its
// name is the operation type ("query", "mutation"), or "GraphQL Operation"
// when the request ended before its operation was known (a body that could
// not be read, a document that does not parse or validate); with
// Config.SpanNameWithOperationName it is "{type} {name}" for a named
// operation (the conventions do not recommend it by default: the name comes
// from the client). Its attributes:
//
//	graphql.operation.type     query, mutation (when known)
//	graphql.operation.name     the operation's name (when it has one)
//	graphql.document           the query text, only with Config.RecordDocument
//	gqlkit.graphql.cost        the operation's cost, when it was computed
//	gqlkit.graphql.document.cached
//	                           whether the document came from the Preparer's
//	                           cache, when the request looked it up
//	gqlkit.graphql.errors      the number of errors in the answer, when any
//	http.response.status_code  the HTTP status of the answer
//	error.type                 the code of the answer's most serious error
//
// Its status is Error only when the request failed on the server's side: its
// error code answers a status of 500 or more (errcode.Code.Status), such as
// INTERNAL_SERVER_ERROR and TIMEOUT, or its HTTP status is 500 or more
// (SERVICE_UNAVAILABLE when the response budget is exhausted). An error of the client's
// (GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT, QUERY_LIMIT_EXCEEDED,
// UNAUTHENTICATED, a NOT_FOUND from a resolver, ...) sets error.type but
// leaves the status unset, as the conventions for HTTP servers do for a 4xx.
// Variable values are never recorded: the tracer is never given them.
//
// Each phase of the request is a child span of kind INTERNAL named
// "graphql.read", "graphql.scan", "graphql.parse", "graphql.validate",
// "graphql.coerce", "graphql.execute" and "graphql.write" (see
// [graphql.Phase]), made when the phase has ended with its own start and end
// times; the validate span of a document found in graphqlhttp's cache has
// gqlkit.graphql.document.cached = true (and its request has no scan and
// no parse span). Config.SkipPhases leaves them out.
//
// Each field that runs a resolver is a child span of the operation span, of
// kind INTERNAL, named "graphql.resolve {ParentType}.{field}" (for example
// "graphql.resolve Query.posts"), with the attributes the OpenTelemetry
// JavaScript instrumentation of graphql-js uses: graphql.field.name,
// graphql.parent.name, graphql.field.type (the declared type, "[Post!]!")
// and graphql.field.path (the response path joined with dots, list indexes
// included: "posts.0.author"). That instrumentation puts the path in the
// span name; this one keeps span names few, as the OpenTelemetry
// specification asks, and leaves the path to the attribute. The spans of
// the resolvers are not children of the execute span, which is made only
// once the execution has ended. A field read from its parent value, without
// a resolver, has no span (unless graphqlhttp.Config.TraceDefaultFields is
// set). A resolver's error sets error.type to its code (apierror.CodeOf of
// the error as graphqlhttp gives it, after its Presenter's Hooks.Map: the
// code the client sees); the status is Error only for a code that
// answers 500 or more, which an unknown error and a panic do. Error messages
// are never recorded: the server's log has them, under the request's id.
//
// # Metrics
//
// With a MeterProvider, every request is recorded in one histogram,
// gqlkit.graphql.operation.duration, in seconds from StartRequest to
// EndRequest (the whole request, its reading and writing included), with
// the attributes:
//
//	graphql.operation.type  query, mutation; absent when the operation is not known
//	graphql.operation.name  the operation's name, absent for an anonymous operation;
//	                        past Config.MaxOperationNames distinct names, "_OTHER"
//	gqlkit.graphql.outcome  success, client_error or server_error
//
// The outcome is server_error when the span's status would be Error (see
// above), client_error when the answer has any other error or an HTTP status
// of 400 or more (a field error in a 200 answer included), and success
// otherwise.
//
// Every request that looked its document up (graphql.Preparer.Prepare) is
// counted once in the counter gqlkit.graphql.document.lookups, with
// gqlkit.graphql.document.cached = true for a document found in the cache
// and false for one checked anew (a text seen for the first time, one the
// cache let go, or every text when the Preparer has no cache). A request
// refused before (an unreadable body) is not counted. The hit ratio is
// the true count over both. The tracer learns the outcome from the phases
// graphql reports, so it needs no phase spans: Config.SkipPhases leaves
// the counter and the span attribute as they are.
//
// A request whose operation span the sampler drops has no phase and no
// field span at all: they are not made, rather than made and dropped, as a
// parent-based sampler (the SDK's default) would drop them. Its metric is
// recorded all the same.
//
// A Tracer is safe for concurrent use. A nil graphql.Tracer costs nothing:
// a service that does not trace leaves graphqlhttp.Config.Tracer nil rather
// than making a Tracer with nowhere to report to.
package otelgraphql

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/gqlkit/gqlkit/otelgraphql"

// MetricName is the name of the operation duration histogram.
const MetricName = "gqlkit.graphql.operation.duration"

// LookupsMetricName is the name of the counter of document lookups, by
// CachedKey.
const LookupsMetricName = "gqlkit.graphql.document.lookups"

// DefaultMaxOperationNames is the number of distinct operation names the
// metric keeps when Config.MaxOperationNames is 0.
const DefaultMaxOperationNames = 100

// OverflowOperationName is the operation name the metric records for a
// name past Config.MaxOperationNames, and for an operation type other than
// query, mutation and subscription. It is the value the semantic
// conventions use for such overflows (as http.request.method does).
const OverflowOperationName = "_OTHER"

// DefaultSpanName is the name of an operation span whose operation type is
// not known, as the semantic conventions name it.
const DefaultSpanName = "GraphQL Operation"

// The outcomes of the metric's gqlkit.graphql.outcome attribute.
const (
	// OutcomeSuccess: the answer has no error and a status below 400.
	OutcomeSuccess = "success"
	// OutcomeClientError: the answer has an error of the client's (a
	// code answering less than 500) or a status from 400 to 499.
	OutcomeClientError = "client_error"
	// OutcomeServerError: the answer's most serious error has a code
	// answering 500 or more, or its status is 500 or more.
	OutcomeServerError = "server_error"
)

// Attribute keys that the semantic conventions do not define. The field
// attributes are those of the OpenTelemetry JavaScript instrumentation of
// graphql-js.
const (
	// CostKey is the operation's cost (see limits.Config.MaxCost), on the
	// operation span when it was computed.
	CostKey = attribute.Key("gqlkit.graphql.cost")
	// ErrorsKey is the number of errors in the answer, on the operation
	// span when there is any.
	ErrorsKey = attribute.Key("gqlkit.graphql.errors")
	// CachedKey, on the validate span, the operation span and the lookups
	// counter, tells whether the document came from the Preparer's cache
	// (graphqlhttp's).
	CachedKey = attribute.Key("gqlkit.graphql.document.cached")
	// OutcomeKey is the metric's outcome: OutcomeSuccess,
	// OutcomeClientError or OutcomeServerError.
	OutcomeKey = attribute.Key("gqlkit.graphql.outcome")
	// FieldNameKey is the name of a field span's field.
	FieldNameKey = attribute.Key("graphql.field.name")
	// ParentNameKey is the name of the type a field span's field belongs to.
	ParentNameKey = attribute.Key("graphql.parent.name")
	// FieldTypeKey is the declared type of a field span's field, "[Post!]!".
	FieldTypeKey = attribute.Key("graphql.field.type")
	// FieldPathKey is a field span's response path, joined with dots.
	FieldPathKey = attribute.Key("graphql.field.path")
)

// durationBuckets are the bucket boundaries of the histogram, in seconds:
// those the semantic conventions recommend for http.server.request.duration.
var durationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

// Config configures a [Tracer]. A zero Config reports to OpenTelemetry's
// global providers, as the OpenTelemetry instrumentations do.
type Config struct {
	// TracerProvider makes the spans; nil means the global provider
	// (otel.GetTracerProvider(), which makes no spans until a program
	// sets one). Pass a no-op provider for no spans.
	TracerProvider trace.TracerProvider

	// MeterProvider makes the duration histogram; nil means the global
	// provider (otel.GetMeterProvider()).
	MeterProvider metric.MeterProvider

	// RecordDocument puts the query text in graphql.document. Off by
	// default: a document may hold literal values (a password written
	// into a mutation, say), and it is as long as the client made it (up
	// to graphqlhttp's length limit).
	RecordDocument bool

	// SpanNameWithOperationName names the operation span of a named
	// operation "{type} {name}" ("query GetPosts") instead of "{type}".
	// The semantic conventions allow it as an option: span names made
	// from what a client sends can be many.
	SpanNameWithOperationName bool

	// SkipPhases leaves out the phase spans (graphql.parse, ...): a
	// request is then its operation span and its resolvers' spans.
	SkipPhases bool

	// MaxOperationNames bounds the distinct operation names the metric
	// records: the first ones seen are kept, and every later one is
	// recorded as OverflowOperationName, so that a client inventing names
	// cannot make the metric grow without bound. 0 means
	// DefaultMaxOperationNames; a negative value leaves the name out of
	// the metric. Spans always carry the real name.
	MaxOperationNames int
}

// Tracer is a [graphql.Tracer] that reports to OpenTelemetry. Make one with
// [New]; it is safe for concurrent use.
type Tracer struct {
	tracer     trace.Tracer            // nil: no spans
	duration   metric.Float64Histogram // nil: no metric
	lookups    metric.Int64Counter     // nil: no metric
	document   bool
	namedSpans bool
	phases     bool
	maxNames   int

	names metricNames
	spans fieldSpanNames
}

var _ graphql.Tracer = (*Tracer)(nil)

// New returns a Tracer reporting to the providers of cfg (the global
// ones where cfg has none). It fails when the histogram cannot be made.
func New(cfg Config) (*Tracer, error) {
	if cfg.TracerProvider == nil {
		cfg.TracerProvider = otel.GetTracerProvider()
	}
	if cfg.MeterProvider == nil {
		cfg.MeterProvider = otel.GetMeterProvider()
	}
	t := &Tracer{
		document:   cfg.RecordDocument,
		namedSpans: cfg.SpanNameWithOperationName,
		phases:     !cfg.SkipPhases,
		maxNames:   cfg.MaxOperationNames,
	}
	if t.maxNames == 0 {
		t.maxNames = DefaultMaxOperationNames
	}
	if cfg.TracerProvider != nil {
		t.tracer = cfg.TracerProvider.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL))
	}
	if cfg.MeterProvider != nil {
		meter := cfg.MeterProvider.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL))
		h, err := meter.Float64Histogram(MetricName,
			metric.WithUnit("s"),
			metric.WithDescription("Duration of GraphQL requests, from the start of reading to the end of writing."),
			metric.WithExplicitBucketBoundaries(durationBuckets...))
		if err != nil {
			return nil, fmt.Errorf("otelgraphql: making the histogram %s: %w", MetricName, err)
		}
		t.duration = h
		c, err := meter.Int64Counter(LookupsMetricName,
			metric.WithUnit("{lookup}"),
			metric.WithDescription("Lookups of GraphQL documents in the cache of checked documents, by whether the document was found."))
		if err != nil {
			return nil, fmt.Errorf("otelgraphql: making the counter %s: %w", LookupsMetricName, err)
		}
		t.lookups = c
	}
	return t, nil
}

// requestCtx is the context StartRequest returns: the request's own
// context, which carries the operation span, and the request's state, in
// one allocation rather than two.
type requestCtx struct {
	context.Context
	span  trace.Span // nil without spans
	start time.Time  // zero without a metric
	// lookup is what the document lookup found, once the phases told.
	lookup lookup
}

type requestKey struct{}

// Value returns the requestCtx itself for requestKey, and what the
// wrapped context holds for any other key.
func (c *requestCtx) Value(key any) any {
	if _, ok := key.(requestKey); ok {
		return c
	}
	return c.Context.Value(key)
}

func requestOf(ctx context.Context) *requestCtx {
	r, _ := ctx.Value(requestKey{}).(*requestCtx)
	return r
}

// Options of the spans, made once.
var (
	operationStart = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)}
	internalKind   = trace.WithSpanKind(trace.SpanKindInternal)
	fieldStart     = []trace.SpanStartOption{internalKind}
	cachedOptions  = [2]trace.SpanStartOption{
		trace.WithAttributes(CachedKey.Bool(false)),
		trace.WithAttributes(CachedKey.Bool(true)),
	}
	phaseNames = func() []string {
		names := make([]string, graphql.PhaseWrite+1)
		for p := range names {
			names[p] = "graphql." + graphql.Phase(p).String()
		}
		return names
	}()
)

// StartRequest starts the operation span, a child of the span in ctx, and
// notes the time for the metric.
func (t *Tracer) StartRequest(ctx context.Context) context.Context {
	r := &requestCtx{}
	if t.duration != nil {
		r.start = time.Now()
	}
	if t.tracer != nil {
		ctx, r.span = t.tracer.Start(ctx, DefaultSpanName, operationStart...)
	}
	r.Context = ctx
	return r
}

// Phase notes whether the document came from the cache and makes the span
// of a phase that has ended, a child of the operation span.
func (t *Tracer) Phase(ctx context.Context, p graphql.PhaseInfo) {
	t.noteLookup(ctx, p)
	if t.tracer == nil || !t.phases {
		return
	}
	if dropped(ctx) {
		return
	}
	name := "graphql.unknown"
	if int(p.Phase) < len(phaseNames) && p.Phase > 0 {
		name = phaseNames[p.Phase]
	}
	opts := [3]trace.SpanStartOption{trace.WithTimestamp(p.Start), internalKind}
	n := 2
	if p.Phase == graphql.PhaseValidate {
		opts[n] = cachedOptions[boolIndex(p.Cached)]
		n++
	}
	_, span := t.tracer.Start(ctx, name, opts[:n]...)
	span.End(trace.WithTimestamp(p.Start.Add(p.Duration)))
}

// dropped reports whether the span in ctx is one the sampler dropped: its
// children are not made at all, rather than made and dropped, as a
// parent-based sampler (the SDK's default) would drop them. The resolvers
// then get ctx as it is, with its dropped span.
func dropped(ctx context.Context) bool {
	s := trace.SpanFromContext(ctx)
	return !s.IsRecording() && s.SpanContext().IsValid()
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// StartField starts the span of a field's resolver, a child of the span in
// ctx (the operation span, or the span of a resolver's caller).
func (t *Tracer) StartField(ctx context.Context, info graphql.ResolveInfo) context.Context {
	if t.tracer == nil || dropped(ctx) {
		return ctx
	}
	obj, field := info.ParentType(), info.FieldName()
	ctx, span := t.tracer.Start(ctx, t.spans.name(obj, field), fieldStart...)
	if span.IsRecording() {
		parent, typ := "", ""
		if obj != nil {
			parent = obj.Name
		}
		if rt := info.ReturnType(); rt != nil {
			typ = rt.String()
		}
		span.SetAttributes(
			FieldNameKey.String(field),
			ParentNameKey.String(parent),
			FieldTypeKey.String(typ),
			FieldPathKey.String(pathString(info.Path())),
		)
	}
	return ctx
}

// fieldSpanNames keeps the span name of every field seen, "graphql.resolve
// Type.field", so that starting a field's span allocates no name: copied
// on write, read without a lock, and as large as the schemas' fields.
type fieldSpanNames struct {
	names cowMap[fieldKey, string]
}

type fieldKey struct {
	obj   *graphql.Object
	field string
}

func (f *fieldSpanNames) name(obj *graphql.Object, field string) string {
	name, _ := f.names.loadOrStore(fieldKey{obj, field}, func(int) (fieldKey, string, bool) {
		parent := ""
		if obj != nil {
			parent = obj.Name
		}
		return fieldKey{obj, strings.Clone(field)}, "graphql.resolve " + parent + "." + field, true
	})
	return name
}

// pathString joins a response path with dots, list indexes included, as
// the JavaScript instrumentation does: "posts.0.author".
func pathString(path ast.Path) string {
	var b strings.Builder
	b.Grow(16 * len(path))
	for i, seg := range path {
		if i > 0 {
			b.WriteByte('.')
		}
		switch s := seg.(type) {
		case ast.PathName:
			b.WriteString(string(s))
		case ast.PathIndex:
			b.WriteString(strconv.Itoa(int(s)))
		}
	}
	return b.String()
}

// EndField ends the span of a field's resolver, an Error when err is a
// server's error.
func (t *Tracer) EndField(ctx context.Context, _ graphql.ResolveInfo, err error) {
	if t.tracer == nil {
		return
	}
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return // dropped: StartField made no span, or the sampler dropped it
	}
	if err != nil {
		code := apierror.CodeOf(err)
		span.SetAttributes(semconv.ErrorTypeKey.String(string(code)))
		if code.Status() >= 500 {
			span.SetStatus(codes.Error, string(code))
		}
	}
	span.End()
}

// outcome classifies a request that has ended.
func outcome(r graphql.RequestInfo) string {
	switch {
	case r.Status >= 500 || r.ErrorCode != "" && errcode.Code(r.ErrorCode).Status() >= 500:
		return OutcomeServerError
	case r.ErrorCode != "" || r.Errors > 0 || r.Status >= 400:
		return OutcomeClientError
	}
	return OutcomeSuccess
}

// EndRequest names and ends the operation span, and records the request in
// the histogram.
func (t *Tracer) EndRequest(ctx context.Context, info graphql.RequestInfo) {
	r := requestOf(ctx)
	if r == nil {
		return // not a context of StartRequest's
	}
	out := outcome(info)
	if r.span != nil {
		t.endSpan(r.span, info, out, r.lookup)
	}
	if t.duration != nil {
		t.duration.Record(ctx, time.Since(r.start).Seconds(), t.names.options(t.maxNames, info, out)...)
	}
}

func (t *Tracer) endSpan(span trace.Span, info graphql.RequestInfo, out string, found lookup) {
	if info.OperationType != "" {
		name := info.OperationType
		if t.namedSpans && info.OperationName != "" {
			name += " " + info.OperationName
		}
		span.SetName(name)
	}
	if span.IsRecording() {
		attrs := make([]attribute.KeyValue, 0, 8)
		if info.OperationType != "" {
			attrs = append(attrs, semconv.GraphQLOperationTypeKey.String(info.OperationType))
		}
		if info.OperationName != "" {
			attrs = append(attrs, semconv.GraphQLOperationName(info.OperationName))
		}
		if t.document && info.Document != "" {
			attrs = append(attrs, semconv.GraphQLDocument(info.Document))
		}
		if info.Cost >= 0 {
			attrs = append(attrs, CostKey.Int(info.Cost))
		}
		if found != lookupUnknown {
			attrs = append(attrs, CachedKey.Bool(found == lookupHit))
		}
		if info.Errors > 0 {
			attrs = append(attrs, ErrorsKey.Int(info.Errors))
		}
		if info.Status > 0 {
			attrs = append(attrs, semconv.HTTPResponseStatusCode(info.Status))
		}
		switch {
		case info.ErrorCode != "":
			attrs = append(attrs, semconv.ErrorTypeKey.String(info.ErrorCode))
		case info.Status >= 500:
			attrs = append(attrs, semconv.ErrorTypeKey.String(strconv.Itoa(info.Status)))
		}
		span.SetAttributes(attrs...)
	}
	if out == OutcomeServerError {
		desc := info.ErrorCode
		if desc == "" {
			desc = strconv.Itoa(info.Status)
		}
		span.SetStatus(codes.Error, desc)
	}
	span.End()
}
