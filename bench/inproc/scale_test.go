package inproc

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/bench/internal/kit"
	kitgql "github.com/gqlkit/gqlkit/graphql"
)

// postsFirst are the page sizes of BenchmarkPostsFirst.
var postsFirst = []int{1, 10, 50}

// fieldNodes are the document sizes of BenchmarkFieldNodes; 500 is the
// default node limit.
var fieldNodes = []int{10, 100, 500}

// aliasDocument returns a query of exactly nodes field nodes: posts(first: 1)
// and nodes-1 aliases of its title, a0 to a<nodes-2>.
func aliasDocument(nodes int) string {
	var b strings.Builder
	b.WriteString("{ posts(first: 1) {")
	for i := range nodes - 1 {
		fmt.Fprintf(&b, " a%d: title", i)
	}
	b.WriteString(" } }")
	return b.String()
}

// TestScaleDocuments checks what the scaling benchmarks execute: the number
// of posts returned, and an alias document's keys and values.
func TestScaleDocuments(t *testing.T) {
	store := loadStore(t)
	schema, err := kit.NewSchema(store)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	op := prepare(t, schema, request(t, "A").Query)
	for _, n := range postsFirst {
		res := execute(op, ctx, kitgql.ExecParams{Variables: map[string]any{"n": json.Number(fmt.Sprint(n))}})
		var got struct{ Posts []json.RawMessage }
		if err := json.Unmarshal(res.Data, &got); err != nil || len(res.Errors) > 0 {
			t.Fatalf("first %d: %v %v", n, err, res.Errors)
		}
		if len(got.Posts) != n {
			t.Errorf("first %d: %d posts", n, len(got.Posts))
		}
	}
	title := store.Posts(1)[0].Title
	for _, n := range fieldNodes {
		res := execute(prepare(t, schema, aliasDocument(n)), ctx, kitgql.ExecParams{})
		var got struct{ Posts []map[string]string }
		if err := json.Unmarshal(res.Data, &got); err != nil || len(res.Errors) > 0 {
			t.Fatalf("%d nodes: %v %v", n, err, res.Errors)
		}
		if len(got.Posts) != 1 || len(got.Posts[0]) != n-1 {
			t.Fatalf("%d nodes: %s", n, res.Data)
		}
		for k, v := range got.Posts[0] {
			if v != title {
				t.Fatalf("%d nodes: %s = %q, want %q", n, k, v, title)
			}
		}
	}
}

// BenchmarkPostsFirst executes request A's prepared operation for pages of
// 1, 10 and 50 posts.
func BenchmarkPostsFirst(b *testing.B) {
	schema, err := kit.NewSchema(loadStore(b))
	if err != nil {
		b.Fatal(err)
	}
	op := prepare(b, schema, request(b, "A").Query)
	ctx := context.Background()
	for _, n := range postsFirst {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			vars := map[string]any{"n": json.Number(fmt.Sprint(n))}
			buf := make([]byte, 0, 16<<10)
			b.ReportAllocs()
			for b.Loop() {
				res := execute(op, ctx, kitgql.ExecParams{Dst: buf[:0], Variables: vars})
				buf = res.Data[:0]
			}
		})
	}
}

// BenchmarkFieldNodes measures documents of 10, 100 and 500 field nodes
// (aliasDocument): execute runs the prepared operation; uncached is
// Schema.Do (parse, validate, prepare, execute).
func BenchmarkFieldNodes(b *testing.B) {
	schema, err := kit.NewSchema(loadStore(b))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, n := range fieldNodes {
		doc := aliasDocument(n)
		b.Run(fmt.Sprintf("%d/execute", n), func(b *testing.B) {
			op := prepare(b, schema, doc)
			buf := make([]byte, 0, 32<<10)
			b.ReportAllocs()
			for b.Loop() {
				res := execute(op, ctx, kitgql.ExecParams{Dst: buf[:0], Variables: nil})
				buf = res.Data[:0]
			}
		})
		b.Run(fmt.Sprintf("%d/uncached", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = schema.Do(ctx, kitgql.Request{Query: doc, Present: kitgql.Unmasked})
			}
		})
	}
}
