package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Verifier checks access tokens and guards handlers with them. Build it with
// [NewVerifier]; it is safe for concurrent use.
//
// A token is accepted only if it is signed with the pinned algorithm (HS256)
// and the key its kid names (the current key when it has no kid), carries
// exp in the future, nbf and iat (when present) not in the future, all
// three JSON numbers, a positive integer sub, the configured iss and aud,
// names no member of its header or claims twice, and (with
// [Config.Tokens]) is not revoked. The leeway of [Config.Leeway] applies to
// the three time claims. The header's jku, jwk, x5u and similar fields are
// ignored: the key never comes from the token.
type Verifier struct {
	method  jwt.SigningMethod
	current string            // kid of the current key
	keys    map[string][]byte // by kid: the current key and the previous ones
	parser  *jwt.Parser
	tokens  TokenStore // nil: no revocation
	leeway  time.Duration
	now     func() time.Time
	logger  *slog.Logger // nil: the request's (see Config.Logger)
}

// NewVerifier returns a Verifier for cfg. It fails when a secret is
// missing or shorter than [MinSecretBytes], or another field is out of range.
func NewVerifier(cfg Config) (*Verifier, error) {
	s, err := cfg.settings()
	if err != nil {
		return nil, err
	}
	method := jwt.SigningMethodHS256
	keys := make(map[string][]byte, 1+len(s.previous))
	for kid, key := range s.previous {
		keys[kid] = key
	}
	keys[s.kid] = s.secret
	opts := []jwt.ParserOption{
		jwt.WithValidMethods([]string{method.Alg()}),
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
		method:  method,
		current: s.kid,
		keys:    keys,
		tokens:  s.tokens,
		leeway:  s.leeway,
		now:     s.now,
		logger:  cfg.Logger,
		parser:  jwt.NewParser(opts...),
	}, nil
}

// Verify checks token, a compact JWT, and returns what it says. With
// [Config.Tokens] it also asks the store whether the token was revoked.
// The error wraps [ErrTokenTooLarge], [ErrInvalidToken],
// [ErrInvalidSubject], [ErrRevoked] or [ErrUnavailable] (the store could
// not answer); it describes the reason for the log, never for the client.
func (v *Verifier) Verify(ctx context.Context, token string) (Token, error) {
	if len(token) > MaxHeaderBytes {
		return Token{}, fmt.Errorf("%w: %d bytes, at most %d allowed", ErrTokenTooLarge, len(token), MaxHeaderBytes)
	}
	var c claims
	parsed, err := v.parser.ParseWithClaims(token, &c, v.keyFor)
	if err != nil {
		return Token{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	switch {
	case c.subErr != nil:
		return Token{}, c.subErr
	case c.sub == 0:
		return Token{}, fmt.Errorf("%w: sub claim is missing", ErrInvalidSubject)
	}
	t := Token{UserID: c.sub, ID: c.ID, KeyID: v.current, Session: c.sid, ExpiresAt: c.ExpiresAt.Time}
	if kid, ok := parsed.Header["kid"].(string); ok {
		t.KeyID = kid
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

// keyFor is the jwt.Keyfunc: it returns the configured key the header's kid
// names (the current key when there is no kid), after refusing header
// fields this package does not honour.
func (v *Verifier) keyFor(t *jwt.Token) (any, error) {
	if err := checkHeader(t.Raw); err != nil {
		return nil, err
	}
	// The parser already pins the algorithm; checking again costs nothing.
	if t.Method.Alg() != v.method.Alg() {
		return nil, fmt.Errorf("algorithm %s is not %s", t.Method.Alg(), v.method.Alg())
	}
	if typ, ok := t.Header["typ"]; ok {
		if s, _ := typ.(string); !strings.EqualFold(s, "JWT") {
			return nil, errors.New(`header typ is not "JWT"`)
		}
	}
	// RFC 7515 §4.1.11: critical extensions that are not understood (and
	// none are) make the token invalid.
	if _, ok := t.Header["crit"]; ok {
		return nil, errors.New("header crit names extensions that are not supported")
	}
	raw, ok := t.Header["kid"]
	if !ok {
		return v.keys[v.current], nil
	}
	kid, isString := raw.(string)
	if !isString {
		return nil, errors.New("header kid is not a string")
	}
	key, known := v.keys[kid]
	if !known {
		return nil, fmt.Errorf("header kid %q names no configured key", truncate(kid, 64))
	}
	return key, nil
}

// truncate shortens s to at most n bytes for a log line.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
