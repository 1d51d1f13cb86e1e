package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gqlkit/gqlkit/auth"
)

// Throttle is an auth.LoginThrottle in a SQL database reached through
// database/sql, PostgreSQL or SQLite, so that every process on the
// database counts the same failures. Its table is created by the auth
// migration of both stores; its times are Unix microseconds:
//
//	auth_login_failures
//	    key        TEXT    PRIMARY KEY  -- a key of Login: no e-mail address
//	    failures   INTEGER NOT NULL     -- within the current window
//	    window_end BIGINT  NOT NULL     -- indexed, for the purge
//
// [Throttle.Failures] is one SELECT on the primary key for all the
// keys of a login; [Throttle.Fail] one INSERT … ON CONFLICT DO UPDATE
// for all of them, which counts and, when a key's window has ended,
// opens the next in the same atomic step; [Throttle.Reset] one
// DELETE. Expired rows are deleted by Fail, at most once a minute in each
// process. The table holds no more rows than there were failed logins
// (two each) within the windows: its size follows the bcrypt rate.
//
// [New] builds it; applications get it from the Store of postgres or
// sqlite (Store.Throttle).
type Throttle struct {
	read, write *sql.DB
	lastPurge   atomic.Int64 // Unix microseconds
}

var _ auth.LoginThrottle = (*Throttle)(nil)

// The statements of Throttle. Those for the keys of one login, two,
// are written out; selectFailuresQuery and upsertFailuresQuery build the
// others.
const (
	selectFailures2 = selectFailuresHead + `$2, $3)`
	upsertFailures2 = upsertFailuresHead + `($2, 1, $3), ($4, 1, $5)` + upsertFailuresTail

	selectFailuresHead = `SELECT key, failures, window_end FROM auth_login_failures WHERE window_end > $1 AND key IN (`
	upsertFailuresHead = `INSERT INTO auth_login_failures (key, failures, window_end) VALUES `
	upsertFailuresTail = `
ON CONFLICT (key) DO UPDATE SET
failures = CASE WHEN auth_login_failures.window_end > $1 THEN auth_login_failures.failures + 1 ELSE 1 END,
window_end = CASE WHEN auth_login_failures.window_end > $1 THEN auth_login_failures.window_end ELSE excluded.window_end END`
	deleteFailures = `DELETE FROM auth_login_failures WHERE key = $1`
	purgeFailures  = `DELETE FROM auth_login_failures WHERE window_end <= $1`
)

// selectFailuresQuery returns the SELECT of n keys, at $2 … $n+1.
func selectFailuresQuery(n int) string {
	if n == 2 {
		return selectFailures2
	}
	return listQuery(selectFailuresHead, n, 1, func(p string, _ string) string { return p }, ")")
}

// upsertFailuresQuery returns the upsert of n keys, each a key and a
// window end, at $2 … $2n+1.
func upsertFailuresQuery(n int) string {
	if n == 2 {
		return upsertFailures2
	}
	return listQuery(upsertFailuresHead, n, 2, func(key, end string) string { return "(" + key + ", 1, " + end + ")" }, upsertFailuresTail)
}

// listQuery returns head, then n items joined by ", ", then tail; item
// writes one from its placeholders, per of them (one or two), numbered
// from $2 on.
func listQuery(head string, n, per int, item func(p, q string) string, tail string) string {
	var b strings.Builder
	b.WriteString(head)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		p := 2 + per*i
		b.WriteString(item("$"+strconv.Itoa(p), "$"+strconv.Itoa(p+1)))
	}
	b.WriteString(tail)
	return b.String()
}

// Failures implements [auth.LoginThrottle].
func (s *Throttle) Failures(ctx context.Context, keys []string, now time.Time) ([]auth.ThrottleCount, error) {
	counts := make([]auth.ThrottleCount, len(keys))
	if len(keys) == 0 {
		return counts, nil
	}
	args := make([]any, 0, 1+len(keys))
	args = append(args, now.UnixMicro())
	for _, k := range keys {
		args = append(args, k)
	}
	rows, err := s.read.QueryContext(ctx, selectFailuresQuery(len(keys)), args...)
	if err != nil {
		return nil, fmt.Errorf("reading login failures: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			key      string
			failures int
			end      int64
		)
		if err := rows.Scan(&key, &failures, &end); err != nil {
			return nil, fmt.Errorf("reading login failures: %w", err)
		}
		if i := slices.Index(keys, key); i >= 0 {
			counts[i] = auth.ThrottleCount{Failures: failures, Until: time.UnixMicro(end)}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading login failures: %w", err)
	}
	return counts, nil
}

// Fail implements [auth.LoginThrottle]: one statement for all keys, which
// writes their rows in the order of their keys, so that concurrent
// failures of overlapping keys cannot deadlock.
func (s *Throttle) Fail(ctx context.Context, keys []auth.ThrottleKey, now time.Time) error {
	if len(keys) == 0 {
		return nil
	}
	if err := s.purge(ctx, now); err != nil {
		return err
	}
	sorted := slices.SortedFunc(slices.Values(keys), func(a, b auth.ThrottleKey) int { return strings.Compare(a.Key, b.Key) })
	at := now.UnixMicro()
	args := make([]any, 0, 1+2*len(keys))
	args = append(args, at)
	for _, k := range sorted {
		args = append(args, k.Key, at+k.Window.Microseconds())
	}
	if _, err := s.write.ExecContext(ctx, upsertFailuresQuery(len(keys)), args...); err != nil {
		return fmt.Errorf("counting a failed login: %w", err)
	}
	return nil
}

// Reset implements [auth.LoginThrottle].
func (s *Throttle) Reset(ctx context.Context, key string) error {
	if _, err := s.write.ExecContext(ctx, deleteFailures, key); err != nil {
		return fmt.Errorf("resetting login failures: %w", err)
	}
	return nil
}

// purge calls Purge at most once per purgeEvery.
func (s *Throttle) purge(ctx context.Context, now time.Time) error {
	at := now.UnixMicro()
	last := s.lastPurge.Load()
	if at-last < purgeEvery.Microseconds() || !s.lastPurge.CompareAndSwap(last, at) {
		return nil
	}
	return s.Purge(ctx, now)
}

// Purge deletes the rows whose window ended by now. Fail calls it at most
// once a minute; call it from a job of your own to empty the table when
// failures are rare.
func (s *Throttle) Purge(ctx context.Context, now time.Time) error {
	if _, err := s.write.ExecContext(ctx, purgeFailures, now.UnixMicro()); err != nil {
		return fmt.Errorf("deleting expired login failures: %w", err)
	}
	return nil
}
