package graphqlhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/respbudget"
	"github.com/gqlkit/gqlkit/limits"
)

// Defaults of the response budget (see Config.ResponseBudget).
const (
	// DefaultResponseBudget bounds the response data that all executions
	// of a Handler hold at once.
	DefaultResponseBudget = respbudget.DefaultSize
	// DefaultResponseBudgetWait bounds how long a request waits for its
	// share of the budget and for its share's growth, together.
	DefaultResponseBudgetWait = respbudget.DefaultWait
	// DefaultFirstShare is the share of the budget an execution starts
	// with.
	DefaultFirstShare = respbudget.DefaultFirstShare
)

// budgetConfig returns the response budget that cfg sets (nil when off)
// for responses of at most maxResponse bytes (0: no bound).
func budgetConfig(cfg Config, maxResponse int) (*respbudget.Budget, error) {
	switch {
	case cfg.ResponseBudget < 0:
		return nil, nil
	case maxResponse == 0:
		return nil, errors.New("graphqlhttp: a response budget needs a bound on each response: set Config.MaxResponseBytes, or turn the budget off with a negative Config.ResponseBudget")
	}
	b, err := respbudget.New(respbudget.Config{Size: int64(cfg.ResponseBudget), FirstShare: int64(cfg.FirstShare),
		MaxShare: int64(maxResponse), Wait: cfg.ResponseBudgetWait})
	if err != nil {
		return nil, fmt.Errorf("graphqlhttp: Config.ResponseBudget, ResponseBudgetWait, FirstShare and MaxResponseBytes: %w", err)
	}
	return b, nil
}

// lease is one execution's share of the response budget, and the
// graphql.Room its data grows into.
type lease struct {
	budget *respbudget.Budget
	client respbudget.Client
	share  respbudget.Share
	// max is MaxResponseBytes; mutation: the operation is one.
	max      int
	mutation bool
}

// Grow lends the data of an execution its room. The first room is a
// first share, which the execution waits for before the mutation gate and
// any resolver; a mutation's is one to overdraw, which waits besides while
// its client holds its part of the large answers' room. Data that outgrows it gets,
// for a query, a share of MaxResponseBytes at once, which it waits for
// (respbudget.ErrBusy when it does not come in time, answered 503), so
// that it never asks again and never waits holding more than its first
// share; for a mutation, whose writes may be done already and must be
// neither held up nor refused, twice what it needs, overdrawn at once.
// The waits of one execution last ResponseBudgetWait together, and end
// at its deadline.
func (l *lease) Grow(ctx context.Context, need int) (int, error) {
	if l.share.Size() == 0 {
		var err error
		if l.mutation {
			l.share, err = l.budget.FirstToOverdraw(ctx, l.client)
		} else {
			l.share, err = l.budget.First(ctx, l.client)
		}
		if err != nil {
			return 0, err
		}
		if size := int(l.share.Size()); need <= size {
			return size, nil
		}
	}
	if l.mutation {
		room := min(2*need, l.max)
		return room, l.share.Overdraw(int64(room))
	}
	return l.max, l.share.Grow(ctx, int64(l.max))
}

// run executes op under the response budget, in the buffer st.data, and
// returns the result with st's lease of its share, to be shrunk once the
// answer is built (nil without a budget); st's share is given back when
// st is (see putExec), once the answer is written, whatever happens. The
// executor asks the lease for its first share before the mutation gate
// and any resolver, and for more should its data outgrow it, and goes on
// (see lease.Grow): every resolver runs once. A respbudget.ErrBusy error means the share,
// or its growth, did not come in time.
func (h *Handler) run(ctx context.Context, r *http.Request, op *graphql.Operation, vars map[string]any, st *execState, deadline time.Time) (graphql.Result, *lease, error) {
	if h.budget == nil {
		res, err := h.exec(ctx, op, vars, &st.data, nil, deadline)
		return res, nil, err
	}
	l := &st.lease
	*l = lease{budget: h.budget, client: respbudget.ClientOf(r), max: h.maxResponse, mutation: op.Kind() == ast.Mutation}
	res, err := h.exec(ctx, op, vars, &st.data, l, deadline)
	return res, l, err
}

// exec executes op once, its data bounded by MaxResponseBytes (0: none)
// and lent its room by l when not nil, into the buffer data, under the
// deadline (none when zero) and the cost limit.
func (h *Handler) exec(ctx context.Context, op *graphql.Operation, vars map[string]any, data *[]byte, l *lease, deadline time.Time) (graphql.Result, error) {
	maxResponse := h.maxResponse
	if maxResponse == 0 {
		maxResponse = -1 // none, as ExecParams says it
	}
	p := graphql.ExecParams{Variables: vars, Root: h.cfg.Root, Dst: (*data)[:0],
		MaxResponseBytes: maxResponse, BeforeExecute: h.gate, MaxCost: h.prep.MaxCost(), Deadline: deadline,
		Tracer: h.tracer, TraceDefaultFields: h.cfg.TraceDefaultFields}
	if l != nil {
		p.Room = l
	}
	res, err := op.Execute(ctx, p)
	if res.Data != nil {
		*data = res.Data
	}
	if tr := h.traceOf(ctx); tr != nil {
		if _, overCost := err.(*limits.Error); res.Data != nil || overCost { // see Operation.Execute
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

// busy is the answer to a request that waited in vain for the budget.
func busy(w http.ResponseWriter) *failure {
	w.Header().Set("Retry-After", "1")
	return fail(http.StatusServiceUnavailable, errcode.CodeUnavailable, respbudget.MessageBusy)
}
