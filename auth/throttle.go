package auth

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Defaults of [NewMemoryThrottle], and so of the throttle [Login] uses when
// [LoginConfig.Throttle] is nil: Laravel's ThrottlesLogins.
const (
	// DefaultLoginAttempts is how many failed logins a key may have within
	// the window before it must wait.
	DefaultLoginAttempts = 5

	// DefaultLoginWindow is how long the failures of a key count, from
	// its first failure.
	DefaultLoginWindow = time.Minute
)

// LoginThrottle counts the login attempts of a key (an e-mail address and
// a client address, as [Login] forms it) and says how long a key that has
// used up its attempts must wait. [MemoryThrottle] keeps the counts in the
// process; a store shared by several processes (Redis, SQL) can implement
// it so that they throttle together. Implementations are safe for
// concurrent use.
//
// [Login] calls Attempt before it looks the user up and checks the
// password, and Reset after a success, so that the attempts left are the
// failures left. Attempt must count and decide at once (atomically):
// of many concurrent attempts of one key, only as many as it has left get
// through. [Login] treats an error from either method as the throttle
// being unable to answer: it answers 503 and logs the error (see [Login]).
type LoginThrottle interface {
	// Attempt asks whether key may try to log in at now. When it may, it
	// counts the attempt and returns zero; when it has used up its
	// attempts, it counts nothing and returns how long key must wait.
	Attempt(ctx context.Context, key string, now time.Time) (time.Duration, error)

	// Reset forgets the attempts of key, after it logged in.
	Reset(ctx context.Context, key string) error
}

// NoThrottle is a [LoginThrottle] that never makes anyone wait: set
// [LoginConfig.Throttle] to NoThrottle{} to turn throttling off, for
// instance when a proxy in front of the service throttles logins already.
type NoThrottle struct{}

// Attempt implements [LoginThrottle]; it always returns zero.
func (NoThrottle) Attempt(context.Context, string, time.Time) (time.Duration, error) { return 0, nil }

// Reset implements [LoginThrottle]; it does nothing.
func (NoThrottle) Reset(context.Context, string) error { return nil }

// MemoryThrottle is a [LoginThrottle] that keeps its counts in memory, in
// the manner of Laravel's RateLimiter: the window of a key opens at its
// first attempt and lasts the window's length; once the key has made
// maxAttempts attempts within it (a success resets the count), Attempt
// returns the time left until it closes; after that the key starts afresh.
// Build it with [NewMemoryThrottle]; it is safe for concurrent use. Its
// counts are the process's own: several processes behind a load balancer
// each allow maxAttempts.
//
// It holds one entry per key that tried lately: Attempt sweeps out the
// expired entries, at most once per window, so an entry lasts at most two
// windows. Its memory thus follows the rate of attempts, not their total
// ([Login] bounds the length of an e-mail address, and so of a key).
type MemoryThrottle struct {
	max    int
	window time.Duration

	mu      sync.Mutex
	entries map[string]throttleEntry
	swept   time.Time // when Attempt last swept out the expired entries
}

// throttleEntry is the count of one key.
type throttleEntry struct {
	attempts int
	until    time.Time // the end of the key's window
}

// NewMemoryThrottle returns a MemoryThrottle allowing a key maxAttempts
// attempts within window. Zero or less means the defaults,
// [DefaultLoginAttempts] and [DefaultLoginWindow].
func NewMemoryThrottle(maxAttempts int, window time.Duration) *MemoryThrottle {
	if maxAttempts <= 0 {
		maxAttempts = DefaultLoginAttempts
	}
	if window <= 0 {
		window = DefaultLoginWindow
	}
	return &MemoryThrottle{max: maxAttempts, window: window, entries: make(map[string]throttleEntry)}
}

// Attempt implements [LoginThrottle]. It never fails.
func (t *MemoryThrottle) Attempt(_ context.Context, key string, now time.Time) (time.Duration, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if now.Sub(t.swept) >= t.window {
		for k, e := range t.entries {
			if !now.Before(e.until) {
				delete(t.entries, k)
			}
		}
		t.swept = now
	}
	e, ok := t.entries[key]
	if !ok || !now.Before(e.until) {
		e = throttleEntry{until: now.Add(t.window)}
	}
	if e.attempts >= t.max {
		return e.until.Sub(now), nil
	}
	e.attempts++
	t.entries[key] = e
	return 0, nil
}

// Reset implements [LoginThrottle]. It never fails.
func (t *MemoryThrottle) Reset(_ context.Context, key string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.entries, key)
	return nil
}

// trustedPrefixes checks the prefixes of [LoginConfig.TrustedProxies] and
// returns them masked, with IPv4-mapped IPv6 prefixes (::ffff:10.0.0.0/104)
// as the IPv4 ones they stand for, since addresses are compared unmapped.
func trustedPrefixes(prefixes []netip.Prefix) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(prefixes))
	for i, p := range prefixes {
		if !p.IsValid() {
			return nil, fmt.Errorf("auth: LoginConfig.TrustedProxies[%d] is not a valid prefix", i)
		}
		if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// clientAddress returns the address of the client that sent r, with no
// port: the connection's peer, unless that peer is within trusted (a
// proxy). Then X-Forwarded-For (all its lines, each a comma-separated list
// the proxies appended to) is read from right to left, past the addresses
// within trusted; the first one outside them is the client. An entry that
// is not an address stops the walk at the last trusted hop, since every
// entry left of it may be the client's own invention; when every hop is
// trusted, the leftmost is the client. IPv4-mapped IPv6 addresses count as
// IPv4. A peer that is not an IP address (a Unix socket) is returned as
// it is.
func clientAddress(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	hop, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	hop = hop.Unmap().WithZone("")
	if !within(hop, trusted) {
		return hop.String()
	}
	list := strings.Join(r.Header.Values("X-Forwarded-For"), ",")
	for list != "" {
		var entry string
		if i := strings.LastIndexByte(list, ','); i >= 0 {
			list, entry = list[:i], list[i+1:]
		} else {
			list, entry = "", list
		}
		a, ok := forwardedAddr(strings.TrimSpace(entry))
		if !ok {
			break
		}
		hop = a
		if !within(hop, trusted) {
			break
		}
	}
	return hop.String()
}

// forwardedAddr parses one X-Forwarded-For entry: an IP address, or one
// with a port as some proxies write it (192.0.2.1:4711, [2001:db8::1]:4711).
func forwardedAddr(s string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		ap, err := netip.ParseAddrPort(s)
		if err != nil {
			return netip.Addr{}, false
		}
		a = ap.Addr()
	}
	return a.Unmap().WithZone(""), true
}

// within reports whether a is in one of prefixes.
func within(a netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
