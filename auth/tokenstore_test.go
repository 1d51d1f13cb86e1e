package auth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// tokenStore is a real store of users and tokens, migrated and empty.
type tokenStore struct {
	users   auth.UserStore
	tokens  *auth.SQLTokenStore
	counter *testdb.Counter
	// close closes the store's connections: every later call fails.
	close func()
}

// tokenStores are the stores the token tests run on (PostgreSQL: skipped
// when TEST_DATABASE_URL is unset, failed when it is set but unreachable).
var tokenStores = []struct {
	name string
	open func(t testing.TB) tokenStore
}{
	{name: "sqlite", open: func(t testing.TB) tokenStore {
		s, db, c := testdb.SQLiteDB(t)
		return tokenStore{users: s, tokens: s.Tokens(), counter: c, close: func() { _ = db.Close() }}
	}},
	{name: "postgres", open: func(t testing.TB) tokenStore {
		s, c := testdb.Postgres(t)
		return tokenStore{users: s, tokens: s.Tokens(), counter: c, close: s.Close}
	}},
}

// addUser creates a user who can log in with "correct horse".
func addUser(t *testing.T, users auth.UserStore, email string) int64 {
	t.Helper()
	hash, err := auth.HashPassword("correct horse", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	id, err := users.CreateUser(context.Background(), "User", email, hash)
	if err != nil {
		t.Fatalf("CreateUser: %v", err)
	}
	return id
}

// TestRevocation checks the denylist and the per-user cutoff on both
// stores, through Verify and through the middleware, and counts the
// statements a check costs.
func TestRevocation(t *testing.T) {
	for _, st := range tokenStores {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			s := st.open(t)
			clk := newClock()
			issuer, v := pair(t, auth.Config{Secret: testSecret, Tokens: s.tokens, Now: clk.Now})
			issue := func(user int64) (string, auth.Token) {
				t.Helper()
				raw, err := issuer.Issue(user)
				if err != nil {
					t.Fatal(err)
				}
				tok, err := v.Verify(ctx, raw)
				if err != nil {
					t.Fatalf("Verify(fresh token): %v", err)
				}
				return raw, tok
			}
			rawA, a := issue(7)
			rawB, _ := issue(7)
			rawC, _ := issue(8)

			// One statement per check.
			before := s.counter.Queries()
			for range 10 {
				if _, err := v.Verify(ctx, rawA); err != nil {
					t.Fatal(err)
				}
			}
			if n := s.counter.Queries() - before; n != 10 {
				t.Errorf("10 checks ran %d statements; want 10", n)
			}

			// Logging one token out.
			if err := s.tokens.RevokeToken(ctx, a.ID, a.ExpiresAt); err != nil {
				t.Fatalf("RevokeToken: %v", err)
			}
			if _, err := v.Verify(ctx, rawA); !errors.Is(err, auth.ErrRevoked) {
				t.Errorf("Verify(revoked) = %v; want ErrRevoked", err)
			}
			if _, err := v.Verify(ctx, rawB); err != nil {
				t.Errorf("Verify(another token of the user) = %v; want it accepted", err)
			}

			// The denylist entry goes once the token has expired.
			if revoked, err := s.tokens.Revoked(ctx, a); err != nil || !revoked {
				t.Fatalf("Revoked before the purge = %v, %v; want true", revoked, err)
			}
			if err := s.tokens.Purge(ctx, a.ExpiresAt.Add(-time.Second)); err != nil {
				t.Fatal(err)
			}
			if revoked, _ := s.tokens.Revoked(ctx, a); !revoked {
				t.Error("the entry was purged before the token expired")
			}
			if err := s.tokens.Purge(ctx, a.ExpiresAt); err != nil {
				t.Fatal(err)
			}
			if revoked, err := s.tokens.Revoked(ctx, a); err != nil || revoked {
				t.Errorf("Revoked after the token expired and the purge = %v, %v; want false (row gone)", revoked, err)
			}

			// Log out everywhere: user 7's tokens issued up to the cutoff's
			// second are refused, user 8's are not, later ones are good.
			clk.Add(10 * time.Second)
			if err := s.tokens.RevokeUser(ctx, 7, clk.Now().Add(300*time.Millisecond)); err != nil {
				t.Fatalf("RevokeUser: %v", err)
			}
			if _, err := v.Verify(ctx, rawB); !errors.Is(err, auth.ErrRevoked) {
				t.Errorf("Verify(token from before the cutoff) = %v; want ErrRevoked", err)
			}
			sameSecond, err := issuer.Issue(7)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := v.Verify(ctx, sameSecond); !errors.Is(err, auth.ErrRevoked) {
				t.Errorf("Verify(token of the cutoff's second) = %v; want ErrRevoked", err)
			}
			if _, err := v.Verify(ctx, rawC); err != nil {
				t.Errorf("Verify(another user's token) = %v; want it accepted", err)
			}
			clk.Add(time.Second)
			issue(7) // a new login is good

			// A token without iat counts as issued before the cutoff.
			noIat := hs256(t, with(map[string]any{"sub": "7", "iat": nil, "jti": "no-iat"}))
			if _, err := v.Verify(ctx, noIat); !errors.Is(err, auth.ErrRevoked) {
				t.Errorf("Verify(no iat, user with a cutoff) = %v; want ErrRevoked", err)
			}

			// The middleware's answers.
			srv := startServer(t, v.Required(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusNoContent)
			})))
			get := func(token string) response {
				return do(t, newRequest(t, http.MethodGet, srv.URL, "", http.Header{"Authorization": {"Bearer " + token}}))
			}
			if got := get(rawA); got.status != 401 || got.body != `{"message":"Unauthenticated."}` {
				t.Errorf("revoked token: %d %s; want 401", got.status, got.body)
			}
			if got := get(rawC); got.status != 204 {
				t.Errorf("good token: %d %s; want 204", got.status, got.body)
			}

			// Fail closed: a store that cannot answer refuses with a 503.
			s.close()
			if _, err := v.Verify(ctx, rawC); !errors.Is(err, auth.ErrUnavailable) {
				t.Errorf("Verify with the store closed = %v; want ErrUnavailable", err)
			}
			if got := get(rawC); got.status != 503 || got.body != `{"message":"Service unavailable."}` {
				t.Errorf("store closed: %d %s; want 503 Service unavailable.", got.status, got.body)
			}
		})
	}
}

// BenchmarkVerify measures what a revocation check adds to verifying a
// token: none is the signature and claims alone; the stores add their one
// statement (the SQLite store is testdb's single pool, not Open's read
// pool).
func BenchmarkVerify(b *testing.B) {
	ctx := context.Background()
	run := func(b *testing.B, tokens auth.TokenStore) {
		issuer, v := pair(b, auth.Config{Secret: testSecret, Tokens: tokens})
		token, err := issuer.Issue(7)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.Verify(ctx, token); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("none", func(b *testing.B) { run(b, nil) })
	for _, st := range tokenStores {
		b.Run(st.name, func(b *testing.B) { run(b, st.open(b).tokens) })
	}
}

// TestRevokeWhileRotating revokes a family, or all of a user's tokens,
// while its current token is being rotated: the successor the rotation
// inserts must be revoked too (on PostgreSQL, an UPDATE that waited for
// the rotation's row does not see the row it inserted).
func TestRevokeWhileRotating(t *testing.T) {
	for _, st := range tokenStores {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			s := st.open(t)
			user := addUser(t, s.users, "racer@example.com")
			now := testNow
			hash := func(i, j int) []byte { return []byte(fmt.Sprintf("%016d%016d", i, j)) }
			for i := range 60 {
				everywhere := i%2 == 1
				first := auth.RefreshToken{Hash: hash(i, 0), Family: fmt.Sprint("family-", i), UserID: user,
					CreatedAt: now, ExpiresAt: now.Add(time.Hour), FamilyExpiresAt: now.Add(time.Hour)}
				if err := s.tokens.CreateRefresh(ctx, first); err != nil {
					t.Fatal(err)
				}
				next := func(j int) auth.RefreshToken {
					return auth.RefreshToken{Hash: hash(i, j), CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
				}
				if _, rotated, _, err := s.tokens.RotateRefresh(ctx, hash(i, 0), next(1), []byte("sealed"), now); err != nil || !rotated {
					t.Fatalf("first rotation: %v, %v", rotated, err)
				}
				var wg sync.WaitGroup
				wg.Go(func() {
					if _, _, _, err := s.tokens.RotateRefresh(ctx, hash(i, 1), next(2), []byte("sealed"), now); err != nil {
						t.Error(err)
					}
				})
				wg.Go(func() {
					var err error
					if everywhere {
						err = s.tokens.RevokeUser(ctx, user, now)
					} else {
						_, err = s.tokens.RevokeRefresh(ctx, hash(i, 0), "", 0, now) // a reuse of the first token
					}
					if err != nil {
						t.Error(err)
					}
				})
				wg.Wait()
				for j := 1; j <= 2; j++ {
					rec, rotated, found, err := s.tokens.RotateRefresh(ctx, hash(i, j), next(3), []byte("sealed"), now)
					if err != nil {
						t.Fatal(err)
					}
					if rotated || (found && rec.RevokedAt.IsZero()) {
						t.Fatalf("round %d (everywhere %v): token %d survived the revocation: rotated %v, %+v", i, everywhere, j, rotated, rec)
					}
				}
			}
		})
	}
}
