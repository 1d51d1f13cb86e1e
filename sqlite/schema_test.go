package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/schematest"
	"github.com/gqlkit/gqlkit/sqlite"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// TestSchemaAlone: a service with a users table of its own migrates the
// auth tables alone, or the idempotency keys alone, and uses them.
func TestSchemaAlone(t *testing.T) {
	schematest.SchemaAlone(t, `CREATE TABLE IF NOT EXISTS accounts (id INTEGER PRIMARY KEY)`, func(t *testing.T) (schematest.Store, func() bool) {
		s, db := openBare(t)
		return s, func() bool { return tableCount(t, db, "users") != 0 }
	})
	if s, _ := openBare(t); s.MigrateSchemas(context.Background(), []sqlstore.Schema{"nope"}) == nil {
		t.Error("MigrateSchemas of an unknown schema: no error")
	}
}

// TestUsersTakeTheirSessions: with Users and Auth migrated together, a
// deleted user's sessions and refresh tokens go with the user.
func TestUsersTakeTheirSessions(t *testing.T) {
	ctx := context.Background()
	s, db := openBare(t)
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	schematest.DeleteUserTakesSessions(t, s.Users(), s.Tokens(), func(table string) int {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	})
}

// TestMigrateAddsClaimColumns: a table of idempotency keys made before
// owner and held_until gets them, and a key held in it the old way
// (holder in header, lease in expires_at) stays held until its lease ends.
func TestMigrateAddsClaimColumns(t *testing.T) {
	ctx := context.Background()
	s, db := openBare(t)
	if _, err := db.Exec(`CREATE TABLE idempotency_keys (subject TEXT NOT NULL, key TEXT NOT NULL, fingerprint BLOB NOT NULL,
status INTEGER NOT NULL, header TEXT NOT NULL, body BLOB NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
PRIMARY KEY (subject, key));
CREATE INDEX idempotency_keys_expires_at_index ON idempotency_keys (expires_at)`); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := db.Exec(schematest.OldHeldKey, now.Add(time.Minute).UnixMicro()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.MigrateSchemas(ctx, []sqlstore.Schema{sqlstore.IdempotencySchema}); err != nil {
			t.Fatal(err)
		}
	}
	schematest.CheckOldHeldKey(t, s.Idempotency(), now)
}

// openBare opens an empty file, unmigrated, with a connection of the
// test's own beside the store.
func openBare(t *testing.T) (*sqlite.Store, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "app.db")
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	db, err := sql.Open("sqlite", sqlite.DSN(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return s, db
}

func tableCount(t *testing.T, db *sql.DB, name string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = $1`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestArticlesOverMembers: a service with its own members (integer ids)
// and accounts (UUIDs) migrates the articles over members, and no table
// users appears.
func TestArticlesOverMembers(t *testing.T) {
	s, db := openBare(t)
	schematest.ArticlesOverMembers(t, s, membersService,
		sqlite.ArticlesMigration, func() bool { return tableCount(t, db, "users") != 0 })
}

// membersService is the script of a service with its own members (integer
// ids) and accounts (UUIDs).
const membersService = `CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, email TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS members (id INTEGER PRIMARY KEY, account_id TEXT REFERENCES accounts (id), display_name TEXT NOT NULL);
INSERT OR IGNORE INTO accounts VALUES ('3f0c6a52-8a7e-4c39-9d1e-4b1f3c2a9e10', 'ada@example.com');
INSERT OR IGNORE INTO members VALUES (1, '3f0c6a52-8a7e-4c39-9d1e-4b1f3c2a9e10', 'Ada'), (2, NULL, 'Bob')`

// TestListFromOverMembers: the keyset pages of articles over members read
// members, not users (there is none): the conformance check of
// ListPublishedFrom.
func TestListFromOverMembers(t *testing.T) {
	schematest.ListFromOverMembers(t, func(t *testing.T) (schematest.ArticlesStore, schematest.Exec) {
		s, db := openBare(t)
		return s, func(ctx context.Context, query string, args ...any) error {
			_, err := db.ExecContext(ctx, query, args...)
			return err
		}
	}, membersService, sqlite.ArticlesMigration)
}
