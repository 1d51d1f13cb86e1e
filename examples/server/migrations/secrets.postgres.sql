-- Secrets the example server generates for itself when none is configured,
-- shared by every process on the database (JWT_SECRET unset). Idempotent.

CREATE TABLE IF NOT EXISTS server_secrets (
    name       TEXT        PRIMARY KEY,
    value      TEXT        NOT NULL,  -- hex
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
