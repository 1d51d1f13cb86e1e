package idempotency_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/idempotency"
)

// keyAt is the key k of subject 1 claimed at epoch+sec seconds by a request
// with fingerprint fp, with the default lease and an answer kept an hour.
func keyAt(k string, sec int, fp string) idempotency.Key {
	now := time.Unix(epoch+int64(sec), 0)
	return idempotency.Key{Subject: "1", Key: k, Fingerprint: []byte(fp), Now: now,
		Expires: now.Add(time.Hour), LeaseEnd: now.Add(idempotency.DefaultLease)}
}

// mustClaim claims k, which must be free.
func mustClaim(t *testing.T, keys *idempotency.SQLStore, k idempotency.Key) idempotency.Claim {
	t.Helper()
	resp, claim, err := keys.Claim(context.Background(), k)
	if err != nil || resp != nil || claim == nil {
		t.Fatalf("Claim(%s at %v) = %v, %v, %v; want a claim", k.Key, k.Now.Unix()-epoch, resp, claim, err)
	}
	return claim
}

// checkInUse checks that claiming k finds it held by the request with
// fingerprint fp until leaseEnd.
func checkInUse(t *testing.T, keys *idempotency.SQLStore, k idempotency.Key, fp string, leaseEnd int) {
	t.Helper()
	resp, claim, err := keys.Claim(context.Background(), k)
	var inUse *idempotency.InUseError
	if !errors.As(err, &inUse) || resp != nil || claim != nil {
		t.Fatalf("Claim(%s at %v) = %v, %v, %v; want an *InUseError", k.Key, k.Now.Unix()-epoch, resp, claim, err)
	}
	if string(inUse.Fingerprint) != fp || inUse.LeaseEnd.Unix() != epoch+int64(leaseEnd) {
		t.Errorf("held by %q until %d, want %q until %d", inUse.Fingerprint, inUse.LeaseEnd.Unix()-epoch, fp, leaseEnd)
	}
}

// A claim holds its key until its lease ends, longer when renewed; then
// the key is taken over, and the first holder can neither write nor renew
// nor free the key of the second.
func TestSQLStoreLeaseAndTakeOver(t *testing.T) {
	forEachBackend(t, 1, func(t *testing.T, b backend) {
		ctx := context.Background()
		a := mustClaim(t, b.keys, keyAt("k", 0, "A"))
		checkInUse(t, b.keys, keyAt("k", 1, "B"), "A", 5)
		if err := a.Renew(ctx, time.Unix(epoch+8, 0)); err != nil {
			t.Fatalf("Renew: %v", err)
		}
		checkInUse(t, b.keys, keyAt("k", 6, "B"), "A", 8)
		if tx, ok := b.keys.ActiveTx(a.Context(ctx)); ok || tx != nil || a.Joined() {
			t.Errorf("before any write: ActiveTx = %v, %t, Joined %t; want none", tx, ok, a.Joined())
		}
		if tx, err := b.keys.Tx(ctx); tx != nil || err != nil {
			t.Errorf("Tx without a claim = %v, %v; want nil, nil", tx, err)
		}

		second := mustClaim(t, b.keys, keyAt("k", 8, "B")) // A's lease has ended
		if _, err := b.users.CreateUser(a.Context(ctx), "A", "a@example.com", nil); !errors.Is(err, idempotency.ErrClaimLost) {
			t.Errorf("a write of the first holder: %v, want ErrClaimLost", err)
		}
		if err := a.Renew(ctx, time.Unix(epoch+20, 0)); !errors.Is(err, idempotency.ErrClaimLost) {
			t.Errorf("a renewal by the first holder: %v, want ErrClaimLost", err)
		}
		if err := a.Release(ctx); err != nil {
			t.Errorf("Release of the lost claim: %v", err)
		}
		checkInUse(t, b.keys, keyAt("k", 9, "B"), "B", 13)

		sctx := second.Context(ctx)
		if _, err := b.users.CreateUser(sctx, "B", "b@example.com", nil); err != nil {
			t.Fatalf("a write of the second holder: %v", err)
		}
		tx, ok := b.keys.ActiveTx(sctx)
		if joined, err := b.keys.Tx(sctx); !ok || joined != tx || err != nil || !second.Joined() {
			t.Errorf("after a write: ActiveTx %t, Tx the same %t (%v), Joined %t", ok, joined == tx, err, second.Joined())
		}
		want := idempotency.Response{Fingerprint: []byte("B"), Status: 201, Header: http.Header{"Location": {"/b"}}, Body: []byte("made")}
		if err := second.Commit(ctx, want); err != nil {
			t.Fatalf("Commit: %v", err)
		}
		resp, claim, err := b.keys.Claim(ctx, keyAt("k", 10, "B"))
		if err != nil || claim != nil || resp == nil || !reflect.DeepEqual(*resp, want) {
			t.Errorf("Claim after the commit = %+v, %v, %v; want %+v", resp, claim, err, want)
		}
		if _, err := b.keys.Tx(sctx); err == nil {
			t.Error("a write joining a committed claim: no error")
		}
		if err := second.Release(ctx); err != nil {
			t.Errorf("Release after Commit: %v, want a no-op", err)
		}
		b.checkTable(t, 1, 1)
	})
}

// Releasing a claim, also after a failed commit, undoes the writes that
// joined it and frees the key.
func TestSQLStoreReleaseUndoesAndFrees(t *testing.T) {
	forEachBackend(t, 1, func(t *testing.T, b backend) {
		ctx := context.Background()
		unjoined := mustClaim(t, b.keys, keyAt("read", 0, "A"))
		if err := unjoined.Commit(ctx, idempotency.Response{Status: 200}); err == nil {
			t.Error("Commit of a claim no write joined: no error")
		}
		if err := unjoined.Release(ctx); err != nil {
			t.Fatal(err)
		}
		joined := mustClaim(t, b.keys, keyAt("write", 0, "A"))
		if _, err := b.users.CreateUser(joined.Context(ctx), "A", "a@example.com", nil); err != nil {
			t.Fatal(err)
		}
		if err := joined.Release(ctx); err != nil {
			t.Fatal(err)
		}
		failed := mustClaim(t, b.keys, keyAt("fails", 0, "A"))
		if _, err := b.users.CreateUser(failed.Context(ctx), "A", "a@example.com", nil); err != nil {
			t.Fatal(err)
		}
		gone, cancel := context.WithCancel(ctx)
		cancel() // as when the client has gone
		if err := failed.Commit(gone, idempotency.Response{Status: 201}); err == nil {
			t.Error("Commit with a cancelled context: no error")
		}
		if err := failed.Release(ctx); err != nil {
			t.Fatal(err)
		}
		b.checkTable(t, 0, 0)
		mustClaim(t, b.keys, keyAt("read", 1, "B"))
		mustClaim(t, b.keys, keyAt("write", 1, "B"))
		mustClaim(t, b.keys, keyAt("fails", 1, "B"))
	})
}

// A claim that a write has joined keeps its key past its lease: a
// request that would take it over waits for the transaction and then
// finds the recorded answer.
func TestSQLStoreJoinedClaimOutlivesItsLease(t *testing.T) {
	forEachBackend(t, 2, func(t *testing.T, b backend) {
		ctx := context.Background()
		a := mustClaim(t, b.keys, keyAt("k", 0, "A"))
		if _, err := b.users.CreateUser(a.Context(ctx), "A", "a@example.com", nil); err != nil {
			t.Fatal(err)
		}
		type result struct {
			resp  *idempotency.Response
			claim idempotency.Claim
			err   error
		}
		later := make(chan result, 1)
		go func() {
			resp, claim, err := b.keys.Claim(ctx, keyAt("k", 60, "A"))
			later <- result{resp, claim, err}
		}()
		time.Sleep(100 * time.Millisecond) // the claim above waits meanwhile
		if err := a.Commit(ctx, idempotency.Response{Fingerprint: []byte("A"), Status: 201, Body: []byte("a")}); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-later:
			if got.err != nil || got.claim != nil || got.resp == nil || string(got.resp.Body) != "a" {
				t.Errorf("Claim past the lease = %+v, %v, %v; want the recorded answer", got.resp, got.claim, got.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the later claim did not return")
		}
		b.checkTable(t, 1, 1)
	})
}

// Every method of the articles stores runs in a claim's transaction once a
// write has begun it: with one connection, a request that creates a user
// and an article, reads the article back and deletes another user's
// finishes, and sees its own writes.
func TestSQLStoreStoresRunInTheClaim(t *testing.T) {
	forEachBackend(t, 1, func(t *testing.T, b backend) {
		other, err := b.users.CreateUser(context.Background(), "Other", "other@example.com", nil)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := b.articles.CreateArticle(context.Background(), articles.NewArticle{UserID: other, Title: "Theirs", Body: "b", Published: true})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a wait for a second connection never ends
		defer cancel()
		claim := mustClaim(t, b.keys, keyAt("k", 0, "A"))
		ctx = claim.Context(ctx)
		user, err := b.users.CreateUser(ctx, "Ada", "ada@example.com", nil)
		if err != nil {
			t.Fatal(err)
		}
		mine, err := b.articles.CreateArticle(ctx, articles.NewArticle{UserID: user, Title: "Mine", Body: "b", Published: true})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := b.articles.FindPublished(ctx, mine.ID); err != nil || got.Author.Name != "Ada" {
			t.Errorf("FindPublished of its own article: %+v, %v", got, err)
		}
		if err := b.articles.DeleteArticle(ctx, theirs.ID, user); !errors.Is(err, articles.ErrNotAuthor) {
			t.Errorf("DeleteArticle of another's article: %v, want ErrNotAuthor", err)
		}
		if err := b.articles.DeleteArticle(ctx, mine.ID, user); err != nil {
			t.Errorf("DeleteArticle of its own article: %v", err)
		}
		if err := claim.Commit(ctx, idempotency.Response{Fingerprint: []byte("A"), Status: 204}); err != nil {
			t.Fatal(err)
		}
		b.checkTable(t, 2, 1)
	})
}
