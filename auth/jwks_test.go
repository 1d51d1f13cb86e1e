package auth_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gqlkit/gqlkit/auth"
)

// TestJWKSAlgorithms checks that a token of each key type of the set is
// accepted, with its subject in the request's context: a UUID as a
// string only, a decimal subject as an integer user too.
func TestJWKSAlgorithms(t *testing.T) {
	k := keysForTest(t)
	p := newProvider(t, jwkSet(t, jwkOf(t, "rsa-1", &k.rsa.PublicKey), jwkOf(t, "ec-1", &k.ec.PublicKey), jwkOf(t, "ed-1", k.ed.Public())))
	e := newJWKSEnv(t, p, testJWKSConfig())
	for _, tt := range []struct {
		name, kid string
		priv      any
	}{
		{name: "RS256", kid: "rsa-1", priv: k.rsa},
		{name: "ES256", kid: "ec-1", priv: k.ec},
		{name: "EdDSA", kid: "ed-1", priv: k.ed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, "UUID subject", e.get(t, providerToken(t, tt.priv, tt.kid, uuidSub)), accepted(uuidSub))
			expect(t, "decimal subject", e.get(t, providerToken(t, tt.priv, tt.kid, "42")),
				response{status: http.StatusOK, headers: map[string]string{"WWW-Authenticate": ""}, body: "subject=42 user_id=42,true"})
		})
	}
	if got := p.fetches.Load(); got != 1 {
		t.Errorf("the provider was asked %d times; want once", got)
	}
	p.mu.Lock()
	if p.lastPath != "/.well-known/jwks.json" {
		t.Errorf("the provider was asked for %q", p.lastPath)
	}
	p.mu.Unlock()

	// What Verify returns for a provider's token.
	tok, err := e.v.Verify(context.Background(), providerToken(t, k.ec, "ec-1", uuidSub))
	if err != nil || tok.Subject != uuidSub || tok.UserID != 0 || tok.KeyID != "ec-1" || tok.Session != "" || tok.ID != "test" {
		t.Errorf("Verify = %+v, %v; want subject %s, no user id, kid ec-1, no session, id test", tok, err, uuidSub)
	}
}

// TestJWKSSubjects checks the rules for a provider's sub.
func TestJWKSSubjects(t *testing.T) {
	k := keysForTest(t)
	p := newProvider(t, jwkSet(t, jwkOf(t, "ed-1", k.ed.Public())))
	e := newJWKSEnv(t, p, testJWKSConfig())
	token := func(sub any) string {
		c := providerClaims(nil)
		if sub == nil {
			delete(c, "sub")
		} else {
			c["sub"] = sub
		}
		return sign(t, jwt.SigningMethodEdDSA, k.ed, c, map[string]any{"kid": "ed-1"})
	}
	for _, tt := range []struct {
		name string
		sub  any
		want response
	}{
		{name: "e-mail address", sub: "ada@example.com", want: accepted("ada@example.com")},
		{name: "255 bytes", sub: strings.Repeat("a", 255), want: accepted(strings.Repeat("a", 255))},
		{name: "256 bytes", sub: strings.Repeat("a", 256), want: refused},
		{name: "empty", sub: "", want: refused},
		{name: "missing", want: refused},
		{name: "a JSON number", sub: 42, want: refused},
		{name: "a control character", sub: "a\nb", want: refused},
	} {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, "answer", e.get(t, token(tt.sub)), tt.want)
		})
	}
}

// TestJWKSRotation checks that a kid the cached set lacks makes one fetch,
// after which the provider's new key verifies.
func TestJWKSRotation(t *testing.T) {
	k := keysForTest(t)
	p := newProvider(t, jwkSet(t, jwkOf(t, "rsa-1", &k.rsa.PublicKey)))
	e := newJWKSEnv(t, p, testJWKSConfig())
	expect(t, "old key", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), accepted(uuidSub))

	p.set(http.StatusOK, jwkSet(t, jwkOf(t, "rsa-1", &k.rsa.PublicKey), jwkOf(t, "rsa-2", &k.rsa2.PublicKey)))
	e.clk.Add(2 * time.Minute) // past the interval, within the set's age
	expect(t, "new key", e.get(t, providerToken(t, k.rsa2, "rsa-2", uuidSub)), accepted(uuidSub))
	expect(t, "old key again", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), accepted(uuidSub))
	if got := p.fetches.Load(); got != 2 {
		t.Errorf("the provider was asked %d times; want 2 (the first token, the new kid)", got)
	}

	// The provider withdraws rsa-1: once the set is older than MaxAge, a
	// token finds it old and fetches again, and rsa-1 stops verifying.
	p.set(http.StatusOK, jwkSet(t, jwkOf(t, "rsa-2", &k.rsa2.PublicKey)))
	e.clk.Add(11 * time.Minute)
	if err := e.jwks.Refresh(context.Background()); err != nil {
		t.Fatalf("Refresh: %v", err)
	}
	expect(t, "withdrawn key", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), refused)
}

// TestJWKSUnknownKid checks that an unknown kid costs one fetch, and that
// a flood of them costs no more than one per interval.
func TestJWKSUnknownKid(t *testing.T) {
	k := keysForTest(t)
	p := newProvider(t, jwkSet(t, jwkOf(t, "rsa-1", &k.rsa.PublicKey)))
	e := newJWKSEnv(t, p, testJWKSConfig())
	expect(t, "known key", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), accepted(uuidSub))

	e.clk.Add(2 * time.Minute)
	expect(t, "unknown kid", e.get(t, providerToken(t, k.rsa2, "nobody", uuidSub)), refused)
	if got := p.fetches.Load(); got != 2 {
		t.Fatalf("the provider was asked %d times; want 2 (the first token, one refetch)", got)
	}

	flood := func() {
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Go(func() {
				kid := "made-up-" + strings.Repeat("x", i)
				if got := e.get(t, providerToken(t, k.rsa2, kid, uuidSub)); got.status != http.StatusUnauthorized {
					t.Errorf("kid %s: status %d; want 401", kid, got.status)
				}
			})
		}
		wg.Wait()
	}
	flood()
	if got := p.fetches.Load(); got != 2 {
		t.Errorf("after a flood within the interval the provider was asked %d times; want still 2", got)
	}
	e.clk.Add(2 * time.Minute)
	flood()
	if got := p.fetches.Load(); got != 3 {
		t.Errorf("after a flood in the next interval the provider was asked %d times; want 3", got)
	}
	expect(t, "known key throughout", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), accepted(uuidSub))
}

// TestJWKSConcurrentFirstFetch checks that requests arriving while the
// set is being fetched share the one fetch.
func TestJWKSConcurrentFirstFetch(t *testing.T) {
	k := keysForTest(t)
	p := newProvider(t, jwkSet(t, jwkOf(t, "ec-1", &k.ec.PublicKey)))
	gate := p.hold()
	e := newJWKSEnv(t, p, testJWKSConfig())
	token := providerToken(t, k.ec, "ec-1", uuidSub)
	answers := make(chan response, 20)
	for range 20 {
		go func() { answers <- e.get(t, token) }()
	}
	<-p.arrived // the fetch is under way, held
	close(gate)
	for range 20 {
		expect(t, "answer", <-answers, accepted(uuidSub))
	}
	if got := p.fetches.Load(); got != 1 {
		t.Errorf("the provider was asked %d times; want once", got)
	}
}

// TestJWKSProviderHangs checks that a provider that never answers costs a
// request the fetch timeout at most: a known kid is served from the cached
// set without waiting, an unknown one is refused once the fetch gives up.
func TestJWKSProviderHangs(t *testing.T) {
	k := keysForTest(t)
	// 1s, not less: the first fetch, from a provider in this process,
	// must beat it on a loaded CI host (race detector, packages tested in
	// parallel).
	const timeout = time.Second
	bounded := func(t *testing.T, what string, f func()) {
		t.Helper()
		start := time.Now()
		f()
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s took %v; want it bounded by the fetch timeout (%v)", what, d, timeout)
		}
	}

	t.Run("first fetch", func(t *testing.T) {
		p := newProvider(t, jwkSet(t, jwkOf(t, "rsa-1", &k.rsa.PublicKey)))
		p.hold()
		e := newJWKSEnv(t, p, auth.JWKSConfig{Timeout: timeout})
		bounded(t, "a request", func() {
			expect(t, "no set yet", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), refused)
		})
	})

	t.Run("with a cached set", func(t *testing.T) {
		p := newProvider(t, jwkSet(t, jwkOf(t, "rsa-1", &k.rsa.PublicKey)))
		cfg := testJWKSConfig()
		cfg.Timeout = timeout
		e := newJWKSEnv(t, p, cfg)
		clk := e.clk
		expect(t, "before", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), accepted(uuidSub))

		p.hold()
		clk.Add(11 * time.Minute) // the set is old: the next token starts a fetch
		bounded(t, "a known kid", func() {
			expect(t, "known kid, old set", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), accepted(uuidSub))
		})
		<-p.arrived // the first fetch
		<-p.arrived // the one the old set started, held
		bounded(t, "an unknown kid", func() {
			expect(t, "unknown kid", e.get(t, providerToken(t, k.rsa2, "rsa-2", uuidSub)), refused)
		})
		bounded(t, "Refresh", func() {
			if err := e.jwks.Refresh(context.Background()); err == nil {
				t.Error("Refresh of a provider that hangs = nil; want an error")
			}
		})
		expect(t, "known kid after the timeouts", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), accepted(uuidSub))
	})
}

// TestJWKSProviderDown checks that the cached set keeps verifying while
// the provider fails, and that an unknown kid is refused meanwhile.
func TestJWKSProviderDown(t *testing.T) {
	k := keysForTest(t)
	for _, tt := range []struct {
		name    string
		down    func(p *fakeProvider)
		wantErr string
	}{
		{name: "503", down: func(p *fakeProvider) { p.set(http.StatusServiceUnavailable, []byte("down")) }, wantErr: "status 503"},
		{name: "gone", down: func(p *fakeProvider) { p.srv.Close() }, wantErr: "fetching the JWKS"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newProvider(t, jwkSet(t, jwkOf(t, "ed-1", k.ed.Public())))
			e := newJWKSEnv(t, p, testJWKSConfig())
			expect(t, "up", e.get(t, providerToken(t, k.ed, "ed-1", uuidSub)), accepted(uuidSub))
			tt.down(p)
			e.clk.Add(11 * time.Minute) // old set, interval past
			if err := e.jwks.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Refresh = %v; want an error containing %q", err, tt.wantErr)
			}
			expect(t, "cached key", e.get(t, providerToken(t, k.ed, "ed-1", uuidSub)), accepted(uuidSub))
			expect(t, "unknown kid", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), refused)
		})
	}
}

// TestJWKSBadSets checks that a set that cannot be used, malformed or too
// large, is a failed fetch: the last good set stays.
func TestJWKSBadSets(t *testing.T) {
	k := keysForTest(t)
	good := jwkOf(t, "ed-1", k.ed.Public())
	newKey := jwkOf(t, "rsa-1", &k.rsa.PublicKey)
	padded := func(size int) []byte {
		set := jwkSet(t, good, newKey)
		return append(set[:len(set)-1], append(bytes.Repeat([]byte(" "), size), '}')...)
	}
	small, _ := json.Marshal(map[string]any{"kty": "RSA", "kid": "rsa-1", "n": b64(bytes.Repeat([]byte{0xff}, 128)), "e": "AQAB"})
	for _, tt := range []struct {
		name    string
		body    []byte
		chunked bool
		wantErr string
	}{
		{name: "not JSON", body: []byte("<html>oops</html>"), wantErr: "not valid JSON"},
		{name: "no keys", body: []byte(`{"issuer":"x"}`), wantErr: `no "keys" member`},
		{name: "keys not an array", body: []byte(`{"keys":{}}`), wantErr: "not an array"},
		{name: "empty set", body: jwkSet(t), wantErr: "no usable key"},
		{name: "keys named twice", body: []byte(`{"keys":[],"keys":[]}`), wantErr: "named twice"},
		{name: "only a 1024-bit RSA key", body: []byte(`{"keys":[` + string(small) + `]}`), wantErr: "1024 bits"},
		{name: "truncated", body: jwkSet(t, good, newKey)[:60], wantErr: "not valid JSON"},
		{name: "over 1 MiB, with its length", body: padded(1 << 20), wantErr: "at most 1048576 allowed"},
		{name: "over 1 MiB, chunked", body: padded(1 << 20), chunked: true, wantErr: "more than 1048576 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newProvider(t, jwkSet(t, good))
			e := newJWKSEnv(t, p, testJWKSConfig())
			expect(t, "good set", e.get(t, providerToken(t, k.ed, "ed-1", uuidSub)), accepted(uuidSub))

			p.set(http.StatusOK, tt.body)
			p.mu.Lock()
			p.chunked = tt.chunked
			p.mu.Unlock()
			e.clk.Add(2 * time.Minute)
			expect(t, "a key of the bad set", e.get(t, providerToken(t, k.rsa, "rsa-1", uuidSub)), refused)
			expect(t, "the last good set", e.get(t, providerToken(t, k.ed, "ed-1", uuidSub)), accepted(uuidSub))
			if got := p.fetches.Load(); got != 2 {
				t.Errorf("the provider was asked %d times; want 2", got)
			}
			e.clk.Add(2 * time.Minute)
			if err := e.jwks.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Refresh = %v; want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestJWKSKeyConfusion checks that a token is checked only with its key's
// algorithm: an HS256 token whose secret is a public key, in any of its
// encodings, is refused, as are alg none and a token signed with another
// key type than its kid's.
func TestJWKSKeyConfusion(t *testing.T) {
	k := keysForTest(t)
	rsaJWK := jwkOf(t, "rsa-1", &k.rsa.PublicKey)
	p := newProvider(t, jwkSet(t, rsaJWK, jwkOf(t, "ec-1", &k.ec.PublicKey)))
	e := newJWKSEnv(t, p, testJWKSConfig())
	der, err := x509.MarshalPKIXPublicKey(&k.rsa.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	jwkJSON, _ := json.Marshal(rsaJWK)
	claims, _ := json.Marshal(providerClaims(map[string]any{"sub": uuidSub}))
	for _, tt := range []struct {
		name  string
		token string
	}{
		{name: "HS256 with the PEM public key", token: sign(t, jwt.SigningMethodHS256, pemKey, providerClaims(map[string]any{"sub": uuidSub}), map[string]any{"kid": "rsa-1"})},
		{name: "HS256 with the DER public key", token: sign(t, jwt.SigningMethodHS256, der, providerClaims(map[string]any{"sub": uuidSub}), map[string]any{"kid": "rsa-1"})},
		{name: "HS256 with the JWK", token: sign(t, jwt.SigningMethodHS256, jwkJSON, providerClaims(map[string]any{"sub": uuidSub}), map[string]any{"kid": "rsa-1"})},
		{name: "HS256 with the modulus", token: sign(t, jwt.SigningMethodHS256, k.rsa.N.Bytes(), providerClaims(map[string]any{"sub": uuidSub}), map[string]any{"kid": "rsa-1"})},
		{name: "HS256 with the PEM, no kid", token: sign(t, jwt.SigningMethodHS256, pemKey, providerClaims(map[string]any{"sub": uuidSub}), nil)},
		{name: "none", token: rawToken(`{"alg":"none","kid":"rsa-1"}`, string(claims), nil)},
		{name: "RS256 under the EC key's kid", token: providerToken(t, k.rsa, "ec-1", uuidSub)},
		{name: "ES256 under the RSA key's kid", token: providerToken(t, k.ec, "rsa-1", uuidSub)},
		{name: "PS256 with the RSA key", token: sign(t, jwt.SigningMethodPS256, k.rsa, providerClaims(map[string]any{"sub": uuidSub}), map[string]any{"kid": "rsa-1"})},
		{name: "jwk in the header", token: sign(t, jwt.SigningMethodRS256, k.rsa2, providerClaims(map[string]any{"sub": uuidSub}),
			map[string]any{"kid": "rsa-1", "jwk": jwkOf(t, "rsa-1", &k.rsa2.PublicKey)})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, "answer", e.get(t, tt.token), refused)
		})
	}
	if got := p.fetches.Load(); got != 1 {
		t.Errorf("the provider was asked %d times; want once (no kid was unknown)", got)
	}
}

// TestJWKSIssuerAudience checks that iss and aud are required of a
// provider's tokens as of the kit's own.
func TestJWKSIssuerAudience(t *testing.T) {
	k := keysForTest(t)
	p := newProvider(t, jwkSet(t, jwkOf(t, "ec-1", &k.ec.PublicKey)))
	clk := newClock()
	cfg := testJWKSConfig()
	cfg.Now = clk.Now
	jwks, err := auth.NewJWKS(p.url(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	v, err := auth.NewVerifier(jwks, providerConfig(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		claims map[string]any
		wantOK bool
	}{
		{name: "both", claims: map[string]any{"iss": "https://id.example.com/", "aud": []string{"other", "api"}}, wantOK: true},
		{name: "other issuer", claims: map[string]any{"iss": "https://evil.example.com/", "aud": "api"}},
		{name: "no audience", claims: map[string]any{"iss": "https://id.example.com/"}},
		{name: "other audience", claims: map[string]any{"iss": "https://id.example.com/", "aud": "another-client"}},
		{name: "no issuer", claims: map[string]any{"aud": "api"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := with(map[string]any{"sub": uuidSub})
			for name, value := range tt.claims {
				c[name] = value
			}
			_, err := v.Verify(ctx, sign(t, jwt.SigningMethodES256, k.ec, c, map[string]any{"kid": "ec-1"}))
			if (err == nil) != tt.wantOK {
				t.Errorf("Verify = %v; want accepted = %v", err, tt.wantOK)
			}
		})
	}
}

// BenchmarkVerifyAlgorithms measures Verify per key type: the kit's HS256
// secret, and each public key type from a cached JWKS (no fetch in the
// loop).
func BenchmarkVerifyAlgorithms(b *testing.B) {
	k := keysForTest(b)
	ctx := context.Background()
	run := func(b *testing.B, v *auth.Verifier, token string) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.Verify(ctx, token); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("HS256", func(b *testing.B) { run(b, newVerifier(b), hs256(b, validClaims())) })
	set := jwkSet(b, jwkOf(b, "rsa-1", &k.rsa.PublicKey), jwkOf(b, "ec-1", &k.ec.PublicKey), jwkOf(b, "ed-1", k.ed.Public()))
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(set) }))
	b.Cleanup(provider.Close)
	jwks, err := auth.NewJWKS(provider.URL, auth.JWKSConfig{Now: testConfig().Now})
	if err != nil {
		b.Fatal(err)
	}
	v, err := auth.NewVerifier(jwks, providerConfig(testConfig().Now))
	if err != nil {
		b.Fatal(err)
	}
	for _, tt := range []struct {
		name, kid string
		priv      any
	}{{"RS256", "rsa-1", k.rsa}, {"ES256", "ec-1", k.ec}, {"EdDSA", "ed-1", k.ed}} {
		b.Run(tt.name, func(b *testing.B) { run(b, v, providerToken(b, tt.priv, tt.kid, uuidSub)) })
	}
}

// TestJWKSWaiterLeaves checks that a request waiting for a fetch leaves
// when its own context ends, however long the fetch may still take.
func TestJWKSWaiterLeaves(t *testing.T) {
	k := keysForTest(t)
	p := newProvider(t, jwkSet(t, jwkOf(t, "ed-1", k.ed.Public())))
	p.hold()
	e := newJWKSEnv(t, p, auth.JWKSConfig{Timeout: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.v.Verify(ctx, providerToken(t, k.ed, "ed-1", uuidSub))
	if !errors.Is(err, auth.ErrInvalidToken) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Verify = %v; want ErrInvalidToken wrapping the context's deadline", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Verify took %v; want it to end with its context", d)
	}
}
