package auth

import (
	"context"
	"time"
)

// TokenStore keeps what must outlive a token's signature: the access
// tokens that were logged out, the per-user cutoffs of "log out
// everywhere", the sessions (one per login: a refresh token family, the
// sid claim of the access tokens issued with it) and their refresh tokens
// ([Refresher]). [github.com/gqlkit/gqlkit/sqlstore.Tokens] implements
// it, in PostgreSQL or SQLite (the Tokens method of the Store of
// [github.com/gqlkit/gqlkit/postgres] and
// [github.com/gqlkit/gqlkit/sqlite]; the tables come with the auth
// schema); a shared cache such as Redis can implement it too: every method reads or
// writes a few keys. Implementations are safe for concurrent use.
//
// Every revocation is one write that takes effect at once, whatever
// rotates beside it: it is checked where a token is used, not applied to
// the tokens one by one. A session is revoked as a whole (logout, reuse
// detection), and a user's cutoff ends every session that started before
// it, so that the refresh tokens a rotation stores and the access tokens
// it issues are refused however late the rotation comes.
//
// Times are compared to the microsecond, except the cutoff: a user's
// cutoff counts from the whole second after it (rounded up), as iat has
// whole seconds, so that a token issued in the cutoff's own second is
// refused whether it came before or after it. The times that decide an
// answer come from the caller (a store may use its own clock to delete
// expired entries).
type TokenStore interface {
	// Revoked reports whether the access token t is refused. It is when
	// its ID was denied ([TokenStore.RevokeToken]); when it has a session
	// (t.Session) that was revoked ([TokenStore.RevokeSession]), that the
	// store does not know (never started, or expired and deleted), or that
	// started before its user's cutoff ([TokenStore.RevokeUser]); and,
	// without a session, when t.AuthTime or, without one, t.IssuedAt is
	// before the cutoff (a token with neither counts as issued before any
	// cutoff). It runs on every authenticated request, so it costs one
	// round trip of lookups by key.
	Revoked(ctx context.Context, t Token) (bool, error)

	// RevokeToken denies the access token whose ID is id until expires
	// (its exp), after which the entry may be deleted: the token has
	// expired by then, so the denylist stays as small as the number of
	// tokens logged out within one TTL.
	RevokeToken(ctx context.Context, id string, expires time.Time) error

	// RevokeUser logs user out everywhere: every session that started
	// before cutoff (rounded up to the second) is over, its refresh tokens
	// and access tokens refused from then on, and so is every access token
	// without a session issued before it. It writes the user's cutoff and
	// nothing else. The cutoff only moves forward: calling it again with a
	// later cutoff moves it, with an earlier one (a host whose clock is
	// behind, a caller passing an older time) changes nothing and
	// succeeds, so that no session once ended comes back.
	RevokeUser(ctx context.Context, user int64, cutoff time.Time) error

	// StartSession stores a new session and its first refresh token at
	// once: the session first.Family of first.UserID, started at
	// first.SessionStart and ending at first.FamilyExpiresAt.
	StartSession(ctx context.Context, first RefreshToken) error

	// RotateRefresh replaces the refresh token whose hash is old by next,
	// provided old is current at now — not used, not expired (ExpiresAt
	// and FamilyExpiresAt after now) — and its session is live: known, not
	// revoked, and started no earlier than its user's cutoff. It marks old
	// used at now, keeps successor with it (next's token, sealed so that
	// only a holder of old can open it), and stores next in old's session,
	// for old's user, with old's FamilyExpiresAt and SessionStart and an
	// ExpiresAt no later than FamilyExpiresAt — all at once: of concurrent
	// calls for one old hash, exactly one rotates. The check of the
	// session need not exclude a revocation committed at the same instant:
	// the successor belongs to a revoked session, and it and the access
	// tokens issued with it are refused where they are used.
	//
	// It returns old's record as it is after the call (RevokedAt set when
	// its session is over), and whether this call rotated it; found is
	// false when no refresh token has the hash.
	RotateRefresh(ctx context.Context, old []byte, next RefreshToken, successor []byte, now time.Time) (rec RefreshToken, rotated, found bool, err error)

	// RevokeSession revokes, at at, the session named session and the
	// session of the refresh token whose hash is refresh (either may be
	// empty; they may be the same), among the sessions of user only, and
	// reports whether there was one. Revoking a session that is revoked
	// already succeeds and keeps the first time. It is one write, whatever
	// rotates in the session meanwhile.
	RevokeSession(ctx context.Context, session string, refresh []byte, user int64, at time.Time) (bool, error)
}

// Token is what a verified access token says.
type Token struct {
	// Subject is the user, the token's sub as written: a decimal id for
	// the kit's own tokens, any string (a UUID, say) for an identity
	// provider's (see [PublicKeys] and [JWKS]).
	Subject string
	// UserID is the user as an integer: sub, when it is a positive
	// decimal int64, as it always is in the kit's own tokens; 0 for a
	// token of a provider whose sub is not.
	UserID int64
	// ID identifies the token for revocation: its jti, or, for a token
	// without one, "sha256:" and the hex SHA-256 of its signed part (the
	// header and the claims, as sent).
	ID string
	// KeyID is the kid of the key that verified it ([KeyID]).
	KeyID string
	// Session is the session (the refresh token family) it was issued
	// with, its sid claim, when a [Login] or [Refresher] with refresh
	// tokens issued it; always "" for a provider's token, whose sid (if
	// any) names a session of the provider's.
	Session string
	// AuthTime is when the user logged in to begin the session, its
	// auth_time claim (whole seconds); zero when the token has none.
	AuthTime time.Time
	// IssuedAt is iat, zero when the token has none; ExpiresAt is exp.
	IssuedAt, ExpiresAt time.Time
}

// RefreshToken is the stored record of a refresh token. The token itself
// is never stored, only its SHA-256.
type RefreshToken struct {
	// Hash is the SHA-256 of the token: the key of the record.
	Hash []byte
	// Family is the id of its session, shared by a token and the tokens
	// it was rotated into; revoking the session revokes them all.
	Family string
	// UserID is the user the token refreshes access for.
	UserID int64
	// CreatedAt is when the token was issued; ExpiresAt is when it expires
	// unless it is used first (the idle lifetime); FamilyExpiresAt is when
	// the session ends: its start plus the absolute lifetime.
	CreatedAt, ExpiresAt, FamilyExpiresAt time.Time
	// SessionStart is when its session began (the login): the first
	// token's CreatedAt.
	SessionStart time.Time
	// UsedAt is when the token was rotated; zero while it is current.
	UsedAt time.Time
	// RevokedAt is when its session was revoked, or the cutoff of its user
	// that ended it; for a token whose session the store does not know,
	// its CreatedAt. Zero while the session is live.
	RevokedAt time.Time
	// Successor is the token it was rotated into, sealed (see
	// [TokenStore.RotateRefresh]); nil while it is current.
	Successor []byte
}
