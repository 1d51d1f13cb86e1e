package articles_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/internal/logbuf"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/storetest"
	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// tokenStore is a store that also keeps revoked tokens.
type tokenStore struct {
	storetest.Store
	tokens auth.TokenStore
}

// Tokens returns the store's revoked tokens.
func (s tokenStore) Tokens() auth.TokenStore { return s.tokens }

// recheckStores open the stores of TestWriteRecheck; close makes every
// later revocation check fail.
var recheckStores = []struct {
	name string
	open func(t *testing.T) (s tokenStore, close func())
}{
	{name: "sqlite", open: func(t *testing.T) (tokenStore, func()) {
		s, db, _ := testdb.SQLiteDB(t)
		return tokenStore{testdb.Of(s), s.Tokens()}, func() { _ = db.Close() }
	}},
	{name: "postgres", open: func(t *testing.T) (tokenStore, func()) {
		s, _ := testdb.Postgres(t)
		return tokenStore{testdb.Of(s), s.Tokens()}, s.Close
	}},
}

// holdHeader makes a request stop between the middleware and the
// handler: "signal" tells the test that the middleware let it through,
// "wait" also waits for the test's word.
const holdHeader = "X-Test-Hold"

// TestWriteRecheck: a write checks its token again right before the
// store writes, on both stores. A token logged out while the client sends
// the body (the middleware let the request through when its headers came)
// stores nothing and gets the middleware's 401, as does a delete whose
// token was revoked while it waited; a token store that cannot answer
// then is the middleware's 503. Before, the article was created (201) and
// deleted (204) on behalf of the logged-out user.
func TestWriteRecheck(t *testing.T) {
	for _, st := range recheckStores {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			s, closeTokens := st.open(t)
			logs := new(bytes.Buffer)
			logger := logbuf.Logger(logs)
			h, err := articles.NewHandler(s, articles.Config{Presenter: apierror.Presenter{Logger: logger}})
			if err != nil {
				t.Fatal(err)
			}
			cfg := auth.Config{Tokens: s.Tokens()}
			verifier, err := auth.NewVerifier(auth.HMAC(secret), cfg)
			if err != nil {
				t.Fatal(err)
			}
			issuer, err := auth.NewIssuer(secret, cfg)
			if err != nil {
				t.Fatal(err)
			}
			entered, proceed := make(chan struct{}), make(chan struct{})
			hold := func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					switch r.Header.Get(holdHeader) {
					case "signal":
						entered <- struct{}{}
					case "wait":
						entered <- struct{}{}
						<-proceed
					}
					next.ServeHTTP(w, r)
				})
			}
			srv := httptest.NewServer(verifier.Optional(hold(h)))
			t.Cleanup(srv.Close)

			user, err := s.CreateUser(ctx, "Ada", "ada@example.com", []byte("hash"))
			if err != nil {
				t.Fatal(err)
			}
			token := func() (string, auth.Token) {
				raw, err := issuer.Issue(user)
				if err != nil {
					t.Fatal(err)
				}
				tok, err := verifier.Verify(ctx, raw)
				if err != nil {
					t.Fatal(err)
				}
				return raw, tok
			}
			logOut := func(tok auth.Token) {
				if err := s.Tokens().RevokeToken(ctx, tok.ID, tok.ExpiresAt); err != nil {
					t.Fatal(err)
				}
			}
			// answer sends a request whose body comes in two parts, calling
			// between once the middleware let it through and the first
			// part is sent.
			answer := func(method, path, raw, body string, hold string, between func()) response {
				t.Helper()
				conn, err := net.Dial("tcp", srv.Listener.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\nContent-Length: %d\r\nAuthorization: Bearer %s\r\n%s: %s\r\n\r\n",
					method, path, len(body), raw, holdHeader, hold)
				first := min(10, len(body))
				if _, err := io.WriteString(conn, head+body[:first]); err != nil {
					t.Fatal(err)
				}
				<-entered
				between()
				if hold == "wait" {
					proceed <- struct{}{}
				}
				if _, err := io.WriteString(conn, body[first:]); err != nil {
					t.Fatal(err)
				}
				res, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				b, err := io.ReadAll(res.Body)
				if err != nil {
					t.Fatal(err)
				}
				return response{status: res.StatusCode, header: res.Header, body: string(b)}
			}
			published := func() int64 {
				t.Helper()
				var page articles.Page
				if err := s.ListPublished(ctx, 10, 0, &page); err != nil {
					t.Fatal(err)
				}
				return page.Total
			}
			const unauthenticated = `{"message":"Unauthenticated."}`
			article := `{"title":"Written after the logout","body":"b","published":true}`

			raw, tok := token()
			got := answer(http.MethodPost, "/api/articles", raw, article, "signal", func() { logOut(tok) })
			expect(t, "a create whose token was logged out while it sent the body", got, http.StatusUnauthorized, unauthenticated)
			if got.header.Get("WWW-Authenticate") != "Bearer" {
				t.Errorf("WWW-Authenticate = %q, want Bearer", got.header.Get("WWW-Authenticate"))
			}
			if n := published(); n != 0 {
				t.Errorf("the refused create stored an article: %d published", n)
			}

			// A live token writes, checked twice; the delete of a token
			// revoked while it waited deletes nothing.
			raw, _ = token()
			got = answer(http.MethodPost, "/api/articles", raw, `{"title":"Kept","body":"b","published":true}`, "signal", func() {})
			var created struct{ Data struct{ ID int64 } }
			if err := json.Unmarshal([]byte(got.body), &created); got.status != http.StatusCreated || err != nil {
				t.Fatalf("a create with a live token: %d %s", got.status, got.body)
			}
			raw, tok = token()
			got = answer(http.MethodDelete, fmt.Sprint("/api/articles/", created.Data.ID), raw, "", "wait", func() { logOut(tok) })
			expect(t, "a delete whose token was logged out while it waited", got, http.StatusUnauthorized, unauthenticated)
			if _, err := s.FindPublished(ctx, created.Data.ID); err != nil {
				t.Errorf("after the refused delete: FindPublished = %v; want the article kept", err)
			}

			// A token store that cannot answer when the write comes: 503.
			raw, _ = token()
			got = answer(http.MethodPost, "/api/articles", raw, article, "wait", closeTokens)
			expect(t, "a create whose token cannot be checked again", got, http.StatusServiceUnavailable, `{"message":"Service unavailable."}`)
			if !strings.Contains(logs.String(), `"level":"error"`) || !strings.Contains(logs.String(), `"message":"articles: the write's token could not be checked again"`) {
				t.Errorf("log = %s; want the unavailable token store logged at error level", logs)
			}
		})
	}
}
