package graphqlhttp

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/respbudget"
	"github.com/gqlkit/gqlkit/limits"
)

// execute runs op within the response budget and writes its result,
// errors presented.
func (h *Handler) execute(ctx context.Context, w http.ResponseWriter, r *http.Request, op *graphql.Operation, vars map[string]any) *failure {
	ctx = context.WithValue(ctx, requestKey{}, r)
	st := h.execs.Get().(*execState)
	defer h.putExec(st)
	out := &st.out
	var deadline time.Time
	if h.cfg.Timeout > 0 {
		deadline = time.Now().Add(h.cfg.Timeout)
	}
	res, l, err := h.run(ctx, r, op, vars, st, deadline)
	// Execute returns the error of an operation over the cost limit as it is.
	overCost, _ := err.(*limits.Error)
	switch {
	case errors.Is(err, respbudget.ErrBusy):
		return busy(w)
	case overCost != nil:
		return &failure{status: http.StatusBadRequest, errs: gqlerror.List{graphql.LimitError(overCost)}}
	case errors.Is(err, errUnauthenticated):
		return unauthenticated()
	case errors.Is(err, errCredentialsUnavailable):
		return credentialsUnavailable()
	case err != nil:
		return &failure{fault: err}
	case res.Data == nil: // invalid variables
		return &failure{status: http.StatusBadRequest, errs: requestErrors(res.Errors)}
	}
	status, inPlace := h.envelope(ctx, res, out)
	l.shrink(cap(st.data) + cap(*out)) // what the answer holds while it is written
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	if inPlace == nil {
		h.write(w, r, status, *out)
	} else {
		h.write(w, r, status, (*out)[:dataSlot], inPlace, (*out)[dataSlot:])
	}
	return nil
}

// dataSlot is where the data goes in an answer: after {"data":.
const dataSlot = len(`{"data":`)

// inPlaceBytes is the size from which data is written where it is rather
// than copied into the answer.
const inPlaceBytes = 64 << 10

// envelope appends the answer to res to out, errors presented, and returns
// its status. Data of inPlaceBytes or more is left out of out, its slot
// empty at dataSlot, and returned, to be written in place: a large answer
// is never copied.
func (h *Handler) envelope(ctx context.Context, res graphql.Result, out *[]byte) (status int, inPlace []byte) {
	if len(res.Data) >= inPlaceBytes {
		inPlace, res.Data = res.Data, res.Data[:0]
	}
	if len(res.Errors) == 0 {
		*out = res.AppendJSON((*out)[:0], nil)
		return http.StatusOK, inPlace
	}
	*out, status = h.presentResult(ctx, res, (*out)[:0])
	return status, inPlace
}

// presentResult appends res, which has errors, to dst with its errors
// presented, and returns the status of the answer: 401 when data is null
// and every error is UNAUTHENTICATED (a resolver found the user gone, and
// nothing else happened), 200 otherwise.
func (h *Handler) presentResult(ctx context.Context, res graphql.Result, dst []byte) ([]byte, int) {
	unauthenticated := string(res.Data) == "null"
	tr := h.traceOf(ctx)
	dst = res.AppendJSON(dst, func(e *gqlerror.Error) *gqlerror.Error {
		p := h.presenter.GraphQL(ctx, e)
		tr.noteError(p)
		if p == nil || p.Extensions["code"] != errcode.CodeUnauthenticated {
			unauthenticated = false
		}
		return p
	})
	if unauthenticated {
		return dst, http.StatusUnauthorized
	}
	return dst, http.StatusOK
}

// execState is what one execution needs besides the request: the
// buffers of its data and of its answer, and its lease of the response
// budget. They are pooled together: the executor keeps the lease, its
// graphql.Room, in a pooled struct, so a lease made per request would
// escape to the heap.
type execState struct {
	data, out []byte
	lease     lease
}

// putExec gives st's share of the budget back and returns st to the
// pool, without a buffer that grew too large to keep. It is deferred as
// soon as st is taken, so that the share goes back on every path, a panic
// included.
func (h *Handler) putExec(st *execState) {
	st.lease.share.Release()
	st.data, st.out = keepable(st.data), keepable(st.out)
	st.lease = lease{}
	h.execs.Put(st)
}

// keepable returns b emptied, or nil when it grew too large to keep.
func keepable(b []byte) []byte {
	if cap(b) > 1<<20 {
		return nil
	}
	return b[:0]
}

// putBuf returns a buffer to the pool unless it grew too large to keep.
func (h *Handler) putBuf(b *[]byte) {
	if cap(*b) <= 1<<20 {
		*b = (*b)[:0]
		h.bufs.Put(b)
	}
}

// answer writes the response to a request that did not execute.
func (h *Handler) answer(ctx context.Context, w http.ResponseWriter, r *http.Request, f *failure) {
	status, errs := f.status, f.errs
	if f.fault != nil {
		obj := h.presenter.GraphQL(ctx, f.fault)
		status, errs = http.StatusInternalServerError, gqlerror.List{{Message: obj.Message, Extensions: obj.Extensions}}
	}
	if f.allow != "" {
		w.Header().Set("Allow", f.allow)
	}
	if tr := h.traceOf(r.Context()); tr != nil {
		for _, e := range errs {
			tr.noteError(e)
		}
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	out := h.bufs.Get().(*[]byte)
	defer h.putBuf(out)
	*out = graphql.Result{Errors: errs}.AppendJSON((*out)[:0], nil)
	h.write(w, r, status, *out)
}
