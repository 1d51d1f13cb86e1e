-- Reverts auth.up.sql: drops the sessions, tokens, revocations and login
-- failures. Revert auth_users first.
DROP TABLE IF EXISTS auth_login_failures;
DROP TABLE IF EXISTS auth_refresh_tokens;
DROP TABLE IF EXISTS auth_sessions;
DROP TABLE IF EXISTS auth_revocations;
