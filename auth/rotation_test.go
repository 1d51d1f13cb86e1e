package auth_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gqlkit/gqlkit/auth"
)

// Keys of the rotation tests, each 32 bytes.
var (
	oldSecret     = []byte("old-secret-old-secret-old-secret")
	olderSecret   = []byte("older-secret-older-secret-older!!")
	unknownSecret = []byte("unknown-secret-unknown-secret-!!")
)

// TestKeyRotation issues tokens with an old key, rotates (the old key
// becomes a previous secret), and checks what the new verifier accepts:
// old and new kid alike, a token without kid only under the current key,
// an unknown kid never.
func TestKeyRotation(t *testing.T) {
	ctx := context.Background()
	oldIssuer, err := auth.NewIssuer(oldSecret, auth.Config{Now: testConfig().Now})
	if err != nil {
		t.Fatal(err)
	}
	oldToken, err := oldIssuer.Issue(42)
	if err != nil {
		t.Fatal(err)
	}

	newIssuer, err := auth.NewIssuer(testSecret, auth.Config{Now: testConfig().Now})
	if err != nil {
		t.Fatal(err)
	}
	v, err := auth.NewVerifier(auth.HMAC(testSecret, olderSecret, oldSecret), auth.Config{Now: testConfig().Now})
	if err != nil {
		t.Fatal(err)
	}
	newToken, err := newIssuer.Issue(43)
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := decodeToken(t, newToken); !strings.Contains(h, `"kid":"`+auth.KeyID(testSecret)+`"`) {
		t.Errorf("new token header %s; want the kid of the current key", h)
	}

	for _, tt := range []struct {
		name    string
		token   string
		wantID  int64
		wantKID string
		wantErr error
	}{
		{name: "old kid, signed by the previous key", token: oldToken, wantID: 42, wantKID: auth.KeyID(oldSecret)},
		{name: "new kid, signed by the current key", token: newToken, wantID: 43, wantKID: auth.KeyID(testSecret)},
		{
			name:    "older previous key",
			token:   sign(t, jwt.SigningMethodHS256, olderSecret, validClaims(), map[string]any{"kid": auth.KeyID(olderSecret)}),
			wantID:  42,
			wantKID: auth.KeyID(olderSecret),
		},
		{name: "no kid, current key (jwt-auth)", token: hs256(t, validClaims()), wantID: 42, wantKID: auth.KeyID(testSecret)},
		{
			name:    "no kid, previous key: tried against the current key only",
			token:   sign(t, jwt.SigningMethodHS256, oldSecret, validClaims(), nil),
			wantErr: jwt.ErrTokenSignatureInvalid,
		},
		{
			name:    "unknown kid, signed by that unknown key",
			token:   sign(t, jwt.SigningMethodHS256, unknownSecret, validClaims(), map[string]any{"kid": auth.KeyID(unknownSecret)}),
			wantErr: jwt.ErrTokenUnverifiable,
		},
		{
			name:    "old kid, signed by the current key",
			token:   sign(t, jwt.SigningMethodHS256, testSecret, validClaims(), map[string]any{"kid": auth.KeyID(oldSecret)}),
			wantErr: jwt.ErrTokenSignatureInvalid,
		},
		{
			name:    "new kid, signed by a previous key",
			token:   sign(t, jwt.SigningMethodHS256, oldSecret, validClaims(), map[string]any{"kid": auth.KeyID(testSecret)}),
			wantErr: jwt.ErrTokenSignatureInvalid,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := v.Verify(ctx, tt.token)
			if tt.wantErr != nil {
				if !errors.Is(err, auth.ErrInvalidToken) || !errors.Is(err, tt.wantErr) {
					t.Fatalf("Verify = %+v, %v; want an error wrapping ErrInvalidToken and %v", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got.UserID != tt.wantID || got.KeyID != tt.wantKID {
				t.Fatalf("Verify = %+v, %v; want user %d, kid %s", got, err, tt.wantID, tt.wantKID)
			}
		})
	}

	// Once the previous key is dropped, its tokens are refused.
	dropped, err := auth.NewVerifier(auth.HMAC(testSecret), auth.Config{Now: testConfig().Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dropped.Verify(ctx, oldToken); !errors.Is(err, jwt.ErrTokenUnverifiable) {
		t.Errorf("Verify(old token) after the old key was dropped: %v; want unverifiable", err)
	}
}

// TestKeyID checks that the kid is a fingerprint: stable, distinct per
// key, and not the key.
func TestKeyID(t *testing.T) {
	a, b := auth.KeyID(testSecret), auth.KeyID(oldSecret)
	if a != auth.KeyID(append([]byte(nil), testSecret...)) || a == b {
		t.Errorf("KeyID = %q, %q; want stable and distinct", a, b)
	}
	if len(a) != 16 || strings.Contains(string(testSecret), a) || strings.Contains(a, string(testSecret[:8])) {
		t.Errorf("KeyID(testSecret) = %q; want 16 characters that are not the key", a)
	}
}

// TestPreviousSecretErrors checks the rules of HMAC's previous secrets.
func TestPreviousSecretErrors(t *testing.T) {
	for _, tt := range []struct {
		name     string
		previous [][]byte
		want     []string
	}{
		{"short", [][]byte{[]byte("short")}, []string{"auth: previous secret 0 is 5 bytes; HS256 needs at least 32"}},
		{"current", [][]byte{oldSecret, testSecret}, []string{"auth: previous secret 1 is the current secret"}},
		{"repeated", [][]byte{oldSecret, oldSecret}, []string{"auth: previous secret 1 repeats an earlier previous secret"}},
		{"all at once", [][]byte{nil, testSecret}, []string{"previous secret 0 is 0 bytes", "previous secret 1 is the current secret"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := auth.NewVerifier(auth.HMAC(testSecret, tt.previous...), auth.Config{})
			for _, want := range tt.want {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("error = %v; want it to contain %q", err, want)
				}
			}
		})
	}
}

// TestIssuerAudience checks the optional iss and aud: set on issue,
// required on verify.
func TestIssuerAudience(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig()
	cfg.Issuer, cfg.Audience = "https://api.example.com", "articles"
	issuer, v := pair(t, testSecret, cfg)
	token, err := issuer.Issue(42)
	if err != nil {
		t.Fatal(err)
	}
	if _, claims := decodeToken(t, token); !strings.Contains(claims, `"iss":"https://api.example.com"`) || !strings.Contains(claims, `"aud":["articles"]`) {
		t.Errorf("claims %s; want iss and aud", claims)
	}
	for _, tt := range []struct {
		name    string
		token   string
		wantErr error
	}{
		{"issued here", token, nil},
		{"aud as a string", hs256(t, with(map[string]any{"iss": "https://api.example.com", "aud": "articles"})), nil},
		{"aud among others", hs256(t, with(map[string]any{"iss": "https://api.example.com", "aud": []string{"billing", "articles"}})), nil},
		{"no iss", hs256(t, with(map[string]any{"aud": "articles"})), jwt.ErrTokenRequiredClaimMissing},
		{"other iss", hs256(t, with(map[string]any{"iss": "https://evil.example", "aud": "articles"})), jwt.ErrTokenInvalidIssuer},
		{"no aud", hs256(t, with(map[string]any{"iss": "https://api.example.com"})), jwt.ErrTokenRequiredClaimMissing},
		{"other aud", hs256(t, with(map[string]any{"iss": "https://api.example.com", "aud": "billing"})), jwt.ErrTokenInvalidAudience},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := v.Verify(ctx, tt.token)
			if tt.wantErr == nil {
				if err != nil || got.UserID != 42 {
					t.Fatalf("Verify = %+v, %v; want user 42", got, err)
				}
				return
			}
			if !errors.Is(err, auth.ErrInvalidToken) || !errors.Is(err, tt.wantErr) {
				t.Fatalf("Verify = %v; want %v", err, tt.wantErr)
			}
		})
	}
	// A verifier without iss and aud settings ignores them.
	if got, err := newVerifier(t).Verify(ctx, token); err != nil || got.UserID != 42 {
		t.Errorf("a verifier without Issuer/Audience: %+v, %v; want user 42", got, err)
	}
}

// TestRevokedTokenRespelled checks that a logged-out token cannot come
// back in another spelling: base64url's spare bits in the signature's last
// character are refused, and a token without jti is denied by its signed
// part, not by its text.
func TestRevokedTokenRespelled(t *testing.T) {
	v := newVerifier(t)
	ctx := context.Background()
	token := hs256(t, with(map[string]any{"jti": nil}))
	got, err := v.Verify(ctx, token)
	if err != nil || !strings.HasPrefix(got.ID, "sha256:") {
		t.Fatalf("Verify = %+v, %v; want an id from the digest", got, err)
	}
	last := token[len(token)-1]
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	i := strings.IndexByte(alphabet, last)
	for k := 1; k < 4; k++ { // the 2 spare bits of a 32-byte signature
		respelled := token[:len(token)-1] + string(alphabet[i^k])
		if _, err := v.Verify(ctx, respelled); !errors.Is(err, auth.ErrInvalidToken) {
			t.Errorf("respelled token %q…: %v; want ErrInvalidToken", respelled[len(respelled)-8:], err)
		}
	}
}
