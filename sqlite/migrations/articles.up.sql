-- gqlkit articles for SQLite (3.35 or later): the table of Store's
-- articles.Store methods. It references users (id), and the lists read
-- the authors' names from users (name): migrate users first, the kit's or
-- a table of your own with those columns, or point the foreign key at
-- another table with ArticlesMigration. Idempotent: every statement can
-- run again without effect. Timestamps are as in users.up.sql.

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
