package graphql

import (
	"context"
	"time"
)

// Tracer observes GraphQL requests: when one starts, each phase it goes
// through, the fields that run a resolver, and how it ends. A transport
// (graphqlhttp) calls every method; [Preparer.Prepare] reports the scan,
// parse and validate phases (PrepareOptions.Tracer), and
// [Operation.Execute] the coerce and execute phases and the fields
// (ExecParams.Tracer).
//
// A nil Tracer costs nothing: no call, no allocation, no clock reading. A
// Tracer is shared by every request, so its methods must be safe for
// concurrent use; they run on the request's goroutine, so they should be
// quick. What they are given is theirs to keep (ResolveInfo stays valid
// after the call). They are never given variable values: a tracer cannot
// record what may be secret.
//
// Package otelgraphql adapts OpenTelemetry to this interface.
type Tracer interface {
	// StartRequest is called first. The context it returns is passed to
	// every later call for the request and is what the resolvers receive,
	// so a tracer keeps its span there.
	StartRequest(ctx context.Context) context.Context

	// Phase reports a phase that has ended.
	Phase(ctx context.Context, p PhaseInfo)

	// StartField is called before a field's resolver runs; the context it
	// returns is the resolver's. Fields without a resolver (read from
	// their parent value) are not traced unless the endpoint is told to
	// (graphqlhttp.Config.TraceDefaultFields): they would flood a trace
	// with spans that measure nothing. A batched field (see [Batch]) is
	// one call per batch, not one per parent.
	StartField(ctx context.Context, info ResolveInfo) context.Context

	// EndField is called when the resolver has returned, with the error it
	// returned (a panic is a *errors.PanicError); ctx is StartField's.
	EndField(ctx context.Context, info ResolveInfo, err error)

	// EndRequest is called last, when the answer has been written (or
	// could not be).
	EndRequest(ctx context.Context, r RequestInfo)
}

// Phase is a step of serving a GraphQL request.
type Phase uint8

// The phases, in the order a request goes through them. A document found
// in a Preparer's cache skips the scan and the parse, and its validate
// phase is marked Cached. Read and write are the transport's.
const (
	// PhaseRead reads the request from its transport: the query, the
	// operation name and the variables (graphqlhttp: the HTTP body or the
	// URL's parameters).
	PhaseRead Phase = iota + 1
	// PhaseScan is the pre-parse scan of the query's length, tokens and
	// nesting.
	PhaseScan
	// PhaseParse parses the query into a document.
	PhaseParse
	// PhaseValidate checks the document's depth and nodes, validates it
	// against the schema and plans the operation; Cached when the
	// document came from the cache.
	PhaseValidate
	// PhaseCoerce coerces the variables and computes the cost.
	PhaseCoerce
	// PhaseExecute runs the resolvers and writes the data.
	PhaseExecute
	// PhaseWrite writes the answer to the client, through the transport.
	PhaseWrite
)

var phaseNames = [...]string{"", "read", "scan", "parse", "validate", "coerce", "execute", "write"}

// String returns the phase's name in lower case: "read", "scan", "parse",
// "validate", "coerce", "execute" or "write".
func (p Phase) String() string {
	if int(p) < len(phaseNames) && p > 0 {
		return phaseNames[p]
	}
	return "unknown"
}

// PhaseInfo describes a phase that has ended.
type PhaseInfo struct {
	Phase    Phase
	Start    time.Time
	Duration time.Duration
	// Cached is set on the validate phase of a document that came from
	// the cache: it was scanned, parsed and validated by an earlier
	// request.
	Cached bool
}

// RequestInfo describes a request that has ended: what its transport
// (graphqlhttp) knows of it once the answer is written. Variable values
// are never part of it.
type RequestInfo struct {
	// OperationType is "query" or "mutation", or "" when the request
	// ended before its operation was known (a refused body, a document
	// that does not parse or validate).
	OperationType string
	// OperationName is the operation's name, "" for an anonymous one (or
	// when the operation is not known). It comes from the client: count
	// on it only with care (as a metric label, say).
	OperationName string
	// Document is the query text as the client sent it, "" when none was
	// read. A tracer records it only when told to: it may hold literal
	// values.
	Document string
	// Cost is the operation's cost (see limits.Config.MaxCost), or -1
	// when it was not computed.
	Cost int
	// Status is the status of the answer as its transport reports it:
	// for graphqlhttp, the HTTP status; 0 when the transport has none.
	Status int
	// ErrorCode is the code of the answer's most serious error, the first
	// whose code answers a status of 500 or more (INTERNAL_SERVER_ERROR,
	// TIMEOUT), else the first error's; "" when the answer has no error.
	ErrorCode string
	// Errors is the number of errors in the answer.
	Errors int
}
