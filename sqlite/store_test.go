package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/articles/storetest"
	"github.com/gqlkit/gqlkit/internal/schematest"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/sqlite"
)

func TestConformance(t *testing.T) {
	// Open: the store as shipped, with a writer and a reader pool.
	t.Run("Open", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) storetest.Store {
			return testdb.Conformance(open(t, filepath.Join(t.TempDir(), "app.db")), nil)
		})
	})
	// New: one *sql.DB of the caller's, whose statements are counted.
	t.Run("New", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) storetest.Store {
			s, c := testdb.SQLite(t)
			return testdb.Conformance(s, c)
		})
	})
}

// open opens and migrates a store at path.
func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatalf("Open(%q) error: %v", path, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close error: %v", err)
		}
	})
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatalf("Migrate error: %v", err)
	}
	return s
}

func TestOpenRefuses(t *testing.T) {
	for _, path := range []string{"", ":memory:", filepath.Join(t.TempDir(), "no such dir", "app.db")} {
		s, err := sqlite.Open(path)
		if err == nil {
			_ = s.Close()
			t.Errorf("Open(%q) error = nil, want an error", path)
		}
	}
}

func TestOpenOddPath(t *testing.T) {
	dir := t.TempDir()
	name := "a b?c#d%20e.db"
	s := open(t, filepath.Join(dir, name))
	if _, err := s.Users().CreateUser(context.Background(), "Ada", "ada@example.com", []byte("h")); err != nil {
		t.Fatalf("CreateUser error: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
		t.Errorf("the database file %q was not created where asked: %v", name, err)
	}
}

func TestDSNPragmas(t *testing.T) {
	db, err := sql.Open("sqlite", sqlite.DSN(filepath.Join(t.TempDir(), "app.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(3)
	// Check on several connections: pragmas are per connection.
	ctx := context.Background()
	var conns []*sql.Conn
	for range 3 {
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
	}
	for i, conn := range conns {
		for _, c := range []struct{ pragma, want string }{
			{pragma: "foreign_keys", want: "1"},
			{pragma: "journal_mode", want: "wal"},
			{pragma: "busy_timeout", want: "5000"},
			{pragma: "synchronous", want: "1"}, // NORMAL
		} {
			var got string
			if err := conn.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
				t.Fatalf("PRAGMA %s: %v", c.pragma, err)
			}
			if got != c.want {
				t.Errorf("connection %d: PRAGMA %s = %q, want %q", i, c.pragma, got, c.want)
			}
		}
		_ = conn.Close()
	}
}

func TestMigrations(t *testing.T) {
	schematest.CheckFiles(t, sqlite.Migrations())

	// The files work for a tool of one's own: up, up again, down.
	db, err := sql.Open("sqlite", sqlite.DSN(filepath.Join(t.TempDir(), "app.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, name := range []string{
		"users.up.sql", "auth.up.sql", "auth_users.up.sql", "idempotency.up.sql", "articles.up.sql",
		"users.up.sql", "auth.up.sql", "auth_users.up.sql", "idempotency.up.sql", "articles.up.sql",
		"articles.down.sql", "idempotency.down.sql", "auth_users.down.sql", "auth.down.sql", "users.down.sql",
	} {
		script, err := fs.ReadFile(sqlite.Migrations(), name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(script)); err != nil {
			t.Fatalf("running %s: %v", name, err)
		}
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name IN ('users', 'articles', 'idempotency_keys', 'auth_revocations', 'auth_refresh_tokens', 'auth_sessions', 'auth_login_failures', 'auth_users_delete')`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("after the down migration %d of the tables remain, want 0", n)
	}
}

func TestCloseLeavesCallersDB(t *testing.T) {
	db, err := sql.Open("sqlite", sqlite.DSN(filepath.Join(t.TempDir(), "app.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := sqlite.New(db)
	if err := s.Close(); err != nil {
		t.Fatalf("Close error: %v", err)
	}
	if err := db.Ping(); err != nil {
		t.Errorf("after Store.Close the caller's database does not answer: %v", err)
	}
	if err := s.Migrate(context.Background()); err != nil && !errors.Is(err, sql.ErrConnDone) {
		t.Errorf("Migrate after Close error: %v", err)
	}
}

// TestStatementsPreparedOnce: the store prepares each statement once and
// runs it again and again, instead of having SQLite compile the same SQL
// on every call; Close releases the statements, and a closed store answers
// with an error.
func TestStatementsPreparedOnce(t *testing.T) {
	s, c := testdb.SQLite(t)
	ctx := context.Background()
	ada, err := s.Users().CreateUser(ctx, "Ada", "ada@example.com", []byte("h"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Articles().CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: "t", Body: "b", Published: true})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if err := s.Articles().ListPublished(ctx, 10, 0, new(articles.Page)); err != nil {
			t.Fatal(err)
		}
		if err := s.Articles().ListPublished(ctx, 10, 5, new(articles.Page)); err != nil { // past the end: page, then count
			t.Fatal(err)
		}
		if _, err := s.Articles().FindPublished(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
	}
	// CreateUser, CreateArticle, and the page, count and find queries.
	if got := c.Prepared(); got != 5 {
		t.Errorf("statements prepared: %d, want 5 (one per distinct statement)", got)
	}
	if got := c.Queries(); got != 42 {
		t.Errorf("statements run: %d, want 42", got)
	}

	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Articles().ListPublished(ctx, 10, 0, new(articles.Page)); err == nil {
		t.Errorf("ListPublished on a closed store: no error")
	}
	if _, err := s.Users().CreateUser(ctx, "Bob", "bob@example.com", []byte("h")); err == nil {
		t.Errorf("CreateUser on a closed store: no error")
	}
}

// TestStoredTimeFormat pins the text timestamps are stored as, by the
// store and by the schema's defaults: fixed width, so text order is time
// order.
func TestStoredTimeFormat(t *testing.T) {
	db, err := sql.Open("sqlite", sqlite.DSN(filepath.Join(t.TempDir(), "app.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := sqlite.New(db)
	ctx := context.Background()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	ada, err := s.Users().CreateUser(ctx, "Ada", "ada@example.com", []byte("h"))
	if err != nil {
		t.Fatal(err)
	}
	created := time.Date(2025, 1, 2, 4, 4, 5, 120000999, time.FixedZone("CET", 3600))
	if _, err := s.Articles().CreateArticle(ctx, articles.NewArticle{UserID: ada, Title: "t", Body: "b", CreatedAt: created}); err != nil {
		t.Fatal(err)
	}
	var gotCreated, gotUpdated string
	if err := db.QueryRow(`SELECT created_at || '', updated_at || '' FROM articles`).Scan(&gotCreated, &gotUpdated); err != nil {
		t.Fatal(err)
	}
	if want := "2025-01-02 03:04:05.120000+00:00"; gotCreated != want || gotUpdated != want {
		t.Errorf("stored created_at, updated_at = %q, %q; want %q for both", gotCreated, gotUpdated, want)
	}

	if _, err := db.Exec(`INSERT INTO users (name, email, password) VALUES ('Bob', 'bob@example.com', 'h')`); err != nil {
		t.Fatal(err)
	}
	var byDefault string
	if err := db.QueryRow(`SELECT created_at || '' FROM users WHERE name = 'Bob'`).Scan(&byDefault); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00$`).MatchString(byDefault) {
		t.Errorf("default created_at = %q, want the fixed-width stored format", byDefault)
	}
	if _, _, err := s.Users().PasswordHash(ctx, "bob@example.com"); err != nil {
		t.Errorf("PasswordHash of a user inserted by hand: %v", err)
	}
}

// TestWALCheckpointedUnderInserts: a stream of creates (autocommit INSERT
// … RETURNING) must let SQLite checkpoint its write-ahead log, which stays
// near its automatic checkpoint size (1000 pages, 4 MiB) instead of
// growing with every insert.
func TestWALCheckpointedUnderInserts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	user, err := s.Users().CreateUser(ctx, "Ada", "ada@example.com", []byte("h"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4000 {
		if _, err := s.Articles().CreateArticle(ctx, articles.NewArticle{UserID: user, Title: fmt.Sprint("t", i), Body: "b"}); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > 8<<20 {
		t.Errorf("after 4000 creates the WAL holds %d bytes: it is never checkpointed", info.Size())
	}
}
