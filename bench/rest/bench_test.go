package rest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkList serves Target (the first page of 15 of the seeded
// workload) through each handler on each database: a new request and
// httptest.ResponseRecorder per operation, as the GraphQL handler
// benchmarks do. Both handlers are checked to give the same body first.
func BenchmarkList(b *testing.B) {
	for _, impl := range []string{"kit", "bare"} {
		b.Run(impl, func(b *testing.B) {
			for _, kind := range kinds {
				b.Run(kind, func(b *testing.B) {
					db := seeded(b, kind)
					kit, err := db.Kit()
					if err != nil {
						b.Fatal(err)
					}
					h := map[string]http.Handler{"kit": kit, "bare": db.Bare()}[impl]
					if got, want := serve(h), serve(kit); !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) || got.Code != http.StatusOK {
						b.Fatalf("%s answered %d %s\nkit answered %d %s", impl, got.Code, got.Body, want.Code, want.Body)
					}
					b.ReportAllocs()
					for b.Loop() {
						if rec := serve(h); rec.Code != http.StatusOK {
							b.Fatalf("status %d: %s", rec.Code, rec.Body)
						}
					}
				})
			}
		})
	}
}

// serve sends GET Target to h.
func serve(h http.Handler) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, Target, nil))
	return rec
}
