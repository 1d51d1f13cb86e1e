package main

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// identity is the service's own identity provider, as a team that already
// runs one has it: an RSA key that signs RS256 access tokens for its
// accounts (sub: the account's UUID), and the JWKS document that publishes
// the public half. The kit verifies these tokens through that document, as
// it would a hosted provider's.
type identity struct {
	key      *rsa.PrivateKey
	kid      string
	issuer   string
	audience string
	ttl      time.Duration
}

func newIdentity(issuer, audience string) (*identity, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	return &identity{key: key, kid: "service-1", issuer: issuer, audience: audience, ttl: 15 * time.Minute}, nil
}

// token signs an access token for the account with this id.
func (id *identity) token(account string, now time.Time) (string, error) {
	t := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.RegisteredClaims{
		Subject:   account,
		Issuer:    id.issuer,
		Audience:  jwt.ClaimStrings{id.audience},
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(id.ttl)),
	})
	t.Header["kid"] = id.kid
	return t.SignedString(id.key)
}

// ServeHTTP serves the JWKS document: the public key, pinned to RS256.
func (id *identity) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	pub := id.key.PublicKey
	doc := map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "use": "sig", "alg": "RS256", "kid": id.kid,
		"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}}}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_ = json.NewEncoder(w).Encode(doc)
}
