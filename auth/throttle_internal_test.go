package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/internal/logbuf"
)

var throttleNow = time.Date(2025, time.March, 4, 12, 0, 0, 0, time.UTC)

func TestMemoryThrottle(t *testing.T) {
	ctx := context.Background()
	at := func(d time.Duration) time.Time { return throttleNow.Add(d) }
	mt := NewMemoryThrottle(3, time.Minute)
	attempt := func(key string, d, want time.Duration) {
		t.Helper()
		if got, err := mt.Attempt(ctx, key, at(d)); got != want || err != nil {
			t.Errorf("Attempt(%q) at %v = %v, %v; want %v, nil", key, d, got, err, want)
		}
	}
	attempt("a", 0, 0)
	attempt("a", 10*time.Second, 0)
	attempt("a", 20*time.Second, 0)
	attempt("a", 20*time.Second, 40*time.Second) // the fourth: refused, not counted
	attempt("a", time.Minute-time.Millisecond, time.Millisecond)
	attempt("b", 20*time.Second, 0)
	// A new window opens at the next attempt after the window.
	attempt("a", time.Minute, 0)
	attempt("a", 71*time.Second, 0)
	attempt("a", 72*time.Second, 0)
	attempt("a", 72*time.Second, 48*time.Second)
	if err := mt.Reset(ctx, "a"); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	attempt("a", 73*time.Second, 0)
	attempt("a", 73*time.Second, 0)
	attempt("a", 73*time.Second, 0)
	attempt("a", 73*time.Second, time.Minute)

	for _, args := range [][2]int64{{0, 0}, {-1, -1}} {
		if d := NewMemoryThrottle(int(args[0]), time.Duration(args[1])); d.max != DefaultLoginAttempts || d.window != DefaultLoginWindow {
			t.Errorf("NewMemoryThrottle(%d, %d) = %d per %v; want the defaults", args[0], args[1], d.max, d.window)
		}
	}
}

// TestMemoryThrottleSweeps: a flood of distinct keys leaves at most two
// windows' worth of entries.
func TestMemoryThrottleSweeps(t *testing.T) {
	ctx := context.Background()
	mt := NewMemoryThrottle(5, time.Minute)
	const perWindow = 1000
	for w := range 10 {
		for i := range perWindow {
			now := throttleNow.Add(time.Duration(w)*time.Minute + time.Duration(i)*50*time.Millisecond)
			if _, err := mt.Attempt(ctx, fmt.Sprintf("flood-%d-%d@example.com|203.0.113.7", w, i), now); err != nil {
				t.Fatalf("Attempt: %v", err)
			}
		}
		if n := len(mt.entries); n > 2*perWindow {
			t.Fatalf("after window %d: %d entries; want at most %d", w, n, 2*perWindow)
		}
	}
	if _, err := mt.Attempt(ctx, "last", throttleNow.Add(time.Hour)); err != nil {
		t.Fatalf("Attempt: %v", err)
	}
	if n := len(mt.entries); n != 1 {
		t.Errorf("after an hour: %d entries; want 1", n)
	}
}

// funcUsers is a Users made of a function.
type funcUsers func(ctx context.Context, email string) (int64, []byte, error)

func (f funcUsers) PasswordHash(ctx context.Context, email string) (int64, []byte, error) {
	return f(ctx, email)
}

// newTestLogin returns a Login with bcrypt.MinCost, a fixed clock and no
// log unless cfg says otherwise.
func newTestLogin(t *testing.T, users Users, cfg LoginConfig) *Login {
	t.Helper()
	iss, err := NewIssuer(Config{Secret: []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatalf("NewIssuer: %v", err)
	}
	cfg.Cost = bcrypt.MinCost
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return throttleNow }
	}
	if cfg.Logger == nil {
		nop := zerolog.Nop()
		cfg.Logger = &nop
	}
	l, err := NewLogin(users, iss, cfg)
	if err != nil {
		t.Fatalf("NewLogin: %v", err)
	}
	return l
}

// postLogin logs in as email with a wrong password and returns the status.
func postLogin(ctx context.Context, url, email string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"email":"`+email+`","password":"guess"}`))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// releaser returns a function that closes release the first time it is
// called.
func releaser(release chan struct{}) func() {
	var once sync.Once
	return func() { once.Do(func() { close(release) }) }
}

// recv returns the next value of ch, failing the test after 10 seconds.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

func TestLoginMaxConcurrentChecksDefault(t *testing.T) {
	want := max(1, runtime.GOMAXPROCS(0)/2)
	if l := newTestLogin(t, noUsers{}, LoginConfig{}); cap(l.slots) != want {
		t.Errorf("default slots = %d; want %d", cap(l.slots), want)
	}
	if l := newTestLogin(t, noUsers{}, LoginConfig{MaxConcurrentChecks: 3}); cap(l.slots) != 3 {
		t.Errorf("slots = %d; want 3", cap(l.slots))
	}
	l := newTestLogin(t, noUsers{}, LoginConfig{})
	if mt, ok := l.throttle.(*MemoryThrottle); !ok || mt.max != 5 || mt.window != time.Minute {
		t.Errorf("default throttle = %#v; want a MemoryThrottle of 5 per minute", l.throttle)
	}
}

// TestLoginBoundsConcurrentChecks: no more than MaxConcurrentChecks
// comparisons run at once, for known and unknown e-mail addresses alike.
func TestLoginBoundsConcurrentChecks(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	users := funcUsers(func(_ context.Context, email string) (int64, []byte, error) {
		if strings.HasPrefix(email, "known") {
			return 7, hash, nil
		}
		return 0, nil, ErrUserNotFound
	})
	const slots, logins = 2, 8
	l := newTestLogin(t, users, LoginConfig{MaxConcurrentChecks: slots})
	var running, peak, compared atomic.Int32
	entered := make(chan struct{}, logins)
	release := make(chan struct{})
	l.compare = func(hash, password []byte) error {
		n := running.Add(1)
		for old := peak.Load(); n > old && !peak.CompareAndSwap(old, n); old = peak.Load() {
		}
		compared.Add(1)
		entered <- struct{}{}
		<-release
		running.Add(-1)
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	srv := httptest.NewServer(l)
	defer srv.Close()
	free := releaser(release)
	defer free() // before srv.Close, which waits for the handlers

	statuses := make(chan int, logins)
	for i := range logins {
		email := fmt.Sprintf("unknown%d@example.com", i)
		if i%2 == 0 {
			email = fmt.Sprintf("known%d@example.com", i)
		}
		go func() {
			status, err := postLogin(context.Background(), srv.URL, email)
			if err != nil {
				t.Error(err)
			}
			statuses <- status
		}()
	}
	for range slots {
		recv(t, entered, "a comparison")
	}
	time.Sleep(100 * time.Millisecond) // room for a comparison too many
	if n := running.Load(); n != slots {
		t.Errorf("%d comparisons run at once; want %d", n, slots)
	}
	free()
	for range logins {
		if status := recv(t, statuses, "an answer"); status != http.StatusUnauthorized {
			t.Errorf("status %d; want 401", status)
		}
	}
	if p, n := peak.Load(), compared.Load(); p != slots || n != logins {
		t.Errorf("%d comparisons, at most %d at once; want %d, at most %d", n, p, logins, slots)
	}
	if n := len(l.slots); n != 0 {
		t.Errorf("%d slots still taken", n)
	}
}

// statusWriter records the status a handler writes.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// TestLoginWaiterLeaves: a login waiting for a slot gives up when its
// client goes away (499) or its deadline passes (503), holding nothing and
// recording nothing.
func TestLoginWaiterLeaves(t *testing.T) {
	lookedUp := make(chan string, 10)
	users := funcUsers(func(_ context.Context, email string) (int64, []byte, error) {
		lookedUp <- email
		return 0, nil, ErrUserNotFound
	})
	logs := new(logbuf.Buffer)
	logger := zerolog.New(logs)
	l := newTestLogin(t, users, LoginConfig{MaxConcurrentChecks: 1, Logger: &logger})
	entered := make(chan struct{}, 10)
	release := make(chan struct{})
	l.compare = func(hash, password []byte) error {
		entered <- struct{}{}
		<-release
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	// served is the status of each login, as the Login wrote it; with
	// ?deadline=D the request has a deadline D away.
	served := make(chan int, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, err := time.ParseDuration(r.URL.Query().Get("deadline")); err == nil {
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			r = r.WithContext(ctx)
		}
		sw := &statusWriter{ResponseWriter: w}
		l.ServeHTTP(sw, r)
		served <- sw.status
	}))
	defer srv.Close()
	free := releaser(release)
	defer free() // before srv.Close, which waits for the handlers

	// a holds the only slot.
	aStatus := make(chan int, 1)
	go func() {
		status, err := postLogin(context.Background(), srv.URL, "a@example.com")
		if err != nil {
			t.Error(err)
		}
		aStatus <- status
	}()
	recv(t, entered, "a's comparison")
	recv(t, lookedUp, "a's lookup")

	// b waits for it, and its client goes away.
	ctx, cancel := context.WithCancel(context.Background())
	bErr := make(chan error, 1)
	go func() {
		_, err := postLogin(ctx, srv.URL, "b@example.com")
		bErr <- err
	}()
	if email := recv(t, lookedUp, "b's lookup"); email != "b@example.com" {
		t.Fatalf("looked up %q; want b@example.com", email)
	}
	cancel()
	if err := recv(t, bErr, "b's client"); !errors.Is(err, context.Canceled) {
		t.Fatalf("b: error %v; want context.Canceled", err)
	}
	if status := recv(t, served, "b's answer"); status != 499 {
		t.Errorf("b: status %d; want 499", status)
	}

	// d waits past its deadline.
	if status, err := postLogin(context.Background(), srv.URL+"?deadline=50ms", "d@example.com"); status != http.StatusServiceUnavailable || err != nil {
		t.Errorf("d: %d, %v; want 503", status, err)
	}
	if status := recv(t, served, "d's answer"); status != http.StatusServiceUnavailable {
		t.Errorf("d: status %d; want 503", status)
	}
	if n := len(l.slots); n != 1 {
		t.Errorf("%d slots taken while a checks; want 1", n)
	}
	for _, want := range []string{
		`{"level":"info","error":"context canceled","message":"auth: login: gave up waiting to check the password"}`,
		`{"level":"info","error":"context deadline exceeded","message":"auth: login: gave up waiting to check the password"}`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log = %s; want it to contain %s", logs.String(), want)
		}
	}

	free()
	if status := recv(t, aStatus, "a's answer"); status != http.StatusUnauthorized {
		t.Errorf("a: status %d; want 401", status)
	}
	if status, err := postLogin(context.Background(), srv.URL, "c@example.com"); status != http.StatusUnauthorized || err != nil {
		t.Errorf("c: %d, %v; want 401", status, err)
	}
	if n := len(l.slots); n != 0 {
		t.Errorf("%d slots still taken", n)
	}
	mt := l.throttle.(*MemoryThrottle)
	for _, who := range []string{"a", "b", "c", "d"} {
		// b and d gave up before their check: their attempts count all
		// the same (they were counted when they were let in).
		key := who + "@example.com|127.0.0.1"
		if got := mt.entries[key].attempts; got != 1 {
			t.Errorf("%s: %d attempts; want 1", key, got)
		}
	}
}

// TestLoginThrottledTakesNoSlot: a throttled pair is answered at once,
// even when every slot is taken.
func TestLoginThrottledTakesNoSlot(t *testing.T) {
	l := newTestLogin(t, noUsers{}, LoginConfig{MaxConcurrentChecks: 1})
	entered := make(chan struct{}, 10)
	release := make(chan struct{})
	l.compare = func(hash, password []byte) error {
		entered <- struct{}{}
		<-release
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	srv := httptest.NewServer(l)
	defer srv.Close()
	free := releaser(release)
	defer free() // before srv.Close, which waits for the handlers
	for range DefaultLoginAttempts {
		if _, err := l.throttle.Attempt(context.Background(), "eve@example.com|127.0.0.1", throttleNow); err != nil {
			t.Fatal(err)
		}
	}
	aStatus := make(chan int, 1)
	go func() {
		status, _ := postLogin(context.Background(), srv.URL, "a@example.com")
		aStatus <- status
	}()
	recv(t, entered, "a's comparison")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if status, err := postLogin(ctx, srv.URL, "eve@example.com"); status != http.StatusTooManyRequests || err != nil {
		t.Errorf("eve: %d, %v; want 429 while the slot is taken", status, err)
	}
	free()
	if status := recv(t, aStatus, "a's answer"); status != http.StatusUnauthorized {
		t.Errorf("a: status %d; want 401", status)
	}
}

// TestLoginConcurrentGuesses: guesses of one pair sent at once get no more
// password checks than sent one after the other, even with a slot for
// every guess: an attempt is counted in the step that lets it in.
func TestLoginConcurrentGuesses(t *testing.T) {
	const guesses = 10
	hash, err := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	var lookups atomic.Int32
	allLookedUp := make(chan struct{})
	users := funcUsers(func(context.Context, string) (int64, []byte, error) {
		if lookups.Add(1) == DefaultLoginAttempts {
			close(allLookedUp)
		}
		return 7, hash, nil
	})
	l := newTestLogin(t, users, LoginConfig{MaxConcurrentChecks: guesses})
	var compared atomic.Int32
	l.compare = func(hash, password []byte) error {
		compared.Add(1)
		<-allLookedUp // every guess let in is checked at once
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	srv := httptest.NewServer(l)
	defer srv.Close()

	statuses := make(chan int, guesses)
	for range guesses {
		go func() {
			status, err := postLogin(context.Background(), srv.URL, "ada@example.com")
			if err != nil {
				t.Error(err)
			}
			statuses <- status
		}()
	}
	count := map[int]int{}
	for range guesses {
		count[recv(t, statuses, "an answer")]++
	}
	if want := map[int]int{401: DefaultLoginAttempts, 429: guesses - DefaultLoginAttempts}; fmt.Sprint(count) != fmt.Sprint(want) {
		t.Errorf("statuses %v; want %v", count, want)
	}
	if n := compared.Load(); n != DefaultLoginAttempts {
		t.Errorf("%d password checks; want %d", n, DefaultLoginAttempts)
	}
}
