-- gqlkit link between auth and users for SQLite: the sessions and refresh
-- tokens of a user go with the user, deleted by a trigger (SQLite cannot
-- add a foreign key to a table that exists). Run after users.up.sql and
-- auth.up.sql; Store.Migrate runs it when it migrates both. A service with
-- a users table of its own adds the same trigger to its table (or revokes
-- a user's tokens when it deletes the user). Idempotent: every statement
-- can run again without effect.

CREATE TRIGGER IF NOT EXISTS auth_users_delete AFTER DELETE ON users
BEGIN
    DELETE FROM auth_sessions WHERE user_id = old.id;
    DELETE FROM auth_refresh_tokens WHERE user_id = old.id;
END;
