-- Reverts 004_auth_sessions.up.sql.
DROP TABLE IF EXISTS auth_sessions;
