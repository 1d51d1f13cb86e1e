package idempotency_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/gqlkit/gqlkit/articles/sqlitestore"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
)

// A retried POST with the same Idempotency-Key gets the first answer
// again; the handler runs once.
func ExampleMiddleware() {
	dir, _ := os.MkdirTemp("", "idempotency")
	defer os.RemoveAll(dir)
	store, err := sqlitestore.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		panic(err)
	}
	defer store.Close()
	if err := store.Migrate(context.Background()); err != nil {
		panic(err)
	}
	keys, err := idempotency.Middleware(idempotency.Config{Store: store.Idempotency()})
	if err != nil {
		panic(err)
	}
	runs := 0
	create := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs++
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"order":%d}`, runs)
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
