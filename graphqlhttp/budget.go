package graphqlhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/respbudget"
	"github.com/gqlkit/gqlkit/limits"
)

// Defaults of the response budget (see Config.ResponseBudget).
const (
	// DefaultResponseBudget bounds the response data that all executions
	// of a Handler hold at once.
	DefaultResponseBudget = 64 << 20
	// DefaultResponseBudgetWait bounds how long a request waits for its
	// share of the budget, or for its share's growth.
	DefaultResponseBudgetWait = 10 * time.Second
	// DefaultFirstShare is the share of the budget an execution starts
	// with.
	DefaultFirstShare = 256 << 10
)

// messageBusy is the message of the 503 answering a request that waited
// in vain for its share of the response budget.
const messageBusy = "The server is busy; try again shortly."

// budgetConfig checks the response budget settings of cfg and returns the
// budget (nil when off) and the first share.
func budgetConfig(cfg Config, maxResponse int) (*respbudget.Budget, int, error) {
	size, wait, first := int64(cfg.ResponseBudget), cfg.ResponseBudgetWait, cfg.FirstShare
	switch {
	case size < 0:
		return nil, 0, nil
	case wait < 0:
		return nil, 0, fmt.Errorf("graphqlhttp: Config.ResponseBudgetWait %v is negative", wait)
	case first < 0:
		return nil, 0, fmt.Errorf("graphqlhttp: Config.FirstShare %d is negative", first)
	case size == 0:
		size = DefaultResponseBudget
	}
	if wait == 0 {
		wait = DefaultResponseBudgetWait
	}
	if first == 0 {
		first = DefaultFirstShare
	}
	first = min(first, maxResponse)
	switch {
	case maxResponse == 0:
		return nil, 0, errors.New("graphqlhttp: a response budget needs a bound on each response: set Config.MaxResponseBytes, or turn the budget off with a negative Config.ResponseBudget")
	case int64(first) > size/4:
		return nil, 0, fmt.Errorf("graphqlhttp: Config.FirstShare %d is larger than the quarter of the response budget %d kept for first shares", first, size)
	case int64(maxResponse) > size-size/4:
		return nil, 0, fmt.Errorf("graphqlhttp: Config.MaxResponseBytes %d is larger than the three quarters of the response budget %d that large answers share, which could never hold such a response", maxResponse, size)
	}
	b, err := respbudget.New(respbudget.Config{Size: size, FirstShare: int64(first), MaxShare: int64(maxResponse), Wait: wait})
	return b, first, err
}

// lease is one execution's share of the response budget, and the
// graphql.Room its data grows into.
type lease struct {
	share respbudget.Share
	// max is MaxResponseBytes; mutation: the operation is one.
	max      int
	mutation bool
}

// Grow lends the data of an execution that outgrew its room more: a
// query, a share of MaxResponseBytes at once, which it waits for
// (respbudget.ErrBusy when it does not come in time, answered 503), so
// that it never asks again and never waits holding more than its first
// share; a mutation, whose writes may be done already and must be neither
// held up nor refused, twice what it needs, overdrawn at once.
func (l *lease) Grow(ctx context.Context, need int) (int, error) {
	if l.mutation {
		room := min(2*need, l.max)
		return room, l.share.Overdraw(int64(room))
	}
	return l.max, l.share.Grow(ctx, int64(l.max))
}

// run executes op under the response budget, in the buffer st.data, and
// returns the result with st's lease of its share, to be shrunk once the
// answer is built and given back once it is written (nil without a
// budget). An execution starts with a first share, which it waits for;
// should its data outgrow it, the executor asks the lease for more and
// goes on (see lease.Grow): every resolver runs once. A respbudget.ErrBusy
// error means the share, or its growth, did not come in time.
func (h *Handler) run(ctx context.Context, r *http.Request, op *graphql.Operation, vars map[string]any, st *execState, deadline time.Time) (graphql.Result, *lease, error) {
	if h.budget == nil {
		res, err := h.exec(ctx, op, vars, &st.data, nil, deadline)
		return res, nil, err
	}
	share, err := h.budget.First(ctx, respbudget.ClientOf(r))
	if err != nil {
		return graphql.Result{}, nil, err
	}
	l := &st.lease
	*l = lease{share: share, max: h.maxResponse, mutation: op.Kind() == ast.Mutation}
	res, err := h.exec(ctx, op, vars, &st.data, l, deadline)
	return res, l, err
}

// exec executes op once, its data bounded by MaxResponseBytes (0: none)
// and lent its room by l when not nil, into the buffer data, under the
// deadline (none when zero) and the cost limit.
func (h *Handler) exec(ctx context.Context, op *graphql.Operation, vars map[string]any, data *[]byte, l *lease, deadline time.Time) (graphql.Result, error) {
	p := graphql.ExecParams{Variables: vars, Root: h.cfg.Root, Dst: (*data)[:0],
		MaxResponseBytes: h.maxResponse, BeforeExecute: h.gate, MaxCost: h.limits.MaxCost, Deadline: deadline,
		Tracer: h.cfg.Tracer, TraceDefaultFields: h.cfg.TraceDefaultFields}
	if l != nil {
		p.Room, p.RoomBytes = l, h.firstShare
	}
	res, err := op.Execute(ctx, p)
	if res.Data != nil {
		*data = res.Data
	}
	if tr := h.traceOf(ctx); tr != nil {
		if _, overCost := err.(*limits.Error); res.Data != nil || overCost {
			tr.info.Cost = res.Cost
		}
	}
	return res, err
}

// shrink makes the lease hold what the answer holds, n bytes, while it is
// written; nothing without a budget.
func (l *lease) shrink(n int) {
	if l != nil {
		l.share.Shrink(int64(n))
	}
}

// release gives the lease's share back once the answer is written;
// nothing without a budget.
func (l *lease) release() {
	if l != nil {
		l.share.Release()
	}
}

// busy is the answer to a request that waited in vain for the budget.
func busy(w http.ResponseWriter) *failure {
	w.Header().Set("Retry-After", "1")
	return fail(http.StatusServiceUnavailable, apierror.CodeUnavailable, messageBusy)
}
