-- Reverts 001_init.up.sql: drops the articles and users tables and their data.
DROP TABLE IF EXISTS articles;
DROP TABLE IF EXISTS users;
