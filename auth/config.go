package auth

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Defaults and fixed limits of [Config].
const (
	// DefaultTTL is the lifetime of issued tokens when [Config.TTL] is zero
	// (jwt-auth's default).
	DefaultTTL = 60 * time.Minute

	// DefaultLeeway is the clock skew allowed on exp, nbf and iat when
	// [Config.Leeway] is zero.
	DefaultLeeway = 30 * time.Second

	// MinSecretBytes is the shortest HS256 secret accepted: as long as the
	// SHA-256 output (RFC 7518 §3.2).
	MinSecretBytes = 32

	// MaxHeaderBytes is the longest Authorization header (and token) looked
	// at; anything longer is refused with [ErrTokenTooLarge] before parsing.
	MaxHeaderBytes = 8 << 10
)

// Config configures a [Verifier] and an [Issuer]; the key material is
// their first argument ([NewVerifier], [NewIssuer]). The same value can
// build both. Its zero value means the documented defaults.
type Config struct {
	// Issuer, when set, is the iss claim of issued tokens, and a token
	// whose iss differs (or that has none) is refused.
	Issuer string

	// Audience, when set, is the aud claim of issued tokens, and a token
	// whose aud does not name it (or that has none) is refused. Services
	// that share a secret but not their tokens set different audiences.
	//
	// With public keys ([PublicKeys], a [*JWKS]) Issuer and Audience are
	// required: [NewVerifier] fails without them, as an identity
	// provider's keys sign the tokens of all its clients.
	Audience string

	// Tokens, when set, is where revoked tokens and refresh tokens are
	// kept (see [TokenStore]): the Verifier then refuses a token that was
	// logged out, or issued before its user logged out everywhere, at
	// the cost of one lookup per authenticated request; when the store
	// cannot answer, the request is refused with a 503 (fail closed).
	// nil means no revocation: a token is good until it expires. It
	// needs [HMAC] keys: the store revokes the kit's own tokens, and the
	// tokens of an identity provider are its to revoke.
	Tokens TokenStore

	// TTL is the lifetime of issued tokens, at least one second; it is
	// truncated to whole seconds. Zero means DefaultTTL.
	TTL time.Duration

	// Leeway is the clock skew tolerated when checking exp, nbf and iat.
	// Zero means DefaultLeeway; a negative value means none.
	Leeway time.Duration

	// Now returns the current time; nil means time.Now. Tests set it.
	Now func() time.Time

	// Logger receives why the Verifier's middlewares refused a request
	// (never the token), logged with the request's context and its
	// request id. nil means the logger of the request's reqlog.Handler,
	// else slog.Default(); use slog.New(slog.DiscardHandler) to log
	// nothing.
	Logger *slog.Logger
}

// settings is a validated Config with its defaults applied.
type settings struct {
	ttl      time.Duration
	leeway   time.Duration
	now      func() time.Time
	iss, aud string
	tokens   TokenStore
}

// settings validates c and applies the defaults. It reports every problem at
// once.
func (c Config) settings() (settings, error) {
	var errs []error
	s := settings{
		ttl:    c.TTL.Truncate(time.Second),
		leeway: c.Leeway,
		now:    c.Now,
		iss:    c.Issuer,
		aud:    c.Audience,
		tokens: c.Tokens,
	}
	switch {
	case c.TTL == 0:
		s.ttl = DefaultTTL
	case c.TTL < time.Second:
		errs = append(errs, fmt.Errorf("auth: Config.TTL is %v; it must be at least 1s", c.TTL))
	}
	switch {
	case c.Leeway == 0:
		s.leeway = DefaultLeeway
	case c.Leeway < 0:
		s.leeway = 0
	}
	if s.now == nil {
		s.now = time.Now
	}
	if err := errors.Join(errs...); err != nil {
		return settings{}, err
	}
	return s, nil
}

// KeyID returns the kid that tokens signed with secret carry: a
// fingerprint of the key, never the key. It is the first 96 bits of
// SHA-256 over a fixed label and the key, as 16 base64url characters; with
// a key of at least 32 random bytes nothing about the key can be learned
// from it. Log it to tell which key a service signs with.
func KeyID(secret []byte) string {
	h := sha256.New()
	h.Write([]byte("gqlkit auth kid\x00"))
	h.Write(secret)
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:12])
}
