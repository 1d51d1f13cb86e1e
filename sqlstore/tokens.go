package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gqlkit/gqlkit/auth"
)

// Tokens is an auth.TokenStore in a SQL database reached through
// database/sql, PostgreSQL or SQLite, in the three tables of the auth
// migration of both stores (times are Unix microseconds):
//
//	auth_revocations            -- denied tokens and per-user cutoffs
//	    key        TEXT   PRIMARY KEY  -- "t:" + token ID, or "u:" + user id
//	    revoked_at BIGINT NOT NULL     -- for a user: the cutoff
//	    expires_at BIGINT NOT NULL     -- the row may go after; indexed
//
//	auth_sessions               -- one per login
//	    id         TEXT   PRIMARY KEY  -- the family of its refresh tokens, the sid claim
//	    user_id    BIGINT NOT NULL     -- indexed
//	    created_at BIGINT NOT NULL     -- the login
//	    expires_at BIGINT NOT NULL     -- the absolute lifetime; indexed
//	    revoked_at BIGINT              -- NULL until revoked
//
//	auth_refresh_tokens
//	    hash              BYTEA  PRIMARY KEY  -- SHA-256 of the token (BLOB in SQLite)
//	    family            TEXT   NOT NULL     -- the session; indexed
//	    user_id           BIGINT NOT NULL     -- indexed
//	    created_at, expires_at, family_expires_at BIGINT NOT NULL
//	    used_at           BIGINT              -- NULL until rotated
//	    successor         BYTEA               -- sealed successor
//
// Each revocation is one statement on one row: [Tokens.RevokeSession]
// sets revoked_at of a session, [Tokens.RevokeUser] upserts the user's
// cutoff, moving it forward only (an earlier cutoff leaves the row as it
// is: GREATEST, in effect), [Tokens.RevokeToken] inserts a denied token;
// none waits for rotations or touches refresh tokens, however many the
// user has. [Tokens.RotateRefresh] checks the session and the cutoff in
// the statement that marks the old token used, and [Tokens.Revoked]
// reads the token's denial, its user's cutoff and its session in one
// statement on the three primary keys.
//
// A refresh token without a session row (stored by an older schema that
// had no sessions) is refused, as are the access tokens of a session that
// has no row. Expired rows are deleted by the writes, at most once a
// minute.
//
// [New] builds it; applications get it from the Store of postgres or
// sqlite (Store.Tokens).
type Tokens struct {
	read, write *sql.DB
	lastPurge   atomic.Int64 // Unix microseconds
}

var _ auth.TokenStore = (*Tokens)(nil)

// cutoffOf, followed by an expression of a user id and ")", is the SQL of
// that user's cutoff rounded up to the whole second (NULL when there is
// none): integer division in both databases.
const cutoffOf = `(SELECT (r.revoked_at + 999999) / 1000000 * 1000000 FROM auth_revocations AS r WHERE r.key = 'u:' || `

const (
	// selectRevocations reads, by primary key, the token's denial (kind
	// 1), its user's cutoff (2) and its session (3).
	selectRevocations = `SELECT 1, revoked_at, 0 FROM auth_revocations WHERE key = $1
UNION ALL SELECT 2, revoked_at, 0 FROM auth_revocations WHERE key = $2
UNION ALL SELECT 3, revoked_at, created_at FROM auth_sessions WHERE id = $3`
	upsertDenial = `INSERT INTO auth_revocations (key, revoked_at, expires_at) VALUES ($1, $2, $3)
ON CONFLICT (key) DO UPDATE SET revoked_at = excluded.revoked_at, expires_at = excluded.expires_at`
	// upsertCutoff stores a user's cutoff, or moves it forward: an
	// earlier one leaves the row as it is, so that no session it ended
	// comes back (the WHERE of an upsert, in both databases).
	upsertCutoff = `INSERT INTO auth_revocations (key, revoked_at, expires_at) VALUES ($1, $2, $3)
ON CONFLICT (key) DO UPDATE SET revoked_at = excluded.revoked_at
WHERE excluded.revoked_at > auth_revocations.revoked_at`
	purgeRevocations = `DELETE FROM auth_revocations WHERE expires_at <= $1`
	purgeSessions    = `DELETE FROM auth_sessions WHERE expires_at <= $1`
	purgeRefresh     = `DELETE FROM auth_refresh_tokens WHERE family_expires_at <= $1`

	insertSession = `INSERT INTO auth_sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`
	insertRefresh = `INSERT INTO auth_refresh_tokens (hash, family, user_id, created_at, expires_at, family_expires_at)
VALUES ($1, $2, $3, $4, $5, $6)`
	// useRefresh marks a current token used, provided its session is
	// live: the check and the mark are one statement.
	useRefresh = `UPDATE auth_refresh_tokens SET used_at = $2, successor = $3
WHERE hash = $1 AND used_at IS NULL AND expires_at > $2 AND family_expires_at > $2
AND EXISTS (SELECT 1 FROM auth_sessions AS s WHERE s.id = auth_refresh_tokens.family AND s.revoked_at IS NULL
	AND s.created_at >= COALESCE(` + cutoffOf + "s.user_id)" + `, 0))
RETURNING family, user_id, family_expires_at`
	selectRefresh = `SELECT t.family, t.user_id, t.created_at, t.expires_at, t.family_expires_at, t.used_at, t.successor,
	s.created_at, s.revoked_at, ` + cutoffOf + "t.user_id)" + `
FROM auth_refresh_tokens AS t LEFT JOIN auth_sessions AS s ON s.id = t.family WHERE t.hash = $1`
	// revokeSessions revokes the named session and the refresh token's,
	// keeping the time of an earlier revocation.
	revokeSessions = `UPDATE auth_sessions SET revoked_at = COALESCE(revoked_at, $4)
WHERE id IN ($1, (SELECT family FROM auth_refresh_tokens WHERE hash = $2)) AND user_id = $3`
)

// tokenKey and userKey are the keys of the two kinds of auth_revocations
// rows.
func tokenKey(id string) string  { return "t:" + id }
func userRowKey(id int64) string { return "u:" + strconv.FormatInt(id, 10) }

// Revoked implements [auth.TokenStore]: one statement on the primary keys of
// the token's denial, its user's cutoff and its session.
func (s *Tokens) Revoked(ctx context.Context, t auth.Token) (bool, error) {
	rows, err := s.read.QueryContext(ctx, selectRevocations, tokenKey(t.ID), userRowKey(t.UserID), t.Session)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var (
		denied, known  bool
		cutoff         int64 // 0: none
		sessionRevoked bool
		start          int64 // when the session or, without one, the token began
	)
	for rows.Next() {
		var (
			kind    int
			at      sql.NullInt64
			created int64
		)
		if err := rows.Scan(&kind, &at, &created); err != nil {
			return false, err
		}
		switch kind {
		case 1:
			denied = true
		case 2:
			cutoff = ceilSecond(at.Int64)
		case 3:
			known, sessionRevoked, start = true, at.Valid, created
		}
	}
	if err := rows.Err(); err != nil {
		return false, err
	}
	switch {
	case denied:
		return true, nil
	case t.Session != "":
		if !known || sessionRevoked {
			return true, nil
		}
	case !t.AuthTime.IsZero():
		start = t.AuthTime.UnixMicro()
	case !t.IssuedAt.IsZero():
		start = t.IssuedAt.UnixMicro()
	default:
		start = math.MinInt64 // before any cutoff
	}
	// The cutoff is rounded up to the second and iat and auth_time have
	// whole seconds: a token or session of the cutoff's second, before or
	// after it, is refused.
	return cutoff != 0 && start < cutoff, nil
}

// ceilSecond rounds Unix microseconds up to a whole second.
func ceilSecond(us int64) int64 {
	const s = int64(time.Second / time.Microsecond)
	if r := us % s; r != 0 {
		return us - r + s
	}
	return us
}

// RevokeToken implements [auth.TokenStore].
func (s *Tokens) RevokeToken(ctx context.Context, id string, expires time.Time) error {
	now := time.Now()
	if err := s.purge(ctx, now); err != nil {
		return err
	}
	if _, err := s.write.ExecContext(ctx, upsertDenial, tokenKey(id), now.UnixMicro(), expires.UnixMicro()); err != nil {
		return fmt.Errorf("revoking a token: %w", err)
	}
	return nil
}

// RevokeUser implements [auth.TokenStore]: one upsert of the user's cutoff,
// which only ever moves it forward (an earlier cutoff than the stored one
// changes nothing and is no error). The row never expires: there is at
// most one per user, and a token or session from before it stays refused
// however long its lifetime.
func (s *Tokens) RevokeUser(ctx context.Context, user int64, cutoff time.Time) error {
	if _, err := s.write.ExecContext(ctx, upsertCutoff, userRowKey(user), cutoff.UnixMicro(), int64(math.MaxInt64)); err != nil {
		return fmt.Errorf("logging user %d out everywhere: %w", user, err)
	}
	return nil
}

// inTx runs fn in a transaction on the writer and commits it unless fn
// fails; errors are wrapped with what.
func (s *Tokens) inTx(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err == nil {
		if err = fn(tx); err == nil {
			err = tx.Commit()
		} else {
			_ = tx.Rollback()
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// StartSession implements [auth.TokenStore]: the session and its first token
// in one transaction.
func (s *Tokens) StartSession(ctx context.Context, first auth.RefreshToken) error {
	if err := s.purge(ctx, first.CreatedAt); err != nil {
		return err
	}
	return s.inTx(ctx, "starting a session", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, insertSession, first.Family, first.UserID, first.SessionStart.UnixMicro(), first.FamilyExpiresAt.UnixMicro())
		if err == nil {
			_, err = tx.ExecContext(ctx, insertRefresh, first.Hash, first.Family, first.UserID,
				first.CreatedAt.UnixMicro(), first.ExpiresAt.UnixMicro(), first.FamilyExpiresAt.UnixMicro())
		}
		return err
	})
}

// RotateRefresh implements [auth.TokenStore] in one transaction: the update that
// marks old used only matches a current token of a live session, and it
// locks the row, so a concurrent rotation of the same token waits and then
// matches nothing. The session is not locked: a revocation never waits for
// a rotation, nor a rotation for a revocation.
func (s *Tokens) RotateRefresh(ctx context.Context, old []byte, next auth.RefreshToken, successor []byte, now time.Time) (rec auth.RefreshToken, rotated, found bool, err error) {
	err = s.inTx(ctx, "rotating a refresh token", func(tx *sql.Tx) error {
		var (
			family     string
			user       int64
			famExpires int64
		)
		err := tx.QueryRowContext(ctx, useRefresh, old, now.UnixMicro(), successor).Scan(&family, &user, &famExpires)
		rotated = err == nil
		switch {
		case rotated:
			_, err := tx.ExecContext(ctx, insertRefresh, next.Hash, family, user,
				next.CreatedAt.UnixMicro(), min(next.ExpiresAt.UnixMicro(), famExpires), famExpires)
			if err != nil {
				return fmt.Errorf("storing its successor: %w", err)
			}
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		rec, found, err = readRefresh(ctx, tx, old)
		return err
	})
	if err != nil {
		return auth.RefreshToken{}, false, false, err
	}
	return rec, rotated, found, nil
}

// readRefresh reads the record whose hash is hash, with its session.
func readRefresh(ctx context.Context, tx *sql.Tx, hash []byte) (auth.RefreshToken, bool, error) {
	var (
		rec                          auth.RefreshToken
		created, expires, famExpires int64
		used                         sql.NullInt64
		started, revoked, cutoff     sql.NullInt64
	)
	err := tx.QueryRowContext(ctx, selectRefresh, hash).Scan(&rec.Family, &rec.UserID, &created, &expires, &famExpires, &used, &rec.Successor,
		&started, &revoked, &cutoff)
	if errors.Is(err, sql.ErrNoRows) {
		return auth.RefreshToken{}, false, nil
	}
	if err != nil {
		return auth.RefreshToken{}, false, fmt.Errorf("reading a refresh token: %w", err)
	}
	rec.Hash = append([]byte(nil), hash...)
	rec.CreatedAt = time.UnixMicro(created)
	rec.ExpiresAt = time.UnixMicro(expires)
	rec.FamilyExpiresAt = time.UnixMicro(famExpires)
	if used.Valid {
		rec.UsedAt = time.UnixMicro(used.Int64)
	}
	switch {
	case !started.Valid: // no session: stored by an older schema
		rec.RevokedAt = rec.CreatedAt
	case revoked.Valid:
		rec.RevokedAt = time.UnixMicro(revoked.Int64)
	case cutoff.Valid && started.Int64 < cutoff.Int64:
		rec.RevokedAt = time.UnixMicro(cutoff.Int64)
	}
	if started.Valid {
		rec.SessionStart = time.UnixMicro(started.Int64)
	}
	return rec, true, nil
}

// RevokeSession implements [auth.TokenStore]: one UPDATE of at most two
// session rows.
func (s *Tokens) RevokeSession(ctx context.Context, session string, refresh []byte, user int64, at time.Time) (bool, error) {
	res, err := s.write.ExecContext(ctx, revokeSessions, session, refresh, user, at.UnixMicro())
	if err != nil {
		return false, fmt.Errorf("revoking a session: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("revoking a session: %w", err)
	}
	return n > 0, nil
}

// purge calls Purge at most once per purgeEvery.
func (s *Tokens) purge(ctx context.Context, now time.Time) error {
	at := now.UnixMicro()
	last := s.lastPurge.Load()
	if at-last < purgeEvery.Microseconds() || !s.lastPurge.CompareAndSwap(last, at) {
		return nil
	}
	return s.Purge(ctx, now)
}

// Purge deletes the rows that expired by now: denied tokens past their exp,
// and sessions and their refresh tokens past their absolute lifetime. The
// store's writes call it at most once a minute; call it from a job of your
// own to keep the tables small when writes are rare.
func (s *Tokens) Purge(ctx context.Context, now time.Time) error {
	at := now.UnixMicro()
	for _, p := range []struct{ query, what string }{
		{purgeRevocations, "revocations"},
		{purgeRefresh, "refresh tokens"},
		{purgeSessions, "sessions"},
	} {
		if _, err := s.write.ExecContext(ctx, p.query, at); err != nil {
			return fmt.Errorf("deleting expired %s: %w", p.what, err)
		}
	}
	return nil
}
