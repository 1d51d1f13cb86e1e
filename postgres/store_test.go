package postgres_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles/storetest"
	"github.com/gqlkit/gqlkit/internal/schematest"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/internal/testenv"
	"github.com/gqlkit/gqlkit/postgres"
)

func TestConformance(t *testing.T) {
	testenv.SkipIfShort(t, "conformance: the whole store suite on PostgreSQL (the SQLite store runs it with -short)")
	if os.Getenv(testdb.EnvDatabaseURL) == "" {
		t.Skip(testdb.EnvDatabaseURL + " is not set")
	}
	storetest.Run(t, func(t *testing.T) storetest.Store {
		s, c := testdb.Postgres(t)
		return testdb.Conformance(s, c)
	})
}

func TestConcurrentMigrate(t *testing.T) {
	pool, _ := testdb.PostgresPool(t)
	s := postgres.New(pool)
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
	if _, err := s.Users().CreateUser(context.Background(), "Ada", "ada@example.com", []byte("h")); err != nil {
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
	s, err := postgres.Open(ctx, url)
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
		if s, err := postgres.Open(ctx, url); err == nil {
			s.Close()
			t.Errorf("Open(%q) error = nil, want an error", url)
		}
	}
}

func TestMigrations(t *testing.T) {
	schematest.CheckFiles(t, postgres.Migrations())
}
