package inproc

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	gophersgql "github.com/graph-gophers/graphql-go"

	"github.com/gqlkit/gqlkit/bench/internal/gophers"
	"github.com/gqlkit/gqlkit/bench/internal/kit"
	"github.com/gqlkit/gqlkit/bench/search"
	kitgql "github.com/gqlkit/gqlkit/graphql"
)

// searchImpl is one library's in-process entry point for the union
// workload's query (package search) with {"first": 100}.
type searchImpl struct {
	name string
	// setup returns run, which executes the query once, and body, which
	// turns what run returned into the response body.
	setup func(tb testing.TB) (run func() any, body func(any) []byte)
}

func searchImpls() []searchImpl {
	ctx := context.Background()
	kitBody := func(v any) []byte { return v.(kitgql.Result).AppendJSON(nil, nil) }
	asBytes := func(v any) []byte { return v.([]byte) }
	marshal := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			return []byte("marshal error: " + err.Error())
		}
		return b
	}
	kitSchema := func(tb testing.TB) *kitgql.Schema {
		s, err := kit.NewSearchSchema(search.NewStore())
		if err != nil {
			tb.Fatal(err)
		}
		return s
	}
	gophersSchema := func(tb testing.TB) *gophersgql.Schema {
		s, err := gophers.NewSearchSchema(search.NewStore())
		if err != nil {
			tb.Fatal(err)
		}
		return s
	}
	return []searchImpl{
		{name: "gqlkit", setup: func(tb testing.TB) (func() any, func(any) []byte) {
			op := prepare(tb, kitSchema(tb), search.Query)
			vars := map[string]any{"first": json.Number("100")} // as graphqlhttp decodes them
			buf := make([]byte, 0, 16<<10)
			return func() any {
				res := execute(op, ctx, kitgql.ExecParams{Dst: buf[:0], Variables: vars})
				buf = res.Data[:0]
				return res
			}, kitBody
		}},
		{name: "gqlkit-uncached", setup: func(tb testing.TB) (func() any, func(any) []byte) {
			schema := kitSchema(tb)
			vars := map[string]any{"first": json.Number("100")}
			return func() any {
				return schema.Do(ctx, kitgql.Request{Query: search.Query, Variables: vars, Present: kitgql.Unmasked})
			}, kitBody
		}},
		{name: "graph-gophers", setup: func(tb testing.TB) (func() any, func(any) []byte) {
			schema := gophersSchema(tb)
			vars := map[string]any{"first": float64(100)}
			return func() any { return schema.Exec(ctx, search.Query, "", vars) }, marshal
		}},
		{name: "graph-gophers+marshal", setup: func(tb testing.TB) (func() any, func(any) []byte) {
			schema := gophersSchema(tb)
			vars := map[string]any{"first": float64(100)}
			return func() any { return marshal(schema.Exec(ctx, search.Query, "", vars)) }, asBytes
		}},
	}
}

// TestSearchSameAnswer runs every entry point that BenchmarkSearch
// measures, twice (the second run reuses buffers and caches), and checks
// that all give graph-gophers' bytes, which hold the 100 results in the
// data's order.
func TestSearchSameAnswer(t *testing.T) {
	var want []byte
	for _, impl := range searchImpls() {
		if impl.name == "graph-gophers" {
			run, body := impl.setup(t)
			want = bytes.Clone(body(run()))
		}
	}
	var got struct {
		Data struct{ Search []map[string]any }
	}
	if err := json.Unmarshal(want, &got); err != nil {
		t.Fatalf("graph-gophers' answer %s: %v", want, err)
	}
	counts := map[any]int{}
	for _, r := range got.Data.Search {
		counts[r["__typename"]]++
	}
	if n := len(got.Data.Search); n != 100 || counts["Book"] != search.Books || counts["Author"] != search.Authors || counts["Review"] != search.Reviews {
		t.Fatalf("graph-gophers' answer has %d results, %v", n, counts)
	}
	const head = `{"data":{"search":[{"__typename":"Book","id":"b1","title":"Book \"1\"","year":1950,"author":{"name":"Author 1"}},` +
		`{"__typename":"Author","id":"a1","name":"Author 1","born":1900},{"__typename":"Review","id":"r1","stars":1,"body":"Review 1: worth a read","book":{"title":"Book \"1\""}},`
	if !bytes.HasPrefix(want, []byte(head)) || !bytes.Contains(want, []byte(`{"__typename":"Author","id":"a3","name":"Author 3","born":null}`)) {
		t.Fatalf("graph-gophers' answer:\n%.600s", want)
	}
	for _, impl := range searchImpls() {
		t.Run(impl.name, func(t *testing.T) {
			run, body := impl.setup(t)
			for i := range 2 {
				if got := body(run()); !bytes.Equal(got, want) {
					t.Fatalf("run %d: %d bytes, want %d:\n%.600s", i+1, len(got), len(want), got)
				}
			}
		})
	}
}

// TestKitSearchSchemaIsSDL checks that the gqlkit schema is the one
// graph-gophers parses: gqlkit prints it as search.SDL.
func TestKitSearchSchemaIsSDL(t *testing.T) {
	s, err := kit.NewSearchSchema(search.NewStore())
	if err != nil {
		t.Fatal(err)
	}
	if got := s.SDL(); got != search.SDL {
		t.Errorf("Schema.SDL():\n%s\nwant\n%s", got, search.SDL)
	}
}

// BenchmarkSearch runs the union workload's query (100 results of three
// union members, each selected by a fragment) in each library.
func BenchmarkSearch(b *testing.B) {
	for _, impl := range searchImpls() {
		b.Run(impl.name, func(b *testing.B) {
			run, _ := impl.setup(b)
			b.ReportAllocs()
			for b.Loop() {
				sink = run()
			}
		})
	}
}
