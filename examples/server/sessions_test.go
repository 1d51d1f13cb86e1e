package main

// End-to-end tests of sessions on the real binary: the refresh cookie,
// rotation and reuse, logout, "users logout", key rotation across
// restarts, issuer and audience, and the login throttle behind proxies.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
)

// Two JWT secrets: the server signs with A, then is rotated to B.
const (
	secretA = "session-test-secret-A-0123456789abcdef"
	secretB = "session-test-secret-B-fedcba9876543210"
)

// The settings every server of these tests shares, but for the secret.
const (
	sessionIssuer   = "https://auth.example.com"
	sessionAudience = "gqlkit-api"
)

// Exact answers.
const (
	unauthenticated    = `{"message":"Unauthenticated."}`
	gqlUnauthenticated = `{"errors":[{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}]}`
	invalidCredentials = `{"message":"Invalid credentials."}`
	// A mutation that writes nothing: it needs a user, and then finds no
	// post to delete.
	probeMutation = `mutation { deletePost(id: "999999") { id } }`
	probeAccepted = `{"data":{"deletePost":null},"errors":[{"message":"Post not found.","locations":[{"line":1,"column":12}],"path":["deletePost"],"extensions":{"code":"NOT_FOUND"}}]}`
)

// refreshCookieLine matches the Set-Cookie of a refresh token; the
// attributes are checked by the callers.
var refreshCookieLine = regexp.MustCompile(`^refresh_token=([A-Za-z0-9_-]{43}); `)

// sessions is the state the subtests of one database share.
type sessions struct {
	db   testDatabase
	main *process // JWT_SECRET=A, APP_URL https, JWT_REFRESH_REUSE_GRACE=0s
	alt  *process // JWT_SECRET=A, another audience, APP_URL http, TRUSTED_PROXIES

	users map[string]user // by first name

	servers   []*process // every server started, for the final look at the logs
	handedOut []string   // every access and refresh token handed out
}

// user is one of the users the test adds.
type user struct {
	id              string
	email, password string
}

// session is what a login or a refresh hands out.
type session struct {
	access  string // the access token
	refresh string // the refresh token, from the cookie
	cookie  string // the whole Set-Cookie line, the token replaced by <token>
}

// mainEnv is the environment of the main server, with a secret.
func mainEnv(secret string, more ...string) []string {
	return append([]string{
		"JWT_SECRET=" + secret,
		"JWT_ISSUER=" + sessionIssuer,
		"JWT_AUDIENCE=" + sessionAudience,
		"APP_URL=https://api.example.com",
		"JWT_REFRESH_REUSE_GRACE=0s",
	}, more...)
}

// TestSessions runs one scenario per database: a main server serves the
// subtests in turn (they share its data and its throttle, so they run in
// order, each with its own user), a second one on the same database
// differs in audience, APP_URL and trusted proxies, and the key rotation
// restarts the service twice.
func TestSessions(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			s := &sessions{db: db, users: map[string]user{}}
			for i, name := range []string{"Ada", "Bob", "Cy", "Dee"} {
				u := user{email: strings.ToLower(name) + "@example.com", password: name + "'s password"}
				u.id = strings.TrimSpace(db.mustRun(t, "users", "add", "--name", name, "--email", u.email, "--password", u.password))
				if u.id != strconv.Itoa(i+1) {
					t.Fatalf("users add %s printed %q, want %d", name, u.id, i+1)
				}
				s.users[name] = u
			}
			s.main = s.start(t, mainEnv(secretA)...)

			t.Run("startup log", s.testStartupLog)
			t.Run("login sets the refresh cookie", s.testLoginCookie)
			t.Run("refresh by cookie and by body", s.testRefresh)
			t.Run("reuse after the grace revokes the family", s.testReuse)
			t.Run("logout", s.testLogout)
			t.Run("users logout", s.testUsersLogout)
			t.Run("throttle ignores X-Forwarded-For by default", s.testThrottleNoProxies)

			s.alt = s.start(t,
				"JWT_SECRET="+secretA,
				"JWT_ISSUER="+sessionIssuer,
				"JWT_AUDIENCE=other-api",
				"APP_URL=http://api.example.com",
				"TRUSTED_PROXIES=127.0.0.1/32")
			t.Run("cookie over http is not Secure", s.testCookieOverHTTP)
			t.Run("reuse within the grace gets the same successor", s.testReuseGrace)
			t.Run("audience", s.testAudience)
			t.Run("throttle per forwarded client", s.testThrottleProxies)

			t.Run("key rotation across restarts", s.testKeyRotation)
			t.Run("no secret in the logs", s.testLogs)
		})
	}
}

// login logs u in on the server at base and returns the session; the
// answer must be a 200 whose body is exactly the three fields.
func (s *sessions) login(t *testing.T, base string, u user) session {
	t.Helper()
	r := send(t, http.MethodPost, base+"/api/auth/login", fmt.Sprintf(`{"email":%q,"password":%q}`, u.email, u.password),
		"Content-Type", "application/json")
	got := s.sessionOf(t, r)
	r.body = strings.Replace(r.body, got.access, "<token>", 1)
	r.check(t, http.StatusOK, `{"access_token":"<token>","token_type":"bearer","expires_in":3600}`,
		"Content-Type", "application/json", "Cache-Control", "no-store")
	return got
}

// sessionOf reads the access token and the refresh cookie of a 200 from
// the login or the refresh endpoint, and notes both for the final look at
// the logs.
func (s *sessions) sessionOf(t *testing.T, r response) session {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200 (body %s)", r.status, r.body)
	}
	var body struct {
		AccessToken string `json:"access_token"`
	}
	r.decode(t, &body)
	lines := r.header.Values("Set-Cookie")
	if len(lines) != 1 {
		t.Fatalf("Set-Cookie: got %q, want one refresh_token cookie", lines)
	}
	m := refreshCookieLine.FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("Set-Cookie %q is no refresh_token cookie", lines[0])
	}
	s.handedOut = append(s.handedOut, body.AccessToken, m[1])
	return session{access: body.AccessToken, refresh: m[1], cookie: strings.Replace(lines[0], m[1], "<token>", 1)}
}

// start starts a server of the scenario, to be searched for secrets at
// the end.
func (s *sessions) start(t *testing.T, env ...string) *process {
	t.Helper()
	p := s.db.start(t, env...)
	s.servers = append(s.servers, p)
	return p
}

// refreshByCookie presents token in the refresh_token cookie, as a
// browser does.
func refreshByCookie(t *testing.T, base, token string) response {
	t.Helper()
	return send(t, http.MethodPost, base+"/api/auth/refresh", "", "Cookie", "refresh_token="+token)
}

// The Set-Cookie lines of the refresh token.
const (
	secureCookie  = "refresh_token=<token>; Path=/api/auth; Max-Age=1209600; HttpOnly; Secure; SameSite=Strict"
	plainCookie   = "refresh_token=<token>; Path=/api/auth; Max-Age=1209600; HttpOnly; SameSite=Strict"
	clearedSecure = "refresh_token=; Path=/api/auth; Max-Age=0; HttpOnly; Secure; SameSite=Strict"
)

// checkRefused checks that the refresh token is dead: a 401 that clears
// the cookie.
func checkRefreshRefused(t *testing.T, base, token string) {
	t.Helper()
	r := refreshByCookie(t, base, token)
	r.check(t, http.StatusUnauthorized, unauthenticated, "WWW-Authenticate", "Bearer", "Cache-Control", "no-store")
	if got := r.header.Values("Set-Cookie"); len(got) != 1 || got[0] != clearedSecure {
		t.Errorf("Set-Cookie of a refused refresh: got %q, want %q", got, clearedSecure)
	}
}

// checkAccepted checks that token authenticates a REST write (which
// creates an article) and a GraphQL mutation on the server at base.
func checkAccepted(t *testing.T, base, token string) {
	t.Helper()
	r := send(t, http.MethodPost, base+"/api/articles", `{"title":"Mine","body":"Text"}`,
		"Content-Type", "application/json", "Authorization", "Bearer "+token)
	if r.status != http.StatusCreated {
		t.Errorf("POST /api/articles: status %d, want 201 (body %s)", r.status, r.body)
	}
	gqlAs(t, base, token, probeMutation).check(t, http.StatusOK, probeAccepted)
}

// checkRefused checks that token is refused, by a REST write and by a
// GraphQL mutation alike, with a 401.
func checkRefused(t *testing.T, base, token string) {
	t.Helper()
	send(t, http.MethodPost, base+"/api/articles", `{"title":"Mine","body":"Text"}`,
		"Content-Type", "application/json", "Authorization", "Bearer "+token).check(t,
		http.StatusUnauthorized, unauthenticated, "WWW-Authenticate", "Bearer")
	gqlAs(t, base, token, probeMutation).check(t, http.StatusUnauthorized, gqlUnauthenticated, "WWW-Authenticate", "Bearer")
}

// gqlAs posts a GraphQL request with token to the server at base.
func gqlAs(t *testing.T, base, token, query string) response {
	t.Helper()
	body, err := json.Marshal(map[string]string{"query": query})
	if err != nil {
		t.Fatal(err)
	}
	return send(t, http.MethodPost, base+"/api/graphql", string(body), "Content-Type", "application/json", "Authorization", "Bearer "+token)
}

// jwtParts decodes the header and the claims of a token.
func jwtParts(t *testing.T, token string) (header, claims map[string]any) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("%q is not a compact JWS", token)
	}
	for i, into := range []*map[string]any{&header, &claims} {
		raw, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, into); err != nil {
			t.Fatal(err)
		}
	}
	return header, claims
}

func (s *sessions) testStartupLog(t *testing.T) {
	want := "signing key: kid " + auth.KeyID([]byte(secretA)) + "; no previous keys"
	if _, ok, _ := s.main.find(func(l logLine) bool { return l.message() == want }); !ok {
		t.Errorf("no log line %q in\n%s", want, s.main.log())
	}
	want = "trusted proxies: none (X-Forwarded-For is ignored)"
	if _, ok, _ := s.main.find(func(l logLine) bool { return l.message() == want }); !ok {
		t.Errorf("no log line %q in\n%s", want, s.main.log())
	}
	if strings.Contains(s.main.log(), secretA) {
		t.Errorf("the log shows the secret:\n%s", s.main.log())
	}
}

// testLoginCookie: the login's body is unchanged, and the refresh token
// comes in a cookie for /api/auth only, HttpOnly, SameSite=Strict, Secure
// since APP_URL is https. The access token names its key and carries iss
// and aud.
func (s *sessions) testLoginCookie(t *testing.T) {
	got := s.login(t, s.main.base, s.users["Ada"])
	if got.cookie != secureCookie {
		t.Errorf("Set-Cookie:\n got %s\nwant %s", got.cookie, secureCookie)
	}
	header, claims := jwtParts(t, got.access)
	if header["kid"] != auth.KeyID([]byte(secretA)) {
		t.Errorf("kid %v, want %s", header["kid"], auth.KeyID([]byte(secretA)))
	}
	if claims["iss"] != sessionIssuer || fmt.Sprint(claims["aud"]) != "["+sessionAudience+"]" || claims["sub"] != s.users["Ada"].id {
		t.Errorf("claims %v: want iss %s, aud [%s], sub %s", claims, sessionIssuer, sessionAudience, s.users["Ada"].id)
	}
	checkAccepted(t, s.main.base, got.access)
}

// testRefresh trades refresh tokens: by cookie (a browser), then in a JSON
// body (any other client), each time for a new one.
func (s *sessions) testRefresh(t *testing.T) {
	base := s.main.base
	first := s.login(t, base, s.users["Ada"])

	r := refreshByCookie(t, base, first.refresh)
	second := s.sessionOf(t, r)
	r.body = strings.Replace(r.body, second.access, "<token>", 1)
	r.check(t, http.StatusOK, `{"access_token":"<token>","token_type":"bearer","expires_in":3600}`,
		"Content-Type", "application/json", "Cache-Control", "no-store")
	if second.cookie != secureCookie || second.refresh == first.refresh {
		t.Errorf("Set-Cookie %s: want %s with a new token", second.cookie, secureCookie)
	}
	checkAccepted(t, base, second.access)

	r = send(t, http.MethodPost, base+"/api/auth/refresh", `{"refresh_token":"`+second.refresh+`"}`, "Content-Type", "application/json")
	third := s.sessionOf(t, r)
	r.body = strings.Replace(strings.Replace(r.body, third.access, "<token>", 1), third.refresh, "<refresh>", 1)
	r.check(t, http.StatusOK, `{"access_token":"<token>","token_type":"bearer","expires_in":3600,"refresh_token":"<refresh>"}`,
		"Cache-Control", "no-store")
	if third.refresh == second.refresh {
		t.Errorf("the refresh by body handed out the token it was given")
	}
	checkAccepted(t, base, third.access)

	// No token at all, one of the wrong shape, an unknown one.
	for _, cookie := range []string{"", "refresh_token=short", "refresh_token=" + strings.Repeat("A", 43)} {
		var headers []string
		if cookie != "" {
			headers = []string{"Cookie", cookie}
		}
		send(t, http.MethodPost, base+"/api/auth/refresh", "", headers...).check(t, http.StatusUnauthorized, unauthenticated,
			"WWW-Authenticate", "Bearer")
	}
	// Other methods: 405 with Allow, as the login answers.
	for _, path := range []string{"/api/auth/login", "/api/auth/refresh", "/api/auth/logout"} {
		send(t, http.MethodGet, base+path, "").check(t, http.StatusMethodNotAllowed, `{"message":"Method not allowed."}`,
			"Allow", "POST", "Cache-Control", "no-store")
	}
}

// testReuse: with JWT_REFRESH_REUSE_GRACE=0s, presenting a rotated token
// again is taken for theft: the session is revoked, the new token with it,
// and the session's access tokens are refused at once.
func (s *sessions) testReuse(t *testing.T) {
	base := s.main.base
	first := s.login(t, base, s.users["Ada"])
	second := s.sessionOf(t, refreshByCookie(t, base, first.refresh))
	checkRefreshRefused(t, base, first.refresh)
	checkRefreshRefused(t, base, second.refresh)
	checkRefused(t, base, first.access)
	checkRefused(t, base, second.access)
}

// testLogout: a logout revokes the bearer token and the refresh token's
// family, and leaves the user's other sessions alone.
func (s *sessions) testLogout(t *testing.T) {
	base := s.main.base
	other := s.login(t, base, s.users["Ada"])
	mine := s.login(t, base, s.users["Ada"])
	checkAccepted(t, base, mine.access)

	send(t, http.MethodPost, base+"/api/auth/logout", "").check(t, http.StatusUnauthorized, unauthenticated,
		"WWW-Authenticate", "Bearer")
	r := send(t, http.MethodPost, base+"/api/auth/logout", "",
		"Authorization", "Bearer "+mine.access, "Cookie", "refresh_token="+mine.refresh)
	r.check(t, http.StatusNoContent, "", "Cache-Control", "no-store")
	if got := r.header.Values("Set-Cookie"); len(got) != 1 || got[0] != clearedSecure {
		t.Errorf("Set-Cookie of the logout: got %q, want %q", got, clearedSecure)
	}

	checkRefused(t, base, mine.access)
	checkRefreshRefused(t, base, mine.refresh)
	send(t, http.MethodPost, base+"/api/auth/logout", "", "Authorization", "Bearer "+mine.access).check(t,
		http.StatusUnauthorized, unauthenticated, "WWW-Authenticate", "Bearer")

	checkAccepted(t, base, other.access)
	s.sessionOf(t, refreshByCookie(t, base, other.refresh))
}

// testUsersLogout runs "users logout" beside the running server: every
// token of the user issued until then is refused, on the server at once.
func (s *sessions) testUsersLogout(t *testing.T) {
	base, bob := s.main.base, s.users["Bob"]
	byLogin := s.login(t, base, bob)
	env := s.db.env(mainEnv(secretA)...)
	minted := s.db.run(t, env, "token", "--user", bob.id)
	if minted.code != 0 {
		t.Fatalf("token: exit status %d\n%s", minted.code, minted.stderr)
	}
	byCommand := strings.TrimSpace(minted.stdout)
	checkAccepted(t, base, byLogin.access)
	checkAccepted(t, base, byCommand)

	res := s.db.run(t, env, "users", "logout", "--id", bob.id)
	cutoff := time.Now()
	if want := "logged out user " + bob.id + " everywhere\n"; res.code != 0 || res.stdout != want {
		t.Fatalf("users logout: exit status %d, stdout %q; want 0, %q\n%s", res.code, res.stdout, want, res.stderr)
	}
	checkRefused(t, base, byLogin.access)
	checkRefused(t, base, byCommand)
	checkRefreshRefused(t, base, byLogin.refresh)
	// Another user's tokens are left alone.
	checkAccepted(t, base, s.login(t, base, s.users["Dee"]).access)

	// The cutoff refuses tokens issued in its own second (iat has whole
	// seconds): from the next one on, Bob may log in again.
	time.Sleep(time.Until(cutoff.Truncate(time.Second).Add(time.Second)))
	again := s.login(t, base, bob)
	checkAccepted(t, base, again.access)
	s.sessionOf(t, refreshByCookie(t, base, again.refresh))

	for _, tc := range []struct {
		args       []string
		wantCode   int
		wantStderr string
	}{
		{args: []string{"users", "logout", "--id", "999"}, wantCode: 1, wantStderr: "users logout: there is no user 999"},
		{args: []string{"users", "logout"}, wantCode: 2, wantStderr: "users logout needs --id, a positive integer"},
	} {
		res := s.db.run(t, env, tc.args...)
		if res.code != tc.wantCode || res.stdout != "" || !strings.Contains(res.stderr, tc.wantStderr) {
			t.Errorf("%s: exit status %d, stdout %q, stderr %q; want %d, nothing, and %q",
				strings.Join(tc.args, " "), res.code, res.stdout, res.stderr, tc.wantCode, tc.wantStderr)
		}
	}
}

// loginAttempt sends a login of u with password from the client that
// forwarded, when it is not empty, claims to be.
func loginAttempt(t *testing.T, base string, u user, password, forwarded string) response {
	t.Helper()
	headers := []string{"Content-Type", "application/json"}
	if forwarded != "" {
		headers = append(headers, "X-Forwarded-For", forwarded)
	}
	return send(t, http.MethodPost, base+"/api/auth/login", fmt.Sprintf(`{"email":%q,"password":%q}`, u.email, password), headers...)
}

// checkThrottled checks a 429 of the login: Retry-After, at most the
// throttle's minute, and Laravel's message with the same number.
func checkThrottled(t *testing.T, r response) {
	t.Helper()
	after := r.header.Get("Retry-After")
	n, err := strconv.Atoi(after)
	if err != nil || n < 1 || n > 60 {
		t.Errorf("Retry-After %q: want a number of seconds from 1 to 60", after)
	}
	r.check(t, http.StatusTooManyRequests, `{"message":"Too many login attempts. Please try again in `+after+` seconds."}`,
		"Cache-Control", "no-store")
}

// failFive makes five logins of u with a wrong password, each a 401.
func failFive(t *testing.T, base string, u user, forwarded string) {
	t.Helper()
	for i := range 5 {
		r := loginAttempt(t, base, u, "wrong password", forwarded)
		if r.status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: status %d, want 401 (body %s)", i+1, r.status, r.body)
		}
		r.check(t, http.StatusUnauthorized, invalidCredentials, "WWW-Authenticate", "Bearer")
	}
}

// testThrottleNoProxies: without TRUSTED_PROXIES the client is the
// connection's peer, whatever X-Forwarded-For says: changing it does not
// escape the throttle, and the right password is not even checked.
func (s *sessions) testThrottleNoProxies(t *testing.T) {
	base, cy := s.main.base, s.users["Cy"]
	failFive(t, base, cy, "203.0.113.7")
	checkThrottled(t, loginAttempt(t, base, cy, "wrong password", ""))
	checkThrottled(t, loginAttempt(t, base, cy, "wrong password", "203.0.113.8"))
	checkThrottled(t, loginAttempt(t, base, cy, cy.password, "198.51.100.1"))
	// Another e-mail address from the same client is not held up.
	s.login(t, base, s.users["Dee"])
}

// testCookieOverHTTP: with an http APP_URL the cookie is not Secure, or
// browsers would drop it.
func (s *sessions) testCookieOverHTTP(t *testing.T) {
	got := s.login(t, s.alt.base, s.users["Ada"])
	if got.cookie != plainCookie {
		t.Errorf("Set-Cookie:\n got %s\nwant %s", got.cookie, plainCookie)
	}
}

// testReuseGrace: within the default grace of 10s a rotated token gets the
// same successor again (two tabs refreshing at once), and the family
// lives on.
func (s *sessions) testReuseGrace(t *testing.T) {
	base := s.alt.base
	first := s.login(t, base, s.users["Ada"])
	second := s.sessionOf(t, refreshByCookie(t, base, first.refresh))
	again := s.sessionOf(t, refreshByCookie(t, base, first.refresh))
	if again.refresh != second.refresh {
		t.Errorf("the rotated token presented again within the grace got another successor")
	}
	s.sessionOf(t, refreshByCookie(t, base, second.refresh))
}

// testAudience: the two servers share secret and issuer, not audience:
// neither takes the other's tokens.
func (s *sessions) testAudience(t *testing.T) {
	dee := s.users["Dee"]
	mine, theirs := s.login(t, s.main.base, dee), s.login(t, s.alt.base, dee)
	if _, claims := jwtParts(t, theirs.access); fmt.Sprint(claims["aud"]) != "[other-api]" {
		t.Errorf("aud %v, want [other-api]", claims["aud"])
	}
	checkAccepted(t, s.main.base, mine.access)
	checkAccepted(t, s.alt.base, theirs.access)
	checkRefused(t, s.main.base, theirs.access)
	checkRefused(t, s.alt.base, mine.access)
}

// testThrottleProxies: behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1/32)
// each client in X-Forwarded-For is throttled on its own.
func (s *sessions) testThrottleProxies(t *testing.T) {
	base, cy := s.alt.base, s.users["Cy"]
	want := "trusted proxies: 127.0.0.1/32"
	if _, ok, _ := s.alt.find(func(l logLine) bool { return l.message() == want }); !ok {
		t.Errorf("no log line %q in\n%s", want, s.alt.log())
	}
	failFive(t, base, cy, "203.0.113.7")
	checkThrottled(t, loginAttempt(t, base, cy, "wrong password", "203.0.113.7"))
	checkThrottled(t, loginAttempt(t, base, cy, cy.password, "203.0.113.7"))
	// The proxy appends the peer it saw: the client is the rightmost
	// address outside the trusted ones.
	checkThrottled(t, loginAttempt(t, base, cy, cy.password, "198.51.100.9, 203.0.113.7"))

	loginAttempt(t, base, cy, "wrong password", "203.0.113.8").check(t, http.StatusUnauthorized, invalidCredentials)
	// Without X-Forwarded-For the client is the proxy itself, 127.0.0.1,
	// which failed five times on the main server: the two count the same
	// failures, in their database.
	checkThrottled(t, loginAttempt(t, base, cy, "wrong password", ""))
	r := loginAttempt(t, base, cy, cy.password, "203.0.113.8")
	if r.status != http.StatusOK {
		t.Errorf("login from another client: status %d, want 200 (body %s)", r.status, r.body)
	}
}

// testKeyRotation restarts the service with a new secret: with the old one
// in JWT_SECRET_PREVIOUS, tokens it signed still work; once it is dropped,
// they are refused. Refresh tokens are not signed, so they survive both.
func (s *sessions) testKeyRotation(t *testing.T) {
	dee := s.users["Dee"]
	old := s.login(t, s.main.base, dee)
	s.main.stop(t)
	s.alt.stop(t)

	rotated := s.start(t, mainEnv(secretB, "JWT_SECRET_PREVIOUS="+secretA)...)
	want := "signing key: kid " + auth.KeyID([]byte(secretB)) + "; previous keys, verifying only: " + auth.KeyID([]byte(secretA))
	if _, ok, _ := rotated.find(func(l logLine) bool { return l.message() == want }); !ok {
		t.Errorf("no log line %q in\n%s", want, rotated.log())
	}
	checkAccepted(t, rotated.base, old.access)
	fresh := s.login(t, rotated.base, dee)
	if header, _ := jwtParts(t, fresh.access); header["kid"] != auth.KeyID([]byte(secretB)) {
		t.Errorf("kid %v after the rotation, want %s", header["kid"], auth.KeyID([]byte(secretB)))
	}
	rotated.stop(t)

	done := s.start(t, mainEnv(secretB)...)
	checkRefused(t, done.base, old.access)
	checkAccepted(t, done.base, fresh.access)
	renewed := s.sessionOf(t, refreshByCookie(t, done.base, old.refresh))
	checkAccepted(t, done.base, renewed.access)
	done.stop(t)

	// The previous secret must differ from the current one.
	res := s.db.run(t, s.db.env(mainEnv(secretB, "JWT_SECRET_PREVIOUS="+secretB)...), "token", "--user", dee.id)
	if want := "JWT_SECRET_PREVIOUS: secret 1 of the list is the current JWT secret"; res.code != 1 || !strings.Contains(res.stderr, want) {
		t.Errorf("JWT_SECRET_PREVIOUS=JWT_SECRET: exit status %d, stderr %q; want 1 and %q", res.code, res.stderr, want)
	}
	if strings.Contains(res.stderr, secretB) {
		t.Errorf("the error shows the secret: %s", res.stderr)
	}
}

// testLogs stops the servers still running, so that every line is written,
// and searches their logs for the secrets and for every token handed out
// (or its signature): none may be there. The key ids must be.
func (s *sessions) testLogs(t *testing.T) {
	var logs strings.Builder
	for _, p := range s.servers {
		select {
		case <-p.exited:
		default:
			p.stop(t)
		}
		logs.WriteString(p.log())
	}
	all := logs.String()
	secrets := []string{secretA, secretB}
	for _, token := range s.handedOut {
		secrets = append(secrets, token)
		if parts := strings.Split(token, "."); len(parts) == 3 {
			secrets = append(secrets, parts[2])
		}
	}
	for _, secret := range secrets {
		if strings.Contains(all, secret) {
			t.Errorf("a server log shows the secret or token %.12s…", secret)
		}
	}
	for _, kid := range []string{auth.KeyID([]byte(secretA)), auth.KeyID([]byte(secretB))} {
		if !strings.Contains(all, kid) {
			t.Errorf("no server log names the key id %s", kid)
		}
	}
}
