package relay_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

// TestRegister checks Register's and NewNodes' refusals, each call's
// reported at once.
func TestRegister(t *testing.T) {
	if _, err := relay.NewNodes(relay.NodesConfig{MaxIDs: -1}); err == nil ||
		err.Error() != "relay: NodesConfig.MaxIDs -1 must not be negative (0 means 50)" {
		t.Errorf("NewNodes(MaxIDs: -1) error = %v", err)
	}
	l := newLibrary()
	nt := newNodeTypes(t, l, relay.NodesConfig{})
	if err := relay.Register(nt.nodes, nil, l.book); err == nil || err.Error() != "relay: Register needs a Nodes, an object and a fetch function" {
		t.Errorf("Register(nil object) error = %v", err)
	}
	if err := relay.Register(nt.nodes, nt.book, l.book); err != nil {
		t.Fatalf("Register(Book): %v", err)
	}
	if err := relay.Register(nt.nodes, nt.author, l.author); err != nil {
		t.Fatalf("Register(Author): %v", err)
	}
	plainBook := &graphql.Object{Name: "Book", Fields: graphql.Fields{{Name: "title", Type: graphql.String}}}
	err := relay.Register(nt.nodes, plainBook, l.book)
	want := "relay: Register(Book): the object does not list the Node interface of this Nodes in its Interfaces\n" +
		"relay: Register(Book): an object named Book is registered already\n" +
		"relay: Register(Book): *relay_test.book is the Go type of Book too, so it does not tell a value's object: set NodesConfig.ResolveType"
	if err == nil || err.Error() != want {
		t.Errorf("Register(a second Book) error:\n%v\nwant\n%s", err, want)
	}
	other := func(name string) *graphql.Object {
		return &graphql.Object{Name: name, Interfaces: []*graphql.Interface{nt.nodes.Interface()}, Fields: graphql.Fields{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}}}
	}
	err = relay.Register(nt.nodes, other("Writer"), func(context.Context, string) (author, error) { return author{}, nil })
	want = "relay: Register(Writer): relay_test.author is the Go type of Author too, so it does not tell a value's object: set NodesConfig.ResolveType"
	if err == nil || err.Error() != want {
		t.Errorf("Register(Writer) error:\n%v\nwant\n%s", err, want)
	}
	err = relay.Register(nt.nodes, other("Thing"), func(context.Context, string) (any, error) { return nil, nil })
	want = "relay: Register(Thing): the fetcher returns interface {}, an interface, which does not tell a value's object: return a concrete type or set NodesConfig.ResolveType"
	if err == nil || err.Error() != want {
		t.Errorf("Register(Thing) error:\n%v\nwant\n%s", err, want)
	}
	otherNodes, err := relay.NewNodes(relay.NodesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	err = relay.Register(otherNodes, nt.book, l.book)
	want = "relay: Register(Book): the object does not list the Node interface of this Nodes in its Interfaces"
	if err == nil || err.Error() != want {
		t.Errorf("Register(Book) with another Nodes error:\n%v\nwant\n%s", err, want)
	}
}

// TestNodesCheck checks that Check finds a Node object without a fetcher,
// a registered object the schema does not have, and a foreign Node type.
func TestNodesCheck(t *testing.T) {
	l := newLibrary()
	nt := newNodeTypes(t, l, relay.NodesConfig{})
	shelf := &graphql.Object{Name: "Shelf", Interfaces: []*graphql.Interface{nt.nodes.Interface()}, Fields: graphql.Fields{
		relay.IDField("Shelf", func(s struct{ N string }) string { return s.N }),
	}}
	ghost := &graphql.Object{Name: "Ghost", Interfaces: []*graphql.Interface{nt.nodes.Interface()}, Fields: graphql.Fields{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}}}
	for _, err := range []error{
		relay.Register(nt.nodes, nt.book, l.book),
		relay.Register(nt.nodes, nt.author, l.author),
		relay.Register(nt.nodes, ghost, func(context.Context, string) (*struct{ ID string }, error) { return nil, nil }),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{nt.nodes.NodeField()}},
		Types: []graphql.NamedType{nt.book, shelf},
	})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	want := "relay: Shelf implements Node but is not registered with a fetcher\nrelay: the registered object Ghost is not the schema's type of that name"
	if err := nt.nodes.Check(schema); err == nil || err.Error() != want {
		t.Errorf("Check error:\n%v\nwant\n%s", err, want)
	}
	foreign, err := relay.NewNodes(relay.NodesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	want = "relay: the schema's Node type is not the interface of this Nodes"
	if err := foreign.Check(schema); err == nil || err.Error() != want {
		t.Errorf("Check of a foreign Nodes error:\n%v\nwant\n%s", err, want)
	}
}

// TestNodeFromOtherFields resolves values of Node returned by other
// fields by the fetchers' Go types: a registered type (pointer or not) is
// its object, any other value a masked error at its path.
func TestNodeFromOtherFields(t *testing.T) {
	l := newLibrary()
	nt := newRegistered(t, l)
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "favourites", Type: graphql.NewList(nt.nodes.Interface()), Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return []any{l.books[0], *l.authors["austen"], struct{ Name string }{"stray"}, nil}, nil
		}},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Types: []graphql.NamedType{nt.book, nt.author}})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	got := do(t, schema, `{ favourites { __typename ... on Book { title } ... on Author { name } } }`, nil)
	want := `{"data":{"favourites":[{"__typename":"Book","title":"Dune"},{"__typename":"Author","name":"Jane Austen"},null,null]},` +
		`"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":3}],"path":["favourites",2],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestNodesHTTP checks over HTTP that nodes counts its selection MaxIDs
// times in the cost, whatever the number of IDs, and that a bad ID is
// refused on the wire as BAD_USER_INPUT at the field's path.
func TestNodesHTTP(t *testing.T) {
	l := newLibrary()
	schema, _ := newNodeSchema(t, l, relay.NodesConfig{})
	const q = `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Book { title } } }`
	vars := map[string]any{"ids": bookIDs(1, 2)}
	const cost = 1 + relay.DefaultMaxNodeIDs*1
	status, body := postSchema(t, schema, cost, q, vars)
	if want := `{"data":{"nodes":[{"title":"Dune"},{"title":"Emma"}]}}`; status != 200 || body != want {
		t.Errorf("at cost %d: %d %s, want 200 %s", cost, status, body, want)
	}
	status, body = postSchema(t, schema, cost-1, q, vars)
	if want := costBody(cost-1, cost); status != 400 || body != want {
		t.Errorf("at cost %d: %d %s, want 400 %s", cost-1, status, body, want)
	}
	status, body = postSchema(t, schema, 0, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": strings.Repeat("x", 15_000)})
	want := `{"data":{"node":null},"errors":[{"message":"Argument \"id\" is not a node ID.","locations":[{"line":1,"column":19}],"path":["node"],"extensions":{"code":"BAD_USER_INPUT"}}]}`
	if status != 200 || body != want {
		t.Errorf("a 15 kB ID: %d %.300s\nwant 200 %s", status, body, want)
	}
}

// TestNodesSDL checks the shape of the Node interface and of the node
// and nodes fields, as Schema.SDL prints them.
func TestNodesSDL(t *testing.T) {
	schema, _ := newNodeSchema(t, newLibrary(), relay.NodesConfig{MaxIDs: 7})
	sdl := schema.SDL()
	for _, want := range []string{
		`"""An object with a global ID, which node(id:) fetches again."""
interface Node {
  """The object's global ID, by which node(id:) fetches it."""
  id: ID!
}`,
		`  """Fetches the object of a global ID; null when there is none."""
  node(
    """The global ID of the object, as its id field gives it."""
    id: ID!
  ): Node
`,
		`  nodes(
    """The global IDs of the objects, as their id fields give them."""
    ids: [ID!]!
  ): [Node]!
`,
		"Fetches the objects of global IDs (at most 7), in their order",
		"type Book implements Node {\n",
		"type Author implements Node {\n",
	} {
		if !strings.Contains(sdl, want) {
			t.Errorf("Schema.SDL() lacks\n%s\nin\n%s", want, sdl)
		}
	}
}
