package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// slowWrite is a write whose body the client sends in two parts on a
// connection of its own. It asks to be told when the server reads the
// body (Expect: 100-continue): the server sends 100 Continue once the
// handler begins to read it, that is once the request's token passed the
// door.
type slowWrite struct {
	conn net.Conn
	rd   *bufio.Reader
	body string
}

// startSlowWrite sends the headers of a POST of body to path with the
// bearer token, waits for the 100 Continue and sends the first 10 bytes
// of the body.
func startSlowWrite(t *testing.T, addr, path, token, body string) *slowWrite {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, faultTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(faultTimeout))
	w := &slowWrite{conn: conn, rd: bufio.NewReader(conn), body: body}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"+
		"Authorization: Bearer %s\r\nExpect: 100-continue\r\n\r\n", path, addr, len(body), token)
	status, err := w.rd.ReadString('\n')
	if err != nil || status != "HTTP/1.1 100 Continue\r\n" {
		t.Fatalf("waiting for the server to read the body: %q, %v", status, err)
	}
	if blank, err := w.rd.ReadString('\n'); err != nil || blank != "\r\n" {
		t.Fatalf("after 100 Continue: %q, %v", blank, err)
	}
	if _, err := io.WriteString(conn, body[:10]); err != nil {
		t.Fatal(err)
	}
	return w
}

// finish sends the rest of the body and reads the answer.
func (w *slowWrite) finish(t *testing.T) response {
	t.Helper()
	if _, err := io.WriteString(w.conn, w.body[10:]); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(w.rd, nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

// TestWriteAfterLogoutRefused: a write whose token passed the door before
// its user logged out, and whose body came after, writes nothing. A client
// sends the headers of a write and the first 10 bytes of its body, the
// token is logged out (204; it is refused elsewhere from then on), and
// the rest of the body follows: the REST create and the GraphQL createPost
// are answered with the door's 401 and nothing is stored. Before, the
// article and the post were written as the logged-out user (201, 200):
// whoever holds a stolen token could open such requests ahead of time and
// finish them after the owner logged out, for up to HTTP_READ_TIMEOUT.
func TestWriteAfterLogoutRefused(t *testing.T) {
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			u := user{email: "ada@example.com", password: "correct horse"}
			u.id = strings.TrimSpace(db.mustRun(t, "users", "add", "--name", "Ada", "--email", u.email, "--password", u.password))
			minted := strings.TrimSpace(db.mustRun(t, "token", "--user", u.id))
			p := db.start(t)
			s := &sessions{db: db}
			conn := db.sqlDB(t)
			logOut := func(token string) {
				t.Helper()
				send(t, http.MethodPost, p.base+"/api/auth/logout", "", "Authorization", "Bearer "+token).check(t,
					http.StatusNoContent, "", "Cache-Control", "no-store")
				checkRefused(t, p.base, token)
			}

			// REST, with the access token of a login (its session ends).
			login := s.login(t, p.base, u)
			w := startSlowWrite(t, p.addr, "/api/articles", login.access, `{"title":"Written after the logout","body":"Text","published":true}`)
			logOut(login.access)
			w.finish(t).check(t, http.StatusUnauthorized, unauthenticated, "WWW-Authenticate", "Bearer", "Content-Type", "application/json")
			if n := queryInt(t, conn, "SELECT count(*) FROM articles"); n != 0 {
				t.Errorf("%d articles stored; want none", n)
			}

			// GraphQL, with a token of the token command (denied by its id).
			w = startSlowWrite(t, p.addr, "/api/graphql", minted,
				`{"query":"mutation { createPost(input: {title: \"Written after the logout\", body: \"Text\"}) { id } }"}`)
			logOut(minted)
			w.finish(t).check(t, http.StatusUnauthorized, gqlUnauthenticated, "WWW-Authenticate", "Bearer")
			if n := queryInt(t, conn, "SELECT count(*) FROM posts"); n != 0 {
				t.Errorf("%d posts stored; want none", n)
			}

			// A live token still writes the same way.
			fresh := s.login(t, p.base, u)
			w = startSlowWrite(t, p.addr, "/api/articles", fresh.access, `{"title":"Written","body":"Text","published":true}`)
			if got := w.finish(t); got.status != http.StatusCreated {
				t.Errorf("a slow create with a live token: %d %s; want 201", got.status, got.body)
			}
			w = startSlowWrite(t, p.addr, "/api/graphql", fresh.access,
				`{"query":"mutation { createPost(input: {title: \"Written\", body: \"Text\"}) { title } }"}`)
			w.finish(t).check(t, http.StatusOK, `{"data":{"createPost":{"title":"Written"}}}`)
		})
	}
}
