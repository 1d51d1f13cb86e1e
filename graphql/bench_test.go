package graphql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlkit/gqlkit/graphql"
)

// The benchmark workload (bench/README.md): 50 posts with 3 tags each and
// one of 5 authors, resolved from memory.

type benchUser struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type benchPost struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Body      string   `json:"body"`
	Tags      []string `json:"tags"`
	CreatedAt string   `json:"createdAt"`
	AuthorID  string
}

func benchSchema(tb testing.TB) *graphql.Schema { return benchSchemaOf(tb, false) }

// benchSchemaOf builds the benchmark schema with untyped resolvers
// (Field.Resolve) or with the same resolvers typed (Field.Typed).
func benchSchemaOf(tb testing.TB, typed bool) *graphql.Schema {
	tb.Helper()
	users := map[string]*benchUser{}
	for i, n := range []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov"} {
		id := fmt.Sprint(i + 1)
		users[id] = &benchUser{ID: id, Name: n}
	}
	var posts []*benchPost
	byID := map[string]*benchPost{}
	for i := 1; i <= 50; i++ {
		p := &benchPost{ID: fmt.Sprint(i), Title: fmt.Sprintf("Post %d: notes on parsing", i),
			Body: strings.Repeat("body ", 30), Tags: []string{"graphql", "performance", "testing"},
			CreatedAt: fmt.Sprintf("2026-01-%02dT09:37:00Z", i%28+1), AuthorID: fmt.Sprint(i%5 + 1)}
		posts = append(posts, p)
		byID[p.ID] = p
	}
	user := &graphql.Object{Name: "User", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	post := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "body", Type: graphql.NewNonNull(graphql.String)},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
		{Name: "createdAt", Type: graphql.String},
		{Name: "author", Type: user, Resolve: func(_ context.Context, p any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			return users[p.(*benchPost).AuthorID], nil
		}},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post))),
			Args: []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 10}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				n, err := args.Int("first")
				return posts[:min(max(n, 0), 50)], err
			}},
		{Name: "post", Type: post, Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				id, err := args.String("id")
				if p, ok := byID[id]; ok || err != nil {
					return p, nil
				}
				return nil, nil
			}},
	}}
	if typed {
		post.Fields.(graphql.Fields)[5].Resolve = nil
		post.Fields.(graphql.Fields)[5].Typed = graphql.Resolver(func(_ context.Context, p *benchPost, _ graphql.NoArgs) (*benchUser, error) {
			return users[p.AuthorID], nil
		})
		fs := query.Fields.(graphql.Fields)
		fs[0].Resolve = nil
		fs[0].Typed = graphql.Resolver(func(_ context.Context, _ any, args struct{ First int }) ([]*benchPost, error) {
			return posts[:min(max(args.First, 0), 50)], nil
		})
		fs[1].Resolve = nil
		fs[1].Typed = graphql.Resolver(func(_ context.Context, _ any, args struct{ ID string }) (*benchPost, error) {
			return byID[args.ID], nil
		})
	}
	return graphql.MustSchema(graphql.SchemaConfig{Query: query})
}

// BenchmarkResolvers compares Query A's cached execution with untyped and
// typed resolvers (compare with benchstat -col /resolvers).
func BenchmarkResolvers(b *testing.B) {
	for _, typed := range []bool{false, true} {
		name := "resolvers=untyped"
		if typed {
			name = "resolvers=typed"
		}
		b.Run(name, func(b *testing.B) {
			benchExecuteA(b, benchSchemaOf(b, typed))
		})
	}
}

const (
	benchQueryA = `query Feed($n: Int) { posts(first: $n) { id title tags createdAt author { id name } } }`
	benchQueryB = `{ post(id: "7") { id title author { name } } }`
)

func benchVars() map[string]any { return map[string]any{"n": json.Number("20")} }

// BenchmarkQueryA measures the benchmark query: 20 posts with tags and
// authors, about 3.3 KB of JSON.
func BenchmarkQueryA(b *testing.B) {
	s := benchSchema(b)
	ctx := context.Background()
	b.Run("parse+validate+execute", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res := s.Do(ctx, graphql.Request{Query: benchQueryA, Variables: benchVars(), Present: graphql.Unmasked})
			if len(res.Errors) > 0 {
				b.Fatal(res.Errors)
			}
		}
	})
	b.Run("execute", func(b *testing.B) { benchExecuteA(b, s) })
}

// benchExecuteA measures the cached execution of Query A on s.
func benchExecuteA(b *testing.B, s *graphql.Schema) {
	ctx := context.Background()
	op := prepare(b, s, benchQueryA)
	vars := benchVars()
	buf := make([]byte, 0, 8192)
	b.ReportAllocs()
	for b.Loop() {
		res, err := op.Execute(ctx, graphql.ExecParams{Dst: buf[:0], Variables: vars})
		if err != nil || len(res.Errors) > 0 {
			b.Fatal(err, res.Errors)
		}
	}
}

// BenchmarkQueryB measures a single post with its author.
func BenchmarkQueryB(b *testing.B) {
	s := benchSchema(b)
	ctx := context.Background()
	op := prepare(b, s, benchQueryB)
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		res, err := op.Execute(ctx, graphql.ExecParams{Dst: buf[:0]})
		if err != nil || len(res.Errors) > 0 {
			b.Fatal(err, res.Errors)
		}
	}
}

// BenchmarkPostsFirst shows that execution time grows linearly with the
// number of rows.
func BenchmarkPostsFirst(b *testing.B) {
	s := benchSchema(b)
	ctx := context.Background()
	for _, n := range []int{1, 10, 50} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			op := prepare(b, s, benchQueryA)
			vars := map[string]any{"n": n}
			buf := make([]byte, 0, 16384)
			b.ReportAllocs()
			for b.Loop() {
				_, _ = op.Execute(ctx, graphql.ExecParams{Dst: buf[:0], Variables: vars})
			}
		})
	}
}

func prepare(tb testing.TB, s *graphql.Schema, query string) *graphql.Operation {
	tb.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		tb.Fatal(err)
	}
	if errs := validateDoc(s, doc, graphql.ValidateOptions{}); len(errs) > 0 {
		tb.Fatal(errs)
	}
	op, errs := s.Prepare(doc, "")
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	return op
}

// BenchmarkValidateIdenticalFields validates one field selected many times
// over: the overlap rule compares one field of each group of identical
// ones, so the cost grows with the fields, not with their pairs.
func BenchmarkValidateIdenticalFields(b *testing.B) {
	s := benchSchema(b)
	for _, n := range []int{500, 5000} {
		query := "{ posts { " + strings.Repeat("id title author { name } ", n) + "} }"
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				doc, err := parser.ParseQuery(&ast.Source{Input: query})
				if err != nil {
					b.Fatal(err)
				}
				if errs := validateDoc(s, doc, graphql.ValidateOptions{}); len(errs) > 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}

// parseBenchDocuments are the documents of BenchmarkParseQuery: the
// benchmark queries, and the largest documents graphqlhttp's default limits
// accept (20,000 tokens) in the variants an attacker would send.
func parseBenchDocuments() []struct{ name, query string } {
	list := func(prefix string, pairs int, suffix string) string {
		return prefix + "{l(v:[" + strings.Repeat("[]", pairs) + "]w:1)" + suffix
	}
	return []struct{ name, query string }{
		{name: "query A", query: benchQueryA},
		{name: "query B", query: benchQueryB},
		{name: "query A commented", query: "# The feed.\nquery Feed(\n  # how many\n  $n: Int\n) {\n" +
			"  posts(first: $n) { # newest first\n    id\n    title # as written\n    tags\n    createdAt\n" +
			"    author { id name } # resolved per post\n  }\n}\n"},
		{name: "20000 tokens", query: list("", 9994, "}")},
		{name: "20000 tokens after a comment", query: list("# a comment\n", 9988, "}")},
		{name: "20000 tokens unclosed", query: list("", 9994, "")},
		{name: "strings with escapes", query: `{strs(v:[` + strings.Repeat(`"\n"`, 4994) + `])}`},
		{name: "block strings", query: `{strs(v:[` + strings.Repeat(`"""b""" `, 2498) + `])}`},
	}
}

// BenchmarkParseQuery measures ParseQuery alone.
func BenchmarkParseQuery(b *testing.B) {
	for _, d := range parseBenchDocuments() {
		b.Run(strings.ReplaceAll(d.name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(d.query)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = graphql.ParseQuery(d.query, 20000)
			}
		})
	}
}

// BenchmarkParser is BenchmarkParseQuery with a Parser that releases every
// document, as graphqlhttp parses the documents its cache does not keep.
func BenchmarkParser(b *testing.B) {
	for _, d := range parseBenchDocuments() {
		b.Run(strings.ReplaceAll(d.name, " ", "_"), func(b *testing.B) {
			var p graphql.Parser
			b.SetBytes(int64(len(d.query)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = p.Parse(d.query, 20000)
				p.Release()
			}
		})
	}
}

// largestInvalid are invalid documents of about 20,000 tokens for the
// field l(v: [[Int]], w: Int): graphqlhttp's largest documents
// (largestDocuments) and variants that put the fault elsewhere.
func largestInvalid() []struct{ name, query string } {
	lists := func(item string, n int) string { return strings.Repeat(item, n) }
	return []struct{ name, query string }{
		{"invalid items", "{l(v:[" + lists("[a]", 6663) + "])}"},
		{"an unknown field", "{l(v:[" + lists("[]", 9991) + "]w:1) nope}"},
		{"an unknown field first", "{nope l(v:[" + lists("[]", 9991) + "]w:1)}"},
		{"one invalid item last", "{l(v:[" + lists("[]", 9990) + "[a]])}"},
		{"one unreadable item last", "{l(v:[" + lists("[]", 9985) + "[99999999999999999999]])}"},
	}
}

// spreadInvalid are documents of ops operations that spread one fragment
// holding a long list, which gqlparser's walker visits once per operation:
// its items all correct, one Int beyond 64 bits last (ValuesOfCorrectType
// prints the list in its messages), or all faulty.
func spreadInvalid(ops int) []struct{ name, query string } {
	spread := func(items string) string {
		var b strings.Builder
		for i := range ops {
			fmt.Fprintf(&b, "query Q%d{...F}", i)
		}
		return b.String() + "fragment F on Query{l(v:[" + items + "])}"
	}
	return []struct{ name, query string }{
		{"correct items", spread(strings.Repeat("[]", 3000))},
		{"one unreadable item last", spread(strings.Repeat("[]", 3000) + "[99999999999999999999]")},
		{"invalid items", spread(strings.Repeat("[a]", 1500))},
	}
}

// listSchema has the field of largestInvalid and spreadInvalid.
func listSchema() *graphql.Schema {
	return graphql.MustSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "l", Type: graphql.Int, Args: []graphql.Argument{
			{Name: "v", Type: graphql.NewList(graphql.NewList(graphql.Int))}, {Name: "w", Type: graphql.Int}}},
	}}})
}

// BenchmarkValidateSpread measures Validate alone on spreadInvalid (700
// operations, about 17 KB), each parsed once, with the cap of graphqlhttp
// (100 errors).
func BenchmarkValidateSpread(b *testing.B) {
	benchValidate(b, spreadInvalid(700), 0, false)
}

// BenchmarkValidateLargest measures Validate alone on largestInvalid,
// each parsed once, with the cap of graphqlhttp (100 errors).
func BenchmarkValidateLargest(b *testing.B) {
	benchValidate(b, largestInvalid(), 20000, true)
}

// benchValidate measures Validate on each document of docs against
// listSchema, parsed once under maxTokens; invalid says every document
// must be refused.
func benchValidate(b *testing.B, docs []struct{ name, query string }, maxTokens int, invalid bool) {
	s := listSchema()
	for _, d := range docs {
		b.Run(strings.ReplaceAll(d.name, " ", "_"), func(b *testing.B) {
			doc, perr := graphql.ParseQuery(d.query, maxTokens)
			if perr != nil {
				b.Fatal(perr)
			}
			b.ReportAllocs()
			for b.Loop() {
				if errs, fault := s.Validate(doc, graphql.ValidateOptions{MaxErrors: 100}); fault != nil || invalid && len(errs) == 0 {
					b.Fatalf("errors %v, fault %v", errs, fault)
				}
			}
		})
	}
}
