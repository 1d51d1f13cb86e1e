-- gqlkit idempotency keys for SQLite: the table of IdempotencyStore.
-- Idempotent: every statement can run again without effect. Times are
-- Unix microseconds.
--
-- A row is a key held by a request (status 0; owner is the holder's
-- token, held_until the end of its lease) or the answer recorded under it
-- (owner and held_until NULL; expires_at is when it is forgotten). A row
-- ends at COALESCE(held_until, expires_at): an ended row is taken over by
-- the next claim of its key, or purged. (Store.Migrate adds owner and
-- held_until to a table made before them, which SQLite cannot say in an
-- idempotent statement.)

CREATE TABLE IF NOT EXISTS idempotency_keys (
    subject     TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    fingerprint BLOB    NOT NULL,
    status      INTEGER NOT NULL,
    header      TEXT    NOT NULL,
    body        BLOB    NOT NULL,
    created_at  BIGINT  NOT NULL,
    expires_at  BIGINT  NOT NULL,
    owner       TEXT,
    held_until  BIGINT,
    PRIMARY KEY (subject, key)
);

DROP INDEX IF EXISTS idempotency_keys_expires_at_index;
CREATE INDEX IF NOT EXISTS idempotency_keys_end_index ON idempotency_keys (COALESCE(held_until, expires_at));
