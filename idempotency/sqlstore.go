package idempotency

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
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
//	status      INTEGER NOT NULL  -- 0 while the key is held
//	header      TEXT    NOT NULL  -- the answer's headers, a JSON object
//	body        BYTEA   NOT NULL  -- BLOB in SQLite
//	created_at  BIGINT  NOT NULL  -- Unix microseconds
//	expires_at  BIGINT  NOT NULL  -- Unix microseconds; indexed
//
// A claim is a transaction on the store's database that inserts the key's
// row; the unique key makes a concurrent claim of the same key wait for it.
// The claim commits together with the recorded answer, and the writes that
// joined it through [SQLStore.Tx] commit with them. Expired rows are deleted
// as claims find them, and all of them at most once a minute.
type SQLStore struct {
	db        *sql.DB
	lastPurge atomic.Int64 // Unix microseconds
}

// NewSQLStore returns a store over db, whose table idempotency_keys must
// exist. On SQLite, db should be the pool the application writes through
// (sqlitestore's writer), so that claims and writes queue in one place.
func NewSQLStore(db *sql.DB) *SQLStore { return &SQLStore{db: db} }

// purgeEvery is how often Claim deletes every expired row.
const purgeEvery = time.Minute

const (
	deleteExpiredKey = `DELETE FROM idempotency_keys WHERE subject = $1 AND key = $2 AND expires_at <= $3`
	insertKey        = `INSERT INTO idempotency_keys (subject, key, fingerprint, status, header, body, created_at, expires_at)
VALUES ($1, $2, $3, 0, '', $4, $5, $6) ON CONFLICT (subject, key) DO NOTHING`
	selectKey    = `SELECT fingerprint, status, header, body FROM idempotency_keys WHERE subject = $1 AND key = $2`
	recordKey    = `UPDATE idempotency_keys SET status = $3, header = $4, body = $5 WHERE subject = $1 AND key = $2`
	purgeKeys    = `DELETE FROM idempotency_keys WHERE expires_at <= $1`
	claimRetries = 3
)

// Claim implements [Store].
func (s *SQLStore) Claim(ctx context.Context, k Key) (*Response, Claim, error) {
	now := k.Now.UnixMicro()
	if last := s.lastPurge.Load(); now-last >= purgeEvery.Microseconds() && s.lastPurge.CompareAndSwap(last, now) {
		if _, err := s.db.ExecContext(ctx, purgeKeys, now); err != nil {
			return nil, nil, fmt.Errorf("deleting expired keys: %w", err)
		}
	}
	for range claimRetries {
		resp, claim, err := s.claim(ctx, k)
		if resp != nil || claim != nil || err != nil {
			return resp, claim, err
		}
		// The holder released the key between our insert and our read:
		// try again.
	}
	return nil, nil, errors.New("the key is claimed and released again and again")
}

func (s *SQLStore) claim(ctx context.Context, k Key) (*Response, Claim, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	now := k.Now.UnixMicro()
	if _, err := tx.ExecContext(ctx, deleteExpiredKey, k.Subject, k.Key, now); err != nil {
		_ = tx.Rollback()
		return nil, nil, err
	}
	res, err := tx.ExecContext(ctx, insertKey, k.Subject, k.Key, k.Fingerprint, []byte{}, now, k.Expires.UnixMicro())
	if err != nil {
		_ = tx.Rollback()
		return nil, nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		if err != nil {
			_ = tx.Rollback()
			return nil, nil, err
		}
		return nil, &sqlClaim{store: s, tx: tx, subject: k.Subject, key: k.Key}, nil
	}
	// Someone else's row, committed (a claim in flight would have made
	// the insert wait): read its answer.
	defer tx.Rollback()
	var (
		resp   Response
		header string
	)
	err = tx.QueryRowContext(ctx, selectKey, k.Subject, k.Key).Scan(&resp.Fingerprint, &resp.Status, &header, &resp.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal([]byte(header), &resp.Header); err != nil {
		return nil, nil, fmt.Errorf("reading the recorded headers: %w", err)
	}
	return &resp, nil, nil
}

// Tx returns the transaction of the claim that ctx carries, when the claim
// is this store's: a write to the same database made in it commits with the
// key, or not at all.
func (s *SQLStore) Tx(ctx context.Context) (*sql.Tx, bool) {
	c, ok := ctx.Value(claimKey{}).(*sqlClaim)
	if !ok || c.store != s {
		return nil, false
	}
	return c.tx, true
}

type claimKey struct{}

// sqlClaim is a key held by an open transaction.
type sqlClaim struct {
	store        *SQLStore
	tx           *sql.Tx
	subject, key string
}

func (c *sqlClaim) Context(ctx context.Context) context.Context {
	return context.WithValue(ctx, claimKey{}, c)
}

func (c *sqlClaim) Commit(ctx context.Context, r Response) error {
	header, err := json.Marshal(r.Header)
	if err != nil {
		_ = c.tx.Rollback()
		return err
	}
	if r.Header == nil {
		header = []byte("{}")
	}
	body := r.Body
	if body == nil {
		body = []byte{}
	}
	if _, err := c.tx.ExecContext(ctx, recordKey, c.subject, c.key, r.Status, string(header), body); err != nil {
		_ = c.tx.Rollback()
		return err
	}
	return c.tx.Commit()
}

func (c *sqlClaim) Release() error {
	if err := c.tx.Rollback(); err != nil && !errors.Is(err, sql.ErrTxDone) {
		return err
	}
	return nil
}
