package graphqlhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/limits"
)

// Defaults of the response budget (see Config.ResponseBudget).
const (
	// DefaultResponseBudget bounds the response data that all executions
	// of a Handler hold at once.
	DefaultResponseBudget = 64 << 20
	// DefaultResponseBudgetWait bounds how long a request waits for its
	// share of the budget.
	DefaultResponseBudgetWait = 10 * time.Second
	// FirstShare is the share of the budget a query executes with first;
	// a query whose data outgrows it executes again with a share of
	// MaxResponseBytes.
	FirstShare = 256 << 10
)

// CodeBusy is the code of the 503 answering a request that waited in vain
// for its share of the response budget.
const CodeBusy = "SERVICE_UNAVAILABLE"

// messageBusy is the message of that answer.
const messageBusy = "The server is busy; try again shortly."

// errBusy is what run returns when the budget had no room in time.
var errBusy = errors.New("graphqlhttp: no room in the response budget")

// budget is a count of bytes that requests take shares of, waiting in turn
// (first come, first served) while there is not room enough.
type budget struct {
	mu      sync.Mutex
	free    int64
	waiters []*budgetWaiter
}

type budgetWaiter struct {
	n     int64
	ready chan struct{} // closed once the share is granted
}

func newBudget(size int64) *budget { return &budget{free: size} }

// acquire takes n bytes of the budget, waiting at most wait and while ctx
// lasts; it reports whether it took them.
func (b *budget) acquire(ctx context.Context, n int64, wait time.Duration) bool {
	b.mu.Lock()
	if len(b.waiters) == 0 && b.free >= n {
		b.free -= n
		b.mu.Unlock()
		return true
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()

	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
	case <-timer.C:
	}
	return b.abandon(w)
}

// abandon takes w out of the queue; it reports true when w was granted its
// share meanwhile (the share is then the caller's).
func (b *budget) abandon(w *budgetWaiter) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready:
		return true
	default:
	}
	for i, x := range b.waiters {
		if x == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			break
		}
	}
	b.grant() // w may have been the one the others waited behind
	return false
}

// release gives n bytes back; a nil budget has nothing to give back.
func (b *budget) release(n int64) {
	if b == nil || n == 0 {
		return
	}
	b.mu.Lock()
	b.free += n
	b.grant()
	b.mu.Unlock()
}

// grant hands out shares to the waiters at the front of the queue while
// they fit. b.mu is held.
func (b *budget) grant() {
	for len(b.waiters) > 0 && b.waiters[0].n <= b.free {
		w := b.waiters[0]
		b.waiters = b.waiters[1:]
		b.free -= w.n
		close(w.ready)
	}
}

// budgetConfig checks the response budget settings of cfg and returns the
// budget (nil when off) and the wait.
func budgetConfig(cfg Config, maxResponse int) (*budget, time.Duration, error) {
	size, wait := int64(cfg.ResponseBudget), cfg.ResponseBudgetWait
	switch {
	case size < 0:
		return nil, 0, nil
	case size == 0:
		size = DefaultResponseBudget
	}
	switch {
	case wait < 0:
		return nil, 0, fmt.Errorf("graphqlhttp: Config.ResponseBudgetWait %v is negative", wait)
	case wait == 0:
		wait = DefaultResponseBudgetWait
	}
	switch {
	case maxResponse == 0:
		return nil, 0, errors.New("graphqlhttp: a response budget needs a bound on each response: set Config.MaxResponseBytes, or turn the budget off with a negative Config.ResponseBudget")
	case int64(maxResponse) > size:
		return nil, 0, fmt.Errorf("graphqlhttp: Config.MaxResponseBytes %d is larger than the response budget %d, which could never hold such a response", maxResponse, size)
	}
	return newBudget(size), wait, nil
}

// run executes op within the response budget and returns the result and
// the share of the budget it holds, to be released once the answer is
// written. A query executes with FirstShare at most; should its data
// outgrow that, it executes again with a share of MaxResponseBytes
// (queries have no side effects to repeat). A mutation, which must run
// once, takes a share of MaxResponseBytes first. errBusy means no share
// came within the wait.
func (h *Handler) run(ctx context.Context, op *graphql.Operation, vars map[string]any, data *[]byte, deadline time.Time) (graphql.Result, int64, error) {
	full := int64(h.maxResponse)
	if h.budget == nil {
		res, err := h.exec(ctx, op, vars, data, h.maxResponse, deadline)
		return res, 0, err
	}
	share := full
	if op.Kind() == ast.Query {
		share = min(full, FirstShare)
	}
	if !h.budget.acquire(ctx, share, h.budgetWait) {
		return graphql.Result{}, 0, errBusy
	}
	res, err := h.exec(ctx, op, vars, data, int(share), deadline)
	if err != nil || share == full || !tooLarge(res) {
		return res, share, err
	}
	h.budget.release(share)
	if !h.budget.acquire(ctx, full, h.budgetWait) {
		return graphql.Result{}, 0, errBusy
	}
	res, err = h.exec(ctx, op, vars, data, int(full), deadline)
	return res, full, err
}

// exec executes op once, its data bounded by max bytes (0: none), into
// the buffer data, under the deadline (none when zero) and the cost limit.
func (h *Handler) exec(ctx context.Context, op *graphql.Operation, vars map[string]any, data *[]byte, max int, deadline time.Time) (graphql.Result, error) {
	res, err := op.Execute(ctx, graphql.ExecParams{Variables: vars, Root: h.cfg.Root, Dst: (*data)[:0],
		MaxResponseBytes: max, BeforeExecute: h.gate, MaxCost: h.limits.MaxCost, Deadline: deadline,
		Tracer: h.cfg.Tracer, TraceDefaultFields: h.cfg.TraceDefaultFields})
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

// tooLarge reports whether execution stopped because the data outgrew its
// bound: data null and the one RESPONSE_TOO_LARGE error.
func tooLarge(res graphql.Result) bool {
	return string(res.Data) == "null" && len(res.Errors) == 1 && res.Errors[0].Extensions["code"] == "RESPONSE_TOO_LARGE"
}

// busy is the answer to a request that waited in vain for the budget.
func busy(w http.ResponseWriter) *failure {
	w.Header().Set("Retry-After", "1")
	return &failure{status: http.StatusServiceUnavailable, errs: gqlerror.List{{Message: messageBusy,
		Extensions: map[string]any{"code": CodeBusy}}}}
}
