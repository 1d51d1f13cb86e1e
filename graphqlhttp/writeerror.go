package graphqlhttp

import (
	"net/http"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
)

// WriteError answers r with err the way the endpoint answers a request it
// refuses: {"errors": [the error as the endpoint's presenter shows it]}, no
// data, with the HTTP status of the error as presented (Presenter.Hooks.Map included) and the endpoint's
// headers and content negotiation. An unknown error is a masked 500, logged
// once. Middleware mounted in front of the endpoint uses it to answer in
// the endpoint's shape:
//
//	keys, _ := idempotency.Middleware(idempotency.Config{Store: st, WriteError: h.WriteError})
//	mux.Handle("/api/graphql", keys(h))
func (h *Handler) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	obj := h.presenter.GraphQL(r.Context(), err)
	// The status of the error as presented: after Presenter.Hooks.Map, which
	// may have given it another code.
	status, ok := obj.Extensions["status"].(int)
	if !ok {
		code, _ := obj.Extensions["code"].(errcode.Code)
		status = code.Status()
	}
	f := &failure{status: status, errs: gqlerror.List{{Message: obj.Message, Extensions: obj.Extensions}}}
	w.Header()["Cache-Control"] = headerNoStore
	h.answer(r.Context(), w, r, f)
}
