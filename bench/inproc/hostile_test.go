package inproc

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/bench/internal/kit"
	kitgql "github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/limits"
)

// maxDocument is the default query length limit; every hostile document fits.
const maxDocument = limits.DefaultMaxLength

// hostile is a document built to be expensive, and how gqlkit must answer it.
type hostile struct {
	name string
	doc  string
	// limit is the limit that must reject the document; "" means that it
	// passes every limit and validation must reject it.
	limit limits.Name
}

// fill repeats unit after head until one more unit (and the tail) would not
// fit in size bytes.
func fill(head, unit, tail string, size int) string {
	var b strings.Builder
	b.WriteString(head)
	for b.Len()+len(unit)+len(tail) <= size {
		b.WriteString(unit)
	}
	b.WriteString(tail)
	return b.String()
}

// repeat writes unit n times between head and tail.
func repeat(head, unit, tail string, n int) string {
	return head + strings.Repeat(unit, n) + tail
}

func hostileDocuments() []hostile {
	// Fragment bomb: F0 spreads F1 twice, F1 spreads F2 twice, … F19 spreads
	// F20, which selects one field: 2^20 fields once expanded.
	var bomb strings.Builder
	bomb.WriteString("query { ...F0 }")
	for i := range 20 {
		fmt.Fprintf(&bomb, " fragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1)
	}
	bomb.WriteString(" fragment F20 on Query { posts { id } }")

	// Nesting: 64 brackets open at once (the most the scan allows), as
	// chains of fields 64 deep, repeated to fill the length limit.
	chain := strings.Repeat("a{", 63) + "a" + strings.Repeat("}", 63) + " "

	return []hostile{
		{name: "fragment-bomb", doc: bomb.String(), limit: limits.Nodes},
		// The response key "a" for fields of different names and arguments:
		// every pair conflicts (OverlappingFieldsCanBeMerged).
		{name: "conflicting-aliases", doc: fill("{", ` a:posts{id} a:post(id:"1"){id}`, " }", maxDocument), limit: limits.Nodes},
		// The same at the node limit (124 pairs = 496 nodes): the document
		// passes every limit and reaches the validator.
		{name: "conflicting-aliases-496", doc: repeat("{", ` a:posts{id} a:post(id:"1"){id}`, " }", 124)},
		{name: "nesting-64", doc: fill("{", chain, "}", maxDocument), limit: limits.Depth},
		// About 20 000 one-byte tokens: $c is two tokens in two bytes. The
		// document passes every limit (two field nodes) and is refused by
		// validation with one error per undefined variable.
		{name: "tokens-20000", doc: fill("{post(id:[", "$c", "]){id}}", maxDocument)},
		// gqlparser's quadratic case (research brief, section 3), on a
		// Post: 2000 conflicting aliases in 20 KB …
		{name: "overlapping-fields", doc: fill(`{post(id:"1"){`, " a:id a:title", "}}", maxDocument), limit: limits.Nodes},
		// … and as many as the node limit lets through (498 + post).
		{name: "overlapping-fields-499", doc: repeat(`{post(id:"1"){`, " a:id a:title", "}}", 249)},
	}
}

// hostileHandler is gqlkit's endpoint with the document cache off, so that
// every request is a cache miss.
func hostileHandler(tb testing.TB) http.Handler {
	cfg := kit.Config()
	cfg.CacheSize = -1
	h, err := kit.NewHandler(loadStore(tb), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// postDocument sends doc as the body of an application/graphql request, so
// that the whole length limit is available to the document.
func postDocument(h http.Handler, doc string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(doc))
	req.Header.Set("Content-Type", "application/graphql")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

type errorBody struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string `json:"message"`
		Extensions struct {
			Code  string `json:"code"`
			Limit *struct {
				Name  string `json:"name"`
				Max   int    `json:"max"`
				Found int    `json:"found"`
			} `json:"limit"`
		} `json:"extensions"`
	} `json:"errors"`
}

// TestHostileDocuments checks each hostile document's shape (size, tokens,
// nesting) and that gqlkit refuses it with 400, no data, at most 100 errors,
// and the expected code (and limit).
func TestHostileDocuments(t *testing.T) {
	h := hostileHandler(t)
	measure := limits.Config{MaxLength: limits.NoLimit, MaxTokens: limits.NoLimit, MaxNesting: limits.NoLimit}
	for _, tt := range hostileDocuments() {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.doc) > maxDocument {
				t.Fatalf("document of %d bytes, want at most %d", len(tt.doc), maxDocument)
			}
			stats, _ := measure.Scan(tt.doc)
			switch tt.name {
			case "tokens-20000":
				if stats.Tokens < 19990 || stats.Tokens > limits.DefaultMaxTokens {
					t.Errorf("%d tokens, want 19990..20000", stats.Tokens)
				}
			case "nesting-64":
				if stats.Nesting != limits.DefaultMaxNesting {
					t.Errorf("nesting %d, want %d", stats.Nesting, limits.DefaultMaxNesting)
				}
			}
			rec := postDocument(h, tt.doc)
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("status %d, want 400; body %.300s", rec.Code, rec.Body)
			}
			var body errorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("%v: %.300s", err, rec.Body)
			}
			if body.Data != nil || len(body.Errors) == 0 || len(body.Errors) > 100 {
				t.Fatalf("data %s and %d errors, want no data and 1..100 errors", body.Data, len(body.Errors))
			}
			first := body.Errors[0]
			if tt.limit == "" {
				if first.Extensions.Code != "GRAPHQL_VALIDATION_FAILED" {
					t.Errorf("code %q (%s), want GRAPHQL_VALIDATION_FAILED", first.Extensions.Code, first.Message)
				}
				return
			}
			if first.Extensions.Code != "QUERY_LIMIT_EXCEEDED" || first.Extensions.Limit == nil || first.Extensions.Limit.Name != string(tt.limit) {
				t.Errorf("error %+v, want QUERY_LIMIT_EXCEEDED on %s", first, tt.limit)
			}
		})
	}
}

// BenchmarkHostile measures gqlkit's answer to each hostile document on a
// cache miss, through the whole handler.
func BenchmarkHostile(b *testing.B) {
	h := hostileHandler(b)
	for _, tt := range hostileDocuments() {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.doc)))
			b.ReportAllocs()
			for b.Loop() {
				if rec := postDocument(h, tt.doc); rec.Code != http.StatusBadRequest {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}

// BenchmarkHostileParse measures the parser alone (kitgql.ParseQuery with
// the default token limit) on each hostile document: the part of
// BenchmarkHostile that no limit checked after parsing can save.
func BenchmarkHostileParse(b *testing.B) {
	for _, tt := range hostileDocuments() {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := kitgql.ParseQuery(tt.doc, limits.DefaultMaxTokens); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
