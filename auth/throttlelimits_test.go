package auth_test

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
)

// behindProxy is a throttled Login behind a trusted proxy (127.0.0.1,
// the tests' own address), so that X-Forwarded-For names the client.
func behindProxy(t *testing.T, cfg auth.LoginConfig) *throttled {
	t.Helper()
	cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	return startThrottled(t, newUsers(t), cfg)
}

// from logs in as email with password from client.
func (s *throttled) from(t *testing.T, client, email, password string) response {
	t.Helper()
	return s.post(t, nil, email, password, "X-Forwarded-For", client)
}

// TestLoginAccountLimit: an account's failures from all addresses count
// together: 20 within 15 minutes, each from an address of its own, and
// every address is refused until the window that the first opened ends,
// the right password and a new address included. Another account is not
// held up, and a success does not reset the account's count.
func TestLoginAccountLimit(t *testing.T) {
	s := behindProxy(t, auth.LoginConfig{})
	for i := 1; i <= 20; i++ {
		s.clock.at(time.Duration(i) * 10 * time.Second)
		expect(t, fmt.Sprintf("failure %d from 198.51.100.%d", i, i), s.from(t, fmt.Sprintf("198.51.100.%d", i), "ada@example.com", "wrong"), answerInvalid)
	}
	// The window opened at the first failure, at 10 s, and ends at 910 s.
	s.clock.at(210 * time.Second)
	expect(t, "failure 21 from a new address", s.from(t, "198.51.100.21", "ada@example.com", "wrong"), answerTooMany(700))
	expect(t, "the right password", s.from(t, "198.51.100.22", "ADA@example.com", "correct horse"), answerTooMany(700))
	expectOK(t, "another account", s.from(t, "198.51.100.1", "spaces@example.com", " padded "))
	s.clock.at(910*time.Second - time.Millisecond)
	expect(t, "just before the window ends", s.from(t, "198.51.100.22", "ada@example.com", "correct horse"), answerTooMany(1))
	s.clock.at(910 * time.Second)
	expectOK(t, "when the window ends", s.from(t, "198.51.100.22", "ada@example.com", "correct horse"))

	// 19 failures, a success, and one more failure: the account is at its
	// limit, the success notwithstanding.
	for i := 1; i <= 19; i++ {
		expect(t, fmt.Sprintf("failure %d of the next window", i), s.from(t, fmt.Sprintf("203.0.113.%d", i), "ada@example.com", "wrong"), answerInvalid)
	}
	expectOK(t, "a success", s.from(t, "203.0.113.1", "ada@example.com", "correct horse"))
	expect(t, "failure 20 of the next window", s.from(t, "203.0.113.20", "ada@example.com", "wrong"), answerInvalid)
	expect(t, "at the account's limit", s.from(t, "203.0.113.1", "ada@example.com", "correct horse"), answerTooMany(900))
}

// TestLoginBothLimits: when both keys are at their limits the login waits
// for the later window; an account limit of its own applies.
func TestLoginBothLimits(t *testing.T) {
	s := behindProxy(t, auth.LoginConfig{AccountLimit: auth.LoginLimit{Failures: 7, Window: 2 * time.Minute}})
	for i := 1; i <= 5; i++ {
		expect(t, fmt.Sprintf("failure %d", i), s.from(t, "198.51.100.1", "ada@example.com", "wrong"), answerInvalid)
	}
	expect(t, "the pair at its limit", s.from(t, "198.51.100.1", "ada@example.com", "wrong"), answerTooMany(60))
	for i := 6; i <= 7; i++ {
		expect(t, fmt.Sprintf("failure %d from another address", i), s.from(t, "198.51.100.2", "ada@example.com", "wrong"), answerInvalid)
	}
	expect(t, "both at their limits", s.from(t, "198.51.100.1", "ada@example.com", "wrong"), answerTooMany(120))
	s.clock.at(time.Minute)
	expect(t, "the account still at its limit", s.from(t, "198.51.100.1", "ada@example.com", "correct horse"), answerTooMany(60))
	s.clock.at(2 * time.Minute)
	expectOK(t, "both windows over", s.from(t, "198.51.100.1", "ada@example.com", "correct horse"))
}

// TestLoginIPv6Block: an IPv6 client counts as its /64, which it can fill
// with addresses of its choice; another /64 is another client, and an
// IPv4-mapped address is the IPv4 one.
func TestLoginIPv6Block(t *testing.T) {
	s := behindProxy(t, auth.LoginConfig{})
	for i, client := range []string{"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:ffff", "[2001:db8:1:2::3]:4711", "2001:db8:1:2::4%eth0"} {
		expect(t, fmt.Sprintf("failure %d from %s", i+1, client), s.from(t, client, "ada@example.com", "wrong"), answerInvalid)
	}
	expect(t, "another address of the /64", s.from(t, "2001:db8:1:2:abcd::1", "ada@example.com", "correct horse"), answerTooMany(60))
	expectOK(t, "another /64", s.from(t, "2001:db8:1:3::1", "ada@example.com", "correct horse"))

	for i := 1; i <= 5; i++ {
		expect(t, fmt.Sprintf("IPv4 failure %d", i), s.from(t, "198.51.100.7", "spaces@example.com", "wrong"), answerInvalid)
	}
	expect(t, "the same client, IPv4-mapped", s.from(t, "::ffff:198.51.100.7", "spaces@example.com", " padded "), answerTooMany(60))
	expectOK(t, "the next IPv4 address", s.from(t, "198.51.100.8", "spaces@example.com", " padded "))
}

// TestLoginLimitsOff: a negative Failures turns a limit off; with both
// off the throttle is never called.
func TestLoginLimitsOff(t *testing.T) {
	s := behindProxy(t, auth.LoginConfig{ClientLimit: auth.LoginLimit{Failures: -1}})
	for i := 1; i <= 20; i++ {
		expect(t, fmt.Sprintf("failure %d from one address", i), s.from(t, "198.51.100.1", "ada@example.com", "wrong"), answerInvalid)
	}
	expect(t, "the account's limit", s.from(t, "198.51.100.1", "ada@example.com", "correct horse"), answerTooMany(60*15))

	s = behindProxy(t, auth.LoginConfig{AccountLimit: auth.LoginLimit{Failures: -1}})
	for i := 1; i <= 30; i++ {
		expect(t, fmt.Sprintf("failure %d from an address of its own", i), s.from(t, fmt.Sprintf("198.51.100.%d", i), "ada@example.com", "wrong"), answerInvalid)
	}
	expectOK(t, "no account limit", s.from(t, "198.51.100.99", "ada@example.com", "correct horse"))

	down := failingThrottle{failures: errTest, fail: errTest, reset: errTest}
	s = behindProxy(t, auth.LoginConfig{Throttle: down, ClientLimit: auth.LoginLimit{Failures: -1}, AccountLimit: auth.LoginLimit{Failures: -1}})
	expect(t, "both off: a failure", s.from(t, "198.51.100.1", "ada@example.com", "wrong"), answerInvalid)
	expectOK(t, "both off: a success", s.from(t, "198.51.100.1", "ada@example.com", "correct horse"))
	if log := s.logs.String(); strings.Contains(log, `"level":"error"`) {
		t.Errorf("the throttle was called: %s", log)
	}
}

// errTest is an error of a test's own making.
var errTest = fmt.Errorf("test error")
