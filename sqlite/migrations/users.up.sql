-- gqlkit users for SQLite (3.35 or later): the table of Store.CreateUser,
-- DeleteUser and PasswordHash (auth.UserStore). Idempotent: every
-- statement can run again without effect.
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
