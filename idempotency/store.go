package idempotency

import (
	"context"
	"net/http"
	"time"
)

// Key identifies one idempotent request: what [Store.Claim] takes.
type Key struct {
	// Subject is the caller the key belongs to; equal Keys of different
	// subjects never meet.
	Subject string
	// Key is the client's Idempotency-Key, without quotes.
	Key string
	// Fingerprint is a digest of the request: a later request with the
	// same key and another fingerprint is refused.
	Fingerprint []byte
	// Now is the time of the request; Expires is when a recorded answer
	// is forgotten.
	Now, Expires time.Time
}

// Response is an answer recorded under a key.
type Response struct {
	// Fingerprint is that of the request that produced the answer.
	Fingerprint []byte
	Status      int
	Header      http.Header
	Body        []byte
}

// Store keeps keys and the answers recorded under them. Implementations are
// safe for concurrent use.
type Store interface {
	// Claim takes k for the request that calls it. When an answer is
	// recorded under k (and has not expired), Claim returns it and a nil
	// Claim. Otherwise it returns a Claim that holds k until it is
	// committed or released: a concurrent Claim of the same key waits for
	// that, then returns the recorded answer or takes the key in turn.
	Claim(ctx context.Context, k Key) (*Response, Claim, error)
}

// Claim is a key held by one request.
type Claim interface {
	// Context returns ctx carrying the claim, for the handler: a store
	// that can make writes atomic with the key hands them its transaction
	// through it (see [SQLStore.Tx]).
	Context(ctx context.Context) context.Context
	// Commit records r under the key and gives the key up. After an
	// error nothing is recorded and the key is free again.
	Commit(ctx context.Context, r Response) error
	// Release gives the key up without recording an answer, undoing the
	// writes that joined the claim. It is a no-op after Commit.
	Release() error
}
