package main

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"
)

// closedWithin reads conn until the server closes it and returns what it
// sent and how long that took from start; it fails the test when the
// connection is still open after limit.
func closedWithin(t *testing.T, conn net.Conn, start time.Time, limit time.Duration) ([]byte, time.Duration) {
	t.Helper()
	if err := conn.SetReadDeadline(start.Add(limit)); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(conn)
	took := time.Since(start)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server kept the connection open for %v", limit)
	}
	// A reset instead of an orderly close is a close too.
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reading until the close: %v", err)
	}
	return got, took
}

// trickle writes chunks to conn, one every interval, until stop is closed or
// a write fails (the server closed the connection).
func trickle(conn net.Conn, chunks func(i int) string, interval time.Duration, stop <-chan struct{}) {
	for i := 0; ; i++ {
		if _, err := io.WriteString(conn, chunks(i)); err != nil {
			return
		}
		select {
		case <-stop:
			return
		case <-time.After(interval):
		}
	}
}

// cutOffLimit bounds how long a slow or idle client may keep a connection
// with 1 s timeouts. It is generous, yet below every default (the header
// timeout of 10 s, the read timeout of 15 s, the idle timeout of 120 s), so
// a timeout that is not applied fails the test.
const cutOffLimit = 8 * time.Second

// TestFaultSlowClients: a client that sends its request too slowly, or
// keeps an idle connection, is cut off by the server's timeouts, and the
// server goes on serving.
func TestFaultSlowClients(t *testing.T) {
	db := sqliteDatabase(t)
	_, token := addUser(t, db, "Ada", "ada's password")

	t.Run("half a request line, slowly", func(t *testing.T) {
		p := db.start(t, "HTTP_READ_TIMEOUT=1s")
		conn, err := net.Dial("tcp", p.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		stop := make(chan struct{})
		defer close(stop)
		start := time.Now()
		// "GET /healthz HT", then padding that never ends the line.
		go trickle(conn, func(i int) string {
			if line := "GET /healthz HT"; i < len(line) {
				return line[i : i+1]
			}
			return "T"
		}, 100*time.Millisecond, stop)
		got, took := closedWithin(t, conn, start, cutOffLimit)
		t.Logf("closed after %v", took.Round(time.Millisecond))
		if len(got) > 0 && !strings.HasPrefix(string(got), "HTTP/1.1 4") {
			t.Errorf("answer to the unfinished request: got %q, want nothing or a 4xx", got)
		}
		send(t, http.MethodGet, p.base+"/healthz", "").check(t, http.StatusOK, `{"status":"ok"}`)
	})

	t.Run("a body, slowly", func(t *testing.T) {
		p := db.start(t, "HTTP_READ_TIMEOUT=1s")
		conn, err := net.Dial("tcp", p.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		body := `{"title":"Slow","body":"` + strings.Repeat("x", 200) + `","published":true}`
		fmt.Fprintf(conn, "POST /api/articles HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
			"Authorization: Bearer %s\r\nContent-Length: %d\r\n\r\n", p.addr, token, len(body))
		stop := make(chan struct{})
		defer close(stop)
		start := time.Now()
		go trickle(conn, func(i int) string {
			if i < len(body) {
				return body[i : i+1]
			}
			return ""
		}, 100*time.Millisecond, stop)
		got, took := closedWithin(t, conn, start, cutOffLimit)
		t.Logf("closed after %v", took.Round(time.Millisecond))
		resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(got))), nil)
		if err != nil {
			t.Fatalf("answer to the slow body: %v (got %q)", err, got)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		response{status: resp.StatusCode, header: resp.Header, body: string(b)}.check(t, http.StatusBadRequest,
			`{"message":"The request body could not be read."}`, "Content-Type", "application/json")
		if !resp.Close {
			t.Errorf("the answer to the cut-off body does not close the connection")
		}
		var page struct{ Meta struct{ Total int } }
		send(t, http.MethodGet, p.base+"/api/articles", "").decode(t, &page)
		if page.Meta.Total != 0 {
			t.Errorf("published articles after the cut-off body: %d, want 0", page.Meta.Total)
		}
	})

	t.Run("an idle keep-alive connection", func(t *testing.T) {
		p := db.start(t, "HTTP_IDLE_TIMEOUT=1s")
		conn, err := net.Dial("tcp", p.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if err := conn.SetDeadline(time.Now().Add(faultTimeout)); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", p.addr)
		reader := bufio.NewReader(conn)
		resp, err := http.ReadResponse(reader, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		response{status: resp.StatusCode, header: resp.Header, body: string(b)}.check(t, http.StatusOK, `{"status":"ok"}`)
		if resp.Close {
			t.Fatalf("the server closed the connection after the answer; want it kept alive")
		}
		start := time.Now()
		rest, took := closedWithin(t, conn, start, cutOffLimit)
		t.Logf("closed after %v idle", took.Round(time.Millisecond))
		if reader.Buffered() > 0 || len(rest) > 0 {
			t.Errorf("the server sent %q on the idle connection", rest)
		}
		send(t, http.MethodGet, p.base+"/healthz", "").check(t, http.StatusOK, `{"status":"ok"}`)
	})
}

// TestFaultNoSecretsInLogs sends requests with valid, invalid and forged
// tokens and logs in with right and wrong passwords, then checks that the
// server's log holds no secret: not the JWT secret, no token (nor the
// signature of one), no password, and not the database password.
func TestFaultNoSecretsInLogs(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			var secrets []string // every string that must not be logged
			if db.kind == "postgres" {
				// The test server trusts local connections, so a password
				// in the URL is accepted and ignored; the server must
				// still never print it.
				dbPassword := "pg-password-" + randomHex(t, 8)
				u, err := url.Parse(db.url)
				if err != nil {
					t.Fatal(err)
				}
				u.User = url.UserPassword(u.User.Username(), dbPassword)
				db.url = u.String()
				secrets = append(secrets, dbPassword)
			}
			password := "pw-" + randomHex(t, 10)
			wrongPassword := "nope-" + randomHex(t, 10)
			jwtSecret := "jwt-secret-" + randomHex(t, 24)
			secrets = append(secrets, password, wrongPassword, jwtSecret)

			added := db.run(t, db.env(), "users", "add", "--name", "Ada", "--email", "ada@example.com", "--password", password)
			if added.code != 0 {
				t.Fatalf("users add: exit status %d\n%s", added.code, added.stderr)
			}
			p := db.start(t, "JWT_SECRET="+jwtSecret)
			base := p.base
			login := func(body string) response {
				return send(t, http.MethodPost, base+"/api/auth/login", body, "Content-Type", "application/json")
			}
			r := login(`{"email":"ada@example.com","password":"` + password + `"}`)
			var got struct {
				AccessToken string `json:"access_token"`
			}
			r.decode(t, &got)
			token := got.AccessToken
			if r.status != http.StatusOK || token == "" {
				t.Fatalf("login: %d %s", r.status, r.body)
			}
			parts := strings.Split(token, ".")
			forged := parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString([]byte("a forged signature of 32 bytes!!"))
			none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
			garbage := "garbage-" + randomHex(t, 16)
			secrets = append(secrets, token, parts[2], forged, none, garbage)

			// Logins: wrong password, unknown user, malformed JSON and a
			// missing e-mail address, each carrying a password.
			login(`{"email":"ada@example.com","password":"`+wrongPassword+`"}`).check(t, http.StatusUnauthorized, `{"message":"Invalid credentials."}`)
			login(`{"email":"nobody@example.com","password":"`+password+`"}`).check(t, http.StatusUnauthorized, `{"message":"Invalid credentials."}`)
			login(`{"email":"ada@example.com","password":"`+password+`"`).check(t, http.StatusBadRequest, `{"message":"Malformed JSON."}`)
			login(`{"password":"`+password+`"}`).check(t, http.StatusUnprocessableEntity,
				`{"message":"The email field is required.","errors":{"email":["The email field is required."]}}`)

			// The valid token: writes through REST and GraphQL, and as a
			// request id and in a query string, where careless code could
			// log it.
			asAda := []string{"Content-Type", "application/json", "Authorization", "Bearer " + token}
			if r := send(t, http.MethodPost, base+"/api/articles", `{"title":"Mine","body":"Text","published":true}`, asAda...); r.status != http.StatusCreated {
				t.Errorf("create with the token: %d %s", r.status, r.body)
			}
			send(t, http.MethodPost, base+"/api/graphql", `{"query":"mutation { createPost(input: {title: \"Mine\", body: \"Text\"}) { title } }"}`, asAda...).check(t,
				http.StatusOK, `{"data":{"createPost":{"title":"Mine"}}}`)
			send(t, http.MethodGet, base+"/api/graphql?query="+url.QueryEscape("{ __typename }")+"&access_token="+token, "",
				"X-Request-Id", token).check(t, http.StatusOK, `{"data":{"__typename":"Query"}}`)

			// Bad tokens, on every kind of route. Basic credentials are
			// refused as bad tokens are: a header the server cannot use is
			// never taken for no header.
			basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("ada@example.com:"+password))
			for _, auth := range []string{"Bearer " + forged, "Bearer " + none, "Bearer " + garbage, "bearer " + forged,
				"Bearer " + strings.Repeat(token, 40), basic} {
				for _, req := range []struct {
					method, path, body string
					want               int
				}{
					{method: http.MethodPost, path: "/api/articles", body: `{"title":"Forged","body":"Text"}`, want: http.StatusUnauthorized},
					{method: http.MethodDelete, path: "/api/articles/1", want: http.StatusUnauthorized},
					{method: http.MethodPost, path: "/api/graphql", body: `{"query":"mutation { deletePost(id: \"1\") { id } }"}`, want: http.StatusUnauthorized},
					{method: http.MethodPost, path: "/api/graphql", body: `{"query":"{ posts { id } }"}`,
						want: http.StatusUnauthorized},
				} {
					r := send(t, req.method, base+req.path, req.body, "Content-Type", "application/json", "Authorization", auth)
					if r.status != req.want {
						t.Errorf("%s %s %s with %.20s…: status %d, want %d", req.method, req.path, req.body, auth, r.status, req.want)
					}
				}
			}

			// Stop the server, so that every line is written, then search.
			if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if code := p.wait(t); code != 0 {
				t.Errorf("exit status %d", code)
			}
			log := p.log() + added.stdout + added.stderr
			if !strings.Contains(log, "auth: request refused") && !strings.Contains(log, "invalid credentials") {
				t.Errorf("the log holds no refusal at all; is it the server's log?\n%s", log)
			}
			for _, secret := range secrets {
				if strings.Contains(log, secret) {
					t.Errorf("the log contains the secret %.24s…:\n%s", secret, log)
				}
			}
		})
	}
}
