package auth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// sqlTokens is the token store of a SQL store, which can purge.
type sqlTokens interface {
	auth.TokenStore
	Purge(ctx context.Context, now time.Time) error
}

// tokenStore is a real store of users and tokens, migrated and empty.
type tokenStore struct {
	users   auth.UserStore
	tokens  sqlTokens
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
		// As sqlite.Open: one writer connection, a read pool.
		p := testdb.SQLitePools(t)
		return tokenStore{users: p.Store.Users(), tokens: p.Tokens(), counter: p.Counter, close: p.Close}
	}},
	{name: "postgres", open: func(t testing.TB) tokenStore {
		s, c := testdb.Postgres(t)
		return tokenStore{users: s.Users(), tokens: s.Tokens(), counter: c, close: s.Close}
	}},
}

// addUser creates a user who can log in with "correct horse".
func addUser(t testing.TB, users auth.UserStore, email string) int64 {
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
			issuer, v := pair(t, testSecret, auth.Config{Tokens: s.tokens, Now: clk.Now})
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
// statement (on SQLite through a read pool, as with sqlite.Open),
// for a token without a session (as the token command issues) and
// for one of a live session (as a login issues).
func BenchmarkVerify(b *testing.B) {
	ctx := context.Background()
	run := func(b *testing.B, tokens auth.TokenStore, token string) {
		_, v := pair(b, testSecret, auth.Config{Tokens: tokens, Now: testConfig().Now})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.Verify(ctx, token); err != nil {
				b.Fatal(err)
			}
		}
	}
	plain := hs256(b, validClaims())
	b.Run("none", func(b *testing.B) { run(b, nil, plain) })
	for _, st := range tokenStores {
		b.Run(st.name, func(b *testing.B) { run(b, st.open(b).tokens, plain) })
		b.Run(st.name+"-session", func(b *testing.B) {
			s := st.open(b)
			user := addUser(b, s.users, "bench@example.com")
			startChain(b, s.tokens, user, 1, testNow.Add(-time.Hour))
			run(b, s.tokens, hs256(b, with(map[string]any{"sub": fmt.Sprint(user), "sid": "session-1", "auth_time": testNow.Add(-time.Hour).Unix()})))
		})
	}
}

// revocations are the three ways a session ends, as the store sees them:
// a logout or reuse detection by the session's id, a logout by a refresh
// token of the session (the cookie), and the user's cutoff.
var revocations = []struct {
	name   string
	revoke func(ctx context.Context, tokens auth.TokenStore, user int64, session string, refresh []byte, at time.Time) error
}{
	{"session", func(ctx context.Context, tokens auth.TokenStore, user int64, session string, _ []byte, at time.Time) error {
		ok, err := tokens.RevokeSession(ctx, session, nil, user, at)
		if err == nil && !ok {
			err = errors.New("RevokeSession found no session")
		}
		return err
	}},
	{"refresh token", func(ctx context.Context, tokens auth.TokenStore, user int64, _ string, refresh []byte, at time.Time) error {
		ok, err := tokens.RevokeSession(ctx, "", refresh, user, at)
		if err == nil && !ok {
			err = errors.New("RevokeSession found no session")
		}
		return err
	}},
	{"user", func(ctx context.Context, tokens auth.TokenStore, user int64, _ string, _ []byte, at time.Time) error {
		return tokens.RevokeUser(ctx, user, at)
	}},
}

// expectRevoked checks what tokens' Revoked answers for tok.
func expectRevoked(t *testing.T, tokens auth.TokenStore, what string, tok auth.Token, want bool) {
	t.Helper()
	if got, err := tokens.Revoked(context.Background(), tok); err != nil || got != want {
		t.Errorf("Revoked(%s) = %v, %v; want %v", what, got, err, want)
	}
}

// after1h is when a chain started at start ends (startChain's lifetime).
func after1h(start time.Time) time.Time { return start.Add(time.Hour) }

// chainHash is the hash of token j of chain i.
func chainHash(i, j int) []byte { return []byte(fmt.Sprintf("%016d%016d", i, j)) }

// startChain starts session i of user at start with its first token.
func startChain(t testing.TB, tokens auth.TokenStore, user int64, i int, start time.Time) string {
	t.Helper()
	family := fmt.Sprint("session-", i)
	first := auth.RefreshToken{Hash: chainHash(i, 0), Family: family, UserID: user, CreatedAt: start,
		ExpiresAt: start.Add(time.Hour), FamilyExpiresAt: start.Add(time.Hour), SessionStart: start}
	if err := tokens.StartSession(context.Background(), first); err != nil {
		t.Fatalf("StartSession: %v", err)
	}
	return family
}

// TestRevocationBeatsRotationLoop rotates one chain back to back while a
// revocation runs beside it, in each of the three ways: the revocation
// succeeds at once, no rotation that began after it returned succeeds,
// the chain's last token is refused with RevokedAt set, and the session's
// access tokens (issued after the revocation included) are refused.
func TestRevocationBeatsRotationLoop(t *testing.T) {
	for _, st := range tokenStores {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			s := st.open(t)
			for round := range 3 * len(revocations) {
				rv := revocations[round%len(revocations)]
				user := addUser(t, s.users, fmt.Sprintf("loop%d@example.com", round))
				start := time.Now()
				family := startChain(t, s.tokens, user, round, start)

				type attempt struct {
					began   time.Time
					rotated bool
					rec     auth.RefreshToken
				}
				var (
					attempts []attempt
					loopErr  error
					stop     = make(chan struct{})
					done     = make(chan struct{})
					warm     = make(chan struct{})
				)
				go func() {
					defer close(done)
					for j := 0; ; j++ {
						select {
						case <-stop:
							return
						default:
						}
						now := time.Now()
						next := auth.RefreshToken{Hash: chainHash(round, j+1), CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
						rec, rotated, _, err := s.tokens.RotateRefresh(ctx, chainHash(round, j), next, []byte("sealed"), now)
						if err != nil {
							loopErr = err
							return
						}
						attempts = append(attempts, attempt{began: now, rotated: rotated, rec: rec})
						if j == 20 {
							close(warm)
						}
						if !rotated {
							return
						}
					}
				}()
				select {
				case <-warm:
				case <-done:
					t.Fatalf("round %d: the loop ended before the revocation: %v", round, loopErr)
				}
				if err := rv.revoke(ctx, s.tokens, user, family, chainHash(round, 0), time.Now()); err != nil {
					t.Fatalf("round %d (%s): revoking: %v", round, rv.name, err)
				}
				revoked := time.Now()
				select {
				case <-done:
				case <-time.After(5 * time.Second):
					close(stop)
					<-done
					t.Fatalf("round %d (%s): the chain still rotates 5s after the revocation", round, rv.name)
				}
				if loopErr != nil {
					t.Fatalf("round %d (%s): rotating: %v", round, rv.name, loopErr)
				}
				for j, a := range attempts {
					if a.rotated && a.began.After(revoked) {
						t.Errorf("round %d (%s): rotation %d began %v after the revocation and succeeded", round, rv.name, j, a.began.Sub(revoked))
					}
				}
				last := attempts[len(attempts)-1]
				if last.rotated || last.rec.RevokedAt.IsZero() {
					t.Errorf("round %d (%s): the chain ended with %+v; want a refusal with RevokedAt set", round, rv.name, last)
				}
				// An access token of the session, however late it was issued.
				late := auth.Token{UserID: user, ID: fmt.Sprint("late-", round), Session: family, IssuedAt: time.Now().Add(time.Minute).Truncate(time.Second)}
				if got, err := s.tokens.Revoked(ctx, late); err != nil || !got {
					t.Errorf("round %d (%s): Revoked(an access token of the session) = %v, %v; want true", round, rv.name, got, err)
				}
			}
		})
	}
}

// TestSessionRevocation checks the answers of the session records on both
// stores, exactly: what RevokeSession and RevokeUser end, and what
// RotateRefresh and Revoked answer for it.
func TestSessionRevocation(t *testing.T) {
	for _, st := range tokenStores {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			s := st.open(t)
			user := addUser(t, s.users, "ses@example.com")
			other := addUser(t, s.users, "other@example.com")
			now := testNow.Add(250 * time.Millisecond)
			sessionToken := func(session string, iat time.Time) auth.Token {
				return auth.Token{UserID: user, ID: "jti-" + session, Session: session, IssuedAt: iat.Truncate(time.Second)}
			}
			checkRevoked := func(what string, tok auth.Token, want bool) {
				t.Helper()
				expectRevoked(t, s.tokens, what, tok, want)
			}
			rotate := func(i, j int, at time.Time) (auth.RefreshToken, bool) {
				t.Helper()
				rec, rotated, found, err := s.tokens.RotateRefresh(ctx, chainHash(i, j), auth.RefreshToken{Hash: chainHash(i, j+1), CreatedAt: at, ExpiresAt: at.Add(time.Hour)}, []byte("sealed"), at)
				if err != nil || !found {
					t.Fatalf("RotateRefresh(%d, %d) = %v, found %v", i, j, err, found)
				}
				return rec, rotated
			}

			a := startChain(t, s.tokens, user, 1, now)
			rec, rotated := rotate(1, 0, now.Add(time.Second))
			if !rotated || !rec.SessionStart.Equal(now) || rec.Family != a || !rec.RevokedAt.IsZero() {
				t.Fatalf("first rotation: %+v, %v; want rotated, session %s started at %v", rec, rotated, a, now)
			}
			checkRevoked("a live session's token", sessionToken(a, now), false)
			checkRevoked("a token of a session never started", sessionToken("no-such-session", now), true)

			// Another user cannot revoke the session, by id or by token.
			if ok, err := s.tokens.RevokeSession(ctx, a, chainHash(1, 1), other, now); err != nil || ok {
				t.Errorf("RevokeSession by another user = %v, %v; want false", ok, err)
			}
			checkRevoked("a session another user tried to revoke", sessionToken(a, now), false)

			// Revoked by a refresh token of it; again by id: both succeed,
			// and the first time stays.
			at := now.Add(2 * time.Second)
			for _, try := range []struct {
				session string
				refresh []byte
				at      time.Time
			}{{"", chainHash(1, 0), at}, {a, nil, at.Add(time.Second)}} {
				if ok, err := s.tokens.RevokeSession(ctx, try.session, try.refresh, user, try.at); err != nil || !ok {
					t.Fatalf("RevokeSession(%q, %x) = %v, %v; want true", try.session, try.refresh, ok, err)
				}
			}
			checkRevoked("a revoked session's token", sessionToken(a, now.Add(time.Hour)), true)
			rec, rotated = rotate(1, 1, now.Add(3*time.Second))
			if rotated || !rec.RevokedAt.Equal(at) {
				t.Errorf("rotating a token of the revoked session: %+v, %v; want refused, RevokedAt %v", rec, rotated, at)
			}

			// The user's cutoff, 300 ms into a second, ends the sessions
			// started before the next whole second, and spares the other
			// user's; iat or auth_time decide for tokens without a session.
			cutoff := testNow.Add(time.Minute + 300*time.Millisecond)
			next := testNow.Add(time.Minute + time.Second)
			before := startChain(t, s.tokens, user, 2, cutoff.Add(-time.Millisecond))
			sameSecond := startChain(t, s.tokens, user, 3, cutoff.Add(time.Millisecond))
			theirs := startChain(t, s.tokens, other, 4, cutoff.Add(-time.Millisecond))
			if err := s.tokens.RevokeUser(ctx, user, cutoff); err != nil {
				t.Fatal(err)
			}
			after := startChain(t, s.tokens, user, 5, next)
			for _, c := range []struct {
				name    string
				chain   int
				session string
				want    bool
			}{
				{"a session started before the cutoff", 2, before, true},
				{"a session started after the cutoff in its second", 3, sameSecond, true},
				{"another user's session", 4, theirs, false},
				{"a session started the next second", 5, after, false},
			} {
				tok := sessionToken(c.session, next.Add(time.Hour)) // iat long after the cutoff
				if c.chain == 4 {
					tok.UserID = other
				}
				checkRevoked(c.name, tok, c.want)
				rec, rotated := rotate(c.chain, 0, next.Add(time.Second))
				if rotated == c.want || rec.RevokedAt.IsZero() != !c.want {
					t.Errorf("rotating in %s: %+v, rotated %v; want rotated %v", c.name, rec, rotated, !c.want)
				}
				if c.want && !rec.RevokedAt.Equal(next) {
					t.Errorf("rotating in %s: RevokedAt %v; want the cutoff rounded up, %v", c.name, rec.RevokedAt, next)
				}
			}
			for _, c := range []struct {
				name string
				tok  auth.Token
				want bool
			}{
				{"iat in the cutoff's second", auth.Token{UserID: user, ID: "x1", IssuedAt: cutoff.Truncate(time.Second)}, true},
				{"iat the next second", auth.Token{UserID: user, ID: "x2", IssuedAt: next}, false},
				{"auth_time before the cutoff, iat after", auth.Token{UserID: user, ID: "x3", AuthTime: cutoff.Truncate(time.Second), IssuedAt: next}, true},
				{"no iat", auth.Token{UserID: user, ID: "x4"}, true},
			} {
				checkRevoked(c.name, c.tok, c.want)
			}

			// Purge deletes the sessions past their end; their tokens are
			// refused from then on, as unknown sessions.
			if err := s.tokens.Purge(ctx, after1h(next).Add(-time.Microsecond)); err != nil {
				t.Fatal(err)
			}
			checkRevoked("a token of a live session after a purge", sessionToken(after, next), false)
			if err := s.tokens.Purge(ctx, after1h(next)); err != nil {
				t.Fatal(err)
			}
			checkRevoked("a token of a purged session", sessionToken(after, next), true)
			if _, _, found, err := s.tokens.RotateRefresh(ctx, chainHash(5, 1), auth.RefreshToken{Hash: chainHash(5, 9)}, nil, next); err != nil || found {
				t.Errorf("rotating a purged token: found %v, %v; want not found", found, err)
			}
		})
	}
}

// TestCutoffOnlyMovesForward: logging a user out everywhere again with an
// earlier cutoff (a CLI host whose clock is behind, a caller passing an
// older time) keeps the later one, so that no session it ended comes
// back; a later cutoff still moves it.
func TestCutoffOnlyMovesForward(t *testing.T) {
	for _, st := range tokenStores {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			s := st.open(t)
			user := addUser(t, s.users, "back@example.com")
			start := time.Now().Add(-10 * time.Second)
			family := startChain(t, s.tokens, user, 0, start)
			tok := auth.Token{UserID: user, ID: "a", Session: family, IssuedAt: start.Truncate(time.Second)}
			checkRevoked := func(what string, tok auth.Token, want bool) {
				t.Helper()
				expectRevoked(t, s.tokens, what, tok, want)
			}

			if err := s.tokens.RevokeUser(ctx, user, time.Now()); err != nil {
				t.Fatalf("RevokeUser(now): %v", err)
			}
			checkRevoked("a session started before the cutoff", tok, true)
			if err := s.tokens.RevokeUser(ctx, user, start.Add(-5*time.Second)); err != nil {
				t.Fatalf("RevokeUser(earlier): %v", err)
			}
			checkRevoked("a session ended by the later cutoff, after an earlier one", tok, true)
			now := time.Now()
			rec, rotated, found, err := s.tokens.RotateRefresh(ctx, chainHash(0, 0),
				auth.RefreshToken{Hash: chainHash(0, 1), CreatedAt: now, ExpiresAt: now.Add(time.Hour)}, []byte("s"), now)
			if err != nil || !found || rotated || rec.RevokedAt.IsZero() {
				t.Errorf("rotating in the ended session: %+v, rotated %v, found %v, %v; want refused with RevokedAt", rec, rotated, found, err)
			}

			// A session begun after the cutoff's second lives until a
			// later cutoff ends it.
			later := startChain(t, s.tokens, user, 1, now.Add(2*time.Second))
			lateTok := auth.Token{UserID: user, ID: "b", Session: later}
			checkRevoked("a session begun after the cutoff", lateTok, false)
			if err := s.tokens.RevokeUser(ctx, user, now.Add(3*time.Second)); err != nil {
				t.Fatalf("RevokeUser(later): %v", err)
			}
			checkRevoked("a session begun before a later cutoff", lateTok, true)
		})
	}
}
