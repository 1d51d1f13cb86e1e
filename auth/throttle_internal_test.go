package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/internal/logbuf"
)

// funcUsers is a Users made of a function.
type funcUsers func(ctx context.Context, email string) (int64, []byte, error)

func (f funcUsers) PasswordHash(ctx context.Context, email string) (int64, []byte, error) {
	return f(ctx, email)
}

// newTestLogin returns a Login with bcrypt.MinCost, a fixed clock and no
// log unless cfg says otherwise.
func newTestLogin(t *testing.T, users Users, cfg LoginConfig) *Login {
	t.Helper()
	iss, err := NewIssuer([]byte("0123456789abcdef0123456789abcdef"), Config{})
	if err != nil {
		t.Fatalf("NewIssuer: %v", err)
	}
	cfg.Cost = bcrypt.MinCost
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return throttleNow }
	}
	if cfg.Logger == nil {
		nop := slog.New(slog.DiscardHandler)
		cfg.Logger = nop
	}
	l, err := NewLogin(users, iss, cfg)
	if err != nil {
		t.Fatalf("NewLogin: %v", err)
	}
	return l
}

// postLogin logs in as email with password and returns the status and
// Retry-After.
func postLogin(ctx context.Context, url, email, password string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"email":"`+email+`","password":"`+password+`"}`))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After"), nil
}

// guess logs in as email with a wrong password and returns the status.
func guess(ctx context.Context, url, email string) (int, error) {
	status, _, err := postLogin(ctx, url, email, "guess")
	return status, err
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

// blockedCompare makes l's comparisons signal entered and wait for
// release; it returns the function that releases them, also called at
// cleanup (before the servers close, which wait for their handlers).
func blockedCompare(t *testing.T, l *Login) (entered chan struct{}, free func()) {
	entered = make(chan struct{}, 100)
	release := make(chan struct{})
	l.compare = func(hash, password []byte) error {
		entered <- struct{}{}
		<-release
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	free = releaser(release)
	t.Cleanup(free)
	return entered, free
}

// serve serves l for the test; cleanups run last in first out, so that
// the server closes after blockedCompare's release.
func serve(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestLoginDefaults(t *testing.T) {
	slots := max(1, runtime.GOMAXPROCS(0)/2)
	l := newTestLogin(t, noUsers{}, LoginConfig{})
	mt, ok := l.throttle.(*MemoryThrottle)
	got := fmt.Sprint(cap(l.slots), len(l.slots), l.maxInFlight, l.maxWait, l.clientLimit, l.accountLimit, ok && mt.maxKeys == DefaultThrottleKeys)
	want := fmt.Sprint(slots, slots, 64*slots, 10*time.Second, LoginLimit{5, time.Minute}, LoginLimit{20, 15 * time.Minute}, true)
	if got != want {
		t.Errorf("defaults: slots, free, in flight, wait, limits, throttle = %s; want %s", got, want)
	}
	l = newTestLogin(t, noUsers{}, LoginConfig{
		MaxConcurrentChecks: 3, MaxInFlight: 7, MaxWait: time.Second,
		ClientLimit: LoginLimit{Failures: -1}, AccountLimit: LoginLimit{Window: time.Hour},
	})
	got = fmt.Sprint(cap(l.slots), l.maxInFlight, l.maxWait, l.clientLimit, l.accountLimit)
	want = fmt.Sprint(3, 7, time.Second, LoginLimit{-1, time.Minute}, LoginLimit{20, time.Hour})
	if got != want {
		t.Errorf("set: slots, in flight, wait, limits = %s; want %s", got, want)
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
	entered, free := blockedCompare(t, l)
	blocked := l.compare
	l.compare = func(hash, password []byte) error {
		n := running.Add(1)
		for old := peak.Load(); n > old && !peak.CompareAndSwap(old, n); old = peak.Load() {
		}
		compared.Add(1)
		defer running.Add(-1)
		return blocked(hash, password)
	}
	url := serve(t, l)

	statuses := make(chan int, logins)
	for i := range logins {
		email := fmt.Sprintf("unknown%d@example.com", i)
		if i%2 == 0 {
			email = fmt.Sprintf("known%d@example.com", i)
		}
		go func() {
			status, err := guess(context.Background(), url, email)
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
	if n := len(l.slots); n != slots {
		t.Errorf("%d slots free; want %d", n, slots)
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

// watched serves l, sending the status of each login to served; with
// ?deadline=D the request has a deadline D away.
func watched(t *testing.T, l *Login) (url string, served chan int) {
	served = make(chan int, 100)
	url = serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, err := time.ParseDuration(r.URL.Query().Get("deadline")); err == nil {
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			r = r.WithContext(ctx)
		}
		sw := &statusWriter{ResponseWriter: w}
		l.ServeHTTP(sw, r)
		served <- sw.status
	}))
	return url, served
}

// TestLoginWaiterLeaves: a login waiting for a bcrypt slot or for its
// account's turn gives up when its client goes away (499) or its deadline
// passes (503 with Retry-After: 1), holding nothing and counting nothing:
// no password of theirs was checked.
func TestLoginWaiterLeaves(t *testing.T) {
	lookedUp := make(chan string, 10)
	users := funcUsers(func(_ context.Context, email string) (int64, []byte, error) {
		lookedUp <- email
		return 0, nil, ErrUserNotFound
	})
	logs := new(logbuf.Buffer)
	logger := logbuf.Logger(logs)
	l := newTestLogin(t, users, LoginConfig{MaxConcurrentChecks: 1, Logger: logger})
	entered, free := blockedCompare(t, l)
	url, served := watched(t, l)

	// a holds the only slot, and a's turn.
	aStatus := make(chan int, 1)
	go func() {
		status, err := guess(context.Background(), url, "a@example.com")
		if err != nil {
			t.Error(err)
		}
		aStatus <- status
	}()
	recv(t, entered, "a's comparison")
	recv(t, lookedUp, "a's lookup")

	// b waits for the slot, and its client goes away.
	ctx, cancel := context.WithCancel(context.Background())
	bErr := make(chan error, 1)
	go func() {
		_, err := guess(ctx, url, "b@example.com")
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

	// d waits for the slot past its deadline; A (a's account) waits for
	// a's turn past its own, without being looked up.
	for _, who := range []string{"d@example.com", "A@example.com"} {
		status, after, err := postLogin(context.Background(), url+"?deadline=50ms", who, "guess")
		if status != http.StatusServiceUnavailable || after != "1" || err != nil {
			t.Errorf("%s: %d, Retry-After %q, %v; want 503 and 1", who, status, after, err)
		}
		if status := recv(t, served, who+"'s answer"); status != http.StatusServiceUnavailable {
			t.Errorf("%s: status %d; want 503", who, status)
		}
	}
	if email := recv(t, lookedUp, "d's lookup"); email != "d@example.com" {
		t.Fatalf("looked up %q; want d@example.com", email)
	}
	if n := len(l.slots); n != 0 {
		t.Errorf("%d slots free while a checks; want 0", n)
	}
	for _, want := range []string{
		`{"level":"info","error":"context canceled","message":"auth: login: gave up waiting for a bcrypt slot"}`,
		`{"level":"info","error":"context deadline exceeded","message":"auth: login: gave up waiting for a bcrypt slot"}`,
		`{"level":"info","error":"context deadline exceeded","message":"auth: login: gave up waiting for its turn"}`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log = %s; want it to contain %s", logs.String(), want)
		}
	}

	free()
	if status := recv(t, aStatus, "a's answer"); status != http.StatusUnauthorized {
		t.Errorf("a: status %d; want 401", status)
	}
	recv(t, served, "a's answer")
	if status, err := guess(context.Background(), url, "c@example.com"); status != http.StatusUnauthorized || err != nil {
		t.Errorf("c: %d, %v; want 401", status, err)
	}
	if n := len(l.slots); n != 1 {
		t.Errorf("%d slots free; want 1", n)
	}
	if n := len(l.turns.byID); n != 0 {
		t.Errorf("%d turns left; want none", n)
	}
	mt := l.throttle.(*MemoryThrottle)
	for who, want := range map[string]int{"a": 1, "b": 0, "c": 1, "d": 0} {
		account, pair := throttleKeys(who+"@example.com", "127.0.0.1")
		got := fmt.Sprint(failuresOf(t, mt, 0, account), failuresOf(t, mt, 0, pair))
		if got != fmt.Sprint(want, want) {
			t.Errorf("%s: failures of account and pair %s; want %d each", who, got, want)
		}
	}
}

// TestLoginWaitBounds: logins beyond MaxInFlight are refused at once, and
// a login that waits MaxWait gives up, both 503 with Retry-After: 1.
func TestLoginWaitBounds(t *testing.T) {
	logs := new(logbuf.Buffer)
	logger := logbuf.Logger(logs)
	// A wait of 2s, not less: b and A must still be waiting when d
	// arrives, and d's answer comes "at once" within 1s, on a loaded CI
	// host (race detector, packages tested in parallel).
	l := newTestLogin(t, noUsers{}, LoginConfig{MaxConcurrentChecks: 1, MaxInFlight: 3, MaxWait: 2 * time.Second, Logger: logger})
	entered, free := blockedCompare(t, l)
	url, served := watched(t, l)

	// a checks; b and A wait, for the slot and for a's turn.
	statuses := make(chan int, 3)
	for _, who := range []string{"a", "b", "A"} {
		go func() {
			status, err := guess(context.Background(), url, who+"@example.com")
			if err != nil {
				t.Error(err)
			}
			statuses <- status
		}()
		if who == "a" {
			recv(t, entered, "a's comparison")
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for l.inFlight.Load() != 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	if status, after, err := postLogin(context.Background(), url, "d@example.com", "guess"); status != http.StatusServiceUnavailable || after != "1" || err != nil {
		t.Errorf("d beyond MaxInFlight: %d, Retry-After %q, %v; want 503 and 1", status, after, err)
	}
	if waited := time.Since(start); waited > time.Second {
		t.Errorf("d waited %v; want an answer at once", waited)
	}
	for range 2 {
		if status := recv(t, statuses, "an answer after MaxWait"); status != http.StatusServiceUnavailable {
			t.Errorf("a waiter: status %d; want 503", status)
		}
	}
	free()
	if status := recv(t, statuses, "a's answer"); status != http.StatusUnauthorized {
		t.Errorf("a: status %d; want 401", status)
	}
	for range 4 {
		recv(t, served, "an answer")
	}
	if n := l.inFlight.Load(); n != 0 {
		t.Errorf("%d logins still counted as under way", n)
	}
	for _, want := range []string{
		`"error":"too many logins are under way already","message":"auth: login: gave up waiting for its turn"`,
		`"error":"waited too long","message":"auth: login: gave up waiting for a bcrypt slot"`,
		`"error":"waited too long","message":"auth: login: gave up waiting for its turn"`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log = %s; want it to contain %s", logs.String(), want)
		}
	}
}

// TestLoginThrottledTakesNoSlot: a throttled pair is answered at once,
// even when every slot is taken.
func TestLoginThrottledTakesNoSlot(t *testing.T) {
	l := newTestLogin(t, noUsers{}, LoginConfig{MaxConcurrentChecks: 1})
	entered, free := blockedCompare(t, l)
	url := serve(t, l)
	account, pair := throttleKeys("eve@example.com", "127.0.0.1")
	for range DefaultClientFailures {
		if err := l.throttle.Fail(context.Background(), []ThrottleKey{{Key: pair, Window: time.Minute}, {Key: account, Window: time.Minute}}, throttleNow); err != nil {
			t.Fatal(err)
		}
	}
	aStatus := make(chan int, 1)
	go func() {
		status, _ := guess(context.Background(), url, "a@example.com")
		aStatus <- status
	}()
	recv(t, entered, "a's comparison")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if status, err := guess(ctx, url, "eve@example.com"); status != http.StatusTooManyRequests || err != nil {
		t.Errorf("eve: %d, %v; want 429 while the slot is taken", status, err)
	}
	free()
	if status := recv(t, aStatus, "a's answer"); status != http.StatusUnauthorized {
		t.Errorf("a: status %d; want 401", status)
	}
}

// TestLoginConcurrentGuesses: guesses of one account sent at once get no
// more password checks than sent one after the other, even with a slot
// for every guess: the account's turn spans the read of the failures, the
// check and the count.
func TestLoginConcurrentGuesses(t *testing.T) {
	const guesses = 10
	l := newTestLogin(t, noUsers{}, LoginConfig{MaxConcurrentChecks: guesses})
	var compared atomic.Int32
	l.compare = func(hash, password []byte) error {
		compared.Add(1)
		time.Sleep(20 * time.Millisecond) // room for the others to overtake
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	url := serve(t, l)
	statuses := make(chan int, guesses)
	for range guesses {
		go func() {
			status, err := guess(context.Background(), url, "ada@example.com")
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
	if want := map[int]int{401: DefaultClientFailures, 429: guesses - DefaultClientFailures}; fmt.Sprint(count) != fmt.Sprint(want) {
		t.Errorf("statuses %v; want %v", count, want)
	}
	if n := compared.Load(); n != DefaultClientFailures {
		t.Errorf("%d password checks; want %d", n, DefaultClientFailures)
	}
}

// TestTurns: the turns of an account are taken one at a time, and an
// account is forgotten when nobody holds or waits for its turn.
func TestTurns(t *testing.T) {
	var ts turns
	a := ts.join("a")
	<-a.free
	b := ts.join("a")
	if a != b || len(ts.byID) != 1 {
		t.Fatalf("two joins of one key: %p, %p, %d turns; want one", a, b, len(ts.byID))
	}
	select {
	case <-b.free:
		t.Fatal("the turn was taken twice")
	default:
	}
	ts.release(a)
	<-b.free
	other := ts.join("b")
	<-other.free
	ts.release(other)
	ts.release(b)
	if n := len(ts.byID); n != 0 {
		t.Errorf("%d turns left; want none", n)
	}
	c := ts.join("a")
	ts.leave(c)
	if n := len(ts.byID); n != 0 {
		t.Errorf("%d turns left after a leave; want none", n)
	}
}

// TestLoginCorrectWhileGuessesInFlight: correct logins sent together with
// wrong ones, fewer than the limit, all get their token: logins in flight
// count for nothing, only failures do.
func TestLoginCorrectWhileGuessesInFlight(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	users := funcUsers(func(context.Context, string) (int64, []byte, error) { return 7, hash, nil })
	const correct, wrong = 8, DefaultClientFailures - 1
	l := newTestLogin(t, users, LoginConfig{MaxConcurrentChecks: correct + wrong})
	l.compare = func(hash, password []byte) error {
		time.Sleep(10 * time.Millisecond) // the others arrive meanwhile
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	url := serve(t, l)
	type answer struct {
		password string
		status   int
	}
	answers := make(chan answer, correct+wrong)
	for i := range correct + wrong {
		password := "correct horse"
		if i < wrong {
			password = "guess"
		}
		go func() {
			status, _, err := postLogin(context.Background(), url, "ada@example.com", password)
			if err != nil {
				t.Error(err)
			}
			answers <- answer{password, status}
		}()
	}
	count := map[string]int{}
	for range correct + wrong {
		a := recv(t, answers, "an answer")
		count[fmt.Sprint(a.password, " ", a.status)]++
	}
	if want := map[string]int{"correct horse 200": correct, "guess 401": wrong}; fmt.Sprint(count) != fmt.Sprint(want) {
		t.Errorf("answers %v; want %v", count, want)
	}
}

// TestThrottleKeys: the keys of a login are digests of the same length
// whatever the address, the account's the same from every client, the
// pair's another for each.
func TestThrottleKeys(t *testing.T) {
	a1, p1 := throttleKeys("ada@example.com", "198.51.100.1")
	a2, p2 := throttleKeys("ada@example.com", "2001:db8::/64")
	a3, p3 := throttleKeys(strings.Repeat("𝔸", 255), "198.51.100.1")
	_, p4 := throttleKeys("ada@example.com\x00198.51.100.1", "")
	for _, k := range []string{a1, p1, a2, p2, a3, p3, p4} {
		if len(k) != 24 || !strings.HasPrefix(k, "a:") && !strings.HasPrefix(k, "c:") || strings.Contains(k, "ada") {
			t.Errorf("key %q: want 24 bytes, a: or c: and a digest", k)
		}
	}
	if a1 != a2 || a1 == a3 || p1 == p2 || p1 == p3 || p1 == p4 || a1[2:] == p1[2:] {
		t.Errorf("keys %q %q, %q %q, %q %q, %q: want one account key for ada@, and a pair key for each client", a1, p1, a2, p2, a3, p3, p4)
	}
}

// TestLoginClientGoneBeforeCheck: a login whose client went away before
// its password was checked, even with a bcrypt slot free, is not checked
// and counts nothing.
func TestLoginClientGoneBeforeCheck(t *testing.T) {
	gone := make(chan context.CancelFunc, 1)
	users := funcUsers(func(context.Context, string) (int64, []byte, error) {
		(<-gone)() // the client leaves while the user is looked up
		return 0, nil, ErrUserNotFound
	})
	l := newTestLogin(t, users, LoginConfig{})
	var compared atomic.Int32
	l.compare = func(hash, password []byte) error {
		compared.Add(1)
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"email":"eve@example.com","password":"guess"}`))
	r.Header.Set("Content-Type", "application/json")
	ctx, cancel := context.WithCancel(r.Context())
	gone <- cancel
	w := httptest.NewRecorder()
	l.ServeHTTP(w, r.WithContext(ctx))
	account, pair := throttleKeys("eve@example.com", "192.0.2.1")
	mt := l.throttle.(*MemoryThrottle)
	got := fmt.Sprint(w.Code, compared.Load(), len(l.slots) == cap(l.slots), failuresOf(t, mt, 0, account), failuresOf(t, mt, 0, pair))
	if want := fmt.Sprint(499, 0, true, 0, 0); got != want {
		t.Errorf("status, checks, slots all free, failures of account and pair = %s; want %s", got, want)
	}
}
