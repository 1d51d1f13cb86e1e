-- gqlkit articles schema for SQLite (3.35 or later), version 1.
-- Idempotent: every statement can run again without effect.
--
-- Timestamps are TEXT in UTC, 'YYYY-MM-DD HH:MM:SS.ffffff+00:00' (fixed
-- width, so they sort as text); the TIMESTAMP declaration makes
-- modernc.org/sqlite scan them into time.Time. AUTOINCREMENT keeps ids of
-- deleted rows from being handed out again (a token for a deleted user
-- must not become valid for a new one).

CREATE TABLE IF NOT EXISTS users (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT      NOT NULL,
    email      TEXT      NOT NULL,
    password   TEXT      NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f000+00:00', 'now')),
    updated_at TIMESTAMP NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f000+00:00', 'now')),
    CONSTRAINT users_email_unique UNIQUE (email)
);

CREATE TABLE IF NOT EXISTS articles (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title      TEXT      NOT NULL,
    body       TEXT      NOT NULL,
    published  BOOLEAN   NOT NULL DEFAULT FALSE CHECK (published IN (FALSE, TRUE)),
    created_at TIMESTAMP NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f000+00:00', 'now')),
    updated_at TIMESTAMP NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f000+00:00', 'now'))
);

CREATE INDEX IF NOT EXISTS articles_published_created_at_index ON articles (published, created_at);
CREATE INDEX IF NOT EXISTS articles_user_id_index ON articles (user_id);
