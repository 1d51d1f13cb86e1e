package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gqlkit/gqlkit/auth"
)

// TestPublicKeys checks fixed public keys: each verifies tokens of its own
// algorithm under its ID, and nothing else.
func TestPublicKeys(t *testing.T) {
	k := keysForTest(t)
	v, err := auth.NewVerifier(auth.PublicKeys(
		auth.PublicKey{ID: "rsa-1", Key: &k.rsa.PublicKey},
		auth.PublicKey{ID: "ec-1", Key: &k.ec.PublicKey},
		auth.PublicKey{Key: k.ed.Public()}, // tokens without a kid
	), providerConfig(testConfig().Now))
	if err != nil {
		t.Fatal(err)
	}
	api := startServer(t, v.Required(http.HandlerFunc(whoAmI)))
	get := func(token string) response {
		return do(t, newRequest(t, http.MethodGet, api.URL, "", http.Header{"Authorization": {"Bearer " + token}}), "WWW-Authenticate")
	}
	noKid := sign(t, jwt.SigningMethodEdDSA, k.ed, providerClaims(map[string]any{"sub": uuidSub}), nil)
	expect(t, "RS256", get(providerToken(t, k.rsa, "rsa-1", uuidSub)), accepted(uuidSub))
	expect(t, "ES256", get(providerToken(t, k.ec, "ec-1", uuidSub)), accepted(uuidSub))
	expect(t, "EdDSA without kid", get(noKid), accepted(uuidSub))
	expect(t, "unknown kid", get(providerToken(t, k.rsa2, "rsa-2", uuidSub)), refused)
	expect(t, "the kit's own token", get(hs256(t, providerClaims(nil))), refused)
	expect(t, "HS256 keyed with the modulus", get(sign(t, jwt.SigningMethodHS256, k.rsa.N.Bytes(), providerClaims(map[string]any{"sub": uuidSub}), map[string]any{"kid": "rsa-1"})), refused)
}

// TestHMACRefusesPublicKeyTokens checks that a Verifier of the kit's own
// secret refuses every asymmetric token, whatever its kid.
func TestHMACRefusesPublicKeyTokens(t *testing.T) {
	k := keysForTest(t)
	v := newVerifier(t)
	for _, token := range []string{
		providerToken(t, k.rsa, auth.KeyID(testSecret), "42"),
		providerToken(t, k.ec, auth.KeyID(testSecret), "42"),
		sign(t, jwt.SigningMethodEdDSA, k.ed, validClaims(), nil),
	} {
		if _, err := v.Verify(context.Background(), token); !errors.Is(err, auth.ErrInvalidToken) {
			t.Errorf("Verify = %v; want ErrInvalidToken", err)
		}
	}
}

// TestKeysErrors checks what NewVerifier and NewJWKS refuse, every
// problem at once.
func TestKeysErrors(t *testing.T) {
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	p384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k := keysForTest(t)
	jwks, err := auth.NewJWKS("https://id.example.com/.well-known/jwks.json", auth.JWKSConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var nilJWKS *auth.JWKS
	for _, tt := range []struct {
		name    string
		keys    auth.Keys
		cfg     auth.Config
		wantErr []string
	}{
		{name: "no keys", wantErr: []string{"auth: NewVerifier needs Keys"}},
		{name: "a nil JWKS", keys: nilJWKS, wantErr: []string{"the JWKS is nil"}},
		{name: "no public key", keys: auth.PublicKeys(), wantErr: []string{"PublicKeys has no key"}},
		{
			name: "bad public keys",
			keys: auth.PublicKeys(
				auth.PublicKey{ID: "small", Key: &small.PublicKey},
				auth.PublicKey{ID: "p384", Key: &p384.PublicKey},
				auth.PublicKey{ID: "private", Key: k.rsa},
				auth.PublicKey{ID: "dup", Key: k.ed.Public()},
				auth.PublicKey{ID: "dup", Key: &k.ec.PublicKey},
			),
			wantErr: []string{
				`PublicKeys[0] (ID "small"): an RSA key of 1024 bits; 2048 to 8192 are accepted`,
				`PublicKeys[1] (ID "p384"): an ECDSA key that is not on P-256`,
				`PublicKeys[2] (ID "private"): key type *rsa.PrivateKey is not supported`,
				`PublicKeys[4] (ID "dup"): its ID is given twice`,
			},
		},
		{
			name:    "a token store with public keys",
			keys:    jwks,
			cfg:     providerConfig(nil, func(c *auth.Config) { c.Tokens, c.TTL = nopTokens{}, -1 }),
			wantErr: []string{"Config.Tokens needs HMAC keys", "Config.TTL is -1ns"},
		},
		{
			name:    "a JWKS without issuer and audience",
			keys:    jwks,
			cfg:     auth.Config{TTL: -1},
			wantErr: []string{"need Config.Issuer and Config.Audience", "(Issuer and Audience not set)", "Config.TTL is -1ns"},
		},
		{
			name:    "public keys without audience",
			keys:    auth.PublicKeys(auth.PublicKey{ID: "ed", Key: k.ed.Public()}),
			cfg:     auth.Config{Issuer: providerIssuer},
			wantErr: []string{"need Config.Issuer and Config.Audience", "(Audience not set)"},
		},
		{
			name:    "public keys without issuer",
			keys:    auth.PublicKeys(auth.PublicKey{ID: "ed", Key: k.ed.Public()}),
			cfg:     auth.Config{Audience: providerAudience},
			wantErr: []string{"need Config.Issuer and Config.Audience", "(Issuer not set)"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := auth.NewVerifier(tt.keys, tt.cfg)
			if err == nil || v != nil {
				t.Fatalf("NewVerifier = %v, %v; want an error", v, err)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error = %q; want it to contain %q", err, want)
				}
			}
		})
	}
}

// TestNewJWKSErrors checks the URL and the configuration NewJWKS refuses.
func TestNewJWKSErrors(t *testing.T) {
	for _, tt := range []struct {
		name    string
		url     string
		cfg     auth.JWKSConfig
		wantErr []string // none: accepted
	}{
		{name: "https", url: "https://id.example.com/jwks"},
		{name: "http to loopback", url: "http://127.0.0.1:8080/jwks"},
		{name: "http to localhost", url: "http://localhost/jwks"},
		{name: "http to IPv6 loopback", url: "http://[::1]:8080/jwks"},
		{name: "http allowed", url: "http://keycloak:8080/jwks", cfg: auth.JWKSConfig{AllowHTTP: true}},
		{name: "http to another host", url: "http://keycloak:8080/jwks", wantErr: []string{"plain http to a host that is not a loopback address"}},
		{name: "relative", url: "/jwks", wantErr: []string{"not an absolute http or https URL"}},
		{name: "another scheme", url: "file:///etc/jwks", wantErr: []string{"not an absolute http or https URL"}},
		{
			name:    "every problem at once",
			url:     "ftp://x/",
			cfg:     auth.JWKSConfig{Timeout: -1, MaxBytes: -1, MinInterval: -1, MaxAge: -1},
			wantErr: []string{"not an absolute", "JWKSConfig.Timeout is negative", "JWKSConfig.MaxBytes is negative", "JWKSConfig.MinInterval is negative", "JWKSConfig.MaxAge is negative"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			j, err := auth.NewJWKS(tt.url, tt.cfg)
			if len(tt.wantErr) == 0 {
				if err != nil || j == nil {
					t.Fatalf("NewJWKS = %v, %v; want a JWKS", j, err)
				}
				return
			}
			if err == nil || j != nil {
				t.Fatalf("NewJWKS = %v, %v; want an error", j, err)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error = %q; want it to contain %q", err, want)
				}
			}
		})
	}
}

// nopTokens is a TokenStore that is never asked anything.
type nopTokens struct{ auth.TokenStore }

// TestOwnTokenSubject checks that the kit's own tokens carry their user
// as both the subject and the integer id, through the middleware too.
func TestOwnTokenSubject(t *testing.T) {
	iss, v := pair(t, testSecret, testConfig())
	token, err := iss.Issue(42)
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.Verify(context.Background(), token)
	if err != nil || got.Subject != "42" || got.UserID != 42 || got.KeyID != auth.KeyID(testSecret) {
		t.Fatalf("Verify = %+v, %v; want subject 42, user 42, the secret's kid", got, err)
	}
	api := startServer(t, v.Required(http.HandlerFunc(whoAmI)))
	expect(t, "answer", do(t, newRequest(t, http.MethodGet, api.URL, "", http.Header{"Authorization": {"Bearer " + token}}), "WWW-Authenticate"),
		response{status: http.StatusOK, headers: map[string]string{"WWW-Authenticate": ""}, body: "subject=42 user_id=42,true"})
}
