package auth

import "errors"

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
	// algorithm other than the pinned one, a bad signature, or an expired,
	// not-yet-valid or missing time claim. It wraps the golang-jwt error, so
	// errors.Is(err, jwt.ErrTokenExpired) and the like work too.
	ErrInvalidToken = errors.New("auth: invalid token")

	// ErrInvalidSubject means a token is authentic and current but its sub
	// claim is not a positive 64-bit integer, or an [Issuer] was asked for a
	// token for such a user id.
	ErrInvalidSubject = errors.New("auth: invalid subject")

	// ErrUserNotFound is what a [Users] implementation returns (possibly
	// wrapped) when no user has the given e-mail address.
	ErrUserNotFound = errors.New("auth: user not found")
)
