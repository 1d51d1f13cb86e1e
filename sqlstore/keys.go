package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gqlkit/gqlkit/idempotency"
)

// Keys is an idempotency.Store in a SQL database reached through
// database/sql, PostgreSQL or SQLite, in the table idempotency_keys that
// the idempotency migration of both stores creates (times are Unix
// microseconds):
//
//	subject     TEXT    NOT NULL  -- Key.Subject
//	key         TEXT    NOT NULL  -- Key.Key; PRIMARY KEY (subject, key)
//	fingerprint BYTEA   NOT NULL  -- BLOB in SQLite
//	status      INTEGER NOT NULL  -- the answer's; 0 while the key is held
//	header      TEXT    NOT NULL  -- the answer's headers, a JSON object
//	body        BYTEA   NOT NULL  -- BLOB in SQLite; empty while held
//	created_at  BIGINT  NOT NULL
//	expires_at  BIGINT  NOT NULL  -- when the answer is forgotten
//	owner       TEXT              -- while held, the holder's token
//	held_until  BIGINT            -- while held, the end of its lease
//
// A row ends at held_until while held and at expires_at once answered
// (COALESCE(held_until, expires_at), which is indexed): an ended row is
// taken over by the next claim of its key, or deleted by the purge.
//
// # Claims
//
// A claim is a row inserted as held (status 0) with a random token of its
// holder and the end of its lease, and committed at once: it holds no
// connection or transaction while the handler runs. A concurrent claim of
// the same key finds the row and fails with an *idempotency.InUseError
// without waiting. Renewing the lease updates the row; a row whose lease
// has ended (its holder died) is taken over by the next claim.
//
// The lease is the time from Key.Now to Key.LeaseEnd. The store reads the
// time of day from the caller's clock (Key.Now) and measures what passes
// after it with the monotonic clock: a lease is written when its row
// lands, after the wait for the writer connection, not when the request
// came.
//
// # The claim's transaction
//
// The transaction begins when the handler's first write asks for it
// ([Keys.Tx]), with the end of the claim's lease as its deadline; when
// less than two thirds of a lease are left, a renewal is committed first.
// So a joined claim lives at most one lease past its first write (and at
// least two thirds of one), however long the handler takes, and a lease
// that others can see always covers it. A handler whose writes outlast
// it has them rolled back, and its answer is not recorded. The
// transaction's first statement checks that the row is still the
// holder's, and locks it: a holder whose lease ended and whose key was
// taken over writes nothing. The answer is recorded into the row in the
// same transaction, so that the writes and the answer commit together or
// not at all. A claim that no write joined is deleted without recording.
//
// # Nothing waits on a held key
//
// A claim looks the key up through read, which waits on no lock, and
// answers a key held by an unexpired lease at once. It only writes to
// take over a row whose lease has ended, whose transaction (if any) is
// over by then. On PostgreSQL the claim's transaction locks its row, the
// take-over locks it with NOWAIT, and a row locked all the same (a commit
// under way, clocks that disagree) means the key is in use; the purge of
// ended rows skips locked rows. On SQLite there are no row locks: the
// writes of a claim queue for the one writer connection, behind at most
// the claims' transactions under way, each of which ends within its
// lease.
//
// Ended rows are deleted as claims find them, and all of them at most
// once a minute, beside a claim (which does not wait for it).
//
// [New] builds it; applications get it from the Store of postgres or
// sqlite (Store.Idempotency).
type Keys struct {
	read, write *sql.DB
	stmts       *dialectStatements
	lastPurge   atomic.Int64 // Unix microseconds
}

// newKeys returns a store over the database that read and write reach
// (they may be the same *sql.DB), whose table idempotency_keys must exist,
// in dialect. Claims look keys up through read and write through write,
// where their transactions run too. On SQLite, write must be the pool of
// one connection the application writes through, so that all writes of
// the process queue in one place; read may be its read-only pool.
func newKeys(read, write *sql.DB, dialect Dialect) *Keys {
	s := &Keys{read: read, write: write, stmts: &sqliteStatements}
	if dialect == PostgreSQL {
		s.stmts = &postgresStatements
	}
	return s
}

// claimTries bounds how often Claim looks a key up again when other
// claims take and free it between its look-up and its insert.
const claimTries = 3

const (
	selectKey = `SELECT fingerprint, status, header, body, expires_at, held_until FROM idempotency_keys WHERE subject = $1 AND key = $2`
	// insertClaim inserts a held row. $1 = subject, $2 = key,
	// $3 = fingerprint, $4 = created_at, $5 = expires_at, $6 = owner,
	// $7 = held_until.
	insertClaim = `INSERT INTO idempotency_keys (subject, key, fingerprint, status, header, body, created_at, expires_at, owner, held_until)
VALUES ($1, $2, $3, 0, '', '', $4, $5, $6, $7) ON CONFLICT (subject, key) DO NOTHING`
	// The statements on a held row name its holder ($3), so that they
	// do nothing to a row another claim has taken over (or answered).
	renewClaim = `UPDATE idempotency_keys SET held_until = $4 WHERE subject = $1 AND key = $2 AND owner = $3`
	// lockClaim checks, in the claim's transaction, that the row is still
	// the holder's, and locks it (on PostgreSQL: no take-over succeeds
	// while the transaction lives, whatever the clocks of the processes
	// say; SQLite's transaction holds the database's one write lock).
	lockClaim    = `UPDATE idempotency_keys SET owner = $3 WHERE subject = $1 AND key = $2 AND owner = $3`
	recordAnswer = `UPDATE idempotency_keys SET status = $4, header = $5, body = $6, expires_at = $7, owner = NULL, held_until = NULL
WHERE subject = $1 AND key = $2 AND owner = $3`
	deleteClaim = `DELETE FROM idempotency_keys WHERE subject = $1 AND key = $2 AND owner = $3`
)

// dialectStatements are the statements whose text depends on the dialect.
type dialectStatements struct {
	// deleteEnded deletes the key ($1, $2) when it ended by $3.
	deleteEnded string
	// purge deletes every row ended by $1.
	purge string
}

var (
	sqliteStatements = dialectStatements{
		deleteEnded: `DELETE FROM idempotency_keys WHERE subject = $1 AND key = $2 AND COALESCE(held_until, expires_at) <= $3`,
		purge:       `DELETE FROM idempotency_keys WHERE COALESCE(held_until, expires_at) <= $1`,
	}
	// On PostgreSQL the row to delete is locked first, without waiting
	// (NOWAIT fails with lock_not_available, SKIP LOCKED passes over it).
	postgresStatements = dialectStatements{
		deleteEnded: `DELETE FROM idempotency_keys WHERE (subject, key) IN
(SELECT subject, key FROM idempotency_keys WHERE subject = $1 AND key = $2 AND COALESCE(held_until, expires_at) <= $3 FOR UPDATE NOWAIT)`,
		purge: `DELETE FROM idempotency_keys WHERE (subject, key) IN
(SELECT subject, key FROM idempotency_keys WHERE COALESCE(held_until, expires_at) <= $1 FOR UPDATE SKIP LOCKED)`,
	}
)

// Claim implements idempotency.Store. k.LeaseEnd must be after k.Now.
// It looks the key up (one SELECT through the read pool) and answers a
// held key or a recorded answer from that; otherwise it inserts a held row
// through the write pool (one INSERT … ON CONFLICT DO NOTHING, after a
// DELETE of the ended row for a take-over), looking again, a few times at
// most, when another claim inserted the key first.
//
// The claim's row is committed when Claim returns. When ctx ends while the
// insert is under way, PostgreSQL may commit it all the same: the key then
// stays held, by no request, until the lease ends.
func (s *Keys) Claim(ctx context.Context, k idempotency.Key) (*idempotency.Response, idempotency.Claim, error) {
	lease := k.LeaseEnd.Sub(k.Now)
	if lease <= 0 {
		return nil, nil, fmt.Errorf("idempotency: a lease ending at %v, before the request at %v", k.LeaseEnd, k.Now)
	}
	clock := newClock(k.Now)
	if now, last := k.Now.UnixMicro(), s.lastPurge.Load(); now-last >= purgeEvery.Microseconds() && s.lastPurge.CompareAndSwap(last, now) {
		go s.purge(context.WithoutCancel(ctx), now)
	}
	for range claimTries {
		row, found, err := s.lookup(ctx, k)
		now := clock.at(time.Now()).UnixMicro()
		switch {
		case err != nil:
			return nil, nil, err
		case found && row.end() > now && row.held():
			return nil, nil, row.inUse()
		case found && row.end() > now:
			resp, err := row.response()
			return resp, nil, err
		}
		c, err := s.insert(ctx, k, clock, lease, found)
		if err != nil {
			if isLockNotAvailable(err) {
				return nil, nil, row.inUse()
			}
			return nil, nil, err
		}
		if c != nil {
			return nil, c, nil
		}
		// Another claim inserted the key since the look-up: look again.
	}
	// The key changed hands under the look-ups every time: some request
	// holds it, or did a moment ago. A retry finds out which.
	return nil, nil, &idempotency.InUseError{}
}

// purge deletes the rows ended by now (Unix microseconds), beside the
// claim that found it due, which does not wait for it. A purge that fails
// is tried again a minute later; meanwhile claims delete the ended rows
// they find.
func (s *Keys) purge(ctx context.Context, now int64) {
	ctx, cancel := context.WithTimeout(ctx, purgeEvery)
	defer cancel()
	_, _ = s.write.ExecContext(ctx, s.stmts.purge, now)
}

// insert takes the key over when ended is set (the look-up found it
// answer expired, or its lease ended), then inserts a held row for a new claim.
// It returns nil and no error when another claim inserted the key first.
// The statements run on one connection, and the lease is reckoned from
// when it was had: on SQLite the wait for the writer may be long.
func (s *Keys) insert(ctx context.Context, k idempotency.Key, clock clock, lease time.Duration, ended bool) (*sqlClaim, error) {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	t := time.Now()
	now := clock.at(t).UnixMicro()
	if ended {
		if _, err := conn.ExecContext(ctx, s.stmts.deleteEnded, k.Subject, k.Key, now); err != nil {
			return nil, err
		}
	}
	c := &sqlClaim{store: s, subject: k.Subject, key: k.Key, owner: rand.Text(),
		expires: k.Expires.UnixMicro(), lease: lease, clock: clock, leaseEnd: clock.at(t).Add(lease)}
	n, err := affected(conn.ExecContext(ctx, insertClaim, k.Subject, k.Key, k.Fingerprint, now, c.expires, c.owner, c.leaseEnd.UnixMicro()))
	if err != nil || n == 0 {
		return nil, err
	}
	if time.Since(t) > lease/3 {
		// The insert waited for the database's write lock (another
		// process held it): its lease was reckoned from before the wait.
		end := clock.at(time.Now()).Add(lease)
		n, err := affected(conn.ExecContext(ctx, renewClaim, k.Subject, k.Key, c.owner, end.UnixMicro()))
		if err != nil || n == 0 {
			return nil, err // taken over meanwhile: look again
		}
		c.leaseEnd = end
	}
	return c, nil
}

// clock tells the time on the caller's clock: the time of a request
// (Key.Now) plus what passed since on the monotonic clock.
type clock struct{ base, start time.Time }

func newClock(base time.Time) clock { return clock{base: base, start: time.Now()} }

// at returns the caller's time at t, a reading of time.Now.
func (c clock) at(t time.Time) time.Time { return c.base.Add(t.Sub(c.start)) }

// isLockNotAvailable reports whether err is PostgreSQL's
// lock_not_available (55P03), the error of FOR UPDATE NOWAIT on a row
// another transaction holds.
func isLockNotAvailable(err error) bool {
	var state interface{ SQLState() string }
	return errors.As(err, &state) && state.SQLState() == "55P03"
}

// keyRow is a row of idempotency_keys.
type keyRow struct {
	fingerprint []byte
	status      int
	header      string
	body        []byte
	expiresAt   int64
	heldUntil   sql.NullInt64
}

// held reports whether a claim holds the row (no answer is recorded).
func (row keyRow) held() bool { return row.status == 0 }

// end is when the row ends: its lease's end while held, else when its
// answer expires. A held row without held_until (from before the column)
// kept its lease in expires_at.
func (row keyRow) end() int64 {
	if row.heldUntil.Valid {
		return row.heldUntil.Int64
	}
	return row.expiresAt
}

func (s *Keys) lookup(ctx context.Context, k idempotency.Key) (keyRow, bool, error) {
	var row keyRow
	err := s.read.QueryRowContext(ctx, selectKey, k.Subject, k.Key).Scan(&row.fingerprint, &row.status, &row.header, &row.body, &row.expiresAt, &row.heldUntil)
	if errors.Is(err, sql.ErrNoRows) {
		return row, false, nil
	}
	return row, err == nil, err
}

// inUse is the error for a key the row holds.
func (row keyRow) inUse() error {
	return &idempotency.InUseError{Fingerprint: row.fingerprint, LeaseEnd: time.UnixMicro(row.end())}
}

// response is the answer a row records.
func (row keyRow) response() (*idempotency.Response, error) {
	resp := &idempotency.Response{Fingerprint: row.fingerprint, Status: row.status, Body: row.body}
	if err := json.Unmarshal([]byte(row.header), &resp.Header); err != nil {
		return nil, fmt.Errorf("reading the recorded headers: %w", err)
	}
	return resp, nil
}

// Tx returns the transaction of the claim that ctx carries, for a write
// that must commit together with the recorded answer; nil and no error
// when ctx carries no claim of this store (the write then goes where it
// would without a key). The first call begins the transaction and checks
// there that the request still holds the key: when another request has
// taken the key over (this one's lease ended), it fails with
// idempotency.ErrClaimLost and the write must not happen. From then on
// the answer is recorded, in the same transaction.
//
// The transaction lasts until the claim is committed or released, and
// until the claim's lease ends at the latest, whatever becomes of ctx:
// past that it is rolled back, and the statements run in it fail. The
// first call renews the lease when less than two thirds of one
// (Key.LeaseEnd - Key.Now) are left, so that the transaction has at
// least that long. While it is open, run the request's reads of the same
// database in it too ([Keys.ActiveTx]): a request that holds one
// connection and waits for another can exhaust a small pool.
func (s *Keys) Tx(ctx context.Context) (*sql.Tx, error) {
	c := s.claimOf(ctx)
	if c == nil {
		return nil, nil
	}
	return c.join(ctx)
}

// ActiveTx returns the transaction of the claim that ctx carries when a
// write has begun it ([Keys.Tx]), for the reads that follow; false
// when there is none, and the reads use a connection of their own.
func (s *Keys) ActiveTx(ctx context.Context) (*sql.Tx, bool) {
	c := s.claimOf(ctx)
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tx, c.state == claimJoined
}

func (s *Keys) claimOf(ctx context.Context) *sqlClaim {
	c, ok := ctx.Value(claimKey{}).(*sqlClaim)
	if !ok || c.store != s {
		return nil
	}
	return c
}

type claimKey struct{}
