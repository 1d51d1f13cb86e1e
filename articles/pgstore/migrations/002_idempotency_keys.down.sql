-- Reverts 002_idempotency_keys.up.sql: drops the idempotency keys.
DROP TABLE IF EXISTS idempotency_keys;
