package idempotency_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/idempotency"
)

// BenchmarkKeyedCreate measures the keyed write path through the
// middleware, without the network: a claim, a user written through it, the
// answer recorded and sent. Each iteration uses a new key.
func BenchmarkKeyedCreate(b *testing.B) {
	for _, kind := range backends {
		b.Run(kind.name, func(b *testing.B) {
			be := kind.open(b, 4)
			nop := slog.New(slog.DiscardHandler)
			mw, err := idempotency.Middleware(idempotency.Config{
				Store:     be.keys,
				Subject:   func(*http.Request) (string, bool) { return "1", true },
				Presenter: apierror.Presenter{Logger: nop},
			})
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n++
				id, err := be.users.CreateUser(r.Context(), "Bench", fmt.Sprint("u", n, "@example.com"), nil)
				if err != nil {
					http.Error(w, err.Error(), http.StatusInternalServerError)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusCreated)
				w.Write([]byte(`{"id":` + strconv.FormatInt(id, 10) + `}`))
			}))
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				req := httptest.NewRequest(http.MethodPost, "/things", strings.NewReader(`{"name":"Bench"}`))
				req.Header.Set(idempotency.KeyHeader, "k-"+strconv.Itoa(i))
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusCreated {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
