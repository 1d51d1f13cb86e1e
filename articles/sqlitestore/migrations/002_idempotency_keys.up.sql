-- gqlkit idempotency keys for SQLite, version 2: the table of
-- idempotency.SQLStore. Idempotent: every statement can run again without
-- effect.
--
-- A row is a key held by a request (status 0, inside the transaction that
-- inserted it, so nobody else sees it) or the answer recorded under it.
-- Times are Unix microseconds.

CREATE TABLE IF NOT EXISTS idempotency_keys (
    subject     TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    fingerprint BLOB    NOT NULL,
    status      INTEGER NOT NULL,
    header      TEXT    NOT NULL,
    body        BLOB    NOT NULL,
    created_at  BIGINT  NOT NULL,
    expires_at  BIGINT  NOT NULL,
    PRIMARY KEY (subject, key)
);

CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at_index ON idempotency_keys (expires_at);
