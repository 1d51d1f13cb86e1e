package rest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// envDatabaseURL names the PostgreSQL test database; PostgreSQL cases are
// skipped when it is unset and fail when it is set but unreachable.
const envDatabaseURL = "TEST_DATABASE_URL"

// kinds are the databases measured, in the order of the benchmark names.
var kinds = []string{"sqlite", "postgres"}

// shared holds the seeded databases that the benchmarks share, opened on
// first use and closed (PostgreSQL schemas dropped) when the run ends.
var shared struct {
	sync.Mutex
	dbs      map[string]*DB
	cleanups []func()
}

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Lock()
	for i := len(shared.cleanups) - 1; i >= 0; i-- {
		shared.cleanups[i]()
	}
	shared.Unlock()
	os.Exit(code)
}

// seeded returns the shared database of the given kind holding exactly the
// workload of Seed, seeding it on first use.
func seeded(tb testing.TB, kind string) *DB {
	tb.Helper()
	shared.Lock()
	defer shared.Unlock()
	if db := shared.dbs[kind]; db != nil {
		return db
	}
	dir, err := os.MkdirTemp("", "rest-bench-")
	if err != nil {
		tb.Fatal(err)
	}
	shared.cleanups = append(shared.cleanups, func() { _ = os.RemoveAll(dir) })
	db, cleanup := open(tb, kind, dir)
	shared.cleanups = append(shared.cleanups, cleanup)
	if err := Seed(context.Background(), db.Store); err != nil {
		tb.Fatal(err)
	}
	if shared.dbs == nil {
		shared.dbs = map[string]*DB{}
	}
	shared.dbs[kind] = db
	return db
}

// fresh returns a new, empty, migrated database of the given kind for tb
// alone.
func fresh(tb testing.TB, kind string) *DB {
	tb.Helper()
	db, cleanup := open(tb, kind, tb.TempDir())
	tb.Cleanup(cleanup)
	return db
}

// open opens a migrated database of the given kind: a SQLite file in dir,
// or a new PostgreSQL schema in TEST_DATABASE_URL (skipping tb when it is
// unset). cleanup closes it and drops the schema.
func open(tb testing.TB, kind, dir string) (db *DB, cleanup func()) {
	tb.Helper()
	ctx := context.Background()
	switch kind {
	case "sqlite":
		db, err := OpenSQLite(ctx, filepath.Join(dir, "rest.db"))
		if err != nil {
			tb.Fatal(err)
		}
		return db, db.Close
	case "postgres":
		url := os.Getenv(envDatabaseURL)
		if url == "" {
			tb.Skipf("%s is not set", envDatabaseURL)
		}
		schema := SchemaPrefix + "_test_" + randomHex(tb)
		if err := ResetSchema(ctx, url, schema); err != nil {
			tb.Fatalf("%s: %v", envDatabaseURL, err)
		}
		drop := func() {
			if err := DropSchema(context.Background(), url, schema); err != nil {
				fmt.Fprintf(os.Stderr, "dropping schema %s: %v\n", schema, err)
			}
		}
		cfg, err := pgxpool.ParseConfig(url)
		if err != nil {
			drop()
			tb.Fatal(err)
		}
		cfg.ConnConfig.RuntimeParams["search_path"] = schema
		db, err := OpenPostgres(ctx, cfg)
		if err != nil {
			drop()
			tb.Fatal(err)
		}
		return db, func() { db.Close(); drop() }
	}
	tb.Fatalf("unknown database kind %q", kind)
	return nil, nil
}

func randomHex(tb testing.TB) string {
	tb.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	return hex.EncodeToString(b)
}
