package graphql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// The union-heavy benchmark: a list of 100 values of a union of three
// objects (posts, users and comments of the benchmark workload's kind),
// selected with a fragment per member.

type benchComment struct {
	ID, Text string
}

const benchQueryUnion = `{ search { __typename ... on Post { id title tags } ... on User { id name } ... on Comment { id text } } }`

// benchUnionSchema returns the schema of the union benchmark. With
// resolveType, the union names each value's object with a ResolveType;
// without, the Go types that the typed resolvers taught NewSchema do.
func benchUnionSchema(tb testing.TB, resolveType bool) *graphql.Schema {
	tb.Helper()
	hits := make([]any, 100)
	for i := range hits {
		switch i % 3 {
		case 0:
			hits[i] = &benchPost{ID: fmt.Sprint(i), Title: fmt.Sprintf("Post %d: notes on parsing", i), Tags: []string{"graphql", "performance"}}
		case 1:
			hits[i] = &benchUser{ID: fmt.Sprint(i), Name: "Ada Lovelace"}
		default:
			hits[i] = &benchComment{ID: fmt.Sprint(i), Text: "a comment on the post"}
		}
	}
	post := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
	}}
	user := &graphql.Object{Name: "User", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	comment := &graphql.Object{Name: "Comment", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "text", Type: graphql.NewNonNull(graphql.String)},
	}}
	hit := &graphql.Union{Name: "SearchResult", Types: []*graphql.Object{post, user, comment}}
	if resolveType {
		hit.ResolveType = func(_ context.Context, v any) (string, error) {
			switch v.(type) {
			case *benchPost:
				return "Post", nil
			case *benchUser:
				return "User", nil
			case *benchComment:
				return "Comment", nil
			}
			return "", nil
		}
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "search", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(hit))),
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return hits, nil }},
		// Typed resolvers teach NewSchema the members' Go types.
		{Name: "post", Type: post, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*benchPost, error) { return nil, nil })},
		{Name: "user", Type: user, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*benchUser, error) { return nil, nil })},
		{Name: "comment", Type: comment, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*benchComment, error) { return nil, nil })},
	}}
	return graphql.MustSchema(graphql.SchemaConfig{Query: query})
}

// BenchmarkQueryUnion measures the union-heavy query: cached execution
// with each value's object found by its learned Go type or by the union's
// ResolveType, and the whole request (parse, validate, plan, execute).
func BenchmarkQueryUnion(b *testing.B) {
	ctx := context.Background()
	for _, resolveType := range []bool{false, true} {
		name := "by=gotype"
		if resolveType {
			name = "by=resolvetype"
		}
		s := benchUnionSchema(b, resolveType)
		b.Run(name+"/execute", func(b *testing.B) {
			op := prepare(b, s, benchQueryUnion)
			buf := make([]byte, 0, 16384)
			b.ReportAllocs()
			for b.Loop() {
				res, err := op.Execute(ctx, graphql.ExecParams{Dst: buf[:0]})
				if err != nil || len(res.Errors) > 0 {
					b.Fatal(err, res.Errors)
				}
			}
		})
		b.Run(name+"/parse+validate+execute", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res := s.Do(ctx, graphql.Request{Query: benchQueryUnion, Present: graphql.Unmasked})
				if len(res.Errors) > 0 {
					b.Fatal(res.Errors)
				}
			}
		})
	}
}

// TestQueryUnionAnswer checks the union benchmark's answer, with both
// ways of finding the objects.
func TestQueryUnionAnswer(t *testing.T) {
	for _, resolveType := range []bool{false, true} {
		s := benchUnionSchema(t, resolveType)
		res := s.Do(context.Background(), graphql.Request{Query: benchQueryUnion, Present: graphql.Unmasked})
		if len(res.Errors) > 0 {
			t.Fatal(res.Errors)
		}
		var want strings.Builder
		want.WriteString(`{"search":[`)
		for i := range 100 {
			if i > 0 {
				want.WriteByte(',')
			}
			switch i % 3 {
			case 0:
				fmt.Fprintf(&want, `{"__typename":"Post","id":"%d","title":"Post %d: notes on parsing","tags":["graphql","performance"]}`, i, i)
			case 1:
				fmt.Fprintf(&want, `{"__typename":"User","id":"%d","name":"Ada Lovelace"}`, i)
			default:
				fmt.Fprintf(&want, `{"__typename":"Comment","id":"%d","text":"a comment on the post"}`, i)
			}
		}
		want.WriteString(`]}`)
		if got := string(res.Data); got != want.String() {
			t.Errorf("resolveType %v: data %s\nwant %s", resolveType, got, want.String())
		}
	}
}
