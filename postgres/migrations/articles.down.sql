-- Reverts articles.up.sql: drops the articles and their data.
DROP TABLE IF EXISTS articles;
