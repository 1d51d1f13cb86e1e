package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gqlkit/gqlkit/idempotency"
)

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
	store               *Keys
	subject, key, owner string
	expires             int64 // of the answer, Unix microseconds
	lease               time.Duration
	clock               clock

	// leaseEnd is the end of the lease as last committed, on the
	// caller's clock.
	leaseEnd time.Time

	mu     sync.Mutex
	state  claimState
	tx     *sql.Tx            // from the first write on
	txCtx  context.Context    // tx's: its deadline is the lease's end
	cancel context.CancelFunc // ends txCtx
}

// errTxExpired is what Commit returns when the claim's transaction
// outlived its lease and was rolled back.
var errTxExpired = errors.New("idempotency: the claim's transaction outlived its lease and was rolled back")

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
		return nil, idempotency.ErrClaimLost
	case claimEnded:
		return nil, errors.New("idempotency: a write joining a claim that has ended (its answer was under way)")
	}
	// The transaction ends with the lease, which others can see: it
	// never lives past what they see as held. A lease with less than two
	// thirds to go is renewed first, so that the transaction has that long
	// at least (the middleware renews every third of a lease, so this is
	// rare).
	t := time.Now()
	if c.leaseEnd.Sub(c.clock.at(t)) < c.lease*2/3 {
		end := c.clock.at(t).Add(c.lease)
		n, err := affected(c.store.write.ExecContext(ctx, renewClaim, c.subject, c.key, c.owner, end.UnixMicro()))
		if err != nil {
			return nil, fmt.Errorf("idempotency: renewing a claim's lease: %w", err)
		}
		if n == 0 {
			c.state = claimLost
			return nil, idempotency.ErrClaimLost
		}
		c.leaseEnd = end
	}
	// ctx bounds the wait for the connection; the transaction then lasts
	// until the claim ends or the lease does, whatever becomes of ctx (a
	// resolver's, say).
	txCtx, cancel := context.WithDeadline(context.WithoutCancel(ctx), t.Add(c.leaseEnd.Sub(c.clock.at(t))))
	stop := context.AfterFunc(ctx, cancel)
	tx, err := c.store.write.BeginTx(txCtx, nil)
	if !stop() && err == nil {
		err = ctx.Err()
		_ = tx.Rollback()
	}
	if err == nil {
		var n int64
		if n, err = affected(tx.ExecContext(ctx, lockClaim, c.subject, c.key, c.owner)); err == nil && n == 0 {
			err = idempotency.ErrClaimLost
		}
		if err != nil {
			_ = tx.Rollback()
		}
	}
	if err != nil {
		cancel()
		if errors.Is(err, idempotency.ErrClaimLost) {
			c.state = claimLost
			return nil, err
		}
		return nil, fmt.Errorf("idempotency: beginning the claim's transaction: %w", err)
	}
	c.tx, c.txCtx, c.cancel, c.state = tx, txCtx, cancel, claimJoined
	return tx, nil
}

// Renew implements [Claim]. Once a write has joined the claim it does
// nothing: the lease then covers the transaction's whole life (see
// [Keys.Tx]), which a renewal could not lengthen.
func (c *sqlClaim) Renew(ctx context.Context, leaseEnd time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case claimLost:
		return idempotency.ErrClaimLost
	case claimJoined, claimEnded:
		return nil
	}
	n, err := affected(c.store.write.ExecContext(ctx, renewClaim, c.subject, c.key, c.owner, leaseEnd.UnixMicro()))
	if err != nil {
		return err
	}
	if n == 0 {
		c.state = claimLost
		return idempotency.ErrClaimLost
	}
	c.leaseEnd = leaseEnd
	return nil
}

func (c *sqlClaim) Joined() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == claimJoined
}

func (c *sqlClaim) Commit(ctx context.Context, r idempotency.Response) error {
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
	if err != nil && errors.Is(c.txCtx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("%w: %w", errTxExpired, err)
	}
	c.cancel()
	c.tx, c.txCtx, c.cancel = nil, nil, nil
	switch {
	case err == nil:
		c.state = claimEnded
	case errors.Is(err, idempotency.ErrClaimLost):
		c.state = claimLost
	default: // still held, unless the commit happened after all: Release frees it
		c.state = claimHeld
	}
	return err
}

// record writes r into the claim's row, in its transaction.
func (c *sqlClaim) record(ctx context.Context, r idempotency.Response) error {
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
	if err == nil && n != 1 { // taken over: its lease ended while the transaction ran
		err = idempotency.ErrClaimLost
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
		c.tx, c.txCtx, c.cancel = nil, nil, nil
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
