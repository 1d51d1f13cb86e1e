package graphqlhttp

import (
	"context"
	"net/http"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
)

// trace is what the endpoint tells Config.Tracer of one request. Every
// method is a no-op on a nil *trace, which is what a handler without a
// tracer passes around: no clock is read and nothing is allocated.
type trace struct {
	t    graphql.Tracer
	ctx  context.Context // the one StartRequest returned
	info graphql.RequestInfo
}

type traceKey struct{}

// traceOf returns the trace of a request served with a tracer.
func traceOf(ctx context.Context) *trace {
	tr, _ := ctx.Value(traceKey{}).(*trace)
	return tr
}

// startTrace begins tracing r, returning the request to serve instead.
func (h *Handler) startTrace(r *http.Request) (*http.Request, *trace) {
	tr := &trace{t: h.cfg.Tracer, info: graphql.RequestInfo{Cost: -1}}
	tr.ctx = tr.t.StartRequest(r.Context())
	return r.WithContext(context.WithValue(tr.ctx, traceKey{}, tr)), tr
}

func (tr *trace) now() time.Time {
	if tr == nil {
		return time.Time{}
	}
	return time.Now()
}

// phase reports a phase that began at start and ends now.
func (tr *trace) phase(p graphql.Phase, start time.Time) {
	if tr == nil {
		return
	}
	tr.t.Phase(tr.ctx, graphql.PhaseInfo{Phase: p, Start: start, Duration: time.Since(start)})
}

func (tr *trace) operation(op *graphql.Operation) {
	if tr == nil {
		return
	}
	tr.info.OperationType, tr.info.OperationName = string(op.Kind()), op.Name()
}

// noteError counts an error of the answer, as presented, and keeps the
// most serious code.
func (tr *trace) noteError(e *gqlerror.Error) {
	if tr == nil || e == nil {
		return
	}
	tr.info.Errors++
	code, _ := e.Extensions["code"].(errcode.Code)
	if s, ok := e.Extensions["code"].(string); ok {
		code = errcode.Code(s)
	}
	if tr.info.ErrorCode == "" || code.Status() >= 500 && errcode.Code(tr.info.ErrorCode).Status() < 500 {
		tr.info.ErrorCode = string(code)
	}
}

// mappedTracer is a Tracer given the errors of the fields as the
// presenter's Hooks.Map makes them, so that it records the code the
// client sees.
type mappedTracer struct {
	graphql.Tracer
	p apierror.Presenter
}

func (t mappedTracer) EndField(ctx context.Context, info graphql.ResolveInfo, err error) {
	if err != nil {
		err = t.p.Map(ctx, err)
	}
	t.Tracer.EndField(ctx, info, err)
}

// execTracer returns the tracer of the executions: Config.Tracer, told
// of the errors of the fields after Presenter.Hooks.Map when there is one.
func execTracer(cfg Config) graphql.Tracer {
	if cfg.Tracer == nil || cfg.Presenter.Hooks.Map == nil {
		return cfg.Tracer
	}
	return mappedTracer{Tracer: cfg.Tracer, p: cfg.Presenter}
}

// end reports the end of the request.
func (tr *trace) end() {
	tr.t.EndRequest(tr.ctx, tr.info)
}
