package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// testDatabase is a fresh, empty database for one test: a SQLite file in a
// temporary folder, or a schema of its own in the PostgreSQL database of
// TEST_DATABASE_URL.
type testDatabase struct {
	kind string // "sqlite" or "postgres"
	url  string // DATABASE_URL
	dir  string // a temporary folder: the working directory of the server
}

// databaseKinds lists the databases every test runs on. PostgreSQL is
// skipped when TEST_DATABASE_URL is unset.
var databaseKinds = []struct {
	name string
	open func(t *testing.T) testDatabase
}{
	{name: "sqlite", open: sqliteDatabase},
	{name: "postgres", open: postgresDatabase},
}

func sqliteDatabase(t *testing.T) testDatabase {
	t.Helper()
	dir := t.TempDir()
	return testDatabase{kind: "sqlite", url: "sqlite:" + filepath.Join(dir, "app.db"), dir: dir}
}

// postgresDatabase creates the schema gqlkit_e2e_<random> in the database
// of TEST_DATABASE_URL and returns a URL whose search_path (a run-time
// parameter that pgx passes on) selects it. The schema is dropped at
// cleanup. The test is skipped when TEST_DATABASE_URL is unset and fails
// when the database cannot be reached.
func postgresDatabase(t *testing.T) testDatabase {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		t.Skip("TEST_DATABASE_URL is not set")
	}
	random := make([]byte, 6)
	if _, err := rand.Read(random); err != nil {
		t.Fatal(err)
	}
	schema := "gqlkit_e2e_" + hex.EncodeToString(random)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL is set but unreachable: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("creating schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})

	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return testDatabase{kind: "postgres", url: u.String(), dir: t.TempDir()}
}
