package auth_test

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gqlkit/gqlkit/auth"
)

// providerKeys are the private keys of the fake identity provider, made
// once for all tests (an RSA key takes a while).
type providerKeys struct {
	rsa, rsa2 *rsa.PrivateKey
	ec        *ecdsa.PrivateKey
	ed        ed25519.PrivateKey
}

var testProviderKeys = sync.OnceValues(func() (providerKeys, error) {
	var k providerKeys
	var err error
	if k.rsa, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		return k, err
	}
	if k.rsa2, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		return k, err
	}
	if k.ec, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		return k, err
	}
	_, k.ed, err = ed25519.GenerateKey(rand.Reader)
	return k, err
})

func keysForTest(t testing.TB) providerKeys {
	t.Helper()
	k, err := testProviderKeys()
	if err != nil {
		t.Fatalf("generating keys: %v", err)
	}
	return k
}

// b64 is base64url without padding, as JWKs write their members.
func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// jwkOf returns the JWK of a public key, with kid.
func jwkOf(t testing.TB, kid string, pub any) map[string]any {
	t.Helper()
	switch k := pub.(type) {
	case *rsa.PublicKey:
		return map[string]any{"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
			"n": b64(k.N.Bytes()), "e": b64(big.NewInt(int64(k.E)).Bytes())}
	case *ecdsa.PublicKey:
		var x, y [32]byte
		k.X.FillBytes(x[:])
		k.Y.FillBytes(y[:])
		return map[string]any{"kty": "EC", "kid": kid, "crv": "P-256", "x": b64(x[:]), "y": b64(y[:])}
	case ed25519.PublicKey:
		return map[string]any{"kty": "OKP", "kid": kid, "crv": "Ed25519", "x": b64(k)}
	}
	t.Fatalf("jwkOf: unsupported key %T", pub)
	return nil
}

// jwkSet returns the JWK Set document of keys.
func jwkSet(t testing.TB, keys ...map[string]any) []byte {
	t.Helper()
	if keys == nil {
		keys = []map[string]any{}
	}
	b, err := json.Marshal(map[string]any{"keys": keys})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fakeProvider serves a JWK Set on loopback, as the test sets it.
type fakeProvider struct {
	srv     *httptest.Server
	fetches atomic.Int32  // requests received
	arrived chan struct{} // one value per request received (buffered)
	release chan struct{} // closed when the test ends: held requests end

	mu       sync.Mutex
	status   int
	body     []byte
	chunked  bool          // no Content-Length: the body in chunks
	gate     chan struct{} // when set, requests wait for it to close
	lastPath string
}

func newProvider(t *testing.T, body []byte) *fakeProvider {
	t.Helper()
	p := &fakeProvider{status: http.StatusOK, body: body, arrived: make(chan struct{}, 1000), release: make(chan struct{})}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	t.Cleanup(func() { close(p.release) }) // first: Close waits for the requests
	return p
}

func (p *fakeProvider) serve(w http.ResponseWriter, r *http.Request) {
	p.fetches.Add(1)
	p.mu.Lock()
	status, body, chunked, gate := p.status, p.body, p.chunked, p.gate
	p.lastPath = r.URL.Path
	p.mu.Unlock()
	select {
	case p.arrived <- struct{}{}:
	default:
	}
	if gate != nil {
		select {
		case <-gate:
		case <-p.release:
			return
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if !chunked {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	for len(body) > 0 {
		n := min(len(body), 4096)
		if _, err := w.Write(body[:n]); err != nil {
			return
		}
		body = body[n:]
		if chunked {
			w.(http.Flusher).Flush()
		}
	}
}

// set changes what the provider answers from the next request on.
func (p *fakeProvider) set(status int, body []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status, p.body = status, body
}

// hold makes the requests from now on wait until the returned channel is
// closed (or the test ends).
func (p *fakeProvider) hold() chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gate = make(chan struct{})
	return p.gate
}

// url is the key set's address.
func (p *fakeProvider) url() string { return p.srv.URL + "/.well-known/jwks.json" }

// jwksEnv is a Verifier with a JWKS of a fake provider, its middleware
// on loopback, and the clock of both.
type jwksEnv struct {
	p    *fakeProvider
	jwks *auth.JWKS
	v    *auth.Verifier
	api  *httptest.Server
	clk  *fakeClock
}

// testJWKSConfig is the JWKS configuration of the tests: a fetch at most
// once a minute, a set kept ten minutes.
func testJWKSConfig() auth.JWKSConfig {
	return auth.JWKSConfig{MinInterval: time.Minute, MaxAge: 10 * time.Minute}
}

// newJWKSEnv returns a Verifier of p's keys, with cfg on the env's clock, and
// its Required middleware on loopback.
func newJWKSEnv(t *testing.T, p *fakeProvider, cfg auth.JWKSConfig) *jwksEnv {
	t.Helper()
	e := &jwksEnv{p: p, clk: newClock()}
	cfg.Now = e.clk.Now
	var err error
	if e.jwks, err = auth.NewJWKS(p.url(), cfg); err != nil {
		t.Fatalf("NewJWKS: %v", err)
	}
	if e.v, err = auth.NewVerifier(e.jwks, providerConfig(e.clk.Now)); err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	e.api = startServer(t, e.v.Required(http.HandlerFunc(whoAmI)))
	return e
}

// whoAmI answers with the subject and the integer user id the request
// carries.
func whoAmI(w http.ResponseWriter, r *http.Request) {
	sub, _ := auth.Subject(r.Context())
	id, ok := auth.UserID(r.Context())
	fmt.Fprintf(w, "subject=%s user_id=%d,%t", sub, id, ok)
}

// get sends token to the API and returns the answer.
func (e *jwksEnv) get(t *testing.T, token string) response {
	t.Helper()
	return do(t, newRequest(t, http.MethodGet, e.api.URL, "", http.Header{"Authorization": {"Bearer " + token}}), "WWW-Authenticate")
}

// The iss and aud of the tests' identity provider and service.
const (
	providerIssuer   = "https://id.example.com/"
	providerAudience = "api"
)

// providerConfig returns the Config of a Verifier of a provider's keys:
// the provider's issuer and the service's audience, the clock now (nil:
// time.Now), then each edit applied.
func providerConfig(now func() time.Time, edits ...func(*auth.Config)) auth.Config {
	c := auth.Config{Issuer: providerIssuer, Audience: providerAudience, Now: now}
	for _, edit := range edits {
		edit(&c)
	}
	return c
}

// providerClaims returns valid claims of a provider's token, with its
// iss and aud, and the given claims set as [with] does.
func providerClaims(set map[string]any) jwt.MapClaims {
	c := with(map[string]any{"iss": providerIssuer, "aud": providerAudience})
	for k, v := range set {
		if v == nil {
			delete(c, k)
			continue
		}
		c[k] = v
	}
	return c
}

// uuidSub is a provider's subject, not a number.
const uuidSub = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

// providerToken signs valid claims with sub for the provider key priv
// under kid.
func providerToken(t testing.TB, priv any, kid, sub string) string {
	t.Helper()
	var method jwt.SigningMethod
	switch priv.(type) {
	case *rsa.PrivateKey:
		method = jwt.SigningMethodRS256
	case *ecdsa.PrivateKey:
		method = jwt.SigningMethodES256
	case ed25519.PrivateKey:
		method = jwt.SigningMethodEdDSA
	default:
		t.Fatalf("providerToken: unsupported key %T", priv)
	}
	return sign(t, method, priv, providerClaims(map[string]any{"sub": sub}), map[string]any{"kid": kid})
}

// refused is the answer to every refused token.
var refused = response{status: http.StatusUnauthorized, headers: map[string]string{"WWW-Authenticate": "Bearer"}, body: `{"message":"Unauthenticated."}`}

// accepted is the answer of whoAmI for a subject that is not a number.
func accepted(sub string) response {
	return response{status: http.StatusOK, headers: map[string]string{"WWW-Authenticate": ""}, body: "subject=" + sub + " user_id=0,false"}
}
