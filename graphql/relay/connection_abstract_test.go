package relay_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

// itemKey is an item's place in the mixed lists: its index.
type itemKey struct {
	N int `json:"n"`
}

// TestConnectionOfAbstractNodes pages a connection of the Node interface
// and one of a union of books and authors: each edge's node is written
// as its own object, and the pages follow each other by cursor.
func TestConnectionOfAbstractNodes(t *testing.T) {
	l := newLibrary()
	nt := newRegistered(t, l)
	items := []any{l.books[0], l.authors["herbert"], l.books[1], l.authors["austen"], l.books[3]}
	keyOf := func(v any) itemKey {
		for i, it := range items {
			if it == v {
				return itemKey{i}
			}
		}
		return itemKey{-1}
	}
	load := func(_ context.Context, _ any, req relay.Request[itemKey]) ([]any, error) {
		var out []any
		for i, it := range items {
			if (req.After == nil || i > req.After.N) && len(out) < req.Limit {
				out = append(out, it)
			}
		}
		return out, nil
	}
	pageInfo := relay.NewPageInfo()
	feed, err := relay.New(nt.nodes.Interface(), keyOf, load, relay.Config[any]{Name: "Feed", PageInfo: pageInfo})
	if err != nil {
		t.Fatalf("New(Node): %v", err)
	}
	// No typed resolver returns *book: the union names its members by
	// the Go types of the Node fetchers.
	result := &graphql.Union{Name: "SearchResult", Types: []*graphql.Object{nt.book, nt.author}, ResolveType: nt.nodes.ResolveType}
	search, err := relay.New(result, keyOf, load, relay.Config[any]{PageInfo: pageInfo})
	if err != nil {
		t.Fatalf("New(SearchResult): %v", err)
	}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		feed.Field("feed"), search.Field("search"), nt.nodes.NodeField(),
	}}})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	if err := nt.nodes.Check(schema); err != nil {
		t.Fatalf("Check: %v", err)
	}
	const q = `query($after: String) {
  feed(first: 3, after: $after) { edges { node { __typename id ... on Book { title } ... on Author { name } } } pageInfo { hasNextPage endCursor } }
}`
	var page struct {
		Data struct {
			Feed struct {
				PageInfo struct{ EndCursor string }
			}
		}
	}
	body := do(t, schema, q, nil)
	id := relay.GlobalID
	want := `{"data":{"feed":{"edges":[{"node":{"__typename":"Book","id":"` + id("Book", "1") + `","title":"Dune"}},` +
		`{"node":{"__typename":"Author","id":"` + id("Author", "herbert") + `","name":"Frank Herbert"}},` +
		`{"node":{"__typename":"Book","id":"` + id("Book", "2") + `","title":"Emma"}}],"pageInfo":{"hasNextPage":true,"endCursor":"`
	if len(body) < len(want) || body[:len(want)] != want {
		t.Fatalf("first page:\ngot  %s\nwant %s…", body, want)
	}
	if err := json.Unmarshal([]byte(body), &page); err != nil {
		t.Fatalf("decoding %s: %v", body, err)
	}
	body = do(t, schema, q, map[string]any{"after": page.Data.Feed.PageInfo.EndCursor})
	want = `{"data":{"feed":{"edges":[{"node":{"__typename":"Author","id":"` + id("Author", "austen") + `","name":"Jane Austen"}},` +
		`{"node":{"__typename":"Book","id":"` + id("Book", "4") + `","title":"Beloved"}}],"pageInfo":{"hasNextPage":false,"endCursor":"`
	if len(body) < len(want) || body[:len(want)] != want {
		t.Fatalf("second page:\ngot  %s\nwant %s…", body, want)
	}
	body = do(t, schema, `{ search(first: 2) { edges { node { ... on Author { name } ... on Book { title } } } } }`, nil)
	if want := `{"data":{"search":{"edges":[{"node":{"title":"Dune"}},{"node":{"name":"Frank Herbert"}}]}}}`; body != want {
		t.Errorf("union connection:\ngot  %s\nwant %s", body, want)
	}
}

// TestNewNodeTypes checks New's refusal of node types that are not
// output composites.
func TestNewNodeTypes(t *testing.T) {
	load := func(context.Context, any, relay.Request[itemKey]) ([]any, error) { return nil, nil }
	key := func(any) itemKey { return itemKey{} }
	cases := []struct {
		node graphql.NamedType
		want string
	}{
		{(*graphql.Object)(nil), "relay: the node type is nil"},
		{(*graphql.Union)(nil), "relay: the node type is nil"},
		{&graphql.InputObject{Name: "Filter"}, "relay: the node type Filter is not an object, an interface or a union"},
		{&graphql.Enum{Name: "Color"}, "relay: the node type Color is not an object, an interface or a union"},
	}
	for _, tc := range cases {
		if _, err := relay.New(tc.node, key, load, relay.Config[any]{}); err == nil || err.Error() != tc.want {
			t.Errorf("New(%T) error = %v, want %s", tc.node, err, tc.want)
		}
	}
}
