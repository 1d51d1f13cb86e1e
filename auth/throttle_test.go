package auth_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// throttled is a Login on loopback with a fake clock.
type throttled struct {
	url   string
	clock *fakeClock
	logs  *logbuf.Buffer
}

// startThrottled serves a Login over users with cfg (its Cost and Now set
// here) and returns it with the clock at testNow.
func startThrottled(t *testing.T, users auth.Users, cfg auth.LoginConfig) *throttled {
	t.Helper()
	clock := &fakeClock{now: testNow}
	cfg.Cost = bcrypt.MinCost
	cfg.Now = clock.Now
	login, err := auth.NewLogin(users, newIssuer(t), cfg)
	if err != nil {
		t.Fatalf("NewLogin: %v", err)
	}
	logs, withLogger := logBuffer(t)
	srv := startServer(t, withLogger(login))
	return &throttled{url: srv.URL, clock: clock, logs: logs}
}

// post logs in through client (http.DefaultClient when nil) with header
// pairs added, and returns the answer with the headers that matter here.
func (s *throttled) post(t *testing.T, client *http.Client, email, password string, header ...string) response {
	t.Helper()
	body := fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)
	return s.send(t, client, body, "application/json", header...)
}

func (s *throttled) send(t *testing.T, client *http.Client, body, contentType string, header ...string) response {
	t.Helper()
	req := newRequest(t, http.MethodPost, s.url, body, http.Header{"Content-Type": {contentType}})
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", s.url, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	got := response{status: resp.StatusCode, headers: map[string]string{}, body: string(answer)}
	for _, h := range []string{"Cache-Control", "Content-Type", "Retry-After", "WWW-Authenticate"} {
		got.headers[h] = strings.Join(resp.Header.Values(h), ", ")
	}
	return got
}

// The answers of the throttled login, in full.
var (
	answerInvalid = response{status: 401, body: `{"message":"Invalid credentials."}`,
		headers: map[string]string{"Cache-Control": "no-store", "Content-Type": "application/json", "Retry-After": "", "WWW-Authenticate": "Bearer"}}
	answerUnavailable = response{status: 503, body: `{"message":"Service unavailable."}`,
		headers: map[string]string{"Cache-Control": "no-store", "Content-Type": "application/json", "Retry-After": "", "WWW-Authenticate": ""}}
)

func answerTooMany(seconds int) response {
	return response{status: 429, body: fmt.Sprintf(`{"message":"Too many login attempts. Please try again in %d seconds."}`, seconds),
		headers: map[string]string{"Cache-Control": "no-store", "Content-Type": "application/json", "Retry-After": fmt.Sprint(seconds), "WWW-Authenticate": ""}}
}

func expect(t *testing.T, what string, got, want response) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s:\ngot  %+v\nwant %+v", what, got, want)
	}
}

// expectOK checks that got is a token answer.
func expectOK(t *testing.T, what string, got response) {
	t.Helper()
	if got.status != http.StatusOK || !strings.Contains(got.body, `"access_token":"`) || got.headers["Cache-Control"] != "no-store" {
		t.Errorf("%s: got %+v; want 200 with a token", what, got)
	}
}

// TestLoginThrottle follows one pair through a window: five failures are
// 401s, the sixth attempt is a 429 until the window that opened at the
// first failure has passed, with the time left rounded up to whole
// seconds, and no lookup; then the pair starts afresh.
func TestLoginThrottle(t *testing.T) {
	users := newUsers(t)
	s := startThrottled(t, users, auth.LoginConfig{})

	expect(t, "failure 1 at 0s", s.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
	s.clock.at(10 * time.Second)
	for i := 2; i <= 5; i++ {
		expect(t, fmt.Sprintf("failure %d at 10s", i), s.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
	}
	lookups := len(users.lookedUp())
	expect(t, "attempt 6 at 10s", s.post(t, nil, "ada@example.com", "wrong"), answerTooMany(50))
	expect(t, "the right password at 10s", s.post(t, nil, "ada@example.com", "correct horse"), answerTooMany(50))
	s.clock.at(20*time.Second + time.Millisecond)
	expect(t, "at 20.001s", s.post(t, nil, "ada@example.com", "wrong"), answerTooMany(40))
	s.clock.at(59*time.Second + 100*time.Millisecond)
	expect(t, "the right password at 59.1s", s.post(t, nil, "ada@example.com", "correct horse"), answerTooMany(1))
	if got := users.lookedUp()[lookups:]; len(got) != 0 {
		t.Errorf("throttled logins looked up %q; want no lookup", got)
	}
	if log := s.logs.String(); !strings.Contains(log, `"level":"info","retry_after":50,"message":"auth: login refused: too many failed attempts"`) {
		t.Errorf("log = %s; want the 429 logged", log)
	}

	// The window has passed: the pair starts afresh, with a window that
	// opens at its next failure.
	s.clock.at(time.Minute)
	for i := 1; i <= 5; i++ {
		expect(t, fmt.Sprintf("failure %d at 60s", i), s.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
	}
	expect(t, "attempt 6 at 60s", s.post(t, nil, "ada@example.com", "wrong"), answerTooMany(60))
	s.clock.at(2 * time.Minute)
	expectOK(t, "the right password at 120s", s.post(t, nil, "ada@example.com", "correct horse"))
}

// TestLoginThrottleResetBySuccess: a login resets the pair's count.
func TestLoginThrottleResetBySuccess(t *testing.T) {
	s := startThrottled(t, newUsers(t), auth.LoginConfig{})
	for i := 1; i <= 4; i++ {
		expect(t, fmt.Sprintf("failure %d", i), s.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
	}
	expectOK(t, "login", s.post(t, nil, "ada@example.com", "correct horse"))
	for i := 1; i <= 5; i++ {
		expect(t, fmt.Sprintf("failure %d after the login", i), s.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
	}
	expect(t, "attempt 6 after the login", s.post(t, nil, "ada@example.com", "wrong"), answerTooMany(60))
}

// TestLoginThrottleCounts checks what a failure is: every 401, whatever
// its cause, and nothing else.
func TestLoginThrottleCounts(t *testing.T) {
	for _, tt := range []struct{ name, email, password string }{
		{"wrong password", "ada@example.com", "wrong"},
		{"unknown e-mail address", "eve@example.com", "correct horse"},
		{"user without a password", "nohash@example.com", "correct horse"},
		{"unusable stored hash", "broken@example.com", "correct horse"},
		{"password over 72 bytes", "ada@example.com", "correct horse" + strings.Repeat("!", 72)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := startThrottled(t, newUsers(t), auth.LoginConfig{})
			for i := 1; i <= 5; i++ {
				expect(t, fmt.Sprintf("failure %d", i), s.post(t, nil, tt.email, tt.password), answerInvalid)
			}
			expect(t, "attempt 6", s.post(t, nil, tt.email, tt.password), answerTooMany(60))
		})
	}

	// One of each: had any counted, the fifth failure would be a 429.
	t.Run("refused before the credentials", func(t *testing.T) {
		s := startThrottled(t, newUsers(t), auth.LoginConfig{MaxBodyBytes: 128})
		for _, req := range []struct {
			body, contentType string
			status            int
		}{
			{`{"email":"ada@example.com"}`, "application/json", 422},
			{`{"email":"ada@example.com","password":""}`, "application/json", 422},
			{`{"email":"ada@example.com","password":"wrong"`, "application/json", 400},
			{`{"email":"ada@example.com","password":"` + strings.Repeat("x", 128) + `"}`, "application/json", 413},
			{`{"email":"ada@example.com","password":"wrong"}`, "text/plain", 415},
		} {
			if got := s.send(t, nil, req.body, req.contentType); got.status != req.status {
				t.Fatalf("%s %s: %+v; want %d", req.contentType, req.body, got, req.status)
			}
		}
		for i := 1; i <= 5; i++ {
			expect(t, fmt.Sprintf("failure %d", i), s.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
		}
		expect(t, "attempt 6", s.post(t, nil, "ada@example.com", "wrong"), answerTooMany(60))
	})
}

// loopbackClient returns a client whose connections come from ip, another
// loopback address than 127.0.0.1 (Linux routes all of 127.0.0.0/8).
func loopbackClient(t *testing.T, ip string) *http.Client {
	t.Helper()
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	conn, err := dialer.Dial("tcp", "127.0.0.1:1")
	if err != nil && strings.Contains(err.Error(), "assign requested address") {
		t.Skipf("cannot connect from %s: %v", ip, err)
	}
	if conn != nil {
		conn.Close()
	}
	transport := &http.Transport{DialContext: dialer.DialContext}
	t.Cleanup(transport.CloseIdleConnections)
	return &http.Client{Transport: transport}
}

// TestLoginThrottleKeys: the pair is the e-mail address, trimmed and
// lower-cased, and the client address.
func TestLoginThrottleKeys(t *testing.T) {
	s := startThrottled(t, newUsers(t), auth.LoginConfig{})
	for i, email := range []string{"ada@example.com", "ADA@example.com", " Ada@Example.COM\t", "ada@EXAMPLE.com", "aDa@example.com"} {
		expect(t, fmt.Sprintf("failure %d as %q", i+1, email), s.post(t, nil, email, "wrong"), answerInvalid)
	}
	expect(t, "attempt 6", s.post(t, nil, "Ada@example.com", "wrong"), answerTooMany(60))

	// Another e-mail address from the same client, and the same address
	// from another client, have counts of their own.
	for i := 1; i <= 5; i++ {
		expect(t, fmt.Sprintf("spaces@: failure %d", i), s.post(t, nil, "spaces@example.com", "wrong"), answerInvalid)
	}
	other := loopbackClient(t, "127.0.0.2")
	expectOK(t, "ada@ from 127.0.0.2", s.post(t, other, "ada@example.com", "correct horse"))
	for i := 1; i <= 5; i++ {
		expect(t, fmt.Sprintf("ada@ from 127.0.0.2: failure %d", i), s.post(t, other, "ada@example.com", "wrong"), answerInvalid)
	}
	expect(t, "ada@ from 127.0.0.2: attempt 6", s.post(t, other, "ada@example.com", "wrong"), answerTooMany(60))
	expect(t, "spaces@: attempt 6", s.post(t, nil, "spaces@example.com", "wrong"), answerTooMany(60))
}

// TestLoginThrottleBehindProxy: behind a trusted proxy (127.0.0.1 here)
// the client is read from X-Forwarded-For; a client that connects directly
// (127.0.0.2) cannot choose its address with the header.
func TestLoginThrottleBehindProxy(t *testing.T) {
	s := startThrottled(t, newUsers(t), auth.LoginConfig{
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8")},
	})
	proxy := http.DefaultClient
	// Client 198.51.100.1 fails five times, through two proxies, lying
	// about its address in the left-most entry the last two times.
	for i, xff := range []string{"198.51.100.1", "198.51.100.1, 10.0.0.7", "198.51.100.1", "203.0.113.9, 198.51.100.1", "198.51.100.2, 198.51.100.1"} {
		expect(t, fmt.Sprintf("198.51.100.1: failure %d (%s)", i+1, xff), s.post(t, proxy, "ada@example.com", "wrong", "X-Forwarded-For", xff), answerInvalid)
	}
	expect(t, "198.51.100.1: attempt 6", s.post(t, proxy, "ada@example.com", "wrong", "X-Forwarded-For", "198.51.100.1"), answerTooMany(60))
	expect(t, "198.51.100.1 claiming to be 198.51.100.2", s.post(t, proxy, "ada@example.com", "correct horse", "X-Forwarded-For", "198.51.100.2, 198.51.100.1"), answerTooMany(60))
	expect(t, "198.51.100.1 on a line of its own", s.post(t, proxy, "ada@example.com", "correct horse",
		"X-Forwarded-For", "198.51.100.2", "X-Forwarded-For", "198.51.100.1"), answerTooMany(60))
	// Another client behind the proxy is not throttled.
	expectOK(t, "198.51.100.2", s.post(t, proxy, "ada@example.com", "correct horse", "X-Forwarded-For", "198.51.100.2"))

	// A direct client's header is ignored: all of its attempts count
	// against 127.0.0.2.
	direct := loopbackClient(t, "127.0.0.2")
	for i := 1; i <= 5; i++ {
		xff := fmt.Sprintf("192.0.2.%d", i)
		expect(t, fmt.Sprintf("127.0.0.2 as %s: failure %d", xff, i), s.post(t, direct, "ada@example.com", "wrong", "X-Forwarded-For", xff), answerInvalid)
	}
	expect(t, "127.0.0.2 as 192.0.2.99", s.post(t, direct, "ada@example.com", "correct horse", "X-Forwarded-For", "192.0.2.99"), answerTooMany(60))
	expect(t, "127.0.0.2 as a trusted proxy", s.post(t, direct, "ada@example.com", "correct horse", "X-Forwarded-For", "192.0.2.99, 10.0.0.7"), answerTooMany(60))
}

// failingThrottle is a LoginThrottle whose methods fail when told to;
// counts, when set, is what Failures answers.
type failingThrottle struct {
	failures, fail, reset error
	counts                []auth.ThrottleCount
}

func (f failingThrottle) Failures(_ context.Context, keys []string, _ time.Time) ([]auth.ThrottleCount, error) {
	if f.counts != nil {
		return f.counts, f.failures
	}
	return make([]auth.ThrottleCount, len(keys)), f.failures
}
func (f failingThrottle) Fail(context.Context, []auth.ThrottleKey, time.Time) error { return f.fail }
func (f failingThrottle) Reset(context.Context, string) error                       { return f.reset }

// TestLoginThrottleFails: a throttle that cannot answer or record closes
// the login, with a masked 503 and the cause logged.
func TestLoginThrottleFails(t *testing.T) {
	down := errors.New("redis: connection refused")
	for _, tt := range []struct {
		name     string
		throttle failingThrottle
		password string
		lookup   bool
		wantLog  string
	}{
		{"Failures fails", failingThrottle{failures: down}, "correct horse", false,
			`"level":"error","error":"redis: connection refused","message":"auth: login: checking the throttle"`},
		{"Failures miscounts", failingThrottle{counts: []auth.ThrottleCount{{}}}, "correct horse", false,
			`"level":"error","error":"the throttle returned 1 counts for 2 keys","message":"auth: login: checking the throttle"`},
		{"Fail fails", failingThrottle{fail: down}, "wrong", true,
			`"level":"error","error":"redis: connection refused","message":"auth: login: recording the attempt with the throttle"`},
		{"Reset fails", failingThrottle{reset: down}, "correct horse", true,
			`"level":"error","error":"redis: connection refused","message":"auth: login: recording the attempt with the throttle"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			users := newUsers(t)
			s := startThrottled(t, users, auth.LoginConfig{Throttle: tt.throttle})
			expect(t, "login", s.post(t, nil, "ada@example.com", tt.password), answerUnavailable)
			if got := len(users.lookedUp()) > 0; got != tt.lookup {
				t.Errorf("looked up: %t; want %t", got, tt.lookup)
			}
			if log := s.logs.String(); !strings.Contains(log, tt.wantLog) {
				t.Errorf("log = %s; want it to contain %s", log, tt.wantLog)
			}
		})
	}
}

// TestLoginNoThrottle: NoThrottle turns throttling off.
func TestLoginNoThrottle(t *testing.T) {
	s := startThrottled(t, newUsers(t), auth.LoginConfig{Throttle: auth.NoThrottle{}})
	for i := 1; i <= 20; i++ {
		expect(t, fmt.Sprintf("failure %d", i), s.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
	}
	expectOK(t, "login", s.post(t, nil, "ada@example.com", "correct horse"))
}

// TestLoginThrottleShared: a throttle given in the config is shared by
// the Logins that use it, each with its limits.
func TestLoginThrottleShared(t *testing.T) {
	throttle := auth.NewMemoryThrottle(0)
	cfg := auth.LoginConfig{Throttle: throttle, ClientLimit: auth.LoginLimit{Failures: 2, Window: 10 * time.Second}}
	a := startThrottled(t, newUsers(t), cfg)
	b := startThrottled(t, newUsers(t), cfg)
	expect(t, "a: failure 1", a.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
	expect(t, "b: failure 2", b.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
	expect(t, "a: attempt 3", a.post(t, nil, "ada@example.com", "correct horse"), answerTooMany(10))
	b.clock.at(10 * time.Second)
	expectOK(t, "b: after the window", b.post(t, nil, "ada@example.com", "correct horse"))
}

func TestNewLoginThrottleErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  auth.LoginConfig
		want string
	}{
		{"negative MaxConcurrentChecks", auth.LoginConfig{MaxConcurrentChecks: -1},
			"auth: LoginConfig.MaxConcurrentChecks is -1; it must not be negative"},
		{"negative waits", auth.LoginConfig{MaxInFlight: -1, MaxWait: -time.Second},
			"auth: LoginConfig.MaxInFlight is -1; it must not be negative\nauth: LoginConfig.MaxWait is -1s; it must not be negative"},
		{"negative windows", auth.LoginConfig{ClientLimit: auth.LoginLimit{Window: -1}, AccountLimit: auth.LoginLimit{Failures: 3, Window: -time.Minute}},
			"auth: LoginConfig.ClientLimit.Window is -1ns; it must not be negative\nauth: LoginConfig.AccountLimit.Window is -1m0s; it must not be negative"},
		{"zero prefix", auth.LoginConfig{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), {}}},
			"auth: LoginConfig.TrustedProxies[1] is not a valid prefix"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Cost = bcrypt.MinCost
			l, err := auth.NewLogin(newUsers(t), newIssuer(t), tt.cfg)
			if err == nil || l != nil || err.Error() != tt.want {
				t.Fatalf("NewLogin = %v, %v; want nil and %q", l, err, tt.want)
			}
		})
	}
}

// TestLoginThrottleStores runs the throttle of the real stores in front
// of their users, and two Logins on one store's throttle count together.
func TestLoginThrottleStores(t *testing.T) {
	for _, st := range []struct {
		name string
		open func(t *testing.T) (auth.UserStore, sqlThrottle)
	}{
		{"sqlite", func(t *testing.T) (auth.UserStore, sqlThrottle) {
			p := testdb.SQLitePools(t)
			return p.Store.Users(), p.Throttle()
		}},
		{"postgres", func(t *testing.T) (auth.UserStore, sqlThrottle) {
			s, _ := testdb.Postgres(t)
			return s.Users(), s.Throttle()
		}},
	} {
		t.Run(st.name, func(t *testing.T) {
			users, throttle := st.open(t)
			if _, err := users.CreateUser(context.Background(), "Ada", "ada@example.com", minCostHash(t, "correct horse")); err != nil {
				t.Fatalf("CreateUser: %v", err)
			}
			s := startThrottled(t, users, auth.LoginConfig{Throttle: throttle})
			other := startThrottled(t, users, auth.LoginConfig{Throttle: throttle})
			for i := 1; i <= 4; i++ {
				expect(t, fmt.Sprintf("failure %d", i), s.post(t, nil, "ada@example.com", "wrong"), answerInvalid)
			}
			expectOK(t, "login", s.post(t, nil, "ada@example.com", "correct horse"))
			s.clock.at(30 * time.Second)
			expect(t, "unknown e-mail address", s.post(t, nil, "eve@example.com", "wrong"), answerInvalid)
			for i := 1; i <= 5; i++ {
				login := []*throttled{s, other}[i%2]
				login.clock.at(30 * time.Second)
				expect(t, fmt.Sprintf("failure %d after the login", i), login.post(t, nil, "ADA@example.com", "wrong"), answerInvalid)
			}
			expect(t, "attempt 6", s.post(t, nil, "ada@example.com", "correct horse"), answerTooMany(60))
			expect(t, "attempt 6 at the other Login", other.post(t, nil, "ada@example.com", "correct horse"), answerTooMany(60))
			s.clock.at(90 * time.Second)
			expectOK(t, "after the window", s.post(t, nil, "ada@example.com", "correct horse"))
			if log := s.logs.String(); strings.Contains(log, `"level":"error"`) {
				t.Errorf("a login failed: %s", log)
			}
		})
	}
}

// hangingThrottle is a throttle whose first Fail or Reset hangs as a
// database that does not answer would, until its context ends (or, so
// that a context without a deadline fails the test instead of hanging
// it, for 3 s); the calls after it answer at once.
type hangingThrottle struct {
	auth.NoThrottle
	calls atomic.Int32
}

func (h *hangingThrottle) hang(ctx context.Context) error {
	if h.calls.Add(1) > 1 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(3 * time.Second):
		return errors.New("hung for 3s: the context has no deadline")
	}
}

func (h *hangingThrottle) Fail(ctx context.Context, _ []auth.ThrottleKey, _ time.Time) error {
	return h.hang(ctx)
}
func (h *hangingThrottle) Reset(ctx context.Context, _ string) error { return h.hang(ctx) }

// TestLoginThrottleHangs: a throttle that hangs while it records a
// login's outcome holds the account's turn for MaxWait at most, then the
// login is a 503 (its outcome could not be recorded) and the account's
// next login goes ahead. Before, the record had no deadline: the login,
// and every later one of the account, hung for as long as the throttle.
func TestLoginThrottleHangs(t *testing.T) {
	const maxWait = 300 * time.Millisecond
	client := &http.Client{Timeout: 5 * time.Second}
	for _, tt := range []struct {
		name     string
		password string
		wantNext response
	}{
		{"Fail", "wrong", answerInvalid},
		{"Reset", "correct horse", response{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := startThrottled(t, newUsers(t), auth.LoginConfig{Throttle: &hangingThrottle{}, MaxWait: maxWait})
			start := time.Now()
			expect(t, "the login whose record hangs", s.post(t, client, "ada@example.com", tt.password), answerUnavailable)
			if took := time.Since(start); took < maxWait {
				t.Errorf("answered after %v; want MaxWait (%v) spent recording", took, maxWait)
			}
			if log := s.logs.String(); !strings.Contains(log, `"error":"context deadline exceeded","message":"auth: login: recording the attempt with the throttle"`) {
				t.Errorf("log = %s; want the record's deadline logged", log)
			}
			next := s.post(t, client, "ada@example.com", tt.password)
			if tt.wantNext.status == 0 {
				expectOK(t, "the next login of the account", next)
			} else {
				expect(t, "the next login of the account", next, tt.wantNext)
			}
		})
	}
}
