package sqlite

import (
	"context"
	"database/sql"

	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/internal/sqlstore"
)

// IdempotencyStore is the [idempotency.Store] of a [Store], in the table
// idempotency_keys of the Idempotency schema, for idempotency.Config.Store.
// A claim is a row committed at once, holding no connection while the
// handler runs; the Store's writes in a request that holds a claim join
// the claim's transaction ([IdempotencyStore.Tx]), which the first of them
// begins, so that they commit together with the recorded answer, and the
// Store's reads that follow run in it too. Claims look keys up through the
// read-only pool, which waits on no lock, and write through the single
// writer, behind at most the claims' transactions under way, each of which
// ends within its lease. Write the application's own tables through
// [Store.WriteDB], or through Tx in a request that holds a claim.
type IdempotencyStore struct{ keys *sqlstore.Keys }

var _ idempotency.Store = (*IdempotencyStore)(nil)

// Idempotency returns the store of idempotency keys in the same database.
func (s *Store) Idempotency() *IdempotencyStore { return s.keys }

// Claim implements [idempotency.Store]. k.LeaseEnd must be after k.Now.
// The claim's row is committed when Claim returns.
func (i *IdempotencyStore) Claim(ctx context.Context, k idempotency.Key) (*idempotency.Response, idempotency.Claim, error) {
	return i.keys.Claim(ctx, k)
}

// Tx returns the transaction of the claim that ctx carries, for a write of
// the application's own that must commit together with the recorded
// answer; nil and no error when ctx carries no claim of this store. The
// first call begins the transaction and checks that the request still
// holds the key: when another request took it over, it fails with
// [idempotency.ErrClaimLost] and the write must not happen. The
// transaction ends with the claim, or with its lease at the latest.
func (i *IdempotencyStore) Tx(ctx context.Context) (*sql.Tx, error) {
	return i.keys.Tx(ctx)
}

// ActiveTx returns the transaction of the claim that ctx carries once a
// write has begun it ([IdempotencyStore.Tx]), for the reads that follow;
// false when there is none.
func (i *IdempotencyStore) ActiveTx(ctx context.Context) (*sql.Tx, bool) {
	return i.keys.ActiveTx(ctx)
}
