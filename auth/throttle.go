package auth

import (
	"context"
	"fmt"
	"time"
)

// Defaults of [LoginConfig.ClientLimit] and [LoginConfig.AccountLimit].
// The first pair is Laravel's ThrottlesLogins; the second bounds the
// guesses at one account from any number of addresses (see "Login
// throttling" in the package documentation for why these numbers).
const (
	// DefaultClientFailures is how many failed logins one e-mail address
	// may have from one client address within DefaultClientWindow.
	DefaultClientFailures = 5

	// DefaultClientWindow is how long the failures of an e-mail address
	// from one client address count, from the first of them.
	DefaultClientWindow = time.Minute

	// DefaultAccountFailures is how many failed logins one e-mail address
	// may have, from all client addresses together, within
	// DefaultAccountWindow.
	DefaultAccountFailures = 20

	// DefaultAccountWindow is how long the failures of an e-mail address
	// count, from the first of them.
	DefaultAccountWindow = 15 * time.Minute
)

// LoginLimit is how many failed logins a key of the throttle may have
// within a window before [Login] refuses it (429) until the window ends.
// The window opens at the key's first failure and lasts Window; a failure
// after it opens the next one.
type LoginLimit struct {
	// Failures is how many failures the key may have within its window.
	// Zero means the default of the field that holds the limit; a negative
	// number turns the limit off.
	Failures int

	// Window is how long the key's failures count, from its first. Zero
	// means the default of the field; a negative one is an error.
	Window time.Duration
}

// orDefault returns l with its zero fields set to failures and window; a
// limit that is off keeps a window, so that nothing divides by zero.
func (l LoginLimit) orDefault(name string, failures int, window time.Duration) (LoginLimit, error) {
	if l.Window < 0 {
		return l, fmt.Errorf("auth: LoginConfig.%s.Window is %v; it must not be negative", name, l.Window)
	}
	if l.Failures == 0 {
		l.Failures = failures
	}
	if l.Window == 0 {
		l.Window = window
	}
	return l, nil
}

// refuses reports whether count, read at now, has reached the limit, and
// how long its window has to run then.
func (l LoginLimit) refuses(count ThrottleCount, now time.Time) (time.Duration, bool) {
	if l.Failures < 0 || count.Failures < l.Failures || !now.Before(count.Until) {
		return 0, false
	}
	return count.Until.Sub(now), true
}

// ThrottleCount is what a [LoginThrottle] holds for one key: its failures
// within its current window, and when that window ends.
type ThrottleCount struct {
	Failures int
	Until    time.Time // zero when Failures is zero
}

// ThrottleKey is a key whose failure [LoginThrottle.Fail] counts, with the
// length of the window that its first failure opens.
type ThrottleKey struct {
	Key    string
	Window time.Duration
}

// LoginThrottle keeps the counts of failed logins that [Login] decides
// from. [Login] forms the keys (see "Login throttling" in the package
// documentation): short opaque strings, one for the e-mail address and
// one for the pair of e-mail address and client address, so that the
// throttle never holds an address, nor a password typed into its field.
//
// [MemoryThrottle] keeps the counts in the process;
// [github.com/gqlkit/gqlkit/sqlstore.Throttle] (the Throttle method of
// the postgres and sqlite stores) keeps them in the database, so that the
// processes sharing it throttle together. A store such as Redis implements it with one pipelined read
// (Failures) and one script or transaction (Fail): INCR, with PEXPIRE NX
// for a new window. Implementations are safe for concurrent use.
//
// [Login] calls Failures before it looks the user up, Fail after a wrong
// password and Reset after a right one, never for an attempt whose
// password was not checked. A throttle counts what it is told; what the
// limits are, and why an account has one of its own (guessing from many
// addresses, weighed against keeping the owner out), is the Login's
// configuration: see "Login throttling" in the package documentation.
// The Login treats an error from any of them as the throttle being unable
// to answer: the login answers 503 and logs the error (see [Login]).
// Failures runs under the request's context; Fail and Reset run to the
// end even when the client has gone, under a context that ends after
// [LoginConfig.MaxWait], which an implementation must honour: the
// account's other logins wait for them.
type LoginThrottle interface {
	// Failures returns the counts of keys at now, in the same order: a
	// key whose window has ended, or that has no failures, has the zero
	// ThrottleCount.
	Failures(ctx context.Context, keys []string, now time.Time) ([]ThrottleCount, error)

	// Fail counts a failure of each of keys, all different, at now. A key
	// whose window has ended, or that has none, starts a window that ends
	// at now plus its Window; otherwise the window stays as it is.
	Fail(ctx context.Context, keys []ThrottleKey, now time.Time) error

	// Reset forgets the failures of key.
	Reset(ctx context.Context, key string) error
}

// NoThrottle is a [LoginThrottle] that counts nothing, so that nobody is
// ever refused: set [LoginConfig.Throttle] to NoThrottle{} to turn
// throttling off, for instance when a proxy in front of the service
// throttles logins already.
type NoThrottle struct{}

// Failures implements [LoginThrottle]; every count is zero.
func (NoThrottle) Failures(_ context.Context, keys []string, _ time.Time) ([]ThrottleCount, error) {
	return make([]ThrottleCount, len(keys)), nil
}

// Fail implements [LoginThrottle]; it does nothing.
func (NoThrottle) Fail(context.Context, []ThrottleKey, time.Time) error { return nil }

// Reset implements [LoginThrottle]; it does nothing.
func (NoThrottle) Reset(context.Context, string) error { return nil }
