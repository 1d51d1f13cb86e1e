package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Verifier checks access tokens and guards handlers with them. Build it with
// [NewVerifier]; it is safe for concurrent use.
//
// A token is accepted only if it is signed with the key its kid names
// (among [HMAC] secrets, the current one when it has no kid) and that
// key's algorithm, carries exp in the future, nbf and iat (when present)
// not in the future, all three JSON numbers, a sub as the key's kind
// wants it (a positive integer for the kit's own HMAC keys, a string for
// public keys), the configured iss and aud (which public keys require,
// see [NewVerifier]), names no member of its header or claims twice, and
// (with [Config.Tokens]) is not revoked. The leeway of [Config.Leeway]
// applies to the three time claims. The header's jku,
// jwk, x5u and similar fields are ignored: the key never comes from the
// token.
type Verifier struct {
	keys   keySource
	parser *jwt.Parser
	tokens TokenStore // nil: no revocation
	leeway time.Duration
	now    func() time.Time
	logger *slog.Logger // nil: the request's (see Config.Logger)
}

// NewVerifier returns a Verifier of the tokens signed with keys ([HMAC],
// [PublicKeys] or a [*JWKS]), checked as cfg says. It fails when keys is
// nil or not valid (an HMAC secret shorter than [MinSecretBytes], say), a
// field of cfg is out of range, or, with public keys, cfg.Tokens is set or
// cfg.Issuer or cfg.Audience is not, reporting every problem at once.
func NewVerifier(keys Keys, cfg Config) (*Verifier, error) {
	var errs []error
	var src keySource
	if keys == nil {
		errs = append(errs, errors.New("auth: NewVerifier needs Keys: HMAC, PublicKeys or a JWKS"))
	} else {
		var err error
		if src, err = keys.source(); err != nil {
			errs = append(errs, err)
		}
	}
	s, err := cfg.settings()
	if err != nil {
		errs = append(errs, err)
	}
	if _, own := src.(*hmacSource); src != nil && !own {
		if cfg.Tokens != nil {
			errs = append(errs, errors.New("auth: Config.Tokens needs HMAC keys: the token store revokes the kit's own tokens, not an identity provider's"))
		}
		if err := needIssuerAudience(cfg); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	opts := []jwt.ParserOption{
		jwt.WithValidMethods(src.algorithms()),
		// One spelling per token: the lenient decoder would take the
		// spare bits of the signature's last character as they come, and
		// a token denied by its digest would come back respelled.
		jwt.WithStrictDecoding(),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(s.leeway),
		jwt.WithTimeFunc(s.now),
	}
	if s.iss != "" {
		opts = append(opts, jwt.WithIssuer(s.iss))
	}
	if s.aud != "" {
		opts = append(opts, jwt.WithAudience(s.aud))
	}
	return &Verifier{
		keys:   src,
		tokens: s.tokens,
		leeway: s.leeway,
		now:    s.now,
		logger: cfg.Logger,
		parser: jwt.NewParser(opts...),
	}, nil
}

// needIssuerAudience returns an error unless cfg sets both Issuer and
// Audience, which public keys need: an identity provider signs the tokens
// of every client of its own and of other services with the same keys, and
// only iss and aud tell the ones meant for this service.
func needIssuerAudience(cfg Config) error {
	var missing []string
	if cfg.Issuer == "" {
		missing = append(missing, "Issuer")
	}
	if cfg.Audience == "" {
		missing = append(missing, "Audience")
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("auth: public keys (PublicKeys or a JWKS) need Config.Issuer and Config.Audience, the provider's iss and this service's aud (%s not set): without them the Verifier would accept tokens the provider issued for any other client", strings.Join(missing, " and "))
}

// Verify checks token, a compact JWT, and returns what it says. With
// [Config.Tokens] it also asks the store whether the token was revoked.
// With a [*JWKS] it may wait for the key set to be fetched, until ctx ends
// or [JWKSConfig.Timeout] at most. The error wraps [ErrTokenTooLarge],
// [ErrInvalidToken], [ErrInvalidSubject], [ErrRevoked] or [ErrUnavailable]
// (the store could not answer); it describes the reason for the log,
// never for the client.
func (v *Verifier) Verify(ctx context.Context, token string) (Token, error) {
	if len(token) > MaxHeaderBytes {
		return Token{}, fmt.Errorf("%w: %d bytes, at most %d allowed", ErrTokenTooLarge, len(token), MaxHeaderBytes)
	}
	var (
		c    claims
		used verifyKey
	)
	_, err := v.parser.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
		k, err := v.keyFor(ctx, t)
		used = k
		return k.key, err
	})
	if err != nil {
		return Token{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	t := Token{ID: c.ID, KeyID: used.kid, ExpiresAt: c.ExpiresAt.Time}
	if used.own() {
		switch {
		case c.subErr != nil:
			return Token{}, c.subErr
		case c.sub == 0:
			return Token{}, fmt.Errorf("%w: sub claim is missing", ErrInvalidSubject)
		}
		t.UserID, t.Subject, t.Session = c.sub, strconv.FormatInt(c.sub, 10), c.sid
	} else {
		// An identity provider's token: any string names its user, a
		// decimal one an integer user too; its sid is the provider's.
		if t.Subject, err = stringSubject(c.subRaw); err != nil {
			return Token{}, err
		}
		if c.subErr == nil {
			t.UserID = c.sub
		}
	}
	if c.IssuedAt != nil {
		t.IssuedAt = c.IssuedAt.Time
	}
	if c.authTime != nil {
		t.AuthTime = c.authTime.Time
	}
	if t.ID == "" {
		// The signed part (header and claims), not the whole text: the
		// signature follows from it.
		sum := sha256.Sum256([]byte(token[:strings.LastIndexByte(token, '.')]))
		t.ID = "sha256:" + hex.EncodeToString(sum[:])
	}
	if v.tokens != nil {
		if err := checkRevoked(ctx, v.tokens, t); err != nil {
			return Token{}, err
		}
	}
	return t, nil
}

// checkRevoked asks tokens whether t is revoked: nil when it is not, else
// an error wrapping [ErrRevoked] or [ErrUnavailable].
func checkRevoked(ctx context.Context, tokens TokenStore, t Token) error {
	revoked, err := tokens.Revoked(ctx, t)
	switch {
	case err != nil:
		return fmt.Errorf("%w: checking revocation: %w", ErrUnavailable, err)
	case revoked:
		return fmt.Errorf("%w: token %s of user %d", ErrRevoked, t.ID, t.UserID)
	}
	return nil
}

// keyFor returns the key the header's kid names (see [HMAC] for a token
// without kid), after refusing header fields this package does not
// honour and an algorithm other than the key's.
func (v *Verifier) keyFor(ctx context.Context, t *jwt.Token) (verifyKey, error) {
	if err := checkHeader(t.Raw); err != nil {
		return verifyKey{}, err
	}
	if typ, ok := t.Header["typ"]; ok {
		if s, _ := typ.(string); !strings.EqualFold(s, "JWT") {
			return verifyKey{}, errors.New(`header typ is not "JWT"`)
		}
	}
	// RFC 7515 §4.1.11: critical extensions that are not understood (and
	// none are) make the token invalid.
	if _, ok := t.Header["crit"]; ok {
		return verifyKey{}, errors.New("header crit names extensions that are not supported")
	}
	var kid string
	raw, hasKid := t.Header["kid"]
	if hasKid {
		var isString bool
		if kid, isString = raw.(string); !isString {
			return verifyKey{}, errors.New("header kid is not a string")
		}
	}
	k, err := v.keys.key(ctx, kid, hasKid)
	if err != nil {
		return verifyKey{}, err
	}
	// The algorithm is the key's: an RS256 key's bytes are never an
	// HS256 secret, an HS256 secret never verifies an RS256 token.
	if alg := t.Method.Alg(); alg != k.alg {
		return verifyKey{}, fmt.Errorf("algorithm %s is not %s, the algorithm of key %q", alg, k.alg, truncate(k.kid, 64))
	}
	return k, nil
}

// truncate shortens s to at most n bytes for a log line.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
