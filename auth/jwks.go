package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Defaults of [JWKSConfig].
const (
	// DefaultJWKSTimeout bounds one fetch of a key set when
	// [JWKSConfig.Timeout] is zero: connecting, the response's headers
	// and its body together.
	DefaultJWKSTimeout = 5 * time.Second

	// DefaultJWKSMaxBytes is the largest key set read when
	// [JWKSConfig.MaxBytes] is zero: 1 MiB, some thousand RSA keys.
	DefaultJWKSMaxBytes = 1 << 20

	// DefaultJWKSMinInterval is the shortest time between two fetches
	// when [JWKSConfig.MinInterval] is zero.
	DefaultJWKSMinInterval = time.Minute

	// DefaultJWKSMaxAge is how long a key set is used before it is
	// fetched again when [JWKSConfig.MaxAge] is zero.
	DefaultJWKSMaxAge = time.Hour
)

// JWKSConfig configures a [JWKS]. Its zero value means the defaults;
// negative durations and sizes are errors.
type JWKSConfig struct {
	// Timeout bounds one fetch: connecting, the headers and the body.
	// A request waiting for a fetch waits this long at most (less when
	// its own context ends first). Zero means DefaultJWKSTimeout.
	Timeout time.Duration

	// MaxBytes is the largest key set read; a larger one is a failed
	// fetch. Zero means DefaultJWKSMaxBytes.
	MaxBytes int64

	// MinInterval is the shortest time between the starts of two
	// fetches, whatever asks for them (a kid that no cached key has, an
	// old set, a failure): a flood of tokens with made-up kids costs
	// the provider one fetch per interval. Zero means
	// DefaultJWKSMinInterval.
	//
	// The price: within the interval after any fetch, an unknown kid is
	// refused without one, so a token with a made-up kid that arrives
	// just before the provider starts signing with a new key delays
	// that key for up to MinInterval; its tokens get 401 meanwhile. A
	// service told of a rotation calls [JWKS.Refresh] once the new key
	// is published (Refresh ignores the interval); one that cannot be
	// told sets a shorter MinInterval, trading more fetches under a flood
	// for a shorter delay.
	MinInterval time.Duration

	// MaxAge is how long a fetched set is used before it is fetched
	// again, so that a key the provider withdrew stops verifying. The
	// request that finds the set older starts the fetch and goes on
	// with the keys it has. Zero means DefaultJWKSMaxAge.
	MaxAge time.Duration

	// Client makes the requests; nil means a client of the JWKS's own,
	// on http.DefaultTransport. Either way the JWKS follows at most three
	// redirects, none to plain http once the URL or a redirect was https,
	// and to plain http otherwise only as the URL may be (a loopback
	// address, or with AllowHTTP). It applies that policy to a copy of
	// Client, whose own CheckRedirect, if any, is asked after it; the
	// caller's client is left as it is. Timeout applies to either.
	Client *http.Client

	// AllowHTTP lets the URL use plain http to a host that is not a
	// loopback address (inside a cluster, say). A key set travelling
	// in clear can be replaced by anyone on the path, who then signs
	// tokens at will: leave it false unless the network is trusted.
	AllowHTTP bool

	// Now returns the current time; nil means time.Now. Tests set it.
	Now func() time.Time
}

// JWKS is the key material of an identity provider that publishes its
// public keys as a JWK Set (RFC 7517) at a URL (the jwks_uri of its
// OpenID configuration): Auth0, Keycloak, Okta, Cognito, Google, Entra ID
// and a service's own endpoint alike. Pass it to [NewVerifier]. Build it
// with [NewJWKS]; it is safe for concurrent use, and one JWKS can serve
// several Verifiers.
//
// The set is fetched when a token first needs it, and kept:
//
//   - A token whose kid a cached key has is checked with it, no fetch.
//   - A token whose kid none has (the provider rotated its keys) waits
//     for a fetch, then is checked with the new set or refused.
//   - A set older than [JWKSConfig.MaxAge] is fetched again; the request
//     that notices goes on with the keys it has.
//   - Fetches start at most once per [JWKSConfig.MinInterval]. Within the
//     interval an unknown kid is refused at once (so a key published
//     meanwhile waits for the interval's end, or for [JWKS.Refresh]);
//     concurrent requests that need a fetch share one.
//   - A fetch that fails (the provider is down, slow past
//     [JWKSConfig.Timeout], answers other than 200, sends more than
//     [JWKSConfig.MaxBytes], a document that is not a key set, or one
//     without a usable key) changes nothing: the last good set stays in
//     use, however old.
//
// Identity providers, in the package documentation, says which keys of a
// set are used.
type JWKS struct {
	url         string
	client      *http.Client
	timeout     time.Duration
	maxBytes    int64
	minInterval time.Duration
	maxAge      time.Duration
	now         func() time.Time

	mu        sync.Mutex
	set       keySet    // the last good set; nil before the first
	fetchedAt time.Time // when set was fetched
	triedAt   time.Time // when the last fetch started, whatever came of it
	lastErr   error     // why the last fetch failed; nil after a success
	flight    *flight   // the fetch under way; nil when none
}

// flight is one fetch, which every request that needs it waits for.
type flight struct {
	done chan struct{} // closed when the fetch is over
	err  error         // its failure; read after done is closed
}

// NewJWKS returns the key material published at rawURL, an https URL (or
// http to a loopback address, or to any host with
// [JWKSConfig.AllowHTTP]). It fetches nothing: the first token that needs
// a key does, or [JWKS.Refresh]. It fails when the URL or a field of cfg
// is not valid, reporting every problem at once.
func NewJWKS(rawURL string, cfg JWKSConfig) (*JWKS, error) {
	var errs []error
	u, err := url.Parse(rawURL)
	switch {
	case err != nil:
		errs = append(errs, fmt.Errorf("auth: the JWKS URL is not a URL: %w", err))
	case u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		errs = append(errs, fmt.Errorf("auth: the JWKS URL %q is not an absolute http or https URL", rawURL))
	case u.Scheme == "http" && !cfg.AllowHTTP && !isLoopback(u.Hostname()):
		errs = append(errs, fmt.Errorf("auth: the JWKS URL %q is plain http to a host that is not a loopback address; use https (or set JWKSConfig.AllowHTTP on a trusted network)", rawURL))
	}
	j := &JWKS{
		url:         rawURL,
		timeout:     orDefault(cfg.Timeout, DefaultJWKSTimeout),
		maxBytes:    orDefault(cfg.MaxBytes, DefaultJWKSMaxBytes),
		minInterval: orDefault(cfg.MinInterval, DefaultJWKSMinInterval),
		maxAge:      orDefault(cfg.MaxAge, DefaultJWKSMaxAge),
		now:         cfg.Now,
	}
	for _, f := range []struct {
		name     string
		negative bool
	}{
		{"Timeout", cfg.Timeout < 0}, {"MaxBytes", cfg.MaxBytes < 0},
		{"MinInterval", cfg.MinInterval < 0}, {"MaxAge", cfg.MaxAge < 0},
	} {
		if f.negative {
			errs = append(errs, fmt.Errorf("auth: JWKSConfig.%s is negative", f.name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if j.now == nil {
		j.now = time.Now
	}
	if cfg.Client == nil {
		j.client = &http.Client{Timeout: j.timeout, CheckRedirect: checkRedirect(cfg.AllowHTTP, nil)}
	} else {
		// A copy: the caller's client stays as it was, for its other uses.
		c := *cfg.Client
		c.CheckRedirect = checkRedirect(cfg.AllowHTTP, cfg.Client.CheckRedirect)
		j.client = &c
	}
	return j, nil
}

// orDefault returns v, or def when v is zero.
func orDefault[T time.Duration | int64](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkRedirect follows at most three redirects; once a request of the
// chain was https, only to https; to plain http otherwise only on a
// loopback address, or anywhere with allowHTTP. Then it asks next, the
// policy of the caller's client, when there is one.
func checkRedirect(allowHTTP bool, next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		plain := req.URL.Scheme != "https"
		switch {
		case len(via) > 3: // the first request and three redirects made
			return errors.New("more than 3 redirects")
		case plain && viaHTTPS(via):
			return fmt.Errorf("a redirect from https to plain http (%s)", req.URL.Redacted())
		case plain && !allowHTTP && !isLoopback(req.URL.Hostname()):
			return fmt.Errorf("a redirect to plain http to a host that is not a loopback address (%s)", req.URL.Redacted())
		case next != nil:
			return next(req, via)
		}
		return nil
	}
}

// viaHTTPS reports whether a request of the chain via was https.
func viaHTTPS(via []*http.Request) bool {
	for _, r := range via {
		if r.URL.Scheme == "https" {
			return true
		}
	}
	return false
}

// Refresh fetches the key set now, whatever [JWKSConfig.MinInterval]
// says (or waits for the fetch under way), and returns why it failed, if
// it did; the last good set then stays in use. A service may call it at
// start, to fail early when the provider cannot be reached, or on a
// signal that the provider rotated its keys. It waits until the fetch is
// over or ctx ends.
func (j *JWKS) Refresh(ctx context.Context) error {
	j.mu.Lock()
	f := j.startLocked(ctx, j.now(), true)
	j.mu.Unlock()
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return fmt.Errorf("auth: waiting for the JWKS: %w", context.Cause(ctx))
	}
}

func (j *JWKS) source() (keySource, error) {
	if j == nil {
		return nil, errors.New("auth: the JWKS is nil; build it with NewJWKS")
	}
	return j, nil
}

func (*JWKS) algorithms() []string { return publicAlgorithms() }

// key returns the key kid names, fetching the set as the type's
// documentation says. No lock is held while fetching.
func (j *JWKS) key(ctx context.Context, kid string, _ bool) (verifyKey, error) {
	now := j.now()
	j.mu.Lock()
	k, found := j.set.lookup(kid)
	if found && now.Sub(j.fetchedAt) < j.maxAge {
		j.mu.Unlock()
		return k, nil
	}
	f := j.startLocked(ctx, now, false)
	lastErr := j.lastErr
	j.mu.Unlock()
	switch {
	case found: // an old set: the fetch, if one started, goes on without this request
		return k, nil
	case f == nil:
		return verifyKey{}, unknownKid(kid, fmt.Sprintf("the last fetch was less than %v ago", j.minInterval), lastErr)
	}
	select {
	case <-f.done:
	case <-ctx.Done():
		return verifyKey{}, fmt.Errorf("waiting for the JWKS: %w", context.Cause(ctx))
	}
	j.mu.Lock()
	k, found = j.set.lookup(kid)
	j.mu.Unlock()
	if !found {
		return verifyKey{}, unknownKid(kid, "after a fetch", f.err)
	}
	return k, nil
}

// unknownKid is the error for a kid that no key of the set has.
func unknownKid(kid, when string, fetchErr error) error {
	err := fmt.Errorf("header kid %q names no key of the JWKS (%s)", truncate(kid, 64), when)
	if fetchErr != nil {
		err = fmt.Errorf("%w; the last fetch failed: %w", err, fetchErr)
	}
	return err
}

// startLocked returns the fetch under way, or starts one when the last
// began at least MinInterval before now (or force); nil when it may not.
// j.mu is held. The fetch keeps ctx's values (a trace, say), not its end.
func (j *JWKS) startLocked(ctx context.Context, now time.Time, force bool) *flight {
	if j.flight != nil {
		return j.flight
	}
	if !force && !j.triedAt.IsZero() && now.Sub(j.triedAt) < j.minInterval {
		return nil
	}
	f := &flight{done: make(chan struct{})}
	j.flight, j.triedAt = f, now
	go j.run(context.WithoutCancel(ctx), f)
	return f
}

// run fetches the set for f and keeps it when it is good.
func (j *JWKS) run(ctx context.Context, f *flight) {
	set, err := j.fetch(ctx)
	j.mu.Lock()
	if err == nil {
		j.set, j.fetchedAt, j.lastErr = set, j.now(), nil
	} else {
		j.lastErr = err
	}
	j.flight = nil
	j.mu.Unlock()
	f.err = err
	close(f.done)
}

// fetch gets and parses the set, within the timeout and the size bound.
func (j *JWKS) fetch(ctx context.Context) (keySet, error) {
	ctx, cancel := context.WithTimeout(ctx, j.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.url, nil)
	if err != nil {
		return nil, fmt.Errorf("auth: fetching the JWKS: %w", err)
	}
	req.Header.Set("Accept", "application/jwk-set+json, application/json")
	resp, err := j.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("auth: fetching the JWKS: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("auth: fetching the JWKS %s: status %d", j.url, resp.StatusCode)
	case resp.ContentLength > j.maxBytes:
		return nil, fmt.Errorf("auth: fetching the JWKS %s: %d bytes, at most %d allowed", j.url, resp.ContentLength, j.maxBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, j.maxBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("auth: fetching the JWKS %s: %w", j.url, err)
	case int64(len(body)) > j.maxBytes:
		return nil, fmt.Errorf("auth: fetching the JWKS %s: more than %d bytes", j.url, j.maxBytes)
	}
	set, err := parseJWKS(body)
	if err != nil {
		return nil, fmt.Errorf("auth: the JWKS %s: %w", j.url, err)
	}
	return set, nil
}
