-- Reverts idempotency.up.sql: drops the idempotency keys.
DROP TABLE IF EXISTS idempotency_keys;
