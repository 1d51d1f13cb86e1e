package auth

import "context"

// Recheck asks the token store again whether the access token that ctx
// carries has been revoked, for a handler about to write on the request's
// behalf. The middlewares of a [Verifier] check a token when the request's
// headers arrive; its body comes afterwards, as slowly as the client
// likes, and the handler may then wait for a resource. A revocation that
// lands meanwhile (a logout, "log out everywhere", reuse detection) would
// not stop the write: whoever holds a stolen token could open requests
// ahead of time and finish them after the owner logged out. Call Recheck
// once the body is read and any wait is over, right before the write.
//
// It returns nil when ctx carries no token that a Verifier with
// [Config.Tokens] accepted through its middlewares or
// [Verifier.AuthenticateContext] (no token, revocation off, a context
// from [WithUserID] or [WithToken], another authentication scheme): there
// is nothing to ask again, and that costs one context lookup. Otherwise
// it costs one [TokenStore.Revoked] lookup, and its error wraps
// [ErrRevoked], to be answered like any refused token (401), or
// [ErrUnavailable] (503: the store could not answer, and the write must
// not go ahead).
//
// Only revocation is checked again: a token that expired since the
// request's headers were checked is still taken for it, as the request
// began while the token was good.
func Recheck(ctx context.Context) error {
	v, ok := ctx.Value(userKey{}).(verified)
	if !ok || v.tokens == nil {
		return nil
	}
	return checkRevoked(ctx, v.tokens, v.token)
}

// Recheck is [Recheck] with the Verifier's own store, for a context that
// carries a token the Verifier accepted, however the context was made:
// [WithToken] included, so that code which authenticates once and builds
// contexts from the outcome (a cache in front of the GraphQL endpoint)
// still asks the store. It returns nil when ctx carries no token or the
// Verifier has no [Config.Tokens]. With it, a Verifier is the
// graphqlhttp.Rechecker of the GraphQL mutation gate, which calls it after
// the body is read and before any resolver runs.
func (v *Verifier) Recheck(ctx context.Context) error {
	if v.tokens == nil {
		return nil
	}
	t, ok := TokenFrom(ctx)
	if !ok {
		return nil
	}
	return checkRevoked(ctx, v.tokens, t)
}
