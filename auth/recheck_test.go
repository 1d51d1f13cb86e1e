package auth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
)

// passedContext runs a request with the bearer token raw (none when empty)
// through mw and returns the context the handler got; the request must
// get through.
func passedContext(t *testing.T, mw func(http.Handler) http.Handler, raw string) context.Context {
	t.Helper()
	var ctx context.Context
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	if raw != "" {
		req.Header.Set("Authorization", "Bearer "+raw)
	}
	rec := httptest.NewRecorder()
	mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ctx = r.Context() })).ServeHTTP(rec, req)
	if ctx == nil {
		t.Fatalf("the request was refused: %d %s", rec.Code, rec.Body)
	}
	return ctx
}

// TestRecheck checks, on both stores, that Recheck sees a revocation that
// lands after a middleware let the request through, in each of the ways a
// token is revoked, at the cost of one statement, that it fails closed,
// and that it has nothing to ask of a context without a verified token.
func TestRecheck(t *testing.T) {
	for _, st := range tokenStores {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			s := st.open(t)
			user := addUser(t, s.users, "recheck@example.com")
			// The sessions live in real time (a revocation purges the
			// sessions that ended by the real clock); the tokens are the
			// test clock's.
			startChain(t, s.tokens, user, 1, time.Now())
			startChain(t, s.tokens, user, 2, time.Now())
			started := testNow.Add(-time.Minute)
			_, v := pair(t, testSecret, auth.Config{Tokens: s.tokens, Now: testConfig().Now})
			plain := hs256(t, with(map[string]any{"sub": "7", "jti": "plain"}))
			session := func(i int) string {
				return hs256(t, with(map[string]any{"sub": user, "jti": "s" + string(rune('0'+i)),
					"sid": "session-" + string(rune('0'+i)), "auth_time": started.Unix()}))
			}

			check := func(what string, ctx context.Context, recheck func(context.Context) error, want error, statements int64) {
				t.Helper()
				before := s.counter.Queries()
				err := recheck(ctx)
				if (want == nil && err != nil) || (want != nil && !errors.Is(err, want)) {
					t.Errorf("%s: Recheck = %v; want %v", what, err, want)
				}
				if n := s.counter.Queries() - before; n != statements {
					t.Errorf("%s: Recheck ran %d statements; want %d", what, n, statements)
				}
			}

			// A token without a session, denied after the middleware.
			for _, mw := range []struct {
				name string
				mw   func(http.Handler) http.Handler
			}{{"Required", v.Required}, {"Optional", v.Optional}, {"AuthenticateContext", func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					ctx, err := v.AuthenticateContext(r)
					if err != nil {
						t.Fatalf("AuthenticateContext: %v", err)
					}
					next.ServeHTTP(w, r.WithContext(ctx))
				})
			}}} {
				c := passedContext(t, mw.mw, plain)
				if id, ok := auth.UserID(c); !ok || id != 7 {
					t.Errorf("%s: UserID = %d, %v; want 7", mw.name, id, ok)
				}
				if tok, ok := auth.TokenFrom(c); !ok || tok.ID != "plain" {
					t.Errorf("%s: TokenFrom = %+v, %v; want the token", mw.name, tok, ok)
				}
				check(mw.name+", live token", c, auth.Recheck, nil, 1)
			}
			denied := passedContext(t, v.Required, plain)
			if err := s.tokens.RevokeToken(ctx, "plain", testNow.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			check("a token logged out after the middleware", denied, auth.Recheck, auth.ErrRevoked, 1)
			check("the same, through the Verifier", denied, v.Recheck, auth.ErrRevoked, 1)

			// A session's token: its session revoked, then the user's cutoff.
			c1, c2 := passedContext(t, v.Required, session(1)), passedContext(t, v.Required, session(2))
			check("a live session's token", c1, auth.Recheck, nil, 1)
			if ok, err := s.tokens.RevokeSession(ctx, "session-1", nil, user, testNow); err != nil || !ok {
				t.Fatalf("RevokeSession = %v, %v", ok, err)
			}
			check("a token of a session revoked after the middleware", c1, auth.Recheck, auth.ErrRevoked, 1)
			check("a token of another session", c2, auth.Recheck, nil, 1)
			if err := s.tokens.RevokeUser(ctx, user, time.Now().Add(time.Second)); err != nil {
				t.Fatal(err)
			}
			check("a token of a session its user's cutoff ended", c2, auth.Recheck, auth.ErrRevoked, 1)

			// Nothing to ask: no token, a context of WithToken or
			// WithUserID, a Verifier without a store. The Verifier asks
			// its own store for WithToken's token.
			anonymous := passedContext(t, v.Optional, "")
			check("an anonymous request", anonymous, auth.Recheck, nil, 0)
			check("an anonymous request, through the Verifier", anonymous, v.Recheck, nil, 0)
			tok, _ := auth.TokenFrom(denied)
			handMade := auth.WithToken(ctx, tok)
			check("a context of WithToken", handMade, auth.Recheck, nil, 0)
			check("a context of WithToken, through the Verifier", handMade, v.Recheck, auth.ErrRevoked, 1)
			check("a context of WithUserID", auth.WithUserID(ctx, 7), auth.Recheck, nil, 0)
			_, noStore := pair(t, testSecret, testConfig())
			check("a Verifier without a store", passedContext(t, noStore.Required, plain), auth.Recheck, nil, 0)
			check("a Verifier without a store, through it", handMade, noStore.Recheck, nil, 0)

			// Fail closed.
			live := passedContext(t, v.Required, hs256(t, with(map[string]any{"sub": "8", "jti": "other"})))
			s.close()
			check("a store that cannot answer", live, auth.Recheck, auth.ErrUnavailable, 0)
			check("a store that cannot answer, through the Verifier", live, v.Recheck, auth.ErrUnavailable, 0)
		})
	}
}
