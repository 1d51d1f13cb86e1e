package auth_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
)

func TestIssue(t *testing.T) {
	iss := newIssuer(t)
	token, err := iss.Issue(42)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	header, claims := decodeToken(t, token)
	if got, want := header, `{"alg":"HS256","kid":"`+auth.KeyID(testSecret)+`","typ":"JWT"}`; !jsonEqual(t, got, want) {
		t.Errorf("header = %s; want %s", got, want)
	}
	var c struct {
		Sub any    `json:"sub"`
		Iat int64  `json:"iat"`
		Nbf int64  `json:"nbf"`
		Exp int64  `json:"exp"`
		Jti string `json:"jti"`
	}
	if err := json.Unmarshal([]byte(claims), &c); err != nil {
		t.Fatalf("claims %s: %v", claims, err)
	}
	if c.Sub != "42" {
		t.Errorf("sub = %#v; want the string \"42\"", c.Sub)
	}
	if c.Iat != testNow.Unix() || c.Nbf != testNow.Unix() {
		t.Errorf("iat, nbf = %d, %d; want %d for both", c.Iat, c.Nbf, testNow.Unix())
	}
	if got, want := c.Exp, testNow.Add(auth.DefaultTTL).Unix(); got != want {
		t.Errorf("exp = %d; want %d (iat + 60m)", got, want)
	}
	if len(c.Jti) != 26 {
		t.Errorf("jti = %q; want 26 random characters", c.Jti)
	}
	var keys map[string]any
	_ = json.Unmarshal([]byte(claims), &keys)
	if len(keys) != 5 {
		t.Errorf("claims = %s; want exactly sub, iat, nbf, exp, jti", claims)
	}

	other, err := iss.Issue(42)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	if _, c2 := decodeToken(t, other); strings.Contains(c2, c.Jti) {
		t.Errorf("two tokens share the jti %q", c.Jti)
	}

	if tok, err := newVerifier(t).Verify(context.Background(), token); err != nil || tok.UserID != 42 {
		t.Errorf("Verify(issued) = %+v, %v; want user 42, nil", tok, err)
	}
}

func TestIssueLifetime(t *testing.T) {
	tests := []struct {
		name    string
		ttl     time.Duration
		wantTTL time.Duration
	}{
		{name: "default", ttl: 0, wantTTL: 60 * time.Minute},
		{name: "one second", ttl: time.Second, wantTTL: time.Second},
		{name: "fraction truncated", ttl: 90*time.Second + 500*time.Millisecond, wantTTL: 90 * time.Second},
		{name: "a day", ttl: 24 * time.Hour, wantTTL: 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := testNow.Add(700 * time.Millisecond) // iat is truncated to the second
			cfg := auth.Config{TTL: tt.ttl, Leeway: -1, Now: func() time.Time { return now }}
			iss, err := auth.NewIssuer(testSecret, cfg)
			if err != nil {
				t.Fatalf("NewIssuer: %v", err)
			}
			if got := iss.TTL(); got != tt.wantTTL {
				t.Errorf("TTL() = %v; want %v", got, tt.wantTTL)
			}
			token, err := iss.Issue(9)
			if err != nil {
				t.Fatalf("Issue: %v", err)
			}

			// Valid until the last second before exp, expired from exp on.
			for _, check := range []struct {
				at     time.Time
				wantOK bool
			}{
				{at: testNow, wantOK: true},
				{at: testNow.Add(tt.wantTTL - time.Second), wantOK: true},
				{at: testNow.Add(tt.wantTTL), wantOK: false},
			} {
				cfg.Now = func() time.Time { return check.at }
				v, err := auth.NewVerifier(auth.HMAC(testSecret), cfg)
				if err != nil {
					t.Fatalf("NewVerifier: %v", err)
				}
				if _, err := v.Verify(context.Background(), token); (err == nil) != check.wantOK {
					t.Errorf("Verify at iat+%v: %v; want accepted = %v", check.at.Sub(testNow), err, check.wantOK)
				}
			}
		})
	}
}

func TestIssueRefusesBadUserID(t *testing.T) {
	iss := newIssuer(t)
	for _, id := range []int64{0, -1, -1 << 63} {
		token, err := iss.Issue(id)
		if !errors.Is(err, auth.ErrInvalidSubject) || token != "" {
			t.Errorf("Issue(%d) = %q, %v; want \"\", ErrInvalidSubject", id, token, err)
		}
	}
}

func TestIssueLargestUserID(t *testing.T) {
	token, err := newIssuer(t).Issue(1<<63 - 1)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	if tok, err := newVerifier(t).Verify(context.Background(), token); err != nil || tok.UserID != 1<<63-1 {
		t.Errorf("Verify = %+v, %v; want user %d, nil", tok, err, int64(1<<63-1))
	}
}

// decodeToken returns the header and claims JSON of a compact token.
func decodeToken(t *testing.T, token string) (header, claims string) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q has %d parts; want 3", token, len(parts))
	}
	h, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		t.Fatalf("header: %v", err)
	}
	c, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatalf("claims: %v", err)
	}
	return string(h), string(c)
}
