package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
)

// refreshEnv is a refresh and a logout endpoint on one real store.
type refreshEnv struct {
	store    tokenStore
	clk      *fakeClock
	user     int64
	email    string
	issuer   *auth.Issuer
	verifier *auth.Verifier
	refresh  *auth.Refresher
	url      string // of the server: /api/auth/refresh, /api/auth/logout
}

func newRefreshEnv(t *testing.T, s tokenStore, cfg auth.RefreshConfig) *refreshEnv {
	t.Helper()
	e := &refreshEnv{store: s, clk: newClock()}
	e.email = fmt.Sprintf("user%d@example.com", time.Now().UnixNano())
	e.user = addUser(t, s.users, e.email)
	e.issuer, e.verifier = pair(t, testSecret, auth.Config{Tokens: s.tokens, Now: e.clk.Now})
	var err error
	cfg.Store, cfg.Now = s.tokens, e.clk.Now
	if e.refresh, err = auth.NewRefresher(e.issuer, cfg); err != nil {
		t.Fatal(err)
	}
	logout, err := auth.NewLogout(e.verifier, auth.LogoutConfig{Refresh: e.refresh})
	if err != nil {
		t.Fatal(err)
	}
	login, err := auth.NewLogin(s.users, e.issuer, auth.LoginConfig{Cost: bcrypt.MinCost, Refresh: e.refresh})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/auth/login", login)
	mux.Handle("/api/auth/refresh", e.refresh)
	mux.Handle("/api/auth/logout", logout)
	e.url = startServer(t, mux).URL
	return e
}

// start begins a family, as a login does.
func (e *refreshEnv) start(t *testing.T) string {
	t.Helper()
	token, _, err := e.refresh.Start(context.Background(), e.user)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return token
}

// refreshed is the answer of the refresh endpoint.
type refreshed struct {
	status    int
	body      string
	setCookie string
	access    string // access_token of a 200
	inBody    string // refresh_token of a 200's body
}

// cookieToken is the refresh token a Set-Cookie header sets.
func (r refreshed) cookieToken() string {
	v, _, _ := strings.Cut(strings.TrimPrefix(r.setCookie, auth.RefreshCookie+"="), ";")
	return v
}

// post sends a refresh with token in the cookie, or in the body when
// inBody is set.
func (e *refreshEnv) post(t *testing.T, token string, inBody bool) refreshed {
	t.Helper()
	h := http.Header{}
	body := ""
	if inBody {
		h.Set("Content-Type", "application/json")
		body = `{"refresh_token":"` + token + `"}`
	} else if token != "" {
		h.Set("Cookie", auth.RefreshCookie+"="+token)
	}
	got := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/refresh", body, h), "Set-Cookie")
	r := refreshed{status: got.status, body: got.body, setCookie: got.headers["Set-Cookie"]}
	if got.status == http.StatusOK {
		var b map[string]any
		if err := json.Unmarshal([]byte(got.body), &b); err != nil {
			t.Fatalf("refresh body %s: %v", got.body, err)
		}
		r.access, _ = b["access_token"].(string)
		r.inBody, _ = b["refresh_token"].(string)
	}
	return r
}

const (
	unauthenticated = `{"message":"Unauthenticated."}`
	clearedCookie   = "refresh_token=; Path=/api/auth; Max-Age=0; HttpOnly; Secure; SameSite=Strict"
)

func TestRefresh(t *testing.T) {
	for _, st := range tokenStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			e := newRefreshEnv(t, s, auth.RefreshConfig{SecureCookie: true})

			t.Run("login sets the cookie", func(t *testing.T) {
				got := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/login", `{"email":"`+e.email+`","password":"correct horse"}`,
					http.Header{"Content-Type": {"application/json"}}), "Set-Cookie")
				var body map[string]any
				_ = json.Unmarshal([]byte(got.body), &body)
				if got.status != 200 || len(body) != 3 || body["token_type"] != "bearer" {
					t.Fatalf("login: %d %s; want 200 with exactly access_token, token_type, expires_in", got.status, got.body)
				}
				token := refreshed{setCookie: got.headers["Set-Cookie"]}.cookieToken()
				if want := "refresh_token=" + token + "; Path=/api/auth; Max-Age=1209600; HttpOnly; Secure; SameSite=Strict"; got.headers["Set-Cookie"] != want || len(token) != 43 {
					t.Errorf("Set-Cookie = %q; want %q", got.headers["Set-Cookie"], want)
				}
				if r := e.post(t, token, false); r.status != 200 {
					t.Errorf("refresh with the login's token: %d %s", r.status, r.body)
				}
				bad := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/login", `{"email":"`+e.email+`","password":"wrong"}`,
					http.Header{"Content-Type": {"application/json"}}), "Set-Cookie")
				if bad.status != 401 || bad.headers["Set-Cookie"] != "" {
					t.Errorf("failed login: %d, Set-Cookie %q; want 401 and no cookie", bad.status, bad.headers["Set-Cookie"])
				}
			})

			t.Run("rotation by cookie", func(t *testing.T) {
				first := e.start(t)
				got := e.post(t, first, false)
				if got.status != 200 {
					t.Fatalf("refresh: %d %s", got.status, got.body)
				}
				var body map[string]any
				_ = json.Unmarshal([]byte(got.body), &body)
				if len(body) != 3 || body["token_type"] != "bearer" || body["expires_in"] != 3600.0 {
					t.Errorf("body %s; want exactly access_token, token_type bearer, expires_in 3600", got.body)
				}
				next := got.cookieToken()
				if want := "refresh_token=" + next + "; Path=/api/auth; Max-Age=1209600; HttpOnly; Secure; SameSite=Strict"; got.setCookie != want || len(next) != 43 || next == first {
					t.Errorf("Set-Cookie = %q; want %q with a new 43-character token", got.setCookie, want)
				}
				if tok, err := e.verifier.Verify(ctx, got.access); err != nil || tok.UserID != e.user {
					t.Errorf("Verify(access_token) = %+v, %v; want user %d", tok, err, e.user)
				}
				if again := e.post(t, next, false); again.status != 200 {
					t.Errorf("refresh with the rotated token: %d %s", again.status, again.body)
				}
			})

			t.Run("rotation by body", func(t *testing.T) {
				got := e.post(t, e.start(t), true)
				if got.status != 200 || len(got.inBody) != 43 || got.inBody != got.cookieToken() {
					t.Fatalf("refresh by body: %d %s, Set-Cookie %q; want the new token in body and cookie", got.status, got.body, got.setCookie)
				}
				if again := e.post(t, got.inBody, true); again.status != 200 {
					t.Errorf("refresh with the rotated token: %d %s", again.status, again.body)
				}
			})

			t.Run("reuse revokes the family", func(t *testing.T) {
				first := e.start(t)
				r2 := e.post(t, first, false)
				second := r2.cookieToken()
				r3 := e.post(t, second, false)
				third := r3.cookieToken()
				e.clk.Add(auth.DefaultReuseGrace + time.Second)
				// The thief (or the user) presents the first token again.
				if got := e.post(t, first, false); got.status != 401 || got.body != unauthenticated || got.setCookie != clearedCookie {
					t.Errorf("reuse: %d %s, Set-Cookie %q; want 401 and the cookie cleared", got.status, got.body, got.setCookie)
				}
				for name, tok := range map[string]string{"second (used)": second, "third (current)": third} {
					if got := e.post(t, tok, false); got.status != 401 {
						t.Errorf("the %s token after a reuse: %d %s; want 401", name, got.status, got.body)
					}
				}
				// The family's access tokens are refused at once, not when
				// they expire.
				for name, access := range map[string]string{"second's": r2.access, "third's": r3.access} {
					if _, err := e.verifier.Verify(ctx, access); !errors.Is(err, auth.ErrRevoked) {
						t.Errorf("the %s access token after a reuse: %v; want ErrRevoked", name, err)
					}
				}
				// Another family of the same user is untouched.
				if got := e.post(t, e.start(t), false); got.status != 200 {
					t.Errorf("another family: %d %s; want 200", got.status, got.body)
				}
			})

			t.Run("grace window under concurrency", func(t *testing.T) {
				first := e.start(t)
				const clients = 8
				var wg sync.WaitGroup
				answers := make([]refreshed, clients)
				for i := range clients {
					wg.Go(func() { answers[i] = e.post(t, first, false) })
				}
				wg.Wait()
				successor := answers[0].cookieToken()
				for i, a := range answers {
					if a.status != 200 || a.cookieToken() != successor {
						t.Errorf("client %d: %d %s, token %q; want 200 with the one successor %q", i, a.status, a.body, a.cookieToken(), successor)
					}
				}
				// Within the window, once more (a retry whose answer was lost).
				e.clk.Add(auth.DefaultReuseGrace)
				if got := e.post(t, first, false); got.status != 200 || got.cookieToken() != successor {
					t.Errorf("at the end of the window: %d %s; want the same successor", got.status, got.body)
				}
				if got := e.post(t, successor, false); got.status != 200 {
					t.Errorf("the successor: %d %s; want 200", got.status, got.body)
				}
			})

			t.Run("idle lifetime", func(t *testing.T) {
				tok := e.start(t)
				e.clk.Add(auth.DefaultRefreshIdleTTL)
				if got := e.post(t, tok, false); got.status != 401 || got.setCookie != clearedCookie {
					t.Errorf("after the idle lifetime: %d %s %q; want 401 and the cookie cleared", got.status, got.body, got.setCookie)
				}
			})

			t.Run("absolute lifetime", func(t *testing.T) {
				tok := e.start(t)
				for day := 6; day <= 12; day += 6 {
					e.clk.Add(6 * 24 * time.Hour)
					got := e.post(t, tok, false)
					if got.status != 200 {
						t.Fatalf("day %d: %d %s; want 200", day, got.status, got.body)
					}
					tok = got.cookieToken()
				}
				e.clk.Add(2 * 24 * time.Hour) // day 14: the family has expired
				if got := e.post(t, tok, false); got.status != 401 {
					t.Errorf("day 14: %d %s; want 401", got.status, got.body)
				}
			})

			t.Run("bad tokens never reach the store", func(t *testing.T) {
				before := s.counter.Queries()
				for _, tok := range []string{"", "short", strings.Repeat("!", 43), strings.Repeat("A", 44), strings.Repeat("a", 43)} {
					if got := e.post(t, tok, false); got.status != 401 || got.body != unauthenticated {
						t.Errorf("token %q: %d %s; want 401", tok, got.status, got.body)
					}
				}
				if got := e.post(t, strings.Repeat("A", 43), false); got.status != 401 {
					t.Errorf("unknown token: %d %s; want 401", got.status, got.body)
				}
				if n := s.counter.Queries() - before; n == 0 || n > 4 {
					t.Errorf("the refusals ran %d statements; want only the unknown token's rotation (at most 4)", n)
				}
			})

			t.Run("bad bodies", func(t *testing.T) {
				for _, tt := range []struct{ body, want string }{
					{`{"refresh_token":42}`, `{"message":"The refresh token field must be a string.","errors":{"refresh_token":["The refresh token field must be a string."]}}`},
					{`{"refresh_token":`, `{"message":"Malformed JSON."}`},
					{`[]`, `{"message":"The request body must be a JSON object."}`},
				} {
					got := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/refresh", tt.body, http.Header{"Content-Type": {"application/json"}}))
					if got.body != tt.want || (got.status != 422 && got.status != 400) {
						t.Errorf("%s: %d %s; want %s", tt.body, got.status, got.body, tt.want)
					}
				}
				got := do(t, newRequest(t, http.MethodGet, e.url+"/api/auth/refresh", "", nil), "Allow")
				if got.status != 405 || got.headers["Allow"] != "POST" {
					t.Errorf("GET: %d %v", got.status, got.headers)
				}
			})

			t.Run("logout", func(t *testing.T) {
				access, err := e.issuer.Issue(e.user)
				if err != nil {
					t.Fatal(err)
				}
				refresh := e.start(t)
				bearer := http.Header{"Authorization": {"Bearer " + access}, "Cookie": {auth.RefreshCookie + "=" + refresh}}
				got := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/logout", "", bearer), "Set-Cookie")
				if got.status != 204 || got.body != "" || got.headers["Set-Cookie"] != clearedCookie {
					t.Fatalf("logout: %d %q %v; want 204, no body, the cookie cleared", got.status, got.body, got.headers)
				}
				if _, err := e.verifier.Verify(ctx, access); !errors.Is(err, auth.ErrRevoked) {
					t.Errorf("the access token after logout: %v; want ErrRevoked", err)
				}
				if got := e.post(t, refresh, false); got.status != 401 {
					t.Errorf("the refresh token after logout: %d %s; want 401", got.status, got.body)
				}
				again := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/logout", "", bearer))
				if again.status != 401 || again.body != unauthenticated {
					t.Errorf("logout again: %d %s; want 401", again.status, again.body)
				}
				if got := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/logout", "", nil)); got.status != 401 {
					t.Errorf("logout without a token: %d %s; want 401", got.status, got.body)
				}
			})

			t.Run("logout with the access token alone ends its session", func(t *testing.T) {
				login := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/login", `{"email":"`+e.email+`","password":"correct horse"}`,
					http.Header{"Content-Type": {"application/json"}}), "Set-Cookie")
				var body struct {
					AccessToken string `json:"access_token"`
				}
				_ = json.Unmarshal([]byte(login.body), &body)
				first := refreshed{setCookie: login.headers["Set-Cookie"]}.cookieToken()
				// A refresh's access token carries the session too.
				got := e.post(t, first, false)
				if got.status != 200 {
					t.Fatalf("refresh: %d %s", got.status, got.body)
				}
				for name, access := range map[string]string{"login's": body.AccessToken, "refresh's": got.access} {
					if tok, err := e.verifier.Verify(ctx, access); err != nil || tok.Session == "" {
						t.Errorf("the %s access token: %+v, %v; want a session", name, tok, err)
					}
				}
				other := e.start(t) // another session of the user stays
				before := s.counter.Queries()
				out := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/logout", "", http.Header{"Authorization": {"Bearer " + got.access}}))
				if out.status != 204 {
					t.Fatalf("logout: %d %s", out.status, out.body)
				}
				if n := s.counter.Queries() - before; n != 2 {
					t.Errorf("the logout ran %d statements; want 2: the check of the bearer token and the session's revocation", n)
				}
				// The login's access token is of the same session.
				for name, access := range map[string]string{"login's": body.AccessToken, "refresh's": got.access} {
					if _, err := e.verifier.Verify(ctx, access); !errors.Is(err, auth.ErrRevoked) {
						t.Errorf("the %s access token after the logout: %v; want ErrRevoked", name, err)
					}
				}
				if again := e.post(t, got.cookieToken(), false); again.status != 401 {
					t.Errorf("the session's refresh token after a bearer-only logout: %d %s; want 401", again.status, again.body)
				}
				if still := e.post(t, other, false); still.status != 200 {
					t.Errorf("another session after the logout: %d %s; want 200", still.status, still.body)
				}
			})

			t.Run("a logout without a Refresher ends the session too", func(t *testing.T) {
				bare, err := auth.NewLogout(e.verifier, auth.LogoutConfig{})
				if err != nil {
					t.Fatal(err)
				}
				srv := startServer(t, bare)
				got := e.post(t, e.start(t), false)
				out := do(t, newRequest(t, http.MethodPost, srv.URL, "", http.Header{"Authorization": {"Bearer " + got.access}}), "Set-Cookie")
				if out.status != 204 || out.headers["Set-Cookie"] != "" {
					t.Fatalf("logout: %d %s %v; want 204 and no cookie", out.status, out.body, out.headers)
				}
				if _, err := e.verifier.Verify(ctx, got.access); !errors.Is(err, auth.ErrRevoked) {
					t.Errorf("the access token: %v; want ErrRevoked", err)
				}
				if again := e.post(t, got.cookieToken(), false); again.status != 401 {
					t.Errorf("the session's refresh token: %d %s; want 401", again.status, again.body)
				}
			})

			t.Run("logout with the refresh token in the body", func(t *testing.T) {
				access, _ := e.issuer.Issue(e.user)
				refresh := e.start(t)
				got := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/logout", `{"refresh_token":"`+refresh+`"}`,
					http.Header{"Authorization": {"Bearer " + access}, "Content-Type": {"application/json"}}))
				if got.status != 204 {
					t.Fatalf("logout: %d %s", got.status, got.body)
				}
				if got := e.post(t, refresh, true); got.status != 401 {
					t.Errorf("the refresh token after logout: %d %s; want 401", got.status, got.body)
				}
			})

			t.Run("logout leaves another user's refresh token", func(t *testing.T) {
				other := addUser(t, s.users, "other@example.com")
				theirs, _, err := e.refresh.Start(ctx, other)
				if err != nil {
					t.Fatal(err)
				}
				access, _ := e.issuer.Issue(e.user)
				got := do(t, newRequest(t, http.MethodPost, e.url+"/api/auth/logout", "",
					http.Header{"Authorization": {"Bearer " + access}, "Cookie": {auth.RefreshCookie + "=" + theirs}}))
				if got.status != 204 {
					t.Fatalf("logout: %d %s", got.status, got.body)
				}
				if got := e.post(t, theirs, false); got.status != 200 {
					t.Errorf("the other user's refresh token: %d %s; want 200", got.status, got.body)
				}
			})

			t.Run("log out everywhere", func(t *testing.T) {
				a, b := e.start(t), e.start(t)
				refreshed := e.post(t, b, false)
				e.clk.Add(time.Second)
				if err := s.tokens.RevokeUser(ctx, e.user, e.clk.Now().Add(300*time.Millisecond)); err != nil {
					t.Fatal(err)
				}
				for _, tok := range []string{a, refreshed.cookieToken()} {
					if got := e.post(t, tok, false); got.status != 401 {
						t.Errorf("refresh after log out everywhere: %d %s; want 401", got.status, got.body)
					}
				}
				if _, err := e.verifier.Verify(ctx, refreshed.access); !errors.Is(err, auth.ErrRevoked) {
					t.Errorf("a session's access token after log out everywhere: %v; want ErrRevoked", err)
				}
				// A session started in the cutoff's second, after it, is over
				// too; one started the next second is not.
				e.clk.Add(500 * time.Millisecond)
				if got := e.post(t, e.start(t), false); got.status != 401 {
					t.Errorf("a session of the cutoff's second: %d %s; want 401", got.status, got.body)
				}
				e.clk.Add(500 * time.Millisecond)
				got := e.post(t, e.start(t), false)
				if got.status != 200 {
					t.Fatalf("a session of the next second: %d %s; want 200", got.status, got.body)
				}
				if _, err := e.verifier.Verify(ctx, got.access); err != nil {
					t.Errorf("its access token: %v; want it accepted", err)
				}
			})

			t.Run("deleted user", func(t *testing.T) {
				gone := addUser(t, s.users, "gone@example.com")
				tok, _, err := e.refresh.Start(ctx, gone)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.users.DeleteUser(ctx, gone); err != nil {
					t.Fatal(err)
				}
				if got := e.post(t, tok, false); got.status != 401 {
					t.Errorf("refresh for a deleted user: %d %s; want 401", got.status, got.body)
				}
			})

			t.Run("store down", func(t *testing.T) {
				tok := e.start(t)
				s.close()
				if got := e.post(t, tok, false); got.status != 503 || got.body != `{"message":"Service unavailable."}` {
					t.Errorf("store closed: %d %s; want 503", got.status, got.body)
				}
			})
		})
	}
}

// TestRefreshGraceOff checks that with the grace window off any second
// use of a token revokes its family, even at once.
func TestRefreshGraceOff(t *testing.T) {
	for _, st := range tokenStores {
		t.Run(st.name, func(t *testing.T) {
			e := newRefreshEnv(t, st.open(t), auth.RefreshConfig{ReuseGrace: -1})
			first := e.start(t)
			got := e.post(t, first, false)
			if got.status != 200 {
				t.Fatalf("refresh: %d %s", got.status, got.body)
			}
			if !strings.HasSuffix(got.setCookie, "; HttpOnly; SameSite=Strict") {
				t.Errorf("Set-Cookie %q; want no Secure without SecureCookie", got.setCookie)
			}
			if again := e.post(t, first, false); again.status != 401 {
				t.Errorf("second use at once: %d %s; want 401", again.status, again.body)
			}
			if next := e.post(t, got.cookieToken(), false); next.status != 401 {
				t.Errorf("the successor after the reuse: %d %s; want 401", next.status, next.body)
			}
		})
	}
}

func TestNewRefresherErrors(t *testing.T) {
	_, err := auth.NewRefresher(nil, auth.RefreshConfig{TTL: time.Millisecond, IdleTTL: time.Millisecond, MaxBodyBytes: -1})
	for _, want := range []string{"needs an Issuer", "RefreshConfig.Store is nil", "RefreshConfig.TTL is 1ms", "RefreshConfig.IdleTTL is 1ms", "MaxBodyBytes is -1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NewRefresher error = %v; want it to mention %q", err, want)
		}
	}
	if _, err := auth.NewLogout(newVerifier(t), auth.LogoutConfig{}); err == nil || !strings.Contains(err.Error(), "Config.Tokens") {
		t.Errorf("NewLogout without a token store: %v; want an error", err)
	}
}
