-- gqlkit auth for PostgreSQL: the tables of TokenStore (revocations,
-- sessions, refresh tokens) and LoginThrottle. They reference no users
-- table: user_id is whatever id the application's users have (see
-- auth_users.up.sql for the link to the kit's users). Idempotent: every
-- statement can run again without effect. Times are Unix microseconds.

-- Revoked access tokens ('t:' || jti, until the token's exp) and the
-- cutoffs of "log out everywhere" ('u:' || user id, kept).
CREATE TABLE IF NOT EXISTS auth_revocations (
    key        TEXT   NOT NULL PRIMARY KEY,
    revoked_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS auth_revocations_expires_at_index ON auth_revocations (expires_at);

-- One row per login: the session, whose id is the family of its refresh
-- tokens and the sid claim of its access tokens. Revoking a session
-- (logout, reuse of a refresh token) sets revoked_at, one row, and every
-- token of the session is refused from then on.
CREATE TABLE IF NOT EXISTS auth_sessions (
    id         TEXT    NOT NULL PRIMARY KEY,
    user_id    BIGINT  NOT NULL,
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL,
    revoked_at BIGINT
);

CREATE INDEX IF NOT EXISTS auth_sessions_user_id_index ON auth_sessions (user_id);
CREATE INDEX IF NOT EXISTS auth_sessions_expires_at_index ON auth_sessions (expires_at);

-- Refresh tokens, by the SHA-256 of the token (the token itself is never
-- stored). A row stays after its token is rotated (used_at, successor)
-- so that a reuse is recognised, until its family's absolute expiry.
CREATE TABLE IF NOT EXISTS auth_refresh_tokens (
    hash              BYTEA   NOT NULL PRIMARY KEY,
    family            TEXT    NOT NULL,
    user_id           BIGINT  NOT NULL,
    created_at        BIGINT  NOT NULL,
    expires_at        BIGINT  NOT NULL,
    family_expires_at BIGINT  NOT NULL,
    used_at           BIGINT,
    successor         BYTEA
);

CREATE INDEX IF NOT EXISTS auth_refresh_tokens_family_index ON auth_refresh_tokens (family);
CREATE INDEX IF NOT EXISTS auth_refresh_tokens_user_id_index ON auth_refresh_tokens (user_id);
CREATE INDEX IF NOT EXISTS auth_refresh_tokens_family_expires_at_index ON auth_refresh_tokens (family_expires_at);

-- The failed logins of each key of auth.Login within its current window:
-- 'a:' for an e-mail address, 'c:' for an e-mail address and a client
-- address, each followed by a digest (no address is stored). A row goes
-- some time after its window ends.
CREATE TABLE IF NOT EXISTS auth_login_failures (
    key        TEXT    NOT NULL PRIMARY KEY,
    failures   INTEGER NOT NULL,
    window_end BIGINT  NOT NULL
);

CREATE INDEX IF NOT EXISTS auth_login_failures_window_end_index ON auth_login_failures (window_end);
