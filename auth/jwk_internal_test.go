package auth

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

// jwkTestKeys returns the members of an RSA, a P-256 and an Ed25519
// public key, as a JWK writes them.
func jwkTestKeys(t testing.TB) (rsaN, ecX, ecY, edX string) {
	t.Helper()
	enc := base64.RawURLEncoding.EncodeToString
	r, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	e, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var x, y [32]byte
	e.X.FillBytes(x[:])
	e.Y.FillBytes(y[:])
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return enc(r.N.Bytes()), enc(x[:]), enc(y[:]), enc(pub)
}

// TestParseJWKS checks which keys of a set are used, and why the others
// are not.
func TestParseJWKS(t *testing.T) {
	n, x, y, ed := jwkTestKeys(t)
	enc := base64.RawURLEncoding.EncodeToString
	rsaKey := `{"kty":"RSA","kid":"r","n":"` + n + `","e":"AQAB"}`
	ecKey := `{"kty":"EC","kid":"e","crv":"P-256","x":"` + x + `","y":"` + y + `"}`
	edKey := `{"kty":"OKP","kid":"o","crv":"Ed25519","x":"` + ed + `"}`
	set := func(keys ...string) string { return `{"keys":[` + strings.Join(keys, ",") + `]}` }
	// A point off the curve: y + 1.
	yb, _ := base64.RawURLEncoding.DecodeString(y)
	yb[31] ^= 1
	for _, tt := range []struct {
		name    string
		doc     string
		want    map[string]string // kid: alg
		wantErr string
	}{
		{name: "one of each", doc: set(rsaKey, ecKey, edKey), want: map[string]string{"r": "RS256", "e": "ES256", "o": "EdDSA"}},
		{name: "members that name the algorithm",
			doc:  set(`{"kty":"RSA","kid":"r","alg":"RS256","use":"sig","key_ops":["verify"],"n":"` + n + `","e":"AQAB","x5c":["ignored"]}`),
			want: map[string]string{"r": "RS256"}},
		{name: "no kid", doc: set(`{"kty":"OKP","crv":"Ed25519","x":"` + ed + `"}`), want: map[string]string{"": "EdDSA"}},
		{name: "padding tolerated", doc: set(`{"kty":"OKP","kid":"o","crv":"Ed25519","x":"` + ed + `="}`), want: map[string]string{"o": "EdDSA"}},
		{name: "a modulus with a leading zero", doc: set(`{"kty":"RSA","kid":"r","n":"` + enc(append([]byte{0}, mustDecode(t, n)...)) + `","e":"AQAB"}`), want: map[string]string{"r": "RS256"}},
		{name: "skipped beside a good key: encryption key", doc: set(edKey, `{"kty":"RSA","kid":"x","use":"enc","n":"`+n+`","e":"AQAB"}`), want: map[string]string{"o": "EdDSA"}},
		{name: "skipped beside a good key: RS512", doc: set(edKey, `{"kty":"RSA","kid":"x","alg":"RS512","n":"`+n+`","e":"AQAB"}`), want: map[string]string{"o": "EdDSA"}},
		{name: "skipped beside a good key: an HMAC secret", doc: set(edKey, `{"kty":"oct","kid":"x","k":"c2VjcmV0"}`), want: map[string]string{"o": "EdDSA"}},
		{name: "skipped beside a good key: a number for kid", doc: set(edKey, `{"kty":"OKP","kid":7,"crv":"Ed25519","x":"`+ed+`"}`), want: map[string]string{"o": "EdDSA"}},
		{name: "skipped beside a good key: a kid given twice", doc: set(edKey, rsaKey, `{"kty":"EC","kid":"r","crv":"P-256","x":"`+x+`","y":"`+y+`"}`), want: map[string]string{"o": "EdDSA"}},
		{name: "a kid given three times", doc: set(edKey, rsaKey, rsaKey, rsaKey), want: map[string]string{"o": "EdDSA"}},
		{name: "an encryption key", doc: set(`{"kty":"RSA","use":"enc","n":"` + n + `","e":"AQAB"}`), wantErr: `use "enc" is not sig`},
		{name: "key_ops without verify", doc: set(`{"kty":"RSA","key_ops":["encrypt"],"n":"` + n + `","e":"AQAB"}`), wantErr: `key_ops lacks "verify"`},
		{name: "RS384", doc: set(`{"kty":"RSA","alg":"RS384","n":"` + n + `","e":"AQAB"}`), wantErr: `alg "RS384" is not supported for kty RSA`},
		{name: "a 1024-bit modulus", doc: set(`{"kty":"RSA","n":"` + enc(mustDecode(t, n)[:128]) + `","e":"AQAB"}`), wantErr: "1024 bits"},
		{name: "a modulus beyond 8192 bits", doc: set(`{"kty":"RSA","n":"` + strings.Repeat("A", 2000) + `","e":"AQAB"}`), wantErr: "longer than a 8192-bit modulus"},
		{name: "an even exponent", doc: set(`{"kty":"RSA","n":"` + n + `","e":"AQAA"}`), wantErr: "public exponent"},
		{name: "an exponent of 1", doc: set(`{"kty":"RSA","n":"` + n + `","e":"AQ"}`), wantErr: "public exponent"},
		{name: "a huge exponent", doc: set(`{"kty":"RSA","n":"` + n + `","e":"AQAAAAAB"}`), wantErr: "e is larger"},
		{name: "no exponent", doc: set(`{"kty":"RSA","n":"` + n + `"}`), wantErr: "e is missing"},
		{name: "not base64url", doc: set(`{"kty":"RSA","n":"` + n + `+/","e":"AQAB"}`), wantErr: "n is not base64url"},
		{name: "P-384", doc: set(`{"kty":"EC","crv":"P-384","x":"` + x + `","y":"` + y + `"}`), wantErr: `crv "P-384" is not supported`},
		{name: "a point off the curve", doc: set(`{"kty":"EC","crv":"P-256","x":"` + x + `","y":"` + enc(yb) + `"}`), wantErr: "not a point of P-256"},
		{name: "a short coordinate", doc: set(`{"kty":"EC","crv":"P-256","x":"` + x + `","y":"AQAB"}`), wantErr: "x and y are 32 and 3 bytes"},
		{name: "X25519", doc: set(`{"kty":"OKP","crv":"X25519","x":"` + ed + `"}`), wantErr: `crv "X25519" is not supported`},
		{name: "a short Ed25519 key", doc: set(`{"kty":"OKP","crv":"Ed25519","x":"AQAB"}`), wantErr: "x is 3 bytes"},
		{name: "a member named twice in a key", doc: set(`{"kty":"OKP","kty":"OKP","crv":"Ed25519","x":"` + ed + `"}`), wantErr: `member "kty" is named twice`},
		{name: "a key that is not an object", doc: set(`"key"`), wantErr: "not a JSON object"},
		{name: "too many keys", doc: set(strings.Repeat(`{},`, maxJWKSKeys) + `{}`), wantErr: "more than 1000 keys"},
		{name: "an array", doc: `[]`, wantErr: "not a JSON object"},
		{name: "text after the set", doc: set(edKey) + `x`, wantErr: "not valid JSON"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseJWKS([]byte(tt.doc))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseJWKS = %v, %v; want an error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseJWKS: %v", err)
			}
			algs := map[string]string{}
			for kid, k := range got {
				algs[kid] = k.alg
				if k.kid != kid {
					t.Errorf("key under %q has kid %q", kid, k.kid)
				}
			}
			if g, w := mustJSON(t, algs), mustJSON(t, tt.want); g != w {
				t.Errorf("keys %s; want %s", g, w)
			}
		})
	}
}

func mustDecode(t testing.TB, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzParseJWKS feeds parseJWKS any bytes: it never panics, and every key
// it returns is usable as pinned (an algorithm that matches the key's
// type, an RSA key within the size bounds, a point on P-256).
func FuzzParseJWKS(f *testing.F) {
	n, x, y, ed := jwkTestKeys(f)
	for _, seed := range []string{
		`{"keys":[{"kty":"RSA","kid":"r","n":"` + n + `","e":"AQAB"}]}`,
		`{"keys":[{"kty":"EC","kid":"e","crv":"P-256","x":"` + x + `","y":"` + y + `","use":"sig"}]}`,
		`{"keys":[{"kty":"OKP","kid":"o","crv":"Ed25519","x":"` + ed + `","key_ops":["verify"]}]}`,
		`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + ed + `"},{"kty":"oct","k":"AA"}]}`,
		`{"keys":[{"kty":"RSA","alg":"RS512","n":"AQAB","e":"AQAB"}]}`, `{"keys":[]}`, `{"keys":{}}`, `{}`, `[]`, ``, `{"keys":[1,"a",null,[]]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := parseJWKS(data)
		if err != nil {
			if set != nil {
				t.Fatalf("parseJWKS(%q) = %v with error %v", data, set, err)
			}
			return
		}
		if len(set) == 0 {
			t.Fatalf("parseJWKS(%q) = an empty set without error", data)
		}
		for kid, k := range set {
			if k.kid != kid {
				t.Fatalf("key under %q has kid %q", kid, k.kid)
			}
			switch key := k.key.(type) {
			case *rsa.PublicKey:
				if k.alg != algRS256 || checkRSA(key) != nil {
					t.Fatalf("RSA key %q: alg %s, %v", kid, k.alg, checkRSA(key))
				}
			case *ecdsa.PublicKey:
				if k.alg != algES256 || key.Curve != elliptic.P256() || !onP256(key.X, key.Y) {
					t.Fatalf("EC key %q: alg %s, not on P-256", kid, k.alg)
				}
			case ed25519.PublicKey:
				if k.alg != algEdDSA || len(key) != ed25519.PublicKeySize {
					t.Fatalf("Ed25519 key %q: alg %s, %d bytes", kid, k.alg, len(key))
				}
			default:
				t.Fatalf("key %q of type %T", kid, k.key)
			}
		}
	})
}

// onP256 reports whether (x, y) is a point of P-256, checked with
// crypto/ecdh rather than the parser's own path.
func onP256(x, y *big.Int) bool {
	var point [65]byte
	point[0] = 4
	x.FillBytes(point[1:33])
	y.FillBytes(point[33:])
	_, err := ecdh.P256().NewPublicKey(point[:])
	return err == nil
}
