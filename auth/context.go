package auth

import "context"

// userKey is the context key of the authenticated user: an int64 from
// [WithUserID] or a [Token] from [WithToken].
type userKey struct{}

// WithUserID returns a copy of ctx that carries id as the authenticated user
// (the specification's request attribute auth.id). Tests and other
// authentication schemes may call it; the middlewares of [Verifier] call
// [WithToken].
func WithUserID(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, userKey{}, id)
}

// WithToken returns a copy of ctx that carries the verified token t, and
// so its user ([UserID]). The middlewares of [Verifier] call it.
func WithToken(ctx context.Context, t Token) context.Context {
	return context.WithValue(ctx, userKey{}, t)
}

// UserID returns the authenticated user id carried by ctx, and whether there
// is one. It never panics.
func UserID(ctx context.Context) (int64, bool) {
	switch v := ctx.Value(userKey{}).(type) {
	case int64:
		return v, true
	case Token:
		return v.UserID, true
	}
	return 0, false
}

// TokenFrom returns the verified access token ctx carries, and whether
// there is one: a request that passed a [Verifier]'s middleware or
// [Verifier.AuthenticateContext] with a bearer token has it.
func TokenFrom(ctx context.Context) (Token, bool) {
	t, ok := ctx.Value(userKey{}).(Token)
	return t, ok
}
