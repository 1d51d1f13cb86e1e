package relay_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

const nodeQuery = `query($id: ID!) { node(id: $id) { __typename id ... on Book { title author { id name } } ... on Author { name } } }`

// TestNode fetches each kind of node by its global ID, and a missing one.
func TestNode(t *testing.T) {
	l := newLibrary()
	schema, _ := newNodeSchema(t, l, relay.NodesConfig{})
	book1, austen := relay.GlobalID("Book", "1"), relay.GlobalID("Author", "austen")
	col := strings.Index(nodeQuery, "node(") + 1
	cases := []struct {
		name, id, want string
		fetches        int64
	}{
		{"book", book1, `{"data":{"node":{"__typename":"Book","id":"` + book1 + `","title":"Dune","author":{"id":"` +
			relay.GlobalID("Author", "herbert") + `","name":"Frank Herbert"}}}}`, 1},
		{"author", austen, `{"data":{"node":{"__typename":"Author","id":"` + austen + `","name":"Jane Austen"}}}`, 1},
		{"no such book (nil pointer)", relay.GlobalID("Book", "99"), `{"data":{"node":null}}`, 1},
		{"no such author (ErrNotFound)", relay.GlobalID("Author", "nobody"), `{"data":{"node":null}}`, 1},
		{"a book ID holding an author's key", relay.GlobalID("Book", "austen"), `{"data":{"node":null}}`, 1},
		{"fetcher's error, masked", relay.GlobalID("Book", "13"), fmt.Sprintf(`{"data":{"node":null},"errors":[{"message":"Internal server error.",`+
			`"locations":[{"line":1,"column":%d}],"path":["node"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`, col), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l.fetches.Store(0)
			if got := do(t, schema, nodeQuery, map[string]any{"id": tc.id}); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if n := l.fetches.Load(); n != tc.fetches {
				t.Errorf("%d fetches, want %d", n, tc.fetches)
			}
		})
	}
	// An author's ID selected only through a fragment on Book is an
	// Author, whatever the fragment says.
	got := do(t, schema, `query($id: ID!) { node(id: $id) { __typename ... on Book { title } } }`, map[string]any{"id": austen})
	if want := `{"data":{"node":{"__typename":"Author"}}}`; got != want {
		t.Errorf("author through a Book fragment: got %s, want %s", got, want)
	}
}

// TestNodeHostileIDs checks that every ID that is not a node ID of the
// schema is a BAD_USER_INPUT error at the field's path, with nothing
// fetched.
func TestNodeHostileIDs(t *testing.T) {
	l := newLibrary()
	schema, _ := newNodeSchema(t, l, relay.NodesConfig{})
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	body := do(t, schema, `{ booksConnection(first: 1) { edges { cursor } } }`, nil)
	cursor := body[strings.Index(body, `"cursor":"`)+10 : strings.LastIndex(body, `"}]`)]
	const q = `query($id: ID!) { node(id: $id) { id } }`
	refused := nodeErr("node", `{"node":null}`, `Argument \"id\" is not a node ID.`, strings.Index(q, "node(")+1)
	ids := map[string]string{
		"garbage":                      "!!not an id!!",
		"empty":                        "",
		"plain Type:id":                "Book:1",
		"padded":                       enc("Book:1") + "==",
		"standard base64 of the same":  strings.NewReplacer("-", "+", "_", "/").Replace(relay.GlobalID("Book", "??>>")),
		"unknown type":                 relay.GlobalID("Nope", "1"),
		"schema type not registered":   relay.GlobalID("PageInfo", "1"),
		"root type":                    relay.GlobalID("Query", "1"),
		"type in another case":         relay.GlobalID("book", "1"),
		"empty local ID":               relay.GlobalID("Book", ""),
		"local ID not UTF-8":           enc("Book:\xc3\x28"),
		"a connection's cursor":        cursor,
		"huge (1 MiB)":                 strings.Repeat("QUFB", 1<<18),
		"just over MaxGlobalIDLength":  relay.GlobalID("Book", strings.Repeat("1", relay.MaxGlobalIDLength)),
		"type name with a null byte":   enc("Bo\x00ok:1"),
		"colon only":                   enc(":"),
		"a number (ID accepts JSON's)": "123",
	}
	for name, id := range ids {
		t.Run(name, func(t *testing.T) {
			if got := do(t, schema, q, map[string]any{"id": id}); got != refused {
				t.Errorf("got  %s\nwant %s", got, refused)
			}
		})
	}
	// The literal forms: an Int literal is an ID, a Boolean is not.
	lit := `{ node(id: 123) { id } }`
	if got, want := do(t, schema, lit, nil), nodeErr("node", `{"node":null}`, `Argument \"id\" is not a node ID.`, 3); got != want {
		t.Errorf("%s:\ngot  %s\nwant %s", lit, got, want)
	}
	res := schema.Do(context.Background(), graphql.Request{Query: `{ node(id: true) { id } }`})
	if want := "ID cannot represent a non-string and non-integer value: true"; res.Data != nil || len(res.Errors) != 1 || res.Errors[0].Message != want {
		t.Errorf("node(id: true): data %s, errors %v; want no data and the error %q", res.Data, res.Errors, want)
	}
	if n := l.fetches.Load(); n != 0 {
		t.Errorf("refused IDs made %d fetches, want 0", n)
	}
}

const nodesQuery = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on Book { title } ... on Author { name } } }`

// TestNodes fetches several nodes at once: in order, null for the missing,
// each ID once, and refuses too many IDs or a bad one before fetching.
func TestNodes(t *testing.T) {
	l := newLibrary()
	schema, _ := newNodeSchema(t, l, relay.NodesConfig{MaxIDs: 5})
	col := strings.Index(nodesQuery, "nodes(") + 1
	b1, b4, austen := relay.GlobalID("Book", "1"), relay.GlobalID("Book", "4"), relay.GlobalID("Author", "austen")
	cases := []struct {
		name    string
		ids     []any
		want    string
		fetches int64
	}{
		{"mixed, missing and repeated", []any{b4, austen, relay.GlobalID("Book", "99"), b4, relay.GlobalID("Author", "nobody")},
			`{"data":{"nodes":[{"__typename":"Book","title":"Beloved"},{"__typename":"Author","name":"Jane Austen"},null,` +
				`{"__typename":"Book","title":"Beloved"},null]}}`, 4},
		{"none", []any{}, `{"data":{"nodes":[]}}`, 0},
		{"one", []any{b1}, `{"data":{"nodes":[{"__typename":"Book","title":"Dune"}]}}`, 1},
		{"too many", []any{b1, b1, b1, b1, b1, b1},
			nodeErr("nodes", "null", `Argument \"ids\" holds 6 IDs, more than the 5 allowed.`, col), 0},
		{"a bad one", []any{b1, austen, relay.GlobalID("Nope", "1")},
			nodeErr("nodes", "null", `Argument \"ids\" holds a value that is not a node ID, at index 2.`, col), 0},
		{"a fetcher's error", []any{b1, relay.GlobalID("Book", "13"), b4},
			fmt.Sprintf(`{"data":null,"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":%d}],"path":["nodes"],`+
				`"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`, col), 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l.fetches.Store(0)
			if got := do(t, schema, nodesQuery, map[string]any{"ids": tc.ids}); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if n := l.fetches.Load(); n != tc.fetches {
				t.Errorf("%d fetches, want %d", n, tc.fetches)
			}
		})
	}
}

// TestNodeConnection pages a connection of books, which implement Node,
// and fetches its nodes again by their IDs, with node and with nodes.
func TestNodeConnection(t *testing.T) {
	l := newLibrary()
	schema, _ := newNodeSchema(t, l, relay.NodesConfig{})
	body := do(t, schema, `{ booksConnection(first: 3) { edges { node { id title } } } }`, nil)
	var conn struct {
		Data struct {
			BooksConnection struct {
				Edges []struct{ Node struct{ ID, Title string } }
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &conn); err != nil {
		t.Fatalf("decoding %s: %v", body, err)
	}
	edges := conn.Data.BooksConnection.Edges
	if len(edges) != 3 {
		t.Fatalf("%d edges: %s", len(edges), body)
	}
	var ids []any
	var titles []string
	for i, e := range edges {
		if want := relay.GlobalID("Book", fmt.Sprint(i+1)); e.Node.ID != want {
			t.Errorf("edge %d: id %q, want %q", i, e.Node.ID, want)
		}
		ids = append(ids, e.Node.ID)
		titles = append(titles, `{"__typename":"Book","title":"`+e.Node.Title+`"}`)
	}
	want := `{"data":{"nodes":[` + strings.Join(titles, ",") + `]}}`
	if got := do(t, schema, nodesQuery, map[string]any{"ids": ids}); got != want {
		t.Errorf("nodes of the page:\ngot  %s\nwant %s", got, want)
	}
	want = `{"data":{"node":{"__typename":"Book","id":"` + edges[1].Node.ID + `","title":"Emma","author":{"id":"` +
		relay.GlobalID("Author", "austen") + `","name":"Jane Austen"}}}}`
	if got := do(t, schema, nodeQuery, map[string]any{"id": edges[1].Node.ID}); got != want {
		t.Errorf("node of edge 1:\ngot  %s\nwant %s", got, want)
	}
}

// TestNodesResolveType serves Node objects whose values are all maps,
// told apart by NodesConfig.ResolveType, and refuses a fetcher's value of
// the wrong type.
func TestNodesResolveType(t *testing.T) {
	resolve := func(_ context.Context, v any) (string, error) {
		name, _ := v.(map[string]any)["kind"].(string)
		return name, nil
	}
	nodes, err := relay.NewNodes(relay.NodesConfig{ResolveType: resolve})
	if err != nil {
		t.Fatal(err)
	}
	idOf := func(typeName string) graphql.Field {
		return relay.IDField(typeName, func(m map[string]any) string { return m["key"].(string) })
	}
	cat := &graphql.Object{Name: "Cat", Interfaces: []*graphql.Interface{nodes.Interface()}, Fields: graphql.Fields{idOf("Cat"), {Name: "lives", Type: graphql.Int}}}
	dog := &graphql.Object{Name: "Dog", Interfaces: []*graphql.Interface{nodes.Interface()}, Fields: graphql.Fields{idOf("Dog"), {Name: "barks", Type: graphql.Boolean}}}
	fetch := func(kind string) func(context.Context, string) (map[string]any, error) {
		return func(_ context.Context, key string) (map[string]any, error) {
			switch key {
			case "none":
				return nil, nil
			case "liar":
				return map[string]any{"kind": "Cat", "key": key, "lives": 9}, nil
			}
			return map[string]any{"kind": kind, "key": key, "lives": 7, "barks": true}, nil
		}
	}
	for _, o := range []*graphql.Object{cat, dog} {
		if err := relay.Register(nodes, o, fetch(o.Name)); err != nil {
			t.Fatalf("Register(%s): %v", o.Name, err)
		}
	}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{nodes.NodeField(), nodes.NodesField()}},
		Types: []graphql.NamedType{cat, dog}})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	if err := nodes.Check(schema); err != nil {
		t.Fatalf("Check: %v", err)
	}
	const q = `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Cat { lives } ... on Dog { barks } } }`
	ids := []any{relay.GlobalID("Dog", "rex"), relay.GlobalID("Cat", "tom"), relay.GlobalID("Dog", "none")}
	want := `{"data":{"nodes":[{"id":"` + relay.GlobalID("Dog", "rex") + `","barks":true},{"id":"` + relay.GlobalID("Cat", "tom") + `","lives":7},null]}}`
	if got := do(t, schema, q, map[string]any{"ids": ids}); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Dog's fetcher returns a Cat for "liar": a masked error, never a Cat
	// answering for a Dog's ID.
	want = `{"data":{"node":null},"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":3}],"path":["node"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`
	if got := do(t, schema, `{ node(id: "`+relay.GlobalID("Dog", "liar")+`") { id } }`, nil); got != want {
		t.Errorf("a Cat for a Dog's ID:\ngot  %s\nwant %s", got, want)
	}
}

// FuzzNodeField sends arbitrary IDs to node(id:) and nodes(ids:): an ID
// that ParseGlobalID refuses, or whose type has no fetcher, is refused by
// both fields; any other is fetched (Book "13" being the fetcher's
// failure), and nothing panics.
func FuzzNodeField(f *testing.F) {
	for _, s := range []string{"", "Qm9vazox", relay.GlobalID("Author", "austen"), relay.GlobalID("Nope", "1"), relay.GlobalID("Book", "13"), "Qm9vazox\n", "Book:1"} {
		f.Add(s)
	}
	schema, _ := newNodeSchema(f, newLibrary(), relay.NodesConfig{})
	const q = `query($id: ID!) { node(id: $id) { __typename } nodes(ids: [$id, $id]) { __typename } }`
	f.Fuzz(func(t *testing.T, id string) {
		res := schema.Do(context.Background(), graphql.Request{Query: q, Variables: map[string]any{"id": id}})
		typ, local, err := relay.ParseGlobalID(id)
		switch {
		case err != nil || typ != "Book" && typ != "Author":
			if string(res.Data) != "null" || len(res.Errors) != 2 || res.Errors[0].Message != `Argument "id" is not a node ID.` ||
				res.Errors[1].Message != `Argument "ids" holds a value that is not a node ID, at index 0.` {
				t.Fatalf("ID %q: data %s, errors %v; want both refused", id, res.Data, res.Errors)
			}
		case typ == "Book" && local == "13":
			if string(res.Data) != "null" || len(res.Errors) != 2 {
				t.Fatalf("ID %q: data %s, errors %v; want both fields' masked errors", id, res.Data, res.Errors)
			}
		case len(res.Errors) > 0:
			t.Fatalf("ID %q: data %s, errors %v", id, res.Data, res.Errors)
		}
	})
}
