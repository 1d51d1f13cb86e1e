package idempotency

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gqlkit/gqlkit/errcode"
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
	// LeaseEnd is when a claim that was neither renewed nor ended (its
	// process died) stops holding the key, so that another request may
	// take it over.
	LeaseEnd time.Time
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
	// Claim takes k for the request that calls it, in a short step that
	// holds nothing (no transaction, no connection) once it returns:
	//
	//   - when an answer is recorded under k (and has not expired), it
	//     returns that answer and a nil Claim;
	//   - when another claim holds k and its lease has not ended, or k
	//     cannot be taken over without waiting, it returns an error that
	//     is, or wraps, an [*InUseError], at once;
	//   - otherwise it returns a Claim that holds k for a lease of
	//     k.LeaseEnd - k.Now from when the claim is made, or longer if
	//     renewed.
	Claim(ctx context.Context, k Key) (*Response, Claim, error)
}

// Claim is a key held by one request. The writes whose effects the
// recorded answer describes join the claim (for the SQL stores, through
// their Tx method); a claim that no write joined is released, and its answer
// is not recorded.
//
// [Middleware] calls Renew every Lease/3 while the handler runs, Joined
// when the handler begins its answer, and then Commit or Release.
type Claim interface {
	// Context returns ctx carrying the claim, for the handler.
	Context(ctx context.Context) context.Context
	// Renew moves the lease to leaseEnd while the handler runs. It
	// fails with an error matching [ErrClaimLost] when another request
	// took the key over. A store may do nothing where its lease needs
	// no renewal (a SQL store's, once a write joined the claim, covers the
	// rest of the claim's life).
	Renew(ctx context.Context, leaseEnd time.Time) error
	// Joined reports whether the answer must be recorded: whether the
	// request wrote something that a retry must not write again. For
	// a SQL store, whether a write joined the claim's transaction; a store
	// that cannot tell reports true, and every answer below 500 is
	// recorded.
	Joined() bool
	// Commit records r under the key, together with the writes that
	// joined the claim, and ends the claim. After an error the writes
	// and the answer are, as a rule, not recorded, and Release frees the
	// key; but an error of the commit itself (the connection broke while
	// the database committed) may leave both recorded after all: Release
	// then keeps the answer, and a retry gets it replayed.
	Commit(ctx context.Context, r Response) error
	// Release ends the claim without recording an answer, undoing the
	// writes that joined it, and frees the key. It is a no-op after
	// Commit or Release.
	Release(ctx context.Context) error
}

// InUseError is the error of [Store.Claim] for a key that another request
// holds.
type InUseError struct {
	// Fingerprint is that of the request holding the key; nil when the
	// store cannot tell (the key changed hands under it again and again).
	Fingerprint []byte
	// LeaseEnd is when its hold ends unless it is renewed; zero when the
	// store cannot tell.
	LeaseEnd time.Time
}

func (e *InUseError) Error() string {
	if e.LeaseEnd.IsZero() {
		return "idempotency: another request holds the key"
	}
	return "idempotency: another request holds the key until " + e.LeaseEnd.UTC().Format(time.RFC3339Nano)
}

// ErrClaimLost is what a claim's Renew, and a write joining it, return
// when another request took the key over after the claim's lease ended:
// the write does not happen and nothing is recorded. It is an
// [*errcode.Error], so a handler that returns it answers the same 409 as
// the middleware gives a request whose key is in use.
var ErrClaimLost error = &errcode.Error{
	Code: CodeKeyInUse, Message: MessageInUse, Status: http.StatusConflict,
	Err: errors.New("idempotency: the claim's lease ended and another request took the key"),
}
