package auth

import "context"

// userIDKey is the context key of the authenticated user id.
type userIDKey struct{}

// WithUserID returns a copy of ctx that carries id as the authenticated user
// (the specification's request attribute auth.id). The middlewares of
// [Verifier] call it; tests and other authentication schemes may too.
func WithUserID(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, userIDKey{}, id)
}

// UserID returns the authenticated user id carried by ctx, and whether there
// is one. It never panics.
func UserID(ctx context.Context) (int64, bool) {
	id, ok := ctx.Value(userIDKey{}).(int64)
	return id, ok
}
