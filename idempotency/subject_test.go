package idempotency_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/idempotency"
)

// TestDefaultSubjectIsTheStringIdentity checks that without a
// Config.Subject the keys belong to the subject auth's context carries,
// whatever its shape: UUIDs of a service's own identity (auth.WithSubject)
// keep their keys apart and replay their own, and an int64 user
// (auth.WithUserID) is stored under its decimal id, as before.
func TestDefaultSubjectIsTheStringIdentity(t *testing.T) {
	forEachBackend(t, 4, func(t *testing.T, b backend) {
		f := newFixture(t, b, nil, func(cfg *idempotency.Config) { cfg.Subject = nil })
		inner := f.srv.Config.Handler
		// The service's authentication, outside the middleware: X-User
		// is a UUID, or "id:N" for an int64 user.
		f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := r.Context()
			switch u := r.Header.Get("X-User"); {
			case u == "id:7":
				ctx = auth.WithUserID(ctx, 7)
			case u != "":
				ctx = auth.WithSubject(ctx, u)
			}
			inner.ServeHTTP(w, r.WithContext(ctx))
		}))
		t.Cleanup(f.srv.Close)
		const alice, bob = "3f0c6a52-8a7e-4c39-9d1e-4b1f3c2a9e10", "a1b2c3d4-0000-4000-8000-000000000002"
		first := f.post(t, alice, "k", `{"a":1}`)
		if first.status != http.StatusCreated || first.replayed != "" {
			t.Fatalf("first = %+v, want a fresh 201", first)
		}
		if again := f.post(t, alice, "k", `{"a":1}`); again.status != http.StatusCreated || again.replayed != "true" || again.body != first.body {
			t.Errorf("retry by the same UUID = %+v, want the replay of %+v", again, first)
		}
		if other := f.post(t, bob, "k", `{"a":1}`); other.status != http.StatusCreated || other.replayed != "" {
			t.Errorf("the same key of another UUID = %+v, want a fresh 201", other)
		}
		if id := f.post(t, "id:7", "k", `{"a":1}`); id.status != http.StatusCreated || id.replayed != "" {
			t.Errorf("an int64 user = %+v, want a fresh 201", id)
		}
		if n := f.runs.Load(); n != 3 {
			t.Errorf("the handler ran %d times, want 3", n)
		}
		var subjects []string
		rows, err := b.db.QueryContext(context.Background(), `SELECT subject FROM idempotency_keys ORDER BY subject`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			subjects = append(subjects, s)
		}
		want := []string{alice, "7", bob}
		if len(subjects) != len(want) || subjects[0] != want[0] || subjects[1] != want[1] || subjects[2] != want[2] {
			t.Errorf("subjects stored = %q, want %q", subjects, want)
		}
	})
}
