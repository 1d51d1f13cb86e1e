-- gqlkit login throttle for PostgreSQL, version 5: the table of
-- auth.SQLThrottle. Idempotent: every statement can run again without
-- effect. Times are Unix microseconds.

-- The failed logins of each key of auth.Login within its current window:
-- 'a:' for an e-mail address, 'c:' for an e-mail address and a client
-- address, each followed by a digest (no address is stored). A row goes
-- some time after its window ends.
CREATE TABLE IF NOT EXISTS auth_login_failures (
    key        TEXT    NOT NULL PRIMARY KEY,
    failures   INTEGER NOT NULL,
    window_end BIGINT  NOT NULL
);

CREATE INDEX IF NOT EXISTS auth_login_failures_window_end_index ON auth_login_failures (window_end);
