-- Posts of the sample GraphQL schema, for SQLite. Needs the users table of
-- the articles migrations. Idempotent. Timestamps are stored as the
-- articles store stores them: UTC text with six fractional digits.

CREATE TABLE IF NOT EXISTS posts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title      TEXT      NOT NULL,
    body       TEXT      NOT NULL,
    tags       TEXT,     -- a JSON array of strings, or NULL
    created_at TIMESTAMP NOT NULL
);

CREATE INDEX IF NOT EXISTS posts_created_at_index ON posts (created_at);
CREATE INDEX IF NOT EXISTS posts_user_id_index ON posts (user_id);
