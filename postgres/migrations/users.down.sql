-- Reverts users.up.sql: drops the users and their data. Revert the
-- migrations that reference users (articles, auth_users) first.
DROP TABLE IF EXISTS users;
