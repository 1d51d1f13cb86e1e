package auth

import (
	"github.com/rs/zerolog"

	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/golang-jwt/jwt/v5"
)

// Verifier checks access tokens and guards handlers with them. Build it with
// [NewVerifier]; it is safe for concurrent use.
//
// A token is accepted only if it is signed with the pinned algorithm (HS256)
// and the configured key, carries exp in the future, nbf and iat (when
// present) not in the future, and a positive integer sub. The leeway of
// [Config.Leeway] applies to the three time claims. The header's kid, jku and
// similar fields are ignored: the key never comes from the token.
type Verifier struct {
	method jwt.SigningMethod
	key    any
	parser *jwt.Parser
	logger *zerolog.Logger // nil: the request's (see Config.Logger)
}

// NewVerifier returns a Verifier for cfg. It fails when the secret is
// missing or shorter than [MinSecretBytes], or another field is out of range.
func NewVerifier(cfg Config) (*Verifier, error) {
	s, err := cfg.settings()
	if err != nil {
		return nil, err
	}
	method := jwt.SigningMethodHS256
	return &Verifier{
		method: method,
		key:    s.secret,
		logger: cfg.Logger,
		parser: jwt.NewParser(
			jwt.WithValidMethods([]string{method.Alg()}),
			jwt.WithExpirationRequired(),
			jwt.WithIssuedAt(),
			jwt.WithLeeway(s.leeway),
			jwt.WithTimeFunc(s.now),
		),
	}, nil
}

// Verify checks token, a compact JWT, and returns the user id in its sub
// claim. The error wraps [ErrTokenTooLarge], [ErrInvalidToken] or
// [ErrInvalidSubject]; it describes the reason for the log, never for the
// client.
func (v *Verifier) Verify(token string) (int64, error) {
	if len(token) > MaxHeaderBytes {
		return 0, fmt.Errorf("%w: %d bytes, at most %d allowed", ErrTokenTooLarge, len(token), MaxHeaderBytes)
	}
	var c claims
	if _, err := v.parser.ParseWithClaims(token, &c, v.keyFor); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	return parseSubject(c.Sub)
}

// keyFor is the jwt.Keyfunc: it returns the one configured key whatever the
// header says, after refusing header fields this package does not honour.
func (v *Verifier) keyFor(t *jwt.Token) (any, error) {
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
	return v.key, nil
}

// claims are the registered claims, except that sub is kept raw: tokens from
// Laravel's jwt-auth 1.x carry it as a JSON number, which
// jwt.RegisteredClaims refuses. The outer Sub field shadows the embedded
// Subject for encoding/json.
type claims struct {
	jwt.RegisteredClaims
	Sub json.RawMessage `json:"sub"`
}

// parseSubject returns the user id in a raw sub claim: a JSON string or
// number holding a positive decimal integer that fits in an int64, written
// without sign, leading zeros, fraction or exponent.
func parseSubject(raw json.RawMessage) (int64, error) {
	var digits string
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return 0, fmt.Errorf("%w: sub claim is missing", ErrInvalidSubject)
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &digits); err != nil {
			return 0, fmt.Errorf("%w: sub claim is not a valid string", ErrInvalidSubject)
		}
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		digits = string(raw)
	default:
		return 0, fmt.Errorf("%w: sub claim is neither a string nor a number", ErrInvalidSubject)
	}
	if digits == "" || digits[0] == '0' || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, fmt.Errorf("%w: sub claim is not a positive decimal integer", ErrInvalidSubject)
	}
	id, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: sub claim is out of the int64 range", ErrInvalidSubject)
	}
	return id, nil
}
