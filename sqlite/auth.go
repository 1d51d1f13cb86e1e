package sqlite

import (
	"context"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/sqlstore"
)

// TokenStore is the [auth.TokenStore] of a [Store]: revoked access
// tokens, sessions and refresh tokens, in the tables of the Auth schema,
// for auth.Config.Tokens and auth.RefreshConfig.Store. Each revocation is
// an update of one row: none waits for rotations or touches refresh
// tokens; [TokenStore.Revoked] is one statement on three primary keys.
// Revocation checks read through the read-only pool; revocations and
// refresh tokens are written through the single writer. Processes sharing
// one file contend for SQLite's write lock all the same: a revocation in
// one of them waits while another writes back to back, and fails with
// SQLITE_BUSY after the busy timeout ([DefaultBusyTimeout] with [DSN]),
// with nothing half-done. Expired rows are deleted by the writes, at most
// once a minute.
type TokenStore struct{ tokens *sqlstore.Tokens }

var _ auth.TokenStore = (*TokenStore)(nil)

// Tokens returns the store of revoked access tokens, sessions and refresh
// tokens in the same database.
func (s *Store) Tokens() *TokenStore { return s.tokens }

// Revoked implements [auth.TokenStore]: one statement reads the token's
// denial, its user's cutoff and its session.
func (t *TokenStore) Revoked(ctx context.Context, tok auth.Token) (bool, error) {
	return t.tokens.Revoked(ctx, tok)
}

// RevokeToken implements [auth.TokenStore]: one upsert.
func (t *TokenStore) RevokeToken(ctx context.Context, id string, expires time.Time) error {
	return t.tokens.RevokeToken(ctx, id, expires)
}

// RevokeUser implements [auth.TokenStore]: one upsert of the user's
// cutoff, which only ever moves it forward.
func (t *TokenStore) RevokeUser(ctx context.Context, user int64, cutoff time.Time) error {
	return t.tokens.RevokeUser(ctx, user, cutoff)
}

// StartSession implements [auth.TokenStore]: the session and its first
// refresh token in one transaction.
func (t *TokenStore) StartSession(ctx context.Context, first auth.RefreshToken) error {
	return t.tokens.StartSession(ctx, first)
}

// RotateRefresh implements [auth.TokenStore] in one transaction, whose
// update of the old token checks its session and its user's cutoff.
func (t *TokenStore) RotateRefresh(ctx context.Context, old []byte, next auth.RefreshToken, successor []byte, now time.Time) (auth.RefreshToken, bool, bool, error) {
	return t.tokens.RotateRefresh(ctx, old, next, successor, now)
}

// RevokeSession implements [auth.TokenStore]: one UPDATE of at most two
// sessions.
func (t *TokenStore) RevokeSession(ctx context.Context, session string, refresh []byte, user int64, at time.Time) (bool, error) {
	return t.tokens.RevokeSession(ctx, session, refresh, user, at)
}

// Purge deletes the rows that expired by now: denied tokens past their
// exp, and sessions and their refresh tokens past their absolute
// lifetime. The writes call it at most once a minute; call it from a job
// of your own to keep the tables small when writes are rare.
func (t *TokenStore) Purge(ctx context.Context, now time.Time) error {
	return t.tokens.Purge(ctx, now)
}

// LoginThrottle is the [auth.LoginThrottle] of a [Store], in the table
// auth_login_failures of the Auth schema, for auth.LoginConfig.Throttle:
// every process on the file counts the same failures. Counts are read
// through the read-only pool and written through the single writer.
type LoginThrottle struct{ throttle *sqlstore.Throttle }

var _ auth.LoginThrottle = (*LoginThrottle)(nil)

// Throttle returns the counts of failed logins in the same database.
func (s *Store) Throttle() *LoginThrottle { return s.throttle }

// Failures implements [auth.LoginThrottle].
func (l *LoginThrottle) Failures(ctx context.Context, keys []string, now time.Time) ([]auth.ThrottleCount, error) {
	return l.throttle.Failures(ctx, keys, now)
}

// Fail implements [auth.LoginThrottle]: one upsert for all the keys.
func (l *LoginThrottle) Fail(ctx context.Context, keys []auth.ThrottleKey, now time.Time) error {
	return l.throttle.Fail(ctx, keys, now)
}

// Reset implements [auth.LoginThrottle].
func (l *LoginThrottle) Reset(ctx context.Context, key string) error {
	return l.throttle.Reset(ctx, key)
}

// Purge deletes the rows whose window ended by now. Fail calls it at most
// once a minute; call it from a job of your own to empty the table when
// failures are rare.
func (l *LoginThrottle) Purge(ctx context.Context, now time.Time) error {
	return l.throttle.Purge(ctx, now)
}
