package auth_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/reqlog"
)

// testSecret is exactly auth.MinSecretBytes long.
var testSecret = []byte("0123456789abcdef0123456789abcdef")

// testNow is the fixed clock of the tests.
var testNow = time.Date(2025, time.March, 4, 12, 0, 0, 0, time.UTC)

func testConfig() auth.Config {
	return auth.Config{Now: func() time.Time { return testNow }}
}

// pair returns the issuer and verifier of secret and cfg.
func pair(t testing.TB, secret []byte, cfg auth.Config) (*auth.Issuer, *auth.Verifier) {
	t.Helper()
	iss, err := auth.NewIssuer(secret, cfg)
	if err != nil {
		t.Fatalf("NewIssuer: %v", err)
	}
	v, err := auth.NewVerifier(auth.HMAC(secret), cfg)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	return iss, v
}

// fakeClock is a clock that tests move by hand, from testNow.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *fakeClock { return &fakeClock{now: testNow} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// at sets the clock to testNow + d.
func (c *fakeClock) at(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = testNow.Add(d)
}

// Add moves the clock by d.
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newVerifier(t testing.TB) *auth.Verifier {
	t.Helper()
	v, err := auth.NewVerifier(auth.HMAC(testSecret), testConfig())
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	return v
}

func newIssuer(t testing.TB) *auth.Issuer {
	t.Helper()
	iss, err := auth.NewIssuer(testSecret, testConfig())
	if err != nil {
		t.Fatalf("NewIssuer: %v", err)
	}
	return iss
}

// validClaims are claims the test verifier accepts, with sub 42.
func validClaims() jwt.MapClaims {
	return jwt.MapClaims{
		"sub": "42",
		"iat": testNow.Add(-time.Minute).Unix(),
		"nbf": testNow.Add(-time.Minute).Unix(),
		"exp": testNow.Add(time.Hour).Unix(),
		"jti": "test",
	}
}

// with returns a copy of validClaims with the given claims set; a nil value
// removes the claim.
func with(set map[string]any) jwt.MapClaims {
	c := validClaims()
	for k, v := range set {
		if v == nil {
			delete(c, k)
			continue
		}
		c[k] = v
	}
	return c
}

// sign signs claims with the given method and key through golang-jwt, adding
// the header fields in extra.
func sign(t testing.TB, method jwt.SigningMethod, key any, claims jwt.MapClaims, extra map[string]any) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	for k, v := range extra {
		if v == nil {
			delete(tok.Header, k)
			continue
		}
		tok.Header[k] = v
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatalf("signing test token: %v", err)
	}
	return s
}

// hs256 signs claims with the test secret.
func hs256(t testing.TB, claims jwt.MapClaims) string {
	t.Helper()
	return sign(t, jwt.SigningMethodHS256, testSecret, claims, nil)
}

// rawToken builds a token by hand from literal header and payload JSON,
// signed with HMAC-SHA256 and secret (no signature when secret is nil).
func rawToken(header, payload string, secret []byte) string {
	enc := base64.RawURLEncoding
	input := enc.EncodeToString([]byte(header)) + "." + enc.EncodeToString([]byte(payload))
	if secret == nil {
		return input + "."
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(input))
	return input + "." + enc.EncodeToString(mac.Sum(nil))
}

// logBuffer returns reqlog's middleware with a debug-level logger writing
// into the returned buffer: the request's logger, which the handlers
// inside log to when their Config names none. The buffer holds their
// lines only, without reqlog's access line.
func logBuffer(t *testing.T) (*logbuf.Buffer, func(http.Handler) http.Handler) {
	t.Helper()
	buf := new(logbuf.Buffer)
	return buf, reqlog.Handler(slog.New(withoutAccessLine{logbuf.Logger(buf).Handler()}))
}

// withoutAccessLine drops reqlog's access line (the message "request").
type withoutAccessLine struct{ slog.Handler }

func (h withoutAccessLine) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "request" {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

// response is what the tests compare: status, selected headers and body.
type response struct {
	status  int
	headers map[string]string
	body    string
}

// do sends req and returns the status, the named headers and the body.
func do(t *testing.T, req *http.Request, headers ...string) response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	got := response{status: resp.StatusCode, headers: map[string]string{}, body: string(body)}
	for _, h := range headers {
		got.headers[h] = strings.Join(resp.Header.Values(h), ", ")
	}
	return got
}

func newRequest(t *testing.T, method, url, body string, header http.Header) *http.Request {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, url, r)
	if err != nil {
		t.Fatalf("NewRequest: %v", err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	return req
}

// startServer serves h on loopback for the duration of the test.
func startServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// jsonEqual reports whether a and b hold the same JSON value.
func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		return false
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("bad JSON in test: %q", b)
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return bytes.Equal(xs, ys)
}
