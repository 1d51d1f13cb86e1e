package idempotency_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
	"github.com/gqlkit/gqlkit/sqlite"
)

// A retried POST with the same Idempotency-Key gets the first answer
// again; the handler runs once. The handler writes through the claim's
// transaction, so the order and the recorded answer commit together.
func ExampleMiddleware() {
	dir, _ := os.MkdirTemp("", "idempotency")
	defer os.RemoveAll(dir)
	store, err := sqlite.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		panic(err)
	}
	defer store.Close()
	orders := `CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, item TEXT NOT NULL)`
	if err := store.Migrate(context.Background(), orders); err != nil {
		panic(err)
	}
	keys, err := idempotency.Middleware(idempotency.Config{Store: store.Idempotency()})
	if err != nil {
		panic(err)
	}
	runs := 0
	create := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs++
		// The claim's transaction, or nil for a request without a key.
		tx, err := store.Idempotency().Tx(r.Context())
		if err != nil {
			http.Error(w, "try again", http.StatusConflict)
			return
		}
		const insert = `INSERT INTO orders (item) VALUES ('tea') RETURNING id`
		var row *sql.Row
		if tx != nil {
			row = tx.QueryRowContext(r.Context(), insert)
		} else {
			row = store.WriteDB().QueryRowContext(r.Context(), insert)
		}
		var id int64
		if err := row.Scan(&id); err != nil {
			http.Error(w, "failed", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"order":%d}`, id)
	})
	// In a real service auth's middleware sets the user; here a stand-in.
	asUser7 := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(auth.WithUserID(r.Context(), 7)))
		})
	}
	srv := httptest.NewServer(asUser7(keys(create)))
	defer srv.Close()

	for range 2 {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/orders", strings.NewReader(`{"item":"tea"}`))
		req.Header.Set("Idempotency-Key", "order-2026-11-24-001")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%d %s replayed=%q\n", resp.StatusCode, body, resp.Header.Get("Idempotent-Replayed"))
	}
	fmt.Println("runs:", runs)
	// Output:
	// 201 {"order":1} replayed=""
	// 201 {"order":1} replayed="true"
	// runs: 1
}
