-- gqlkit auth tokens for PostgreSQL, version 3: the tables of
-- auth.SQLTokenStore. Idempotent: every statement can run again without
-- effect. Times are Unix microseconds.

-- Revoked access tokens ('t:' || jti, until the token's exp) and the
-- cutoffs of "log out everywhere" ('u:' || user id, kept).
CREATE TABLE IF NOT EXISTS auth_revocations (
    key        TEXT   NOT NULL PRIMARY KEY,
    revoked_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS auth_revocations_expires_at_index ON auth_revocations (expires_at);

-- Refresh tokens, by the SHA-256 of the token (the token itself is never
-- stored). A row stays after its token is rotated (used_at, successor)
-- so that a reuse is recognised, until its family's absolute expiry.
CREATE TABLE IF NOT EXISTS auth_refresh_tokens (
    hash              BYTEA   NOT NULL PRIMARY KEY,
    family            TEXT    NOT NULL,
    user_id           BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at        BIGINT  NOT NULL,
    expires_at        BIGINT  NOT NULL,
    family_expires_at BIGINT  NOT NULL,
    used_at           BIGINT,
    revoked_at        BIGINT,
    successor         BYTEA
);

CREATE INDEX IF NOT EXISTS auth_refresh_tokens_family_index ON auth_refresh_tokens (family);
CREATE INDEX IF NOT EXISTS auth_refresh_tokens_user_id_index ON auth_refresh_tokens (user_id);
CREATE INDEX IF NOT EXISTS auth_refresh_tokens_family_expires_at_index ON auth_refresh_tokens (family_expires_at);
