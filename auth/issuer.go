package auth

import (
	"crypto/rand"
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

// NewIssuer returns an Issuer for cfg. It fails when the secret is missing or
// shorter than [MinSecretBytes], or another field is out of range.
func NewIssuer(cfg Config) (*Issuer, error) {
	s, err := cfg.settings()
	if err != nil {
		return nil, err
	}
	return &Issuer{method: jwt.SigningMethodHS256, key: s.secret, kid: s.kid, ttl: s.ttl, now: s.now, iss: s.iss, aud: s.aud}, nil
}

// Issue returns a signed token for the user userID, valid for [Issuer.TTL]
// from now. Its claims are sub (userID as a decimal string), iat and nbf
// (now, in whole seconds), exp (iat + TTL), jti (a random id of 26 base32
// characters, 130 bits), and iss and aud when [Config.Issuer] and
// [Config.Audience] are set. (Tokens that [Login] and [Refresher] issue
// with a refresh token also carry sid, the id of its family.) The header is {"alg":"HS256","kid":…,"typ":"JWT"},
// kid being [KeyID] of [Config.Secret]. userID must be positive;
// otherwise the error wraps [ErrInvalidSubject].
func (i *Issuer) Issue(userID int64) (string, error) { return i.issue(userID, "") }

// issue is Issue, with the claim sid (the refresh token family the token
// was issued with) when session is not empty.
func (i *Issuer) issue(userID int64, session string) (string, error) {
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
	// Session is the refresh token family of a login's or a refresh's
	// token, so that a logout with the access token alone ends it.
	Session string `json:"sid,omitempty"`
	jwt.RegisteredClaims
}

// TTL returns the lifetime of the tokens i issues, in whole seconds (the
// login response's expires_in).
func (i *Issuer) TTL() time.Duration { return i.ttl }
