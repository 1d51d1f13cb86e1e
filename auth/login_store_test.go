package auth_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

// loginStores are the real user stores TestLoginControlCharacters runs
// against, each migrated and empty (PostgreSQL: skipped when
// TEST_DATABASE_URL is unset, failed when it is set but unreachable).
var loginStores = []struct {
	name string
	open func(t *testing.T) auth.UserStore
}{
	{name: "sqlite", open: func(t *testing.T) auth.UserStore { return testdb.SQLitePools(t).Store.Users() }},
	{name: "postgres", open: func(t *testing.T) auth.UserStore { s, _ := testdb.Postgres(t); return s.Users() }},
}

// TestLoginControlCharacters checks that control characters in the login
// fields are a 422 naming the field, on the real stores: PostgreSQL
// refuses NUL in text (SQLSTATE 22021), which must never become a 500.
func TestLoginControlCharacters(t *testing.T) {
	const (
		emailControl = `{"message":"The email field must not contain control characters.","errors":{"email":["The email field must not contain control characters."]}}`
		passwordNUL  = `{"message":"The password field must not contain NUL characters.","errors":{"password":["The password field must not contain NUL characters."]}}`
		both         = `{"message":"The email field must not contain control characters. (and 1 more error)","errors":{"email":["The email field must not contain control characters."],"password":["The password field must not contain NUL characters."]}}`
		invalid      = `{"message":"Invalid credentials."}`
		emailTooLong = `{"message":"The email field must not be greater than 255 characters.","errors":{"email":["The email field must not be greater than 255 characters."]}}`
	)
	for _, st := range loginStores {
		t.Run(st.name, func(t *testing.T) {
			users := st.open(t)
			if _, err := users.CreateUser(context.Background(), "Ada", "ada@example.com", minCostHash(t, "correct horse")); err != nil {
				t.Fatalf("CreateUser: %v", err)
			}
			login, err := auth.NewLogin(users, newIssuer(t), auth.LoginConfig{Cost: bcrypt.MinCost})
			if err != nil {
				t.Fatalf("NewLogin: %v", err)
			}
			logs, withLogger := logBuffer(t)
			srv := startServer(t, withLogger(login))
			for _, tt := range []struct {
				name   string
				body   string
				status int
				want   string
			}{
				{"NUL in the e-mail address", `{"email":"ada\u0000@example.com","password":"correct horse"}`, 422, emailControl},
				{"NUL after the e-mail address", `{"email":"ada@example.com\u0000","password":"correct horse"}`, 422, emailControl},
				{"SOH in the e-mail address", `{"email":"ada\u0001@example.com","password":"correct horse"}`, 422, emailControl},
				{"DEL in the e-mail address", `{"email":"ada\u007f@example.com","password":"correct horse"}`, 422, emailControl},
				{"C1 control in the e-mail address", `{"email":"ada\u0085x@example.com","password":"correct horse"}`, 422, emailControl},
				{"e-mail address over 255 characters", `{"email":"` + strings.Repeat("é", 256) + `","password":"correct horse"}`, 422, emailTooLong},
				{"e-mail address of 255 characters", `{"email":"` + strings.Repeat("é", 255) + `","password":"correct horse"}`, 401, invalid},
				{"tab inside the e-mail address", `{"email":"ada\t@example.com","password":"correct horse"}`, 422, emailControl},
				{"NUL in the password", `{"email":"ada@example.com","password":"correct\u0000horse"}`, 422, passwordNUL},
				{"NUL in both", `{"email":"\u0000","password":"\u0000"}`, 422, both},
				{"raw NUL byte", "{\"email\":\"ada\x00@example.com\",\"password\":\"correct horse\"}", 400, `{"message":"Malformed JSON."}`},
				{"tab in the password is the user's", `{"email":"ada@example.com","password":"correct\thorse"}`, 401, invalid},
				{"e-mail address trimmed of blanks", `{"email":" ada@example.com\n","password":"wrong"}`, 401, invalid},
			} {
				req := newRequest(t, http.MethodPost, srv.URL, tt.body, http.Header{"Content-Type": {"application/json"}})
				if got := do(t, req); got.status != tt.status || got.body != tt.want {
					t.Errorf("%s: %d %s; want %d %s", tt.name, got.status, got.body, tt.status, tt.want)
				}
			}
			req := newRequest(t, http.MethodPost, srv.URL, `{"email":"ada@example.com","password":"correct horse"}`, http.Header{"Content-Type": {"application/json"}})
			if got := do(t, req); got.status != http.StatusOK {
				t.Errorf("good credentials: %d %s; want 200", got.status, got.body)
			}
			if log := logs.String(); strings.Contains(log, `"level":"error"`) {
				t.Errorf("a login failed: %s", log)
			}
		})
	}
}

// TestLoginPasswordOver72BytesStores checks the 72-byte rule on the real
// stores: a user whose password is 72 bytes long logs in with it, never
// with it plus anything, and a longer password cannot be set.
func TestLoginPasswordOver72BytesStores(t *testing.T) {
	long := strings.Repeat("p", auth.MaxPasswordBytes)
	for _, st := range loginStores {
		t.Run(st.name, func(t *testing.T) {
			users := st.open(t)
			if _, err := auth.HashPassword(long+"x", bcrypt.MinCost); !errors.Is(err, bcrypt.ErrPasswordTooLong) {
				t.Errorf("HashPassword(73 bytes) = %v; want ErrPasswordTooLong", err)
			}
			hash, err := auth.HashPassword(long, bcrypt.MinCost)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := users.CreateUser(context.Background(), "Long", "long@example.com", hash); err != nil {
				t.Fatalf("CreateUser: %v", err)
			}
			login, err := auth.NewLogin(users, newIssuer(t), auth.LoginConfig{Cost: bcrypt.MinCost})
			if err != nil {
				t.Fatal(err)
			}
			srv := startServer(t, login)
			for _, tc := range []struct {
				password string
				status   int
			}{{long + "anything", 401}, {long + "p", 401}, {long, 200}} {
				body := `{"email":"long@example.com","password":"` + tc.password + `"}`
				if got := do(t, newRequest(t, http.MethodPost, srv.URL, body, http.Header{"Content-Type": {"application/json"}})); got.status != tc.status {
					t.Errorf("password of %d bytes: %d %s; want %d", len(tc.password), got.status, got.body, tc.status)
				}
			}
		})
	}
}
