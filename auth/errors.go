package auth

import (
	"errors"
	"net/http"
)

// Sentinel errors identify why a request or a token was refused. Test them
// with [errors.Is]; the errors returned by this package wrap them with more
// detail for the log. None of them is meant for the client, which always gets
// the same 401.
var (
	// ErrNoToken means the request has no Authorization header at all.
	// [Verifier.Optional] lets such a request through anonymously; every
	// other error here is a 401 from both middlewares.
	ErrNoToken = errors.New("auth: no bearer token")

	// ErrMalformedHeader means the Authorization header does not carry one
	// well-formed bearer token: it is empty, names the Bearer scheme without
	// a token, separates scheme and token with a tab, holds characters a
	// token cannot contain, or is repeated.
	ErrMalformedHeader = errors.New("auth: malformed Authorization header")

	// ErrUnsupportedScheme means the Authorization header uses another
	// scheme than Bearer (Basic, Token, …, or a token without a scheme).
	// Such credentials are refused, not ignored: the client meant to
	// authenticate, and is told that it did not.
	ErrUnsupportedScheme = errors.New("auth: unsupported Authorization scheme")

	// ErrTokenTooLarge means the Authorization header, or a token given to
	// [Verifier.Verify], is longer than [MaxHeaderBytes]. It is refused
	// before any parsing.
	ErrTokenTooLarge = errors.New("auth: token too large")

	// ErrInvalidToken means the token failed verification: bad syntax, an
	// algorithm other than its key's, a kid naming no key, a bad signature, or an expired,
	// not-yet-valid or missing time claim. It wraps the golang-jwt error, so
	// errors.Is(err, jwt.ErrTokenExpired) and the like work too.
	ErrInvalidToken = errors.New("auth: invalid token")

	// ErrInvalidSubject means a token is authentic and current but its sub
	// claim names no user: for the kit's own ([HMAC]) tokens, it is not a
	// positive 64-bit integer; for a provider's, not a string of 1 to
	// [MaxSubjectBytes] bytes without control characters. An [Issuer]
	// asked for a token for a user id that is not positive returns it too.
	ErrInvalidSubject = errors.New("auth: invalid subject")

	// ErrRevoked means a token is authentic and current but was revoked:
	// logged out, or issued before its user logged out everywhere (see
	// [TokenStore]).
	ErrRevoked = errors.New("auth: token revoked")

	// ErrUserNotFound is what a [Users] implementation returns (possibly
	// wrapped) when no user has the given e-mail address.
	ErrUserNotFound = errors.New("auth: user not found")
)

// ErrUnavailable means the [TokenStore] could not answer whether a token
// was revoked (or could not record a revocation or a refresh token). The
// request is refused, never let through (fail closed): the middlewares
// answer 503 {"message":"Service unavailable."} and log the cause at
// error level. Its StatusCode method returns 503, so that handlers that
// word refusals their own way (the GraphQL endpoint) can tell it from a
// bad token.
var ErrUnavailable error = unavailable{}

type unavailable struct{}

func (unavailable) Error() string   { return "auth: the token store is unavailable" }
func (unavailable) StatusCode() int { return http.StatusServiceUnavailable }
