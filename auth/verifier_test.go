package auth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gqlkit/gqlkit/auth"
)

func TestVerify(t *testing.T) {
	v := newVerifier(t)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatalf("generating RSA key: %v", err)
	}
	unix := func(d time.Duration) int64 { return testNow.Add(d).Unix() }
	valid := hs256(t, validClaims())
	parts := strings.Split(valid, ".")

	tests := []struct {
		name    string
		token   func(t *testing.T) string
		wantID  int64
		wantErr error // auth sentinel; nil means accepted
		wantJWT error // golang-jwt sentinel wrapped too, if any
	}{
		{
			name:   "valid string sub",
			token:  func(t *testing.T) string { return valid },
			wantID: 42,
		},
		{
			name:   "valid numeric sub (jwt-auth 1.x)",
			token:  func(t *testing.T) string { return hs256(t, with(map[string]any{"sub": 42})) },
			wantID: 42,
		},
		{
			name: "largest int64 sub",
			token: func(t *testing.T) string {
				return hs256(t, with(map[string]any{"sub": json.Number("9223372036854775807")}))
			},
			wantID: 1<<63 - 1,
		},
		{
			name:   "no iat and no nbf",
			token:  func(t *testing.T) string { return hs256(t, with(map[string]any{"iat": nil, "nbf": nil})) },
			wantID: 42,
		},
		{
			name: "kid of the key, jku ignored",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, testSecret, validClaims(),
					map[string]any{"kid": auth.KeyID(testSecret), "jku": "https://attacker.example/jwks.json"})
			},
			wantID: 42,
		},
		{
			name: "kid naming no key, even when signed with the key",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, testSecret, validClaims(),
					map[string]any{"kid": "../../../dev/null"})
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenUnverifiable,
		},
		{
			name: "kid that is not a string",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, testSecret, validClaims(), map[string]any{"kid": 1})
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenUnverifiable,
		},
		{
			name: "kid does not select another key",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, []byte("attacker-secret-attacker-secret-!!"), validClaims(),
					map[string]any{"kid": "attacker"})
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenUnverifiable,
		},
		{
			name: "the current kid with another key's signature",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, []byte("attacker-secret-attacker-secret-!!"), validClaims(),
					map[string]any{"kid": auth.KeyID(testSecret)})
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},
		{
			name: "typ absent",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, testSecret, validClaims(), map[string]any{"typ": nil})
			},
			wantID: 42,
		},
		{
			name: "typ lowercase jwt",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, testSecret, validClaims(), map[string]any{"typ": "jwt"})
			},
			wantID: 42,
		},
		{
			name: "typ of another kind",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, testSecret, validClaims(), map[string]any{"typ": "at+jwt"})
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenUnverifiable,
		},
		{
			name: "crit header",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, testSecret, validClaims(), map[string]any{"crit": []string{"exp"}})
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenUnverifiable,
		},

		// Algorithm and key confusion.
		{
			name: "alg none",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, validClaims(), nil)
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},
		{
			name: "alg None with a valid HS256 signature",
			token: func(t *testing.T) string {
				return rawToken(`{"alg":"None","typ":"JWT"}`, `{"sub":"42","exp":9999999999}`, testSecret)
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenUnverifiable,
		},
		{
			name:    "alg none without signature, hand-made",
			token:   func(t *testing.T) string { return rawToken(`{"alg":"none"}`, `{"sub":"42","exp":9999999999}`, nil) },
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},
		{
			name:    "HS512 with the same secret",
			token:   func(t *testing.T) string { return sign(t, jwt.SigningMethodHS512, testSecret, validClaims(), nil) },
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},
		{
			name:    "HS384 with the same secret",
			token:   func(t *testing.T) string { return sign(t, jwt.SigningMethodHS384, testSecret, validClaims(), nil) },
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},
		{
			name:    "RS256",
			token:   func(t *testing.T) string { return sign(t, jwt.SigningMethodRS256, rsaKey, validClaims(), nil) },
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},
		{
			name: "no alg",
			token: func(t *testing.T) string {
				return rawToken(`{"typ":"JWT"}`, `{"sub":"42","exp":9999999999}`, testSecret)
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenUnverifiable,
		},

		// Signature.
		{
			name: "wrong secret",
			token: func(t *testing.T) string {
				return sign(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-32"), validClaims(), nil)
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},
		{
			name: "tampered payload",
			token: func(t *testing.T) string {
				other := strings.Split(hs256(t, with(map[string]any{"sub": "1"})), ".")
				return parts[0] + "." + other[1] + "." + parts[2]
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},
		{
			name:    "signature stripped",
			token:   func(t *testing.T) string { return parts[0] + "." + parts[1] + "." },
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},
		{
			name: "tampered and expired reports the signature",
			token: func(t *testing.T) string {
				return parts[0] + "." + strings.Split(hs256(t, with(map[string]any{"exp": unix(-time.Hour)})), ".")[1] + "." + parts[2]
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenSignatureInvalid,
		},

		// Time claims, default leeway 30s.
		{
			name:    "expired",
			token:   func(t *testing.T) string { return hs256(t, with(map[string]any{"exp": unix(-31 * time.Second)})) },
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenExpired,
		},
		{
			name:   "expired within the leeway",
			token:  func(t *testing.T) string { return hs256(t, with(map[string]any{"exp": unix(-29 * time.Second)})) },
			wantID: 42,
		},
		{
			name:    "no exp",
			token:   func(t *testing.T) string { return hs256(t, with(map[string]any{"exp": nil})) },
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenRequiredClaimMissing,
		},
		{
			name: "exp null (not a number)",
			token: func(t *testing.T) string {
				return rawToken(`{"alg":"HS256","typ":"JWT"}`, `{"sub":"42","exp":null}`, testSecret)
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenMalformed,
		},
		{
			name: "exp not a number",
			token: func(t *testing.T) string {
				return rawToken(`{"alg":"HS256","typ":"JWT"}`, `{"sub":"42","exp":"soon"}`, testSecret)
			},
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenMalformed,
		},
		{
			name:    "nbf in the future beyond the leeway",
			token:   func(t *testing.T) string { return hs256(t, with(map[string]any{"nbf": unix(31 * time.Second)})) },
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenNotValidYet,
		},
		{
			name:   "nbf in the future within the leeway",
			token:  func(t *testing.T) string { return hs256(t, with(map[string]any{"nbf": unix(29 * time.Second)})) },
			wantID: 42,
		},
		{
			name:    "iat in the future beyond the leeway",
			token:   func(t *testing.T) string { return hs256(t, with(map[string]any{"iat": unix(31 * time.Second)})) },
			wantErr: auth.ErrInvalidToken,
			wantJWT: jwt.ErrTokenUsedBeforeIssued,
		},
		{
			name:   "iat in the future within the leeway",
			token:  func(t *testing.T) string { return hs256(t, with(map[string]any{"iat": unix(29 * time.Second)})) },
			wantID: 42,
		},

		// Subject.
		{
			name:    "no sub",
			token:   func(t *testing.T) string { return hs256(t, with(map[string]any{"sub": nil})) },
			wantErr: auth.ErrInvalidSubject,
		},
		{
			name: "sub null",
			token: func(t *testing.T) string {
				return rawToken(`{"alg":"HS256"}`, `{"sub":null,"exp":9999999999}`, testSecret)
			},
			wantErr: auth.ErrInvalidSubject,
		},
		{name: "sub empty string", token: subToken(""), wantErr: auth.ErrInvalidSubject},
		{name: "sub non-numeric", token: subToken("abc"), wantErr: auth.ErrInvalidSubject},
		{name: "sub zero string", token: subToken("0"), wantErr: auth.ErrInvalidSubject},
		{name: "sub zero number", token: subToken(0), wantErr: auth.ErrInvalidSubject},
		{name: "sub negative string", token: subToken("-5"), wantErr: auth.ErrInvalidSubject},
		{name: "sub negative number", token: subToken(-5), wantErr: auth.ErrInvalidSubject},
		{name: "sub fractional number", token: subToken(1.5), wantErr: auth.ErrInvalidSubject},
		{name: "sub fractional string", token: subToken("1.5"), wantErr: auth.ErrInvalidSubject},
		{name: "sub integral with fraction", token: subToken(json.Number("42.0")), wantErr: auth.ErrInvalidSubject},
		{name: "sub exponent", token: subToken(json.Number("1e3")), wantErr: auth.ErrInvalidSubject},
		{name: "sub plus sign", token: subToken("+42"), wantErr: auth.ErrInvalidSubject},
		{name: "sub leading zero", token: subToken("042"), wantErr: auth.ErrInvalidSubject},
		{name: "sub with spaces", token: subToken(" 42"), wantErr: auth.ErrInvalidSubject},
		{name: "sub too big number", token: subToken(json.Number("9223372036854775808")), wantErr: auth.ErrInvalidSubject},
		{name: "sub too big string", token: subToken("99999999999999999999999"), wantErr: auth.ErrInvalidSubject},
		{name: "sub boolean", token: subToken(true), wantErr: auth.ErrInvalidSubject},
		{name: "sub array", token: subToken([]any{42}), wantErr: auth.ErrInvalidSubject},
		{name: "sub object", token: subToken(map[string]any{"id": 42}), wantErr: auth.ErrInvalidSubject},

		// Garbage.
		{name: "empty", token: constant(""), wantErr: auth.ErrInvalidToken, wantJWT: jwt.ErrTokenMalformed},
		{name: "not a JWT", token: constant("hello"), wantErr: auth.ErrInvalidToken, wantJWT: jwt.ErrTokenMalformed},
		{name: "many dots", token: constant(strings.Repeat(".", 8000)), wantErr: auth.ErrInvalidToken, wantJWT: jwt.ErrTokenMalformed},
		{name: "bad base64", token: constant("!!!.###.$$$"), wantErr: auth.ErrInvalidToken, wantJWT: jwt.ErrTokenMalformed},
		{name: "8 KiB of garbage", token: constant(strings.Repeat("a", auth.MaxHeaderBytes)), wantErr: auth.ErrInvalidToken, wantJWT: jwt.ErrTokenMalformed},
		{name: "20 KB of garbage", token: constant(strings.Repeat("eyJhbGciOi.", 2000)), wantErr: auth.ErrTokenTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tok, err := v.Verify(context.Background(), tt.token(t))
			id := tok.UserID
			if tt.wantErr == nil {
				if err != nil || id != tt.wantID {
					t.Fatalf("Verify = %d, %v; want %d, nil", id, err, tt.wantID)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Verify error = %v; want %v", err, tt.wantErr)
			}
			if tt.wantJWT != nil && !errors.Is(err, tt.wantJWT) {
				t.Errorf("Verify error = %v; want it to wrap %v", err, tt.wantJWT)
			}
			if id != 0 {
				t.Errorf("Verify id = %d with an error; want 0", id)
			}
		})
	}
}

func subToken(sub any) func(t *testing.T) string {
	return func(t *testing.T) string { return hs256(t, with(map[string]any{"sub": sub})) }
}

func constant(token string) func(t *testing.T) string {
	return func(*testing.T) string { return token }
}

func TestVerifyLeeway(t *testing.T) {
	late := func(t *testing.T, exp time.Duration) string {
		return hs256(t, with(map[string]any{"exp": testNow.Add(exp).Unix()}))
	}
	tests := []struct {
		name   string
		leeway time.Duration
		exp    time.Duration
		wantOK bool
	}{
		{name: "default leeway accepts 29s late", leeway: 0, exp: -29 * time.Second, wantOK: true},
		{name: "default leeway refuses 31s late", leeway: 0, exp: -31 * time.Second, wantOK: false},
		{name: "2m leeway accepts 90s late", leeway: 2 * time.Minute, exp: -90 * time.Second, wantOK: true},
		{name: "no leeway refuses 1s late", leeway: -1, exp: -time.Second, wantOK: false},
		{name: "no leeway refuses exp now", leeway: -1, exp: 0, wantOK: false},
		{name: "no leeway accepts 1s early", leeway: -1, exp: time.Second, wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.Leeway = tt.leeway
			v, err := auth.NewVerifier(auth.HMAC(testSecret), cfg)
			if err != nil {
				t.Fatalf("NewVerifier: %v", err)
			}
			_, err = v.Verify(context.Background(), late(t, tt.exp))
			if gotOK := err == nil; gotOK != tt.wantOK {
				t.Errorf("Verify error = %v; want accepted = %v", err, tt.wantOK)
			}
		})
	}
}

func TestVerifierOwnsSecret(t *testing.T) {
	secret := append([]byte(nil), testSecret...)
	v, err := auth.NewVerifier(auth.HMAC(secret), auth.Config{Now: testConfig().Now})
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	token := hs256(t, validClaims())
	secret[0] ^= 0xff
	if tok, err := v.Verify(context.Background(), token); err != nil || tok.UserID != 42 {
		t.Errorf("Verify after the caller changed its secret slice = %+v, %v; want user 42, nil", tok, err)
	}
}
