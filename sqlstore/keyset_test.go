package sqlstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/postgres"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// keysetIndex is the index the keyset pages must go through.
const keysetIndex = "articles_published_created_at_index"

// TestKeysetPlanPostgres checks, with EXPLAIN over 5000 articles, that
// PostgreSQL reads every keyset page through the index on (published,
// created_at), with no scan of the whole table.
func TestKeysetPlanPostgres(t *testing.T) {
	pool, _ := testdb.PostgresPool(t)
	ctx := context.Background()
	if err := postgres.New(pool).Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO users (name, email, password) VALUES ('Ada', 'ada@example.com', 'h')`,
		`INSERT INTO articles (user_id, title, body, published, created_at, updated_at)
		 SELECT 1, 't' || i, 'b', i % 10 <> 0, timestamptz '2025-01-01' + i * interval '1 second', now()
		 FROM generate_series(1, 5000) AS i`,
		`ANALYZE articles`,
		`ANALYZE users`,
	} {
		if _, err := pool.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	at := time.Date(2025, 1, 1, 0, 40, 0, 0, time.UTC)
	for name, q := range sqlstore.KeysetQueries {
		args := []any{at, int64(2400), 16}
		if name == "top" {
			args = []any{16}
		}
		rows, err := pool.Query(ctx, "EXPLAIN "+q, args...)
		if err != nil {
			t.Fatalf("EXPLAIN %s: %v", name, err)
		}
		var plan []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, line)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		if !strings.Contains(text, keysetIndex) || strings.Contains(text, "Seq Scan on articles") {
			t.Errorf("the plan of %s does not read through %s:\n%s", name, keysetIndex, text)
		}
		t.Logf("%s:\n%s", name, text)
	}
}

// TestKeysetPlanSQLite checks the same with SQLite's EXPLAIN QUERY PLAN.
func TestKeysetPlanSQLite(t *testing.T) {
	_, db, _ := testdb.SQLiteDB(t)
	for name, q := range sqlstore.KeysetQueries {
		args := []any{"2025-01-01 00:40:00.000000+00:00", int64(2400), 16}
		if name == "top" {
			args = []any{16}
		}
		rows, err := db.Query("EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatalf("EXPLAIN QUERY PLAN %s: %v", name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		if !strings.Contains(text, "INDEX "+keysetIndex) || strings.Contains(text, "SCAN a\n") || strings.HasSuffix(text, "SCAN a") {
			t.Errorf("the plan of %s does not read through %s:\n%s", name, keysetIndex, text)
		}
		t.Logf("%s:\n%s", name, text)
	}
}
