package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"golang.org/x/crypto/bcrypt"
)

// authenticate decides a login of email with password, in the order the
// documentation of [Login] gives, and returns the user's id, or else the
// refusal to answer with once the account's turn is given back.
func (l *Login) authenticate(r *http.Request, email, password string, logger *slog.Logger) (int64, refusal) {
	ctx := r.Context()
	if l.inFlight.Add(1) > l.maxInFlight {
		l.inFlight.Add(-1)
		return 0, gaveUp(ctx, errTooManyInFlight, "waiting for its turn", logger)
	}
	defer l.inFlight.Add(-1)
	start := time.Now()
	account, pair := throttleKeys(strings.ToLower(email), clientBlock(clientAddress(r, l.proxies)))
	t := l.turns.join(account)
	if err := l.await(ctx, t.free, start); err != nil {
		l.turns.leave(t)
		return 0, gaveUp(ctx, err, "waiting for its turn", logger)
	}
	defer l.turns.release(t)

	keys := l.throttleKeys(account, pair)
	if no, refused := l.throttled(ctx, keys, logger); refused {
		return 0, no
	}
	id, hash, err := l.users.PasswordHash(ctx, email)
	known := !errors.Is(err, ErrUserNotFound)
	switch {
	case err != nil && known && ctx.Err() != nil:
		return 0, gaveUp(ctx, err, "looking up the user", logger)
	case err != nil && known:
		ctxlog.Log(ctx, logger, slog.LevelError, "auth: login: looking up the user", ctxlog.Err(err))
		return 0, refuseInternal
	case !known:
		hash = nil
	}
	if err := l.await(ctx, l.slots, start); err != nil {
		return 0, gaveUp(ctx, err, "waiting for a bcrypt slot", logger)
	}
	if err := ctx.Err(); err != nil { // it ended as the slot came: nobody waits for the check
		l.slots <- struct{}{}
		return 0, gaveUp(ctx, context.Cause(ctx), "waiting for a bcrypt slot", logger)
	}
	err = l.checkPassword(hash, password)
	l.slots <- struct{}{}

	// Recorded even when the client has gone: the check was made. The
	// account's turn and the login's place in flight are held meanwhile,
	// so a throttle that hangs (a database that does not answer, a pool
	// with no free connection) is given up on after MaxWait: 503.
	record, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.maxWait)
	defer cancel()
	if err == nil {
		if keys.pair != "" {
			if err := l.throttle.Reset(record, keys.pair); err != nil {
				ctxlog.Log(ctx, logger, slog.LevelError, "auth: login: recording the attempt with the throttle", ctxlog.Err(err))
				return 0, refuseUnavailable
			}
		}
		return id, refusal{}
	}
	switch {
	case !known:
		ctxlog.Log(ctx, logger, slog.LevelInfo, "auth: login refused: unknown e-mail address")
	case len(hash) == 0:
		ctxlog.Log(ctx, logger, slog.LevelInfo, "auth: login refused: the user has no password", slog.Int64("user_id", id))
	case errors.Is(err, bcrypt.ErrMismatchedHashAndPassword):
		ctxlog.Log(ctx, logger, slog.LevelInfo, "auth: login refused: wrong password", slog.Int64("user_id", id))
	default:
		ctxlog.Log(ctx, logger, slog.LevelError, "auth: login refused: the stored password hash is unusable", ctxlog.Err(err), slog.Int64("user_id", id))
	}
	if len(keys.keys) > 0 {
		if err := l.throttle.Fail(record, keys.keys, l.now()); err != nil {
			ctxlog.Log(ctx, logger, slog.LevelError, "auth: login: recording the attempt with the throttle", ctxlog.Err(err))
			return 0, refuseUnavailable
		}
	}
	return 0, refuseInvalid
}

// loginKeys are the keys of a login whose limits are on, with the limits.
type loginKeys struct {
	keys   []ThrottleKey
	names  []string
	limits []LoginLimit
	pair   string // the pair's key; "" when its limit is off
}

// throttleKeys returns the keys of a login that the throttle counts.
func (l *Login) throttleKeys(account, pair string) loginKeys {
	var k loginKeys
	add := func(key string, limit LoginLimit) {
		if limit.Failures >= 0 {
			k.keys = append(k.keys, ThrottleKey{Key: key, Window: limit.Window})
			k.names = append(k.names, key)
			k.limits = append(k.limits, limit)
		}
	}
	if add(pair, l.clientLimit); len(k.keys) == 1 {
		k.pair = pair
	}
	add(account, l.accountLimit)
	return k
}

// throttled reads the failures of keys and reports whether one of them
// has reached its limit, with the refusal: a 429 until the last of those
// windows ends, or a 503 when the throttle fails.
func (l *Login) throttled(ctx context.Context, keys loginKeys, logger *slog.Logger) (refusal, bool) {
	if len(keys.names) == 0 {
		return refusal{}, false
	}
	now := l.now()
	counts, err := l.throttle.Failures(ctx, keys.names, now)
	if err == nil && len(counts) != len(keys.names) {
		err = fmt.Errorf("the throttle returned %d counts for %d keys", len(counts), len(keys.names))
	}
	if err != nil && ctx.Err() != nil {
		return gaveUp(ctx, err, "checking the throttle", logger), true
	}
	if err != nil {
		ctxlog.Log(ctx, logger, slog.LevelError, "auth: login: checking the throttle", ctxlog.Err(err))
		return refuseUnavailable, true
	}
	var wait time.Duration
	for i, limit := range keys.limits {
		if w, refused := limit.refuses(counts[i], now); refused {
			wait = max(wait, w)
		}
	}
	if wait <= 0 {
		return refusal{}, false
	}
	no := refuseTooMany(wait)
	ctxlog.Log(ctx, logger, slog.LevelInfo, "auth: login refused: too many failed attempts", slog.Int64("retry_after", no.retryAfter))
	return no, true
}

// checkPassword compares password with hash, or with the stand-in hash
// when hash is empty (then the error is never nil).
func (l *Login) checkPassword(hash []byte, password string) error {
	if len(hash) == 0 {
		if err := l.compare(l.dummy, []byte(password)); err != nil { // take as long as for a known user
			return err
		}
		return bcrypt.ErrMismatchedHashAndPassword
	}
	err := l.compare(hash, []byte(password))
	if err == nil && len(password) > MaxPasswordBytes {
		// bcrypt compared the first 72 bytes only: the rest must not be
		// free to choose. (The comparison ran all the same, so that the
		// answer takes as long as any other.)
		err = bcrypt.ErrMismatchedHashAndPassword
	}
	return err
}

// gaveUp logs why a login stopped while doing what, before its password
// was checked, and returns its refusal: 499 when the client went away,
// else 503 with Retry-After (the login's wait or deadline ran out, or too
// many logins were under way).
func gaveUp(ctx context.Context, err error, what string, logger *slog.Logger) refusal {
	if ctxlog.Enabled(ctx, logger, slog.LevelInfo) { // the message is made only for a line written
		ctxlog.Log(ctx, logger, slog.LevelInfo, "auth: login: gave up "+what, ctxlog.Err(err))
	}
	if errors.Is(ctx.Err(), context.Canceled) { // the client went away: nobody reads this
		return refuseCanceled
	}
	return refuseBusy
}
