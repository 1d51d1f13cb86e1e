package auth

import (
	"context"
	"time"
)

// TokenStore keeps what must outlive a token's signature: the access
// tokens that were logged out, the per-user cutoffs of "log out
// everywhere", and the refresh tokens ([Refresher]). [SQLTokenStore]
// implements it on PostgreSQL and SQLite (the tables come with the
// migrations of pgstore and sqlitestore); a shared cache such as Redis
// can implement it too. Implementations are safe for concurrent use.
//
// Times are compared to the microsecond; the times that decide an answer
// come from the caller (a store may use its own clock to delete expired
// entries).
type TokenStore interface {
	// Revoked reports whether the access token t is revoked: its ID was
	// denied ([TokenStore.RevokeToken]), or it was issued (t.IssuedAt,
	// whole seconds) before its user's cutoff ([TokenStore.RevokeUser]);
	// a token without iat counts as issued before any cutoff. It runs on
	// every authenticated request, so it costs one indexed lookup at most.
	Revoked(ctx context.Context, t Token) (bool, error)

	// RevokeToken denies the access token whose ID is id until expires
	// (its exp), after which the entry may be deleted: the token has
	// expired by then, so the denylist stays as small as the number of
	// tokens logged out within one TTL.
	RevokeToken(ctx context.Context, id string, expires time.Time) error

	// RevokeUser logs user out everywhere: access tokens issued before
	// cutoff are refused from then on, and every refresh token of the
	// user is revoked. Calling it again moves the cutoff.
	RevokeUser(ctx context.Context, user int64, cutoff time.Time) error

	// CreateRefresh stores a new refresh token, the first of its family.
	CreateRefresh(ctx context.Context, t RefreshToken) error

	// RotateRefresh replaces the refresh token whose hash is old by next,
	// provided old is current at now: not used, not revoked, not expired
	// (ExpiresAt and FamilyExpiresAt after now). It marks old used at now,
	// keeps successor with it (next's token, sealed so that only a holder
	// of old can open it), and stores next in old's family, for old's user,
	// with old's FamilyExpiresAt and an ExpiresAt no later than it — all
	// at once: of concurrent calls for one old hash, exactly one rotates.
	//
	// It returns old's record as it is after the call, and whether this
	// call rotated it; found is false when no refresh token has the hash.
	RotateRefresh(ctx context.Context, old []byte, next RefreshToken, successor []byte, now time.Time) (rec RefreshToken, rotated, found bool, err error)

	// RevokeRefresh revokes, at now, the refresh token family named
	// family or, when family is empty, the family of the refresh token
	// whose hash is hash, and reports whether there was one. When user is
	// not zero, only a family of that user counts. Tokens that rotations
	// in flight insert into the family are revoked too.
	RevokeRefresh(ctx context.Context, hash []byte, family string, user int64, now time.Time) (bool, error)
}

// Token is what a verified access token says.
type Token struct {
	// UserID is the user, from sub.
	UserID int64
	// ID identifies the token for revocation: its jti, or, for a token
	// without one, "sha256:" and the hex SHA-256 of its signed part (the
	// header and the claims, as sent).
	ID string
	// KeyID is the kid of the key that verified it ([KeyID]).
	KeyID string
	// Session is the refresh token family it was issued with (its sid
	// claim), when a [Login] or [Refresher] with refresh tokens issued it.
	Session string
	// IssuedAt is iat, zero when the token has none; ExpiresAt is exp.
	IssuedAt, ExpiresAt time.Time
}

// RefreshToken is the stored record of a refresh token. The token itself
// is never stored, only its SHA-256.
type RefreshToken struct {
	// Hash is the SHA-256 of the token: the key of the record.
	Hash []byte
	// Family is the id shared by a token and the tokens it was rotated
	// into; revoking one revokes them all.
	Family string
	// UserID is the user the token refreshes access for.
	UserID int64
	// CreatedAt is when the token was issued; ExpiresAt is when it expires
	// unless it is used first (the idle lifetime); FamilyExpiresAt is when
	// the family's first token was issued plus the absolute lifetime.
	CreatedAt, ExpiresAt, FamilyExpiresAt time.Time
	// UsedAt is when the token was rotated; zero while it is current.
	UsedAt time.Time
	// RevokedAt is when its family was revoked; zero if it is not.
	RevokedAt time.Time
	// Successor is the token it was rotated into, sealed (see
	// [TokenStore.RotateRefresh]); nil while it is current.
	Successor []byte
}
