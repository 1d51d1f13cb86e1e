-- gqlkit link between auth and users for PostgreSQL: the sessions and
-- refresh tokens of a user go with the user (ON DELETE CASCADE), and a
-- session cannot name a user who does not exist. Run after users.up.sql
-- and auth.up.sql; Store.Migrate runs it when it migrates both. A service
-- with a users table of its own adds the same foreign keys to its table
-- (or revokes a user's tokens when it deletes the user). Idempotent: a
-- foreign key is added only to a table that has none.

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'auth_sessions'::regclass AND contype = 'f') THEN
        ALTER TABLE auth_sessions ADD CONSTRAINT auth_sessions_user_id_fkey
            FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'auth_refresh_tokens'::regclass AND contype = 'f') THEN
        ALTER TABLE auth_refresh_tokens ADD CONSTRAINT auth_refresh_tokens_user_id_fkey
            FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE;
    END IF;
END
$$;
