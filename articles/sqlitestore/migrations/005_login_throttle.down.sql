-- Reverts 005_login_throttle.up.sql.
DROP TABLE IF EXISTS auth_login_failures;
