-- Reverts 003_auth_tokens.up.sql.
DROP TABLE IF EXISTS auth_refresh_tokens;
DROP TABLE IF EXISTS auth_revocations;
