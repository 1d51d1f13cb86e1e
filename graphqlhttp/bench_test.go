package graphqlhttp_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// benchHandler returns the handler benchmarks drive: no access log and a
// logger that writes nothing.
func benchHandler(b *testing.B, schema *graphql.Schema, cacheSize int) http.Handler {
	b.Helper()
	nop := slog.New(slog.DiscardHandler)
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: apierror.Presenter{Logger: nop}, CacheSize: cacheSize, Auth: nobody{}})
	if err != nil {
		b.Fatalf("New: %v", err)
	}
	return h
}

// serveBench serves one request with body through a recorder.
func serveBench(h http.Handler, contentType string, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/api/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// BenchmarkHandler measures the whole handler, with its default cache, on
// Query A (with {"n":20}) and Query B of the benchmark workload. hit sends
// the same text every time; miss sends a text never sent before, as the
// shared harness's miss workloads do (the operation is renamed Q<n>), so
// every request is scanned, parsed, validated and planned, and offered to
// the cache.
func BenchmarkHandler(b *testing.B) {
	for _, q := range []struct {
		name, sel, vars, want string
		results               int
	}{
		{name: "A", sel: `($n: Int) { posts(first: $n) { id title tags createdAt author { id name } } }`, vars: `{"n":20}`,
			want: `{"data":{"posts":[{"id":"1","title":"Post 1","tags":["graphql","go","http"],"createdAt":"2026-01-02T09:00:00Z","author":{"id":"2","name":"Alan Turing"}},`, results: 20},
		{name: "B", sel: ` { post(id: "7") { id title author { name } } }`,
			want: `{"data":{"post":{"id":"7","title":"Post 7","author":{"name":"`, results: 1},
	} {
		for _, miss := range []bool{false, true} {
			name := q.name + "/hit"
			if miss {
				name = q.name + "/miss"
			}
			b.Run(name, func(b *testing.B) {
				h := benchHandler(b, sampleSchema(b), 0)
				var n int
				body := func() []byte {
					text := "query Q" + q.sel
					if miss {
						n++
						text = "query Q" + strconv.Itoa(n) + q.sel
					}
					return []byte(jsonBody(text, q.vars, ""))
				}
				rec := serveBench(h, "application/json", body())
				if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), q.want) ||
					strings.Count(rec.Body.String(), `"author"`) != q.results || strings.Contains(rec.Body.String(), `"errors"`) {
					b.Fatalf("answer = %d %s", rec.Code, rec.Body.String())
				}
				b.SetBytes(int64(rec.Body.Len()))
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					serveBench(h, "application/json", body())
				}
			})
		}
	}
}

// BenchmarkHostile measures the answer to each hostile document on a cache
// miss, so that every request is scanned, parsed and checked again: the
// documents that defeated other servers, and the largest documents the
// limits accept (largestDocuments).
func BenchmarkHostile(b *testing.B) {
	docs := map[string]string{}
	for _, d := range hostileDocuments() {
		docs[d.name] = d.query
	}
	deepID := strings.Repeat("[", 8000) + strings.Repeat("]", 8000)
	tests := []struct {
		name, query string
		variables   string // JSON; the request is then sent as application/json
		status      int
	}{
		{name: "fragment bomb", query: docs["fragment bomb"], status: 400},
		{name: "2000 overlapping aliases", query: docs["2000 overlapping aliases"], status: 400},
		{name: "overlapping fields", query: docs["overlapping fields"], status: 400},
		{name: "nesting 64", query: deepList(62), status: 200},
		// 9990 references to an undeclared variable: refused before parsing.
		{name: "undefined variables", query: "{post(id:[" + strings.Repeat("$c", 9990) + "]){id}}", status: 400},
		// Variables have no nesting limit of their own: a 16 KB list nested
		// 8000 deep where an ID is expected.
		{name: "variable nested 8000 deep", query: "query($id: ID!) { post(id: $id) { id } }", variables: `{"id":` + deepID + `}`, status: 400},
	}
	for _, d := range largestDocuments() {
		tests = append(tests, struct {
			name, query string
			variables   string
			status      int
		}{name: d.name, query: d.query, status: d.status})
	}
	h := benchHandler(b, testSchema(b, new(atomic.Int64)), -1)
	for _, bc := range tests {
		b.Run(strings.ReplaceAll(bc.name, " ", "_"), func(b *testing.B) {
			contentType, body := "application/graphql", []byte(bc.query)
			if bc.variables != "" {
				contentType, body = "application/json", []byte(jsonBody(bc.query, bc.variables, ""))
			}
			if rec := serveBench(h, contentType, body); rec.Code != bc.status {
				b.Fatalf("answer = %d %s, want status %d", rec.Code, rec.Body.String(), bc.status)
			}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				serveBench(h, contentType, body)
			}
		})
	}
}
