package auth

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Issuer signs access tokens. Build it with [NewIssuer]; it is safe for
// concurrent use.
type Issuer struct {
	method   jwt.SigningMethod
	key      any
	kid      string
	ttl      time.Duration
	now      func() time.Time
	iss, aud string
}

// NewIssuer returns an Issuer that signs with secret, the HS256 key of
// [HMAC] (which the Verifier of its tokens takes), and cfg. It copies
// secret. It fails when the secret is missing or shorter than
// [MinSecretBytes], or a field of cfg is out of range, reporting every
// problem at once.
func NewIssuer(secret []byte, cfg Config) (*Issuer, error) {
	s, err := cfg.settings()
	if err := errors.Join(checkSecret(secret), err); err != nil {
		return nil, err
	}
	return &Issuer{
		method: jwt.SigningMethodHS256, key: append([]byte(nil), secret...), kid: KeyID(secret),
		ttl: s.ttl, now: s.now, iss: s.iss, aud: s.aud,
	}, nil
}

// Issue returns a signed token for the user userID, valid for [Issuer.TTL]
// from now. Its claims are sub (userID as a decimal string), iat and nbf
// (now, in whole seconds), exp (iat + TTL), jti (a random id of 26 base32
// characters, 130 bits), and iss and aud when [Config.Issuer] and
// [Config.Audience] are set. (Tokens that [Login] and [Refresher] issue
// with a refresh token also carry sid, the id of their session, and
// auth_time, when the user logged in to begin it.) The header is
// {"alg":"HS256","kid":…,"typ":"JWT"}, kid being [KeyID] of
// its secret. userID must be positive; otherwise the error wraps
// [ErrInvalidSubject].
func (i *Issuer) Issue(userID int64) (string, error) { return i.issueFor(userID, "", time.Time{}) }

// issue is Issue for a login: with the claims sid and auth_time (now)
// when session, the session the login began, is not empty.
func (i *Issuer) issue(userID int64, session string) (string, error) {
	return i.issueFor(userID, session, time.Time{})
}

// issueFor is Issue with the claims sid (session) and auth_time (started,
// or now when it is zero) when session is not empty.
func (i *Issuer) issueFor(userID int64, session string, started time.Time) (string, error) {
	if userID <= 0 {
		return "", fmt.Errorf("%w: user id %d is not positive", ErrInvalidSubject, userID)
	}
	now := i.now().Truncate(time.Second)
	claims := issuedClaims{Session: session, RegisteredClaims: jwt.RegisteredClaims{
		Issuer:    i.iss,
		Subject:   strconv.FormatInt(userID, 10),
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(i.ttl)),
		ID:        rand.Text(),
	}}
	if i.aud != "" {
		claims.Audience = jwt.ClaimStrings{i.aud}
	}
	if session != "" {
		if started.IsZero() {
			started = now
		}
		claims.AuthTime = jwt.NewNumericDate(started.Truncate(time.Second))
	}
	token := jwt.NewWithClaims(i.method, claims)
	token.Header["kid"] = i.kid
	signed, err := token.SignedString(i.key)
	if err != nil {
		return "", fmt.Errorf("auth: signing token: %w", err)
	}
	return signed, nil
}

// issuedClaims are the claims of an issued token.
type issuedClaims struct {
	// Session is the session of a login's or a refresh's token, so that a
	// logout with the access token alone ends it, and AuthTime when the
	// user logged in to begin it.
	Session  string           `json:"sid,omitempty"`
	AuthTime *jwt.NumericDate `json:"auth_time,omitempty"`
	jwt.RegisteredClaims
}

// TTL returns the lifetime of the tokens i issues, in whole seconds (the
// login response's expires_in).
func (i *Issuer) TTL() time.Duration { return i.ttl }
