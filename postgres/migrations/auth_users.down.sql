-- Reverts auth_users.up.sql: sessions and refresh tokens no longer go
-- with their users.
ALTER TABLE IF EXISTS auth_sessions DROP CONSTRAINT IF EXISTS auth_sessions_user_id_fkey;
ALTER TABLE IF EXISTS auth_refresh_tokens DROP CONSTRAINT IF EXISTS auth_refresh_tokens_user_id_fkey;
