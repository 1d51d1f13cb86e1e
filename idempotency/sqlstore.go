package idempotency

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// SQLStore is a [Store] in a SQL database reached through database/sql,
// PostgreSQL or SQLite, in the table idempotency_keys that the migrations of
// pgstore and sqlitestore create:
//
//	subject     TEXT    NOT NULL  -- Key.Subject
//	key         TEXT    NOT NULL  -- Key.Key; PRIMARY KEY (subject, key)
//	fingerprint BYTEA   NOT NULL  -- BLOB in SQLite
//	status      INTEGER NOT NULL  -- the answer's; 0 while the key is held
//	header      TEXT    NOT NULL  -- the answer's headers, a JSON object;
//	                              -- while held, the holder's token
//	body        BYTEA   NOT NULL  -- BLOB in SQLite; empty while held
//	created_at  BIGINT  NOT NULL  -- Unix microseconds
//	expires_at  BIGINT  NOT NULL  -- Unix microseconds: when the answer is
//	                              -- forgotten; while held, the lease's end
//
// # Claims
//
// A claim is a row inserted as held (status 0) with a random token of its
// holder and the end of its lease, and committed at once: it holds no
// connection or transaction while the handler runs. A concurrent claim of
// the same key finds the row and fails with an [*InUseError] without
// waiting. Renewing the lease updates the row; a row whose lease has
// ended (its holder died) is taken over by the next claim.
//
// The claim's transaction begins when the handler's first write asks for
// it ([SQLStore.Tx]). It first checks that the row is still the holder's,
// and locks it, so that a holder whose lease ended and whose key was taken
// over writes nothing; the answer is recorded into the row in the same
// transaction, so that the writes and the answer commit together or not
// at all. A claim that no write joined is deleted without recording.
//
// Expired rows are deleted as claims find them, and all of them at most
// once a minute.
type SQLStore struct {
	read, write *sql.DB
	lastPurge   atomic.Int64 // Unix microseconds
}

// NewSQLStore returns a store over the database that read and write reach
// (they may be the same *sql.DB), whose table idempotency_keys must exist.
// Claims look keys up through read and write through write, where their
// transactions run too. On SQLite, write must be the pool of one
// connection the application writes through (sqlitestore's), so that all
// writes of the process queue in one place; read may be its read-only pool.
func NewSQLStore(read, write *sql.DB) *SQLStore { return &SQLStore{read: read, write: write} }

// purgeEvery is how often Claim deletes every expired row.
const purgeEvery = time.Minute

// claimTries bounds how often Claim looks a key up again when other
// claims take and free it between its look-up and its insert.
const claimTries = 3

const (
	selectKey   = `SELECT fingerprint, status, header, body, expires_at FROM idempotency_keys WHERE subject = $1 AND key = $2`
	deleteEnded = `DELETE FROM idempotency_keys WHERE subject = $1 AND key = $2 AND expires_at <= $3`
	insertClaim = `INSERT INTO idempotency_keys (subject, key, fingerprint, status, header, body, created_at, expires_at)
VALUES ($1, $2, $3, 0, $4, $5, $6, $7) ON CONFLICT (subject, key) DO NOTHING`
	// The statements on a held row name its holder ($3), so that they
	// do nothing to a row another claim has taken over.
	renewClaim   = `UPDATE idempotency_keys SET expires_at = $4 WHERE subject = $1 AND key = $2 AND status = 0 AND header = $3`
	lockClaim    = `UPDATE idempotency_keys SET status = 0 WHERE subject = $1 AND key = $2 AND status = 0 AND header = $3`
	recordAnswer = `UPDATE idempotency_keys SET status = $4, header = $5, body = $6, expires_at = $7
WHERE subject = $1 AND key = $2 AND status = 0 AND header = $3`
	deleteClaim = `DELETE FROM idempotency_keys WHERE subject = $1 AND key = $2 AND status = 0 AND header = $3`
	purgeKeys   = `DELETE FROM idempotency_keys WHERE expires_at <= $1`
)

// Claim implements [Store]. k.LeaseEnd must be after k.Now.
func (s *SQLStore) Claim(ctx context.Context, k Key) (*Response, Claim, error) {
	now := k.Now.UnixMicro()
	if last := s.lastPurge.Load(); now-last >= purgeEvery.Microseconds() && s.lastPurge.CompareAndSwap(last, now) {
		if _, err := s.write.ExecContext(ctx, purgeKeys, now); err != nil {
			return nil, nil, fmt.Errorf("deleting expired keys: %w", err)
		}
	}
	for range claimTries {
		row, found, err := s.lookup(ctx, k)
		switch {
		case err != nil:
			return nil, nil, err
		case found && row.expiresAt > now && row.status == 0:
			return nil, nil, &InUseError{Fingerprint: row.fingerprint, LeaseEnd: time.UnixMicro(row.expiresAt)}
		case found && row.expiresAt > now:
			resp, err := row.response()
			return resp, nil, err
		case found: // expired, or a claim whose lease ended: take it over
			if _, err := s.write.ExecContext(ctx, deleteEnded, k.Subject, k.Key, now); err != nil {
				return nil, nil, err
			}
		}
		c := &sqlClaim{store: s, subject: k.Subject, key: k.Key, owner: rand.Text(), expires: k.Expires.UnixMicro()}
		n, err := affected(s.write.ExecContext(ctx, insertClaim, k.Subject, k.Key, k.Fingerprint, c.owner, []byte{}, now, k.LeaseEnd.UnixMicro()))
		if err != nil {
			return nil, nil, err
		}
		if n == 1 {
			return nil, c, nil
		}
		// Another claim inserted the key since the look-up: look again.
	}
	return nil, nil, errors.New("idempotency: the key was taken and freed again and again")
}

// keyRow is a row of idempotency_keys.
type keyRow struct {
	fingerprint []byte
	status      int
	header      string
	body        []byte
	expiresAt   int64
}

func (s *SQLStore) lookup(ctx context.Context, k Key) (keyRow, bool, error) {
	var row keyRow
	err := s.read.QueryRowContext(ctx, selectKey, k.Subject, k.Key).Scan(&row.fingerprint, &row.status, &row.header, &row.body, &row.expiresAt)
	if errors.Is(err, sql.ErrNoRows) {
		return row, false, nil
	}
	return row, err == nil, err
}

// response is the answer a row records.
func (row keyRow) response() (*Response, error) {
	resp := &Response{Fingerprint: row.fingerprint, Status: row.status, Body: row.body}
	if err := json.Unmarshal([]byte(row.header), &resp.Header); err != nil {
		return nil, fmt.Errorf("reading the recorded headers: %w", err)
	}
	return resp, nil
}

// Tx returns the transaction of the claim that ctx carries, for a write
// that must commit together with the recorded answer; nil and no error
// when ctx carries no claim of this store. The first call begins the
// transaction and checks that the request still holds the key: when
// another request has taken the key over (this one's lease ended), it
// fails with [ErrClaimLost] and the write must not happen. From then on
// the answer is recorded, in the same transaction.
//
// The transaction lasts until the claim is committed or released, not as
// long as ctx. While it is open, run the request's reads of the same
// database in it too ([SQLStore.ActiveTx]): a request that holds one
// connection and waits for another can exhaust a small pool.
func (s *SQLStore) Tx(ctx context.Context) (*sql.Tx, error) {
	c := s.claimOf(ctx)
	if c == nil {
		return nil, nil
	}
	return c.join(ctx)
}

// ActiveTx returns the transaction of the claim that ctx carries when a
// write has begun it ([SQLStore.Tx]), for the reads that follow; false
// when there is none, and the reads use a connection of their own.
func (s *SQLStore) ActiveTx(ctx context.Context) (*sql.Tx, bool) {
	c := s.claimOf(ctx)
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tx, c.state == claimJoined
}

func (s *SQLStore) claimOf(ctx context.Context) *sqlClaim {
	c, ok := ctx.Value(claimKey{}).(*sqlClaim)
	if !ok || c.store != s {
		return nil
	}
	return c
}

type claimKey struct{}

// claimState is where a claim is in its life.
type claimState int

const (
	claimHeld   claimState = iota // committed as held; no transaction
	claimJoined                   // a write began the transaction
	claimLost                     // another claim took the key over
	claimEnded                    // committed or released
)

// sqlClaim is a key held by a row of idempotency_keys.
type sqlClaim struct {
	store               *SQLStore
	subject, key, owner string
	expires             int64 // of the answer, Unix microseconds

	mu     sync.Mutex
	state  claimState
	tx     *sql.Tx            // from the first write on
	cancel context.CancelFunc // ends tx's context
}

func (c *sqlClaim) Context(ctx context.Context) context.Context {
	return context.WithValue(ctx, claimKey{}, c)
}

// join begins the claim's transaction, or returns the one begun.
func (c *sqlClaim) join(ctx context.Context) (*sql.Tx, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case claimJoined:
		return c.tx, nil
	case claimLost:
		return nil, ErrClaimLost
	case claimEnded:
		return nil, errors.New("idempotency: a write joining a claim that has ended")
	}
	// ctx bounds the wait for a connection; the transaction then lasts
	// until the claim ends, whatever becomes of ctx (a resolver's, say).
	txCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	tx, err := c.store.write.BeginTx(txCtx, nil)
	if !stop() && err == nil {
		err = ctx.Err()
		_ = tx.Rollback()
	}
	if err != nil {
		cancel()
		return nil, fmt.Errorf("idempotency: beginning the claim's transaction: %w", err)
	}
	n, err := affected(tx.ExecContext(ctx, lockClaim, c.subject, c.key, c.owner))
	if err != nil || n == 0 {
		_ = tx.Rollback()
		cancel()
		if err != nil {
			return nil, fmt.Errorf("idempotency: locking a claim: %w", err)
		}
		c.state = claimLost
		return nil, ErrClaimLost
	}
	c.tx, c.cancel, c.state = tx, cancel, claimJoined
	return tx, nil
}

func (c *sqlClaim) Renew(ctx context.Context, leaseEnd time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case claimLost:
		return ErrClaimLost
	case claimJoined, claimEnded:
		return nil
	}
	n, err := affected(c.store.write.ExecContext(ctx, renewClaim, c.subject, c.key, c.owner, leaseEnd.UnixMicro()))
	if err != nil {
		return err
	}
	if n == 0 {
		c.state = claimLost
		return ErrClaimLost
	}
	return nil
}

func (c *sqlClaim) Joined() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == claimJoined
}

func (c *sqlClaim) Commit(ctx context.Context, r Response) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != claimJoined {
		return errors.New("idempotency: committing a claim that no write joined")
	}
	err := c.record(ctx, r)
	if err == nil {
		err = c.tx.Commit()
	} else {
		_ = c.tx.Rollback()
	}
	c.cancel()
	c.tx, c.cancel = nil, nil
	switch {
	case err == nil:
		c.state = claimEnded
	case errors.Is(err, ErrClaimLost):
		c.state = claimLost
	default: // still held, unless the commit happened after all: Release frees it
		c.state = claimHeld
	}
	return err
}

// record writes r into the claim's row, in its transaction.
func (c *sqlClaim) record(ctx context.Context, r Response) error {
	header := []byte("{}")
	if r.Header != nil {
		var err error
		if header, err = json.Marshal(r.Header); err != nil {
			return err
		}
	}
	body := r.Body
	if body == nil {
		body = []byte{}
	}
	n, err := affected(c.tx.ExecContext(ctx, recordAnswer, c.subject, c.key, c.owner, r.Status, string(header), body, c.expires))
	if err == nil && n != 1 { // cannot happen: the row is locked
		err = ErrClaimLost
	}
	return err
}

func (c *sqlClaim) Release(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	was := c.state
	if was == claimEnded {
		return nil
	}
	c.state = claimEnded
	if was == claimJoined {
		err := c.tx.Rollback()
		c.cancel()
		c.tx, c.cancel = nil, nil
		if err != nil && !errors.Is(err, sql.ErrTxDone) {
			return err
		}
	}
	if was == claimLost {
		return nil
	}
	// After the rollback: on SQLite the delete needs the connection the
	// transaction held. A row that holds an answer is not deleted.
	_, err := c.store.write.ExecContext(ctx, deleteClaim, c.subject, c.key, c.owner)
	return err
}

// affected returns the number of rows a statement changed.
func affected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
