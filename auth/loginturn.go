package auth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/httpjson"
)

// Defaults of the waits of [Login].
const (
	// DefaultMaxLoginWait is how long a login waits for its turn, behind
	// the attempts of the same account and for a bcrypt slot together,
	// when [LoginConfig.MaxWait] is zero.
	DefaultMaxLoginWait = 10 * time.Second

	// inFlightPerCheck is how many logins may be under way for each of
	// [LoginConfig.MaxConcurrentChecks] when [LoginConfig.MaxInFlight] is
	// zero.
	inFlightPerCheck = 64

	// busyRetryAfter is the Retry-After, in seconds, of a login refused
	// because it could not have its turn in time.
	busyRetryAfter = 1
)

// Why a login stopped before its password was checked, besides its
// context.
var (
	errTooManyInFlight = errors.New("too many logins are under way already")
	errWaitedTooLong   = errors.New("waited too long")
)

// turns gives the logins of one account their turn one at a time, within
// the process. An account has an entry only while logins of it are under
// way or waiting, so the memory follows the logins in flight, not their
// history.
type turns struct {
	mu   sync.Mutex
	byID map[string]*turn
}

// turn is the turn of one account.
type turn struct {
	key  string
	free chan struct{} // holds a value while nobody has the turn
	refs int           // logins holding or waiting for it; guarded by turns.mu
}

// join returns the turn of key, counting the caller among those that hold
// or wait for it; the caller then takes it by receiving from free, and
// ends with release (after taking it) or leave (without).
func (ts *turns) join(key string) *turn {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.byID == nil {
		ts.byID = make(map[string]*turn)
	}
	t := ts.byID[key]
	if t == nil {
		t = &turn{key: key, free: make(chan struct{}, 1)}
		t.free <- struct{}{}
		ts.byID[key] = t
	}
	t.refs++
	return t
}

// release gives the turn t back, and leaves it.
func (ts *turns) release(t *turn) {
	t.free <- struct{}{}
	ts.leave(t)
}

// leave stops counting the caller among those of t, and forgets t when
// nobody holds or waits for it.
func (ts *turns) leave(t *turn) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t.refs--; t.refs == 0 {
		delete(ts.byID, t.key)
	}
}

// await takes a value from free (a turn, or a bcrypt slot): at once when
// one is there, or else when one comes before the login's wait, which
// began at start, has lasted maxWait. It returns errWaitedTooLong, or the
// cause of ctx's end.
func (l *Login) await(ctx context.Context, free <-chan struct{}, start time.Time) error {
	select {
	case <-free:
		return nil
	default:
	}
	left := l.maxWait - time.Since(start)
	if left <= 0 {
		return errWaitedTooLong
	}
	timer := time.NewTimer(left)
	defer timer.Stop()
	select {
	case <-free:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-timer.C:
		return errWaitedTooLong
	}
}

// refusal is the answer of a login that gets no token, written once the
// account's turn is given back.
type refusal struct {
	status     int
	message    string
	retryAfter int64 // seconds; zero: no Retry-After
}

// write writes the answer.
func (f refusal) write(w http.ResponseWriter) {
	if f.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(f.retryAfter, 10))
	}
	if f.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	httpjson.WriteMessage(w, f.status, f.message)
}

// The refusals that carry no number.
var (
	refuseInvalid     = refusal{status: http.StatusUnauthorized, message: "Invalid credentials."}
	refuseUnavailable = refusal{status: http.StatusServiceUnavailable, message: errcode.MessageUnavailable}
	refuseInternal    = refusal{status: http.StatusInternalServerError, message: httpjson.MessageInternal}
	refuseBusy        = refusal{status: http.StatusServiceUnavailable, message: errcode.MessageUnavailable, retryAfter: busyRetryAfter}
	refuseCanceled    = refusal{status: errcode.StatusClientClosedRequest, message: "The request was canceled."}
)

// refuseTooMany is the 429 of a login that must wait, rounded up to whole
// seconds (at least one).
func refuseTooMany(wait time.Duration) refusal {
	seconds := int64((wait + time.Second - 1) / time.Second)
	return refusal{
		status:     http.StatusTooManyRequests,
		message:    "Too many login attempts. Please try again in " + strconv.FormatInt(seconds, 10) + " seconds.",
		retryAfter: seconds,
	}
}

// throttleKeys returns the keys of the throttle for a login of email
// (lower-cased) from client (its address, or its IPv6 /64): the
// account's, "a:", and the pair's, "c:", each followed by 128 bits of a
// SHA-256 digest in base64url. Digests keep e-mail addresses (and
// passwords typed into the e-mail field) out of the throttle's memory and
// tables, and make every key 24 bytes long whatever the address.
func throttleKeys(email, client string) (account, pair string) {
	a := sha256.Sum256([]byte("gqlkit auth login account\x00" + email))
	p := sha256.Sum256([]byte("gqlkit auth login client\x00" + email + "\x00" + client))
	return "a:" + base64.RawURLEncoding.EncodeToString(a[:16]), "c:" + base64.RawURLEncoding.EncodeToString(p[:16])
}
