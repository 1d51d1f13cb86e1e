-- Reverts auth_users.up.sql: sessions and refresh tokens no longer go
-- with their users.
DROP TRIGGER IF EXISTS auth_users_delete;
