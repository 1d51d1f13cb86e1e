package auth

import (
	"context"
	"errors"
	"net/http"
)

// outcomeKey is the context key of the outcome [Verifier.Remember] keeps.
type outcomeKey struct{}

// outcome is the result of checking a request's credentials once: a
// token, none, or the reason they were refused.
type outcome struct {
	v        *Verifier // the verifier that checked them
	token    Token
	hasToken bool
	err      error
}

// Remember checks the credentials of each request once, as
// [Verifier.AuthenticateContext] does, refusing none, and keeps the
// outcome in the request's context: every later AuthenticateContext of
// the same Verifier for the request answers from it instead of checking
// again (with revocation on, each check is a lookup in the token store).
// Mount it in front of the layers that each authenticate the request,
// such as an idempotency middleware naming keys after the user and the
// GraphQL endpoint's mutation gate:
//
//	mux.Handle("/api/graphql", verifier.Remember(keys(gql)))
//
// A write is still checked again right before it writes ([Recheck]):
// never answered from the kept outcome, which is what held when the
// headers came.
func (v *Verifier) Remember(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o := &outcome{v: v}
		o.token, o.err = v.Authenticate(r)
		switch {
		case o.err == nil:
			o.hasToken = true
		case errors.Is(o.err, ErrNoToken):
			o.err = nil
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), outcomeKey{}, o)))
	})
}

// remembered answers AuthenticateContext from the outcome Remember kept
// in r's context for v; ok is false when there is none.
func (v *Verifier) remembered(r *http.Request) (ctx context.Context, ok bool, err error) {
	o, found := r.Context().Value(outcomeKey{}).(*outcome)
	switch {
	case !found || o.v != v:
		return nil, false, nil
	case o.err != nil:
		return nil, true, o.err
	case o.hasToken:
		return v.withVerified(r.Context(), o.token), true, nil
	}
	return r.Context(), true, nil
}
