-- gqlkit idempotency keys for PostgreSQL: the table of IdempotencyStore.
-- Idempotent: every statement can run again without effect. Times are
-- Unix microseconds.
--
-- A row is a key held by a request (status 0; owner is the holder's
-- token, held_until the end of its lease) or the answer recorded under it
-- (owner and held_until NULL; expires_at is when it is forgotten). A row
-- ends at COALESCE(held_until, expires_at): an ended row is taken over by
-- the next claim of its key, or purged.

CREATE TABLE IF NOT EXISTS idempotency_keys (
    subject     TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    fingerprint BYTEA   NOT NULL,
    status      INTEGER NOT NULL,
    header      TEXT    NOT NULL,
    body        BYTEA   NOT NULL,
    created_at  BIGINT  NOT NULL,
    expires_at  BIGINT  NOT NULL,
    owner       TEXT,
    held_until  BIGINT,
    PRIMARY KEY (subject, key)
);

-- A table made before owner and held_until (a held row then kept its
-- holder in header and its lease in expires_at) gets them; the ALTER,
-- which locks the table, runs only then.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'idempotency_keys'::regclass AND attname = 'held_until' AND NOT attisdropped) THEN
        ALTER TABLE idempotency_keys ADD COLUMN owner TEXT, ADD COLUMN held_until BIGINT;
    END IF;
END
$$;
DROP INDEX IF EXISTS idempotency_keys_expires_at_index;

CREATE INDEX IF NOT EXISTS idempotency_keys_end_index ON idempotency_keys ((COALESCE(held_until, expires_at)));
