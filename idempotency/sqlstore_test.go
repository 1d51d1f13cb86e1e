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
	"github.com/gqlkit/gqlkit/sqlstore"
)

// keyAt is the key k of subject 1 claimed at epoch+sec seconds by a request
// with fingerprint fp, with the default lease and an answer kept an hour.
func keyAt(k string, sec int, fp string) idempotency.Key {
	now := time.Unix(epoch+int64(sec), 0)
	return idempotency.Key{Subject: "1", Key: k, Fingerprint: []byte(fp), Now: now,
		Expires: now.Add(time.Hour), LeaseEnd: now.Add(idempotency.DefaultLease)}
}

// mustClaim claims k, which must be free.
func mustClaim(t *testing.T, keys sqlKeys, k idempotency.Key) idempotency.Claim {
	t.Helper()
	resp, claim, err := keys.Claim(context.Background(), k)
	if err != nil || resp != nil || claim == nil {
		t.Fatalf("Claim(%s at %v) = %v, %v, %v; want a claim", k.Key, k.Now.Unix()-epoch, resp, claim, err)
	}
	return claim
}

// checkInUse checks that claiming k finds it held by the request with
// fingerprint fp until leaseEnd.
func checkInUse(t *testing.T, keys sqlKeys, k idempotency.Key, fp string, leaseEnd int) {
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

// A claim's lease is reckoned from when its row lands, not from when the
// request came: a claim whose insert waited longer than its lease still
// holds its key when it returns. Its lease ended as it landed, and the
// next request took the key over.
func TestSQLStoreLeaseCountsFromWhenTheRowLands(t *testing.T) {
	forEachBackend(t, 2, func(t *testing.T, b backend) {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		// 2s, not less: the claim that waited must still hold its key when
		// the next request comes, on a loaded CI host (race detector).
		const lease = 2 * time.Second
		claimOf := func() idempotency.Key {
			now := time.Now()
			return idempotency.Key{Subject: "1", Key: "k", Fingerprint: []byte("B"), Now: now, Expires: now.Add(time.Hour), LeaseEnd: now.Add(lease)}
		}
		waiting, unblock := blockInsert(t, b, "k")
		type result struct {
			claim idempotency.Claim
			err   error
		}
		landed := make(chan result, 1)
		go func() {
			_, claim, err := b.keys.Claim(ctx, claimOf())
			landed <- result{claim, err}
		}()
		for deadline := time.Now().Add(5 * time.Second); !waiting(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				unblock()
				t.Fatal("the claim's insert did not wait")
			}
		}
		time.Sleep(lease + lease/2) // it waits for longer than its lease
		unblock()
		got := <-landed
		if got.err != nil || got.claim == nil {
			t.Fatalf("the claim that waited: %v, %v; want a claim", got.claim, got.err)
		}
		_, again, err := b.keys.Claim(ctx, claimOf())
		var inUse *idempotency.InUseError
		if !errors.As(err, &inUse) || again != nil {
			t.Errorf("a request with the key once the claim that waited returned: %v, %v; want an *InUseError", again, err)
		}
		if err := got.claim.Release(ctx); err != nil {
			t.Error(err)
		}
	})
}

// blockInsert makes the insert of the next claim of key wait until unblock
// is called, and returns with it a probe of whether the insert waits. On
// SQLite a claim's transaction holds the one writer connection, and the
// insert queues for it; on PostgreSQL a transaction has inserted the key
// and not committed, and the insert waits to see whether it will.
func blockInsert(t *testing.T, b backend, key string) (waiting func() bool, unblock func()) {
	t.Helper()
	ctx := context.Background()
	if b.dialect == sqlstore.SQLite {
		now := time.Now()
		holder := mustClaim(t, b.keys, idempotency.Key{Subject: "1", Key: "holder", Fingerprint: []byte("H"),
			Now: now, Expires: now.Add(time.Hour), LeaseEnd: now.Add(time.Hour)})
		if _, err := b.users.CreateUser(holder.Context(ctx), "H", "h@example.com", nil); err != nil {
			t.Fatal(err)
		}
		waits := b.waits()
		return func() bool { return b.waits() > waits }, func() { _ = holder.Release(ctx) }
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := tx.Exec(`INSERT INTO idempotency_keys (subject, key, fingerprint, status, header, body, created_at, expires_at)
VALUES ('1', $1, 'X', 0, 'another', '', 0, 0)`, key); err != nil {
		t.Fatal(err)
	}
	if err := tx.QueryRow(`SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	return func() bool {
			var n int
			err := b.db.QueryRow(`SELECT count(*) FROM pg_locks w JOIN pg_locks h
ON h.locktype = 'transactionid' AND h.transactionid = w.transactionid AND h.granted AND h.pid = $1
WHERE w.locktype = 'transactionid' AND NOT w.granted`, pid).Scan(&n)
			if err != nil {
				t.Error(err)
				return true
			}
			return n > 0
		}, func() {
			_ = tx.Rollback()
		}
}

// A claim whose key keeps changing hands between its look-up and its
// insert gives up after a few tries with the in-use answer, a 409 for the
// client, not a failure. Here the store looks keys up in a database where
// the key is free and inserts into one where it is held, so it loses
// every time.
func TestSQLStoreKeyChangingHandsIsInUse(t *testing.T) {
	for _, kind := range backends {
		t.Run(kind.name, func(t *testing.T) {
			held, free := kind.open(t, 2), kind.open(t, 2)
			mustClaim(t, held.keys, keyAt("k", 0, "A"))
			split := sqlstore.New(sqlstore.Database{Dialect: held.dialect, Read: free.db, Write: held.db}).Keys()
			resp, claim, err := split.Claim(context.Background(), keyAt("k", 1, "B"))
			var inUseErr *idempotency.InUseError
			if !errors.As(err, &inUseErr) || resp != nil || claim != nil {
				t.Fatalf("Claim of a key that changes hands = %v, %v, %v; want an *InUseError", resp, claim, err)
			}
			if inUseErr.Fingerprint != nil {
				t.Errorf("held by %q; want an unknown holder", inUseErr.Fingerprint)
			}
			f := newFixture(t, held, nil, func(cfg *idempotency.Config) { cfg.Store = split })
			got, retryAfter, err := f.try(http.MethodPost, "1", []string{"k"}, `{}`)
			if err != nil || got != inUse || retryAfter != "1" {
				t.Errorf("through the middleware: %+v, Retry-After %q, %v; want %+v with Retry-After 1", got, retryAfter, err, inUse)
			}
		})
	}
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
		page := articles.Page{MaxBytes: 1 << 20}
		if err := b.articles.ListPublished(ctx, 10, 0, &page); err != nil || page.Total != 2 || len(page.Articles) != 2 {
			t.Errorf("ListPublished with its own article: %+v, %v; want 2 articles of 2", page, err)
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
