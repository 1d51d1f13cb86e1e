package auth

import (
	"context"
	"strconv"
)

// userKey is the context key of the authenticated user: an int64 from
// [WithUserID], a string from [WithSubject], a [Token] from [WithToken], or
// a verified token from the
// middlewares of a [Verifier] and [Verifier.AuthenticateContext].
type userKey struct{}

// verified is a token that a Verifier accepted, with the store that
// checked it (nil when revocation is off), so that [Recheck] can ask the
// store again.
type verified struct {
	token  Token
	tokens TokenStore
}

// withVerified returns a copy of ctx that carries t, accepted by v.
func (v *Verifier) withVerified(ctx context.Context, t Token) context.Context {
	return context.WithValue(ctx, userKey{}, verified{token: t, tokens: v.tokens})
}

// WithUserID returns a copy of ctx that carries id as the authenticated user
// (read back with [UserID]). Tests and other
// authentication schemes may call it; the middlewares of [Verifier] call
// [WithToken].
func WithUserID(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, userKey{}, id)
}

// WithSubject returns a copy of ctx that carries subject (a token's "sub":
// a UUID, an e-mail, a decimal id) as the authenticated user, read back with
// [Subject]. [UserID] reads it too when it is a user id as a token's sub
// gives one: a positive decimal int64 without sign or leading zero ("7",
// not "+7", "07" or "0").
func WithSubject(ctx context.Context, subject string) context.Context {
	return context.WithValue(ctx, userKey{}, subject)
}

// Subject returns the authenticated user that ctx carries as a string (the
// token's "sub"; an id from [WithUserID] in decimal), and whether there is
// one. It never panics.
func Subject(ctx context.Context) (string, bool) {
	switch v := ctx.Value(userKey{}).(type) {
	case int64:
		return strconv.FormatInt(v, 10), true
	case string:
		return v, true
	case verified:
		return v.token.subject()
	case Token:
		return v.subject()
	}
	return "", false
}

// subject is t's Subject, or its UserID in decimal for a Token made by
// hand with UserID alone.
func (t Token) subject() (string, bool) {
	switch {
	case t.Subject != "":
		return t.Subject, true
	case t.UserID != 0:
		return strconv.FormatInt(t.UserID, 10), true
	}
	return "", false
}

// WithToken returns a copy of ctx that carries the verified token t, and
// so its user ([UserID]), for tests and for code that verified t itself
// ([Verifier.Authenticate]). It carries no token store: [Recheck] has
// nothing to ask for such a context, [Verifier.Recheck] asks the
// Verifier's store.
func WithToken(ctx context.Context, t Token) context.Context {
	return context.WithValue(ctx, userKey{}, t)
}

// UserID returns the authenticated user id carried by ctx, and whether there
// is one: false for a user whose subject is not a positive decimal int64
// written without sign or leading zero (the UUID of an identity provider's
// token, say, or "+7", "07", "0"; [Subject] reads it), the rule of a
// token's sub. It never panics.
func UserID(ctx context.Context) (int64, bool) {
	switch v := ctx.Value(userKey{}).(type) {
	case int64:
		return v, true
	case string:
		return subjectUserID(v)
	case verified:
		return v.token.UserID, v.token.UserID != 0
	case Token:
		return v.UserID, v.UserID != 0
	}
	return 0, false
}

// TokenFrom returns the verified access token ctx carries, and whether
// there is one: a request that passed a [Verifier]'s middleware or
// [Verifier.AuthenticateContext] with a bearer token has it.
func TokenFrom(ctx context.Context) (Token, bool) {
	switch v := ctx.Value(userKey{}).(type) {
	case verified:
		return v.token, true
	case Token:
		return v, true
	}
	return Token{}, false
}
