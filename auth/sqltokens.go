package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"time"
)

// SQLTokenStore is a [TokenStore] in a SQL database reached through
// database/sql, PostgreSQL or SQLite, in two tables that the migrations of
// pgstore and sqlitestore create (times are Unix microseconds):
//
//	auth_revocations            -- denied tokens and per-user cutoffs
//	    key        TEXT   PRIMARY KEY  -- "t:" + token ID, or "u:" + user id
//	    revoked_at BIGINT NOT NULL     -- for a user: the cutoff
//	    expires_at BIGINT NOT NULL     -- the row may go after; indexed
//
//	auth_refresh_tokens
//	    hash              BYTEA  PRIMARY KEY  -- SHA-256 of the token (BLOB in SQLite)
//	    family            TEXT   NOT NULL     -- indexed
//	    user_id           BIGINT NOT NULL     -- references users, on delete cascade; indexed
//	    created_at, expires_at, family_expires_at BIGINT NOT NULL
//	    used_at, revoked_at BIGINT            -- NULL until rotated, revoked
//	    successor         BYTEA               -- sealed successor
//
// [SQLTokenStore.Revoked] reads both kinds of revocation in one statement
// on the primary key. Expired rows are deleted by the writes, at most once
// a minute.
type SQLTokenStore struct {
	read, write *sql.DB
	lastPurge   atomic.Int64 // Unix microseconds
}

var _ TokenStore = (*SQLTokenStore)(nil)

// NewSQLTokenStore returns a store over the database whose tables
// auth_revocations and auth_refresh_tokens exist. Reads go to read and
// writes to write: on SQLite, read is the read-only pool and write the
// single writer (sqlitestore's Tokens method passes both); elsewhere pass
// the same *sql.DB twice.
func NewSQLTokenStore(read, write *sql.DB) *SQLTokenStore {
	return &SQLTokenStore{read: read, write: write}
}

// purgeEvery is how often the writes delete expired rows.
const purgeEvery = time.Minute

const (
	selectRevocations = `SELECT key, revoked_at FROM auth_revocations WHERE key IN ($1, $2)`
	upsertRevocation  = `INSERT INTO auth_revocations (key, revoked_at, expires_at) VALUES ($1, $2, $3)
ON CONFLICT (key) DO UPDATE SET revoked_at = excluded.revoked_at, expires_at = excluded.expires_at`
	purgeRevocations = `DELETE FROM auth_revocations WHERE expires_at <= $1`
	purgeRefresh     = `DELETE FROM auth_refresh_tokens WHERE family_expires_at <= $1`

	insertRefresh = `INSERT INTO auth_refresh_tokens (hash, family, user_id, created_at, expires_at, family_expires_at)
VALUES ($1, $2, $3, $4, $5, $6)`
	useRefresh = `UPDATE auth_refresh_tokens SET used_at = $2, successor = $3
WHERE hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2 AND family_expires_at > $2
RETURNING family, user_id, family_expires_at`
	selectRefresh = `SELECT family, user_id, created_at, expires_at, family_expires_at, used_at, revoked_at, successor
FROM auth_refresh_tokens WHERE hash = $1`
	selectFamily      = `SELECT family, user_id FROM auth_refresh_tokens WHERE hash = $1`
	selectFamilyOwner = `SELECT family, user_id FROM auth_refresh_tokens WHERE family = $1 LIMIT 1`
	revokeFamily      = `UPDATE auth_refresh_tokens SET revoked_at = $2 WHERE family = $1 AND revoked_at IS NULL`
	revokeUserRefresh = `UPDATE auth_refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`
)

// tokenKey and userKey are the keys of the two kinds of auth_revocations
// rows.
func tokenKey(id string) string  { return "t:" + id }
func userRowKey(id int64) string { return "u:" + strconv.FormatInt(id, 10) }

// Revoked implements [TokenStore]: one statement on the primary key, for
// the token's row and its user's.
func (s *SQLTokenStore) Revoked(ctx context.Context, t Token) (bool, error) {
	tk, uk := tokenKey(t.ID), userRowKey(t.UserID)
	rows, err := s.read.QueryContext(ctx, selectRevocations, tk, uk)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	revoked := false
	for rows.Next() {
		var (
			key string
			at  int64
		)
		if err := rows.Scan(&key, &at); err != nil {
			return false, err
		}
		switch key {
		case tk:
			revoked = true
		case uk:
			// The cutoff is to the microsecond and iat to the second: a
			// token issued in the cutoff's second, before or after it, is
			// refused (see RevokeUser).
			if t.IssuedAt.IsZero() || t.IssuedAt.UnixMicro() < ceilSecond(at) {
				revoked = true
			}
		}
	}
	if err := rows.Err(); err != nil {
		return false, err
	}
	return revoked, nil
}

// ceilSecond rounds Unix microseconds up to a whole second.
func ceilSecond(us int64) int64 {
	const s = int64(time.Second / time.Microsecond)
	if r := us % s; r != 0 {
		return us - r + s
	}
	return us
}

// RevokeToken implements [TokenStore].
func (s *SQLTokenStore) RevokeToken(ctx context.Context, id string, expires time.Time) error {
	now := time.Now()
	if err := s.purge(ctx, now); err != nil {
		return err
	}
	if _, err := s.write.ExecContext(ctx, upsertRevocation, tokenKey(id), now.UnixMicro(), expires.UnixMicro()); err != nil {
		return fmt.Errorf("revoking a token: %w", err)
	}
	return nil
}

// RevokeUser implements [TokenStore]. The cutoff row never expires: there
// is at most one per user, and a token issued before it stays refused
// however long its lifetime. Both writes are one transaction.
func (s *SQLTokenStore) RevokeUser(ctx context.Context, user int64, cutoff time.Time) error {
	return s.inTx(ctx, fmt.Sprintf("logging user %d out everywhere", user), func(tx *sql.Tx) error {
		at := cutoff.UnixMicro()
		if _, err := tx.ExecContext(ctx, upsertRevocation, userRowKey(user), at, int64(math.MaxInt64)); err != nil {
			return err
		}
		if err := revokeSettled(ctx, tx, revokeUserRefresh, user, at); err != nil {
			return fmt.Errorf("revoking refresh tokens: %w", err)
		}
		return nil
	})
}

// inTx runs fn in a transaction on the writer and commits it unless fn
// fails; errors are wrapped with what.
func (s *SQLTokenStore) inTx(ctx context.Context, what string, fn func(*sql.Tx) error) error {
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

// CreateRefresh implements [TokenStore].
func (s *SQLTokenStore) CreateRefresh(ctx context.Context, t RefreshToken) error {
	if err := s.purge(ctx, t.CreatedAt); err != nil {
		return err
	}
	_, err := s.write.ExecContext(ctx, insertRefresh, t.Hash, t.Family, t.UserID,
		t.CreatedAt.UnixMicro(), t.ExpiresAt.UnixMicro(), t.FamilyExpiresAt.UnixMicro())
	if err != nil {
		return fmt.Errorf("storing a refresh token: %w", err)
	}
	return nil
}

// RotateRefresh implements [TokenStore] in one transaction: the update that
// marks old used only matches a current token, and it locks the row, so a
// concurrent rotation of the same token waits and then matches nothing.
func (s *SQLTokenStore) RotateRefresh(ctx context.Context, old []byte, next RefreshToken, successor []byte, now time.Time) (rec RefreshToken, rotated, found bool, err error) {
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
		return RefreshToken{}, false, false, err
	}
	return rec, rotated, found, nil
}

// readRefresh reads the record whose hash is hash.
func readRefresh(ctx context.Context, tx *sql.Tx, hash []byte) (RefreshToken, bool, error) {
	var (
		rec                          RefreshToken
		created, expires, famExpires int64
		used, revoked                sql.NullInt64
	)
	err := tx.QueryRowContext(ctx, selectRefresh, hash).Scan(&rec.Family, &rec.UserID, &created, &expires, &famExpires, &used, &revoked, &rec.Successor)
	if errors.Is(err, sql.ErrNoRows) {
		return RefreshToken{}, false, nil
	}
	if err != nil {
		return RefreshToken{}, false, fmt.Errorf("reading a refresh token: %w", err)
	}
	rec.Hash = append([]byte(nil), hash...)
	rec.CreatedAt = time.UnixMicro(created)
	rec.ExpiresAt = time.UnixMicro(expires)
	rec.FamilyExpiresAt = time.UnixMicro(famExpires)
	if used.Valid {
		rec.UsedAt = time.UnixMicro(used.Int64)
	}
	if revoked.Valid {
		rec.RevokedAt = time.UnixMicro(revoked.Int64)
	}
	return rec, true, nil
}

// RevokeRefresh implements [TokenStore].
func (s *SQLTokenStore) RevokeRefresh(ctx context.Context, hash []byte, family string, user int64, now time.Time) (revoked bool, err error) {
	query, key := selectFamily, any(hash)
	if family != "" {
		query, key = selectFamilyOwner, family
	}
	err = s.inTx(ctx, "revoking a refresh token family", func(tx *sql.Tx) error {
		var owner int64
		switch err := tx.QueryRowContext(ctx, query, key).Scan(&family, &owner); {
		case errors.Is(err, sql.ErrNoRows):
			return nil
		case err != nil:
			return err
		case user != 0 && owner != user:
			return nil
		}
		revoked = true
		return revokeSettled(ctx, tx, revokeFamily, family, now.UnixMicro())
	})
	return revoked && err == nil, err
}

// revokeRounds bounds the statements of revokeSettled. Each round after
// the first can only find tokens that rotations in flight during the
// previous one inserted, and a revoked token cannot be rotated, so two or
// three rounds settle even a family rotated back to back.
const revokeRounds = 16

// revokeSettled runs a revoking UPDATE until it revokes nothing more. On
// PostgreSQL (READ COMMITTED) an UPDATE that waits for a row a rotation
// holds sees that rotation's old row when it resumes, but not the
// successor the rotation inserted: only a new statement does. Once a round
// revokes nothing, every token of the family (or user) is revoked, and the
// rows this transaction holds keep new rotations out until it commits.
func revokeSettled(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
	for range revokeRounds {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
	}
	return fmt.Errorf("tokens were still being rotated after %d rounds of revocation", revokeRounds)
}

// purge calls Purge at most once per purgeEvery.
func (s *SQLTokenStore) purge(ctx context.Context, now time.Time) error {
	at := now.UnixMicro()
	last := s.lastPurge.Load()
	if at-last < purgeEvery.Microseconds() || !s.lastPurge.CompareAndSwap(last, at) {
		return nil
	}
	return s.Purge(ctx, now)
}

// Purge deletes the rows that expired by now: denied tokens past their exp,
// and refresh token families past their absolute lifetime. The store's
// writes call it at most once a minute; call it from a job of your own to
// keep the tables small when writes are rare.
func (s *SQLTokenStore) Purge(ctx context.Context, now time.Time) error {
	at := now.UnixMicro()
	if _, err := s.write.ExecContext(ctx, purgeRevocations, at); err != nil {
		return fmt.Errorf("deleting expired revocations: %w", err)
	}
	if _, err := s.write.ExecContext(ctx, purgeRefresh, at); err != nil {
		return fmt.Errorf("deleting expired refresh tokens: %w", err)
	}
	return nil
}
