package pgstore_test

import (
	"context"
	"io/fs"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles/pgstore"
	"github.com/gqlkit/gqlkit/articles/storetest"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// counted is a store whose pool counts its statements.
type counted struct {
	*pgstore.Store
	counter *testdb.Counter
}

func (c counted) Queries() int64 { return c.counter.Queries() }

func TestConformance(t *testing.T) {
	testenv.SkipIfShort(t, "conformance: the whole store suite on PostgreSQL (the SQLite store runs it with -short)")
	if os.Getenv(testdb.EnvDatabaseURL) == "" {
		t.Skip(testdb.EnvDatabaseURL + " is not set")
	}
	storetest.Run(t, func(t *testing.T) storetest.Store {
		s, c := testdb.Postgres(t)
		return counted{Store: s, counter: c}
	})
}

func TestConcurrentMigrate(t *testing.T) {
	pool, _ := testdb.PostgresPool(t)
	s := pgstore.New(pool)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = s.Migrate(context.Background()) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Migrate %d error: %v", i, err)
		}
	}
	if _, err := s.CreateUser(context.Background(), "Ada", "ada@example.com", []byte("h")); err != nil {
		t.Errorf("CreateUser after migrating error: %v", err)
	}
}

func TestOpen(t *testing.T) {
	url := os.Getenv(testdb.EnvDatabaseURL)
	if url == "" {
		t.Skip(testdb.EnvDatabaseURL + " is not set")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatalf("Open error: %v", err)
	}
	s.Close()
}

func TestOpenRefuses(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, url := range []string{
		"postgres://%zz",
		"postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=5",
	} {
		if s, err := pgstore.Open(ctx, url); err == nil {
			s.Close()
			t.Errorf("Open(%q) error = nil, want an error", url)
		}
	}
}

func TestMigrations(t *testing.T) {
	names, err := fs.Glob(pgstore.Migrations(), "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"001_init.down.sql", "001_init.up.sql", "002_idempotency_keys.down.sql", "002_idempotency_keys.up.sql", "003_auth_tokens.down.sql", "003_auth_tokens.up.sql", "004_auth_sessions.down.sql", "004_auth_sessions.up.sql", "005_login_throttle.down.sql", "005_login_throttle.up.sql"}; !slices.Equal(names, want) {
		t.Errorf("Migrations() files = %v, want %v", names, want)
	}
}
