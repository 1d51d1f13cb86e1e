package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/postgres"
	"github.com/gqlkit/gqlkit/reqlog"
	"github.com/gqlkit/gqlkit/sqlite"
)

// databases open the service's database, migrated, on each engine.
var databases = []struct {
	name string
	open func(t *testing.T) *database
}{
	{"sqlite", func(t *testing.T) *database {
		db, err := openSQLite(t.TempDir() + "/existing.db")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.close)
		if err := db.migrate(t.Context(), sqlite.ArticlesMigration); err != nil {
			t.Fatal(err)
		}
		return db
	}},
	{"postgres", func(t *testing.T) *database {
		pool, _ := testdb.PostgresPool(t)
		db := openPostgres(pool)
		t.Cleanup(db.close)
		if err := db.migrate(t.Context(), postgres.ArticlesMigration); err != nil {
			t.Fatal(err)
		}
		return db
	}},
}

// lockedBuffer collects the service's log lines from its handlers' goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start serves the service on loopback over db, as main does.
func start(t *testing.T, db *database) (base string, logs *lockedBuffer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base = "http://" + ln.Addr().String()
	logs = &lockedBuffer{}
	logger := slog.New(reqlog.NewIDHandler(slog.NewJSONHandler(logs, nil)))
	h, err := newService(db, config{BaseURL: base, Logger: logger, BcryptCost: bcrypt.MinCost})
	if err != nil {
		_ = ln.Close()
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return base, logs
}

type answer struct {
	status int
	body   string
	header http.Header
}

func send(t *testing.T, method, url, token string, body any, headers ...string) answer {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: resp.StatusCode, body: strings.TrimSpace(string(b)), header: resp.Header}
}

func graphQL(t *testing.T, base, token, query string, vars map[string]any) answer {
	t.Helper()
	return send(t, http.MethodPost, base+"/api/graphql", token, map[string]any{"query": query, "variables": vars})
}

func expect(t *testing.T, what string, got answer, status int, body string) {
	t.Helper()
	if got.status != status || got.body != body {
		t.Errorf("%s: got %d %s\nwant %d %s", what, got.status, got.body, status, body)
	}
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

const (
	signUp       = `mutation($in: SignUpInput!) { signUp(input: $in) { token account { id email displayName memberId } } }`
	rename       = `mutation { rename(displayName: "Ada L.") { id displayName } }`
	me           = `{ me { id email displayName memberId } }`
	unauthorized = `{"errors":[{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}]}`
)

// TestExistingService runs the service end to end on each database: a
// public signUp, gated mutations whose resolvers see the account's UUID,
// RS256 tokens verified through the service's own JWKS, articles whose
// user_id is a member of the service's table, and no users table of the
// kit's.
func TestExistingService(t *testing.T) {
	for _, d := range databases {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			base, logs := start(t, db)

			// signUp needs no token.
			got := graphQL(t, base, "", signUp, map[string]any{"in": map[string]any{
				"email": "ada@example.com", "password": "correct horse", "displayName": "Ada"}})
			var signed struct {
				Data struct {
					SignUp struct {
						Token   string `json:"token"`
						Account struct {
							ID          string `json:"id"`
							Email       string `json:"email"`
							DisplayName string `json:"displayName"`
							MemberID    int64  `json:"memberId"`
						} `json:"account"`
					} `json:"signUp"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(got.body), &signed); err != nil || got.status != http.StatusOK {
				t.Fatalf("signUp: %d %s (%v)", got.status, got.body, err)
			}
			acc, token := signed.Data.SignUp.Account, signed.Data.SignUp.Token
			if !uuidPattern.MatchString(acc.ID) || acc.MemberID != 1 || acc.Email != "ada@example.com" || acc.DisplayName != "Ada" {
				t.Fatalf("signUp account: %+v", acc)
			}
			meBody := func(name string) string {
				return fmt.Sprintf(`{"data":{"me":{"id":%q,"email":"ada@example.com","displayName":%q,"memberId":1}}}`, acc.ID, name)
			}

			// The same e-mail again: a validation error of the service's own.
			expect(t, "signUp twice", graphQL(t, base, "", signUp, map[string]any{"in": map[string]any{
				"email": "ada@example.com", "password": "another one", "displayName": "Ada"}}),
				http.StatusOK, `{"data":null,"errors":[{"message":"The email has already been taken.","locations":[{"line":1,"column":31}],"path":["signUp"],"extensions":{"code":"VALIDATION_FAILED","validation":{"input.email":["The email has already been taken."]}}}]}`)
			// The kit's rules on the input, named by the graphql tags.
			expect(t, "signUp invalid", graphQL(t, base, "", signUp, map[string]any{"in": map[string]any{
				"email": "not an address", "password": "short", "displayName": "Bob"}}),
				http.StatusOK, `{"data":null,"errors":[{"message":"The email field must be a valid email address. (and 1 more error)","locations":[{"line":1,"column":31}],"path":["signUp"],"extensions":{"code":"VALIDATION_FAILED","validation":{"input.email":["The email field must be a valid email address."],"input.password":["The password field must be at least 8 characters."]}}}]}`)

			// A gated mutation: 401 without a token, the account's UUID with one.
			got = graphQL(t, base, "", rename, nil)
			expect(t, "rename without a token", got, http.StatusUnauthorized, unauthorized)
			expect(t, "rename", graphQL(t, base, token, rename, nil), http.StatusOK,
				fmt.Sprintf(`{"data":{"rename":{"id":%q,"displayName":"Ada L."}}}`, acc.ID))
			expect(t, "me", graphQL(t, base, token, me, nil), http.StatusOK, meBody("Ada L."))
			expect(t, "me without a token", graphQL(t, base, "", me, nil), http.StatusOK, `{"data":{"me":null}}`)

			// Tokens the service's keys did not sign.
			forged := forge(t, acc.ID, base)
			for name, tok := range forged {
				expect(t, name, graphQL(t, base, tok, rename, nil), http.StatusUnauthorized, unauthorized)
			}

			// The articles: user_id is the member of the token's account,
			// per-route handlers on gorilla/mux, a retried create answered once.
			create := map[string]any{"title": "Hello", "body": "From an existing service.", "published": true}
			first := send(t, http.MethodPost, base+"/api/articles", token, create, idempotency.KeyHeader, "create-1")
			var answer struct {
				Data struct {
					ID     int64 `json:"id"`
					UserID int64 `json:"user_id"`
					Author struct {
						ID   int64  `json:"id"`
						Name string `json:"name"`
					} `json:"author"`
				} `json:"data"`
			}
			err := json.Unmarshal([]byte(first.body), &answer)
			created := answer.Data
			if err != nil || first.status != http.StatusCreated {
				t.Fatalf("create: %d %s (%v)", first.status, first.body, err)
			}
			if created.UserID != 1 || created.Author.ID != 1 || created.Author.Name != "Ada L." {
				t.Errorf("create: user_id %d, author %+v; want member 1, Ada L.", created.UserID, created.Author)
			}
			retry := send(t, http.MethodPost, base+"/api/articles", token, create, idempotency.KeyHeader, "create-1")
			if retry.status != http.StatusCreated || retry.body != first.body || retry.header.Get(idempotency.ReplayedHeader) != "true" {
				t.Errorf("retried create: %d %q %s; want the first answer replayed", retry.status, retry.header.Get(idempotency.ReplayedHeader), retry.body)
			}
			// The first cursor page reads the author from members too.
			article := strings.TrimSuffix(strings.TrimPrefix(first.body, `{"data":`), "}")
			expect(t, "cursor page", send(t, http.MethodGet, base+"/api/articles?cursor=", "", nil), http.StatusOK,
				`{"data":[`+article+`],"path":"`+base+`/api/articles","per_page":15,"next_cursor":null,"next_page_url":null,"prev_cursor":null,"prev_page_url":null}`)
			path := fmt.Sprintf("%s/api/articles/%d", base, created.ID)
			expect(t, "show", send(t, http.MethodGet, path, "", nil), http.StatusOK, first.body)
			expect(t, "delete without a token", send(t, http.MethodDelete, path, "", nil), http.StatusUnauthorized, `{"message":"Unauthenticated."}`)
			expect(t, "delete", send(t, http.MethodDelete, path, token, nil), http.StatusNoContent, "")
			expect(t, "show deleted", send(t, http.MethodGet, path, "", nil), http.StatusNotFound, `{"message":"Not found."}`)

			// The kit created no users table; its articles point at members.
			if n := tableCount(t, db, "users"); n != 0 {
				t.Errorf("a users table exists (%d)", n)
			}
			if n := tableCount(t, db, "members"); n != 1 {
				t.Errorf("members: %d tables", n)
			}

			// The kit's lines reached the service's slog handler with request ids.
			if !strings.Contains(logs.String(), `"request_id":"`) || !strings.Contains(logs.String(), `"path":"/api/graphql"`) {
				t.Errorf("log lines without request ids or access lines:\n%s", logs.String())
			}
		})
	}
}

// forge returns tokens for the account that the service did not sign as
// it does: another RSA key under the service's kid, HS256 keyed with the
// service's public JWKS document, and alg none.
func forge(t *testing.T, sub, base string) map[string]string {
	t.Helper()
	claims := jwt.RegisteredClaims{Subject: sub, Issuer: base, Audience: jwt.ClaimStrings{audience},
		ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Minute))}
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rs := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	rs.Header["kid"] = "service-1"
	wrongKey, err := rs.SignedString(other)
	if err != nil {
		t.Fatal(err)
	}
	jwks := send(t, http.MethodGet, base+"/.well-known/jwks.json", "", nil)
	hs := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	hs.Header["kid"] = "service-1"
	confused, err := hs.SignedString([]byte(jwks.body))
	if err != nil {
		t.Fatal(err)
	}
	none, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"another RSA key": wrongKey, "HS256 keyed with the JWKS": confused, "alg none": none}
}

// tableCount counts the tables of that name the service's connection sees.
func tableCount(t *testing.T, db *database, name string) int {
	t.Helper()
	q := `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1`
	if _, ok := db.kit.(*postgres.Store); ok {
		q = `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1`
	}
	var n int
	if err := db.read.QueryRowContext(t.Context(), q, name).Scan(&n); err != nil && err != sql.ErrNoRows {
		t.Fatal(err)
	}
	return n
}
