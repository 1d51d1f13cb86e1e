package idempotency_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// claimed is what a Claim returned, and how long it took.
type claimed struct {
	resp  *idempotency.Response
	claim idempotency.Claim
	err   error
	took  time.Duration
}

// claimBeside claims k, bounded by 5 s, and meanwhile reads a published
// article through the store's pool, bounded by 3 s: the read fails when
// the claim waits while holding the pool's last connection. (Bounds of
// seconds: round trips on SQLite under the race detector, on a loaded CI
// host, take some hundreds of milliseconds.)
func claimBeside(t *testing.T, b backend, article int64, k idempotency.Key) claimed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan claimed, 1)
	start := time.Now()
	go func() {
		resp, claim, err := b.keys.Claim(ctx, k)
		done <- claimed{resp, claim, err, time.Since(start)}
	}()
	var got claimed
	returned := false
	select {
	case got = <-done:
		returned = true
	case <-time.After(200 * time.Millisecond): // it waits: read beside it
	}
	rctx, rcancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer rcancel()
	if _, err := b.articles.FindPublished(rctx, article); err != nil {
		t.Errorf("an unrelated read beside the claim of %s at %v: %v", k.Key, k.Now.Sub(time.Unix(epoch, 0)), err)
	}
	if !returned {
		got = <-done
	}
	return got
}

// checkInUseAtOnce checks that c is an *InUseError that came at once
// (within 2 s: well before the claim's bound of 5 s).
func checkInUseAtOnce(t *testing.T, what string, c claimed) {
	t.Helper()
	var inUse *idempotency.InUseError
	if !errors.As(c.err, &inUse) || c.claim != nil || c.resp != nil || c.took > 2*time.Second {
		t.Errorf("%s: %v, %v, %v after %v; want an *InUseError at once", what, c.resp, c.claim, c.err, c.took)
	}
}

// A retry of a key whose claim a write has joined, sent after the
// claim's lease at the time of the write ended, is answered 409 at once:
// the write renewed the lease for the whole life of the claim's
// transaction. It waited for
// the transaction instead (PostgreSQL: on its row lock, holding a
// connection, so that an unrelated read on a pool of two starved; SQLite:
// for the writer the transaction holds).
//
// On PostgreSQL, a retry and the once-a-minute purge past even the renewed
// lease (as from a process whose clock is ahead) do not wait on the row
// the transaction locks either: the purge deletes the other expired keys.
// On SQLite no clock can be past a live transaction's lease (see
// TestSQLStoreJoinedTransactionEndsWithItsLease); the retry past the
// first lease sets off the purge there, which waits for the writer, and
// the retry does not wait for it.
func TestSQLStoreRetryOfAJoinedClaimNeverWaits(t *testing.T) {
	forEachBackend(t, 2, func(t *testing.T, b backend) {
		ctx := context.Background()
		owner, err := b.users.CreateUser(ctx, "Owner", "o@example.com", nil)
		if err != nil {
			t.Fatal(err)
		}
		art, err := b.articles.CreateArticle(ctx, articles.NewArticle{UserID: owner, Title: "T", Body: "b", Published: true})
		if err != nil {
			t.Fatal(err)
		}
		// A lease of an hour on the tests' clock: the transaction
		// outlives the test, whatever the load.
		const lease = time.Hour
		at := time.Unix(epoch, 0)
		k := idempotency.Key{Subject: "1", Key: "k", Fingerprint: []byte("A"), Now: at, Expires: at.Add(2 * lease), LeaseEnd: at.Add(lease)}
		a := mustClaim(t, b.keys, k)
		// Released before the pool closes, should the test fail.
		t.Cleanup(func() { _ = a.Release(ctx) })
		// The handler ran a while before its first write: the lease the
		// middleware last renewed has less than two thirds to go.
		firstEnd := at.Add(lease / 6)
		if err := a.Renew(ctx, firstEnd); err != nil {
			t.Fatal(err)
		}
		if _, err := b.users.CreateUser(a.Context(ctx), "A", "a@example.com", nil); err != nil {
			t.Fatal(err)
		}

		retry := k
		retry.Now = firstEnd.Add(time.Second) // past the first lease, within the renewed one
		retry.LeaseEnd = retry.Now.Add(lease)
		checkInUseAtOnce(t, "a retry past the first lease", claimBeside(t, b, art.ID, retry))

		if b.dialect == sqlstore.PostgreSQL {
			late := retry
			late.Now = k.LeaseEnd.Add(2 * time.Minute) // past the renewed lease too
			late.LeaseEnd = late.Now.Add(lease)
			if _, err := b.db.Exec(`INSERT INTO idempotency_keys (subject, key, fingerprint, status, header, body, created_at, expires_at)
VALUES ('3', 'stale', 'S', 201, '{}', '', 0, 0)`); err != nil {
				t.Fatal(err)
			}
			other := late
			other.Subject = "2"
			got := claimBeside(t, b, art.ID, other) // sets off the purge of expired keys
			if got.err != nil || got.claim == nil || got.took > 2*time.Second {
				t.Errorf("another subject's claim, which purges: %v, %v after %v; want a claim at once", got.claim, got.err, got.took)
			} else if err := got.claim.Release(ctx); err != nil {
				t.Error(err)
			}
			for deadline := time.Now().Add(2 * time.Second); b.count(t, "idempotency_keys") != 1; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%d keys 2 s after the purge began; want the held one alone", b.count(t, "idempotency_keys"))
				}
			}
			checkInUseAtOnce(t, "a retry past the renewed lease", claimBeside(t, b, art.ID, late))
		}

		want := idempotency.Response{Fingerprint: []byte("A"), Status: 201, Body: []byte("a")}
		if err := a.Commit(ctx, want); err != nil {
			t.Fatal(err)
		}
		resp, claim, err := b.keys.Claim(ctx, retry)
		if err != nil || claim != nil || resp == nil || string(resp.Body) != "a" {
			t.Errorf("a retry once committed = %+v, %v, %v; want the recorded answer", resp, claim, err)
		}
		b.checkTable(t, 2, 1)
	})
}

// A claim's transaction ends with the lease its first write renewed, even
// when the handler hangs and never ends the claim: it held SQLite's one
// writer (here, PostgreSQL's one connection) for ever, and every other
// write waited. The claim's writes are undone and its key is free.
func TestSQLStoreJoinedTransactionEndsWithItsLease(t *testing.T) {
	forEachBackend(t, 1, func(t *testing.T, b backend) {
		ctx := context.Background()
		// 2s, not less: the claim's own writes must end within its lease
		// on a loaded CI host (race detector, packages tested in parallel).
		const lease = 2 * time.Second
		now := time.Now()
		hung := mustClaim(t, b.keys, idempotency.Key{Subject: "1", Key: "hung", Fingerprint: []byte("A"),
			Now: now, Expires: now.Add(time.Hour), LeaseEnd: now.Add(lease)})
		t.Cleanup(func() { _ = hung.Release(ctx) }) // before the pool closes
		if _, err := b.users.CreateUser(hung.Context(ctx), "A", "a@example.com", nil); err != nil {
			t.Fatal(err)
		}
		// The handler hangs here. Another request writes.
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		start := time.Now()
		if _, err := b.users.CreateUser(wctx, "B", "b@example.com", nil); err != nil {
			t.Fatalf("a write beside a hung claim's transaction: %v after %v; want it once the claim's lease of %v has ended",
				err, time.Since(start).Round(time.Millisecond), lease)
		}
		t.Logf("a write beside a hung claim's transaction waited %v", time.Since(start).Round(time.Millisecond))
		retryAt := time.Now()
		mustClaim(t, b.keys, idempotency.Key{Subject: "1", Key: "hung", Fingerprint: []byte("A"),
			Now: retryAt, Expires: retryAt.Add(time.Hour), LeaseEnd: retryAt.Add(lease)}) // taken over
		if err := hung.Commit(ctx, idempotency.Response{Fingerprint: []byte("A"), Status: 201}); err == nil {
			t.Error("the hung claim's Commit after its lease: no error")
		}
		if err := hung.Release(ctx); err != nil {
			t.Error(err)
		}
		b.checkTable(t, 1, 1) // B, and the new claim of the key
	})
}
