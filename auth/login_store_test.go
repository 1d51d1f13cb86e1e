package auth_test

import (
	"context"
	"crypto/rand"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/articles/pgstore"
	"github.com/gqlkit/gqlkit/articles/sqlitestore"
	"github.com/gqlkit/gqlkit/auth"
)

// envDatabaseURL names the PostgreSQL test database, as in the articles
// tests: unset skips the PostgreSQL runs, set but unreachable fails them.
const envDatabaseURL = "TEST_DATABASE_URL"

// loginStores are the real user stores TestLoginControlCharacters runs
// against, each migrated and empty.
var loginStores = []struct {
	name string
	open func(t *testing.T) auth.UserStore
}{
	{name: "sqlite", open: openSQLite},
	{name: "postgres", open: openPostgres},
}

func openSQLite(t *testing.T) auth.UserStore {
	t.Helper()
	s, err := sqlitestore.Open(filepath.Join(t.TempDir(), "login.db"))
	if err != nil {
		t.Fatalf("sqlitestore.Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return s
}

// openPostgres returns a migrated store in a schema of its own, dropped at
// cleanup.
func openPostgres(t *testing.T) auth.UserStore {
	t.Helper()
	url := os.Getenv(envDatabaseURL)
	if url == "" {
		t.Skip(envDatabaseURL + " is not set")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("%s is set but the database is unreachable: %v", envDatabaseURL, err)
	}
	schema := "gqlkit_auth_test_" + strings.ToLower(rand.Text()[:10])
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		_ = admin.Close(ctx)
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if _, err := admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		_ = admin.Close(ctx)
	})
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatalf("parse %s: %v", envDatabaseURL, err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("pool: %v", err)
	}
	t.Cleanup(pool.Close) // before the schema is dropped
	s := pgstore.New(pool)
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return s
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
