package inproc

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

func BenchmarkExecA(b *testing.B) { benchExec(b, "A") }

func BenchmarkExecB(b *testing.B) { benchExec(b, "B") }

func benchExec(b *testing.B, name string) {
	r := request(b, name)
	for _, impl := range execImpls() {
		b.Run(impl.name, func(b *testing.B) {
			run, _ := impl.setup(b, r)
			b.ReportAllocs()
			for b.Loop() {
				sink = run()
			}
		})
	}
}

func BenchmarkHandlerA(b *testing.B) { benchHandler(b, "A") }

func BenchmarkHandlerB(b *testing.B) { benchHandler(b, "B") }

// benchHandler serves the request through each endpoint as the anchors'
// in-process benchmark does: a new request and recorder per iteration.
func benchHandler(b *testing.B, name string) {
	r := request(b, name)
	for _, impl := range handlerImpls(b) {
		b.Run(impl.name, func(b *testing.B) {
			h, err := impl.newHandler()
			if err != nil {
				b.Fatal(err)
			}
			body := bytes.NewReader(r.Body)
			b.ReportAllocs()
			for b.Loop() {
				body.Reset(r.Body)
				req := httptest.NewRequest(http.MethodPost, "/graphql", body)
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
