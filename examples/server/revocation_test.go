package main

// End-to-end tests of revocation against a thief who refreshes a stolen
// refresh token in a tight loop: "users logout", an HTTP logout and a
// reuse detection must each win on the first try, and nothing of the
// revoked session may be accepted afterwards.

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gqlkit/gqlkit/sqlite"
)

// The scale of the race as it was first seen: a user with ~16k refresh
// token rows and one hot chain; each race runs raceRounds times.
const (
	fillerRows = 16000
	raceRounds = 4
	// thiefWarmUp is how many refreshes the thief makes before the
	// revocation starts: the chain is hot by then.
	thiefWarmUp = 30
	// thiefOutlives bounds how long the thief may go on refreshing after
	// the revocation returned.
	thiefOutlives = 5 * time.Second
)

// thief refreshes one stolen refresh token as fast as it can, one request
// after the other (a single chain), until a refresh is refused or stop is
// closed.
type thief struct {
	stop, done chan struct{}

	mu        sync.Mutex
	access    []string // every access token it got
	refresh   string   // the newest refresh token
	refusal   response // the answer that stopped it
	err       error    // a transport error that stopped it
	rotations int
}

// steal starts a thief on token against the server at base.
func steal(base, token string) *thief {
	th := &thief{stop: make(chan struct{}), done: make(chan struct{}), refresh: token}
	client := &http.Client{Timeout: commandTimeout}
	go func() {
		defer close(th.done)
		for {
			select {
			case <-th.stop:
				return
			default:
			}
			r, err := postRefresh(client, base, token)
			th.mu.Lock()
			switch {
			case err != nil:
				th.err = err
			case r.status != http.StatusOK:
				th.refusal = r
			default:
				var body struct {
					Access  string `json:"access_token"`
					Refresh string `json:"refresh_token"`
				}
				if err := json.Unmarshal([]byte(r.body), &body); err != nil || body.Refresh == "" {
					th.err = fmt.Errorf("refresh answer %s: %v", r.body, err)
					break
				}
				th.access = append(th.access, body.Access)
				th.refresh, token = body.Refresh, body.Refresh
				th.rotations++
				th.mu.Unlock()
				continue
			}
			th.mu.Unlock()
			return
		}
	}()
	return th
}

// postRefresh trades token, sent in a JSON body, at the refresh endpoint.
func postRefresh(client *http.Client, base, token string) (response, error) {
	resp, err := client.Post(base+"/api/auth/refresh", "application/json", strings.NewReader(`{"refresh_token":"`+token+`"}`))
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}, nil
}

// warm waits until the thief has refreshed thiefWarmUp times.
func (th *thief) warm(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(commandTimeout)
	for time.Now().Before(deadline) {
		th.mu.Lock()
		n, stopped := th.rotations, th.err != nil || th.refusal.status != 0
		th.mu.Unlock()
		if stopped {
			t.Fatalf("the thief stopped after %d refreshes, before the revocation: %v %d %s", n, th.err, th.refusal.status, th.refusal.body)
		}
		if n >= thiefWarmUp {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("the thief did not refresh %d times within %v", thiefWarmUp, commandTimeout)
}

// caught waits for the thief to be refused after a revocation that
// returned at revoked, and checks that the refusal was a 401 (never a
// 503), within thiefOutlives. It returns every access token the thief got
// and its newest refresh token.
func (th *thief) caught(t *testing.T, revoked time.Time) (access []string, refresh string) {
	t.Helper()
	select {
	case <-th.done:
	case <-time.After(time.Until(revoked.Add(thiefOutlives))):
		close(th.stop)
		<-th.done
		th.mu.Lock()
		t.Errorf("the thief's chain lived on for %v after the revocation (%d refreshes in all)", thiefOutlives, th.rotations)
		th.mu.Unlock()
	}
	th.mu.Lock()
	defer th.mu.Unlock()
	if th.err != nil {
		t.Errorf("the thief's refresh failed: %v", th.err)
	}
	if th.refusal.status != 0 {
		th.refusal.check(t, http.StatusUnauthorized, unauthenticated, "WWW-Authenticate", "Bearer")
	}
	return th.access, th.refresh
}

// fillFamily inserts n used refresh tokens of user into family, straight
// into the database: the rows of a long-lived, much-rotated session.
func fillFamily(t *testing.T, db testDatabase, family string, user int64, n int) {
	t.Helper()
	now := time.Now()
	created, expires := now.UnixMicro(), now.Add(14*24*time.Hour).UnixMicro()
	execSQL(t, db, `INSERT INTO auth_refresh_tokens (hash, family, user_id, created_at, expires_at, family_expires_at, used_at)
SELECT decode(md5($1 || g::text), 'hex'), $1, $2, $3, $4, $4, $3 FROM generate_series(1, $5::int) AS g`,
		`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < $5)
INSERT INTO auth_refresh_tokens (hash, family, user_id, created_at, expires_at, family_expires_at, used_at)
SELECT randomblob(32), $1, $2, $3, $4, $4, $3 FROM g`, family, user, created, expires, n)
}

// execSQL runs a statement on db straight from the test: pg on
// PostgreSQL, lite on SQLite.
func execSQL(t *testing.T, db testDatabase, pg, lite string, args ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	if db.kind == "postgres" {
		conn, err := pgx.Connect(ctx, db.url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, pg, args...); err != nil {
			t.Fatalf("%s: %v", pg, err)
		}
		return
	}
	conn, err := sql.Open("sqlite", sqlite.DSN(strings.TrimPrefix(db.url, "sqlite:")))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, lite, args...); err != nil {
		t.Fatalf("%s: %v", lite, err)
	}
}

// checkAllRefused checks, four requests at a time, that every token is
// refused by a REST write and by a GraphQL mutation, with the exact 401s.
func checkAllRefused(t *testing.T, base string, tokens []string) {
	t.Helper()
	client := &http.Client{Timeout: commandTimeout}
	write := func(path, body, token, wantBody string) string {
		req, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		if err != nil {
			return err.Error()
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return err.Error()
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			return err.Error()
		}
		if resp.StatusCode != http.StatusUnauthorized || string(got) != wantBody {
			return fmt.Sprintf("POST %s: %d %s; want 401 %s", path, resp.StatusCode, got, wantBody)
		}
		return ""
	}
	probe, _ := json.Marshal(map[string]string{"query": probeMutation})
	var (
		mu       sync.Mutex
		failures []string
		wg       sync.WaitGroup
		next     = make(chan int)
	)
	for range 4 {
		wg.Go(func() {
			for i := range next {
				for _, c := range []struct{ path, body, want string }{
					{"/api/articles", `{"title":"Stolen","body":"Text"}`, unauthenticated},
					{"/api/graphql", string(probe), gqlUnauthenticated},
				} {
					if msg := write(c.path, c.body, tokens[i], c.want); msg != "" {
						mu.Lock()
						failures = append(failures, fmt.Sprintf("access token %d of %d: %s", i+1, len(tokens), msg))
						mu.Unlock()
					}
				}
			}
		})
	}
	for i := range tokens {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, f := range failures {
		if i == 5 {
			t.Errorf("… and %d more", len(failures)-5)
			break
		}
		t.Error(f)
	}
}

// raceUser adds a user for one round of a race, logs them in on the server
// at base, and gives the session's family fillerRows rows.
func (s *sessions) raceUser(t *testing.T, base, name string) (user, session) {
	t.Helper()
	u := user{email: strings.ToLower(name) + "@example.com", password: name + "'s password"}
	u.id = strings.TrimSpace(s.db.mustRun(t, "users", "add", "--name", name, "--email", u.email, "--password", u.password))
	id, err := strconv.ParseInt(u.id, 10, 64)
	if err != nil {
		t.Fatalf("users add printed %q", u.id)
	}
	login := s.login(t, base, u)
	_, claims := jwtParts(t, login.access)
	family, _ := claims["sid"].(string)
	if family == "" {
		t.Fatalf("the login's access token has no sid: %v", claims)
	}
	fillFamily(t, s.db, family, id, fillerRows)
	return u, login
}

// TestRevocationBeatsRotation: while a thief refreshes a stolen refresh
// token in a tight loop, on a user with ~16k refresh token rows, "users
// logout", an HTTP logout and a reuse detection each succeed on the first
// try, and afterwards every access token the thief got (the newest
// included, issued after the revocation began) and its newest refresh
// token are refused, as is the login's access token. Each race runs
// raceRounds times per database (before revocation was one write, 50 of
// 50 logouts failed; once on SQLite under the race detector).
func TestRevocationBeatsRotation(t *testing.T) {
	if testing.Short() {
		t.Skip("races a refresh loop at scale: seconds per database")
	}
	t.Parallel() // beside the tests that wait out the stall timeout: see stallTimeout
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			s := &sessions{db: kind.open(t)}
			base := s.start(t, mainEnv(secretA)...).base
			env := s.db.env(mainEnv(secretA)...)
			rounds := raceRounds
			if raceDetector && s.db.kind == "sqlite" {
				rounds = 1 // filling the rows takes 2 s a round from this process
			}
			for round := range rounds {
				t.Run(fmt.Sprint("users logout ", round+1), func(t *testing.T) {
					u, login := s.raceUser(t, base, fmt.Sprint("Ann", round))
					th := steal(base, login.refresh)
					th.warm(t)
					started := time.Now()
					res := s.db.run(t, env, "users", "logout", "--id", u.id)
					t.Logf("users logout took %v", time.Since(started))
					if want := "logged out user " + u.id + " everywhere\n"; res.code != 0 || res.stdout != want {
						t.Errorf("users logout: exit status %d, stdout %q; want 0, %q\n%s", res.code, res.stdout, want, res.stderr)
					}
					s.checkCaught(t, base, th, time.Now(), login)
				})
				t.Run(fmt.Sprint("logout ", round+1), func(t *testing.T) {
					_, login := s.raceUser(t, base, fmt.Sprint("Bea", round))
					th := steal(base, login.refresh)
					th.warm(t)
					started := time.Now()
					r := send(t, http.MethodPost, base+"/api/auth/logout", "", "Authorization", "Bearer "+login.access)
					t.Logf("logout took %v", time.Since(started))
					r.check(t, http.StatusNoContent, "", "Cache-Control", "no-store")
					s.checkCaught(t, base, th, time.Now(), login)
				})
				t.Run(fmt.Sprint("reuse detection ", round+1), func(t *testing.T) {
					_, login := s.raceUser(t, base, fmt.Sprint("Cat", round))
					th := steal(base, login.refresh)
					th.warm(t)
					// The user presents the token the thief rotated long ago.
					started := time.Now()
					r := refreshByCookie(t, base, login.refresh)
					t.Logf("reuse detection took %v", time.Since(started))
					r.check(t, http.StatusUnauthorized, unauthenticated, "WWW-Authenticate", "Bearer", "Cache-Control", "no-store")
					s.checkCaught(t, base, th, time.Now(), login)
				})
			}
		})
	}
}

// checkCaught checks what a revocation of login's session, which returned
// at revoked, left of it: the thief stopped with a 401, every access token
// it got and the login's own are refused, and its newest refresh token
// (and the stolen one) too.
func (s *sessions) checkCaught(t *testing.T, base string, th *thief, revoked time.Time, login session) {
	t.Helper()
	access, refresh := th.caught(t, revoked)
	t.Logf("the thief refreshed %d times", len(access))
	checkAllRefused(t, base, append(access, login.access))
	checkRefreshRefused(t, base, refresh)
	checkRefreshRefused(t, base, login.refresh)
}

// TestLogoutEndsSession: a logout with the access token of a refresh (A1)
// ends the whole session, so that the login's access token (A0) is
// refused too; a reuse detection refuses the family's access tokens at
// once, not when they expire an hour later.
func TestLogoutEndsSession(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			s := &sessions{db: kind.open(t)}
			base := s.start(t, mainEnv(secretA)...).base
			u := user{email: "eve@example.com", password: "Eve's password"}
			u.id = strings.TrimSpace(s.db.mustRun(t, "users", "add", "--name", "Eve", "--email", u.email, "--password", u.password))

			a0 := s.login(t, base, u)
			a1 := s.sessionOf(t, refreshByCookie(t, base, a0.refresh))
			other := s.login(t, base, u)
			send(t, http.MethodPost, base+"/api/auth/logout", "", "Authorization", "Bearer "+a1.access).check(t,
				http.StatusNoContent, "", "Cache-Control", "no-store")
			checkRefused(t, base, a0.access)
			checkRefused(t, base, a1.access)
			checkRefreshRefused(t, base, a1.refresh)
			checkAccepted(t, base, other.access) // another session of the user

			// JWT_REFRESH_REUSE_GRACE=0s: the second use of b0's token is a
			// reuse, which revokes the session of b0 and b1.
			b0 := s.login(t, base, u)
			b1 := s.sessionOf(t, refreshByCookie(t, base, b0.refresh))
			checkAccepted(t, base, b1.access)
			checkRefreshRefused(t, base, b0.refresh)
			checkRefused(t, base, b0.access)
			checkRefused(t, base, b1.access)
			checkRefreshRefused(t, base, b1.refresh)
			checkAccepted(t, base, other.access)
		})
	}
}

// TestTokensFromBeforeSessions: a refresh token stored before migration
// 004 has no session, nor has the sid of an access token issued with it:
// both are refused (their users log in again), and a login then works.
func TestTokensFromBeforeSessions(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			s := &sessions{db: kind.open(t)}
			u := user{email: "old@example.com", password: "Old's password"}
			u.id = strings.TrimSpace(s.db.mustRun(t, "users", "add", "--name", "Old", "--email", u.email, "--password", u.password))
			base := s.start(t, mainEnv(secretA)...).base

			const token = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" // 43 characters
			hash := sha256.Sum256([]byte(token))
			now := time.Now()
			execSQL(t, s.db, `INSERT INTO auth_refresh_tokens (hash, family, user_id, created_at, expires_at, family_expires_at)
VALUES ($1, 'OLDFAMILY', $2::bigint, $3, $4, $4)`, `INSERT INTO auth_refresh_tokens (hash, family, user_id, created_at, expires_at, family_expires_at)
VALUES ($1, 'OLDFAMILY', $2, $3, $4, $4)`, hash[:], u.id, now.UnixMicro(), now.Add(time.Hour).UnixMicro())
			checkRefreshRefused(t, base, token)

			claims := fmt.Sprintf(`{"iss":%q,"aud":%q,"sub":%q,"sid":"OLDFAMILY","iat":%d,"exp":%d,"jti":"old"}`,
				sessionIssuer, sessionAudience, u.id, now.Unix(), now.Add(time.Hour).Unix())
			checkRefused(t, base, handSigned(`{"alg":"HS256","typ":"JWT"}`, claims, secretA))

			fresh := s.login(t, base, u)
			checkAccepted(t, base, fresh.access)
			s.sessionOf(t, refreshByCookie(t, base, fresh.refresh))
		})
	}
}
