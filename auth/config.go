package auth

import (
	"github.com/rs/zerolog"

	"errors"
	"fmt"
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

// Config configures a [Verifier] and an [Issuer]. The same value can build
// both. Its zero value is not usable (a secret is required); every other
// field's zero value means the documented default.
//
// Tokens are signed with HS256 and [Config.Secret]. Asymmetric keys (RS256,
// EdDSA) would come as further key fields, with the algorithm following from
// the key; callers of [Verifier.Verify], the middlewares and [Issuer.Issue]
// would not change.
type Config struct {
	// Secret is the HS256 key, at least MinSecretBytes long. Use random
	// bytes, not a password. It is copied by the constructors.
	Secret []byte

	// TTL is the lifetime of issued tokens, at least one second; it is
	// truncated to whole seconds. Zero means DefaultTTL.
	TTL time.Duration

	// Leeway is the clock skew tolerated when checking exp, nbf and iat.
	// Zero means DefaultLeeway; a negative value means none.
	Leeway time.Duration

	// Now returns the current time; nil means time.Now. Tests set it.
	Now func() time.Time

	// Logger receives why the Verifier's middlewares refused a request
	// (never the token), with the request id. nil means the request's
	// zerolog logger (reqlog puts one in the context), else a JSON logger
	// on standard error; use a pointer to zerolog.Nop() to log nothing.
	Logger *zerolog.Logger
}

// settings is a validated Config with its defaults applied.
type settings struct {
	secret []byte
	ttl    time.Duration
	leeway time.Duration
	now    func() time.Time
}

// settings validates c and applies the defaults. It reports every problem at
// once.
func (c Config) settings() (settings, error) {
	var errs []error
	switch {
	case len(c.Secret) == 0:
		errs = append(errs, errors.New("auth: Config.Secret is empty"))
	case len(c.Secret) < MinSecretBytes:
		errs = append(errs, fmt.Errorf("auth: Config.Secret is %d bytes; HS256 needs at least %d", len(c.Secret), MinSecretBytes))
	}
	s := settings{
		secret: append([]byte(nil), c.Secret...),
		ttl:    c.TTL.Truncate(time.Second),
		leeway: c.Leeway,
		now:    c.Now,
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
