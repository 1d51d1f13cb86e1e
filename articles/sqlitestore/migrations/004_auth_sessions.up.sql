-- gqlkit auth sessions for SQLite, version 4: the sessions of
-- auth.SQLTokenStore. Idempotent: every statement can run again without
-- effect. Times are Unix microseconds.

-- One row per login: the session, whose id is the family of its refresh
-- tokens and the sid claim of its access tokens. Revoking a session
-- (logout, reuse of a refresh token) sets revoked_at, one row, and every
-- token of the session is refused from then on. Refresh tokens stored
-- before this version have no session and are refused: their users log
-- in again.
CREATE TABLE IF NOT EXISTS auth_sessions (
    id         TEXT    NOT NULL PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL,
    revoked_at BIGINT
);

CREATE INDEX IF NOT EXISTS auth_sessions_user_id_index ON auth_sessions (user_id);
CREATE INDEX IF NOT EXISTS auth_sessions_expires_at_index ON auth_sessions (expires_at);
