package postgres_test

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/postgres"
	"github.com/gqlkit/gqlkit/sqlstore"
)

// Example opens a pool from DATABASE_URL, creates the tables if they are
// missing, and serves the articles API from it. (It needs a database, so
// it is compiled but not run by go test.)
func Example() {
	ctx := context.Background()
	store, err := postgres.Open(ctx, os.Getenv("DATABASE_URL")) // e.g. postgres://app@db:5432/app
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	if err := store.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	h, err := articles.NewHandler(store.Articles(), articles.Config{})
	if err != nil {
		log.Fatal(err)
	}
	verifier, err := auth.NewVerifier(auth.HMAC([]byte(os.Getenv("JWT_SECRET"))), auth.Config{})
	if err != nil {
		log.Fatal(err) // a secret shorter than 32 bytes is refused
	}
	mux := http.NewServeMux()
	mux.Handle("GET /api/articles", h) // public reads
	mux.Handle("GET /api/articles/", h)
	mux.Handle("/api/articles", verifier.Optional(h)) // writes: 401 without a valid token
	mux.Handle("/api/articles/", verifier.Optional(h))
	log.Fatal(http.ListenAndServe(":8080", mux))
}

// ExampleStore_MigrateSchemas keeps the idempotency keys of a service's
// own API in PostgreSQL, without the kit's other tables: a retried POST
// gets the first answer again. The service's writes join the claim
// through store.Idempotency().Tx, so that they commit with the answer.
// (It needs a database, so it is compiled but not run by go test.)
func ExampleStore_MigrateSchemas() {
	ctx := context.Background()
	store, err := postgres.Open(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	if err := store.MigrateSchemas(ctx, []sqlstore.Schema{sqlstore.IdempotencySchema}); err != nil {
		log.Fatal(err)
	}
	keys, err := idempotency.Middleware(idempotency.Config{Store: store.Idempotency()})
	if err != nil {
		log.Fatal(err)
	}
	orders := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tx, err := store.Idempotency().Tx(r.Context()) // nil without a key
		if err != nil {
			http.Error(w, "try again", http.StatusConflict)
			return
		}
		_ = tx // write the order in tx (or in a pool of your own when nil)
		w.WriteHeader(http.StatusCreated)
	})
	log.Fatal(http.ListenAndServe(":8080", keys(orders)))
}
