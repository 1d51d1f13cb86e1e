package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gqlkit/gqlkit/internal/schematest"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/postgres"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// TestSchemaAlone: a service with a users table of its own migrates the
// auth tables alone, or the idempotency keys alone, and uses them.
func TestSchemaAlone(t *testing.T) {
	schematest.SchemaAlone(t, `CREATE TABLE IF NOT EXISTS accounts (id BIGINT PRIMARY KEY)`, func(t *testing.T) (schematest.Store, func() bool) {
		pool, _ := testdb.PostgresPool(t)
		s := postgres.New(pool)
		t.Cleanup(s.Close)
		return s, func() bool { return exists(t, pool, "users") }
	})
}

// TestUsersTakeTheirSessions: with Users and Auth migrated together, a
// deleted user's sessions and refresh tokens go with the user, and
// migrating again (the foreign keys exist) changes nothing.
func TestUsersTakeTheirSessions(t *testing.T) {
	ctx := context.Background()
	pool, _ := testdb.PostgresPool(t)
	s := postgres.New(pool)
	t.Cleanup(s.Close)
	for range 2 {
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
	}
	schematest.DeleteUserTakesSessions(t, s.Users(), s.Tokens(), func(table string) int {
		var n int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
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
	pool, _ := testdb.PostgresPool(t)
	s := postgres.New(pool)
	t.Cleanup(s.Close)
	if _, err := pool.Exec(ctx, `CREATE TABLE idempotency_keys (subject TEXT NOT NULL, key TEXT NOT NULL, fingerprint BYTEA NOT NULL,
status INTEGER NOT NULL, header TEXT NOT NULL, body BYTEA NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
PRIMARY KEY (subject, key));
CREATE INDEX idempotency_keys_expires_at_index ON idempotency_keys (expires_at)`); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := pool.Exec(ctx, schematest.OldHeldKey, now.Add(time.Minute).UnixMicro()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.MigrateSchemas(ctx, []sqlstore.Schema{sqlstore.IdempotencySchema}); err != nil {
			t.Fatal(err)
		}
	}
	schematest.CheckOldHeldKey(t, s.Idempotency(), now)
}

// exists reports whether the test's schema has a table name.
func exists(t *testing.T, pool *pgxpool.Pool, name string) bool {
	t.Helper()
	var ok bool
	if err := pool.QueryRow(context.Background(), `SELECT to_regclass($1) IS NOT NULL`, name).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestArticlesOverMembers: a service with its own members (integer ids)
// and accounts (UUIDs) migrates the articles over members, and no table
// users appears.
func TestArticlesOverMembers(t *testing.T) {
	pool, _ := testdb.PostgresPool(t)
	s := postgres.New(pool)
	t.Cleanup(s.Close)
	schematest.ArticlesOverMembers(t, s, membersService,
		postgres.ArticlesMigration, func() bool { return exists(t, pool, "users") })
}

// membersService is the script of a service with its own members (integer
// ids) and accounts (UUIDs).
const membersService = `CREATE TABLE IF NOT EXISTS accounts (id UUID PRIMARY KEY, email TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS members (id BIGINT PRIMARY KEY, account_id UUID REFERENCES accounts (id), display_name TEXT NOT NULL);
INSERT INTO accounts VALUES ('3f0c6a52-8a7e-4c39-9d1e-4b1f3c2a9e10', 'ada@example.com') ON CONFLICT DO NOTHING;
INSERT INTO members VALUES (1, '3f0c6a52-8a7e-4c39-9d1e-4b1f3c2a9e10', 'Ada'), (2, NULL, 'Bob') ON CONFLICT DO NOTHING`

// TestListFromOverMembers: the keyset pages of articles over members read
// members, not users (there is none): the conformance check of
// ListPublishedFrom.
func TestListFromOverMembers(t *testing.T) {
	schematest.ListFromOverMembers(t, func(t *testing.T) (schematest.ArticlesStore, schematest.Exec) {
		pool, _ := testdb.PostgresPool(t)
		s := postgres.New(pool)
		t.Cleanup(s.Close)
		return s, func(ctx context.Context, query string, args ...any) error {
			_, err := pool.Exec(ctx, query, args...)
			return err
		}
	}, membersService, postgres.ArticlesMigration)
}
