package relay_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

// book and author are the Node objects of the node tests.
type book struct {
	ID       int
	Title    string
	AuthorID string
}

type author struct {
	Key  string
	Name string
}

// library is an in-memory store of books and authors, counting fetches.
type library struct {
	books   []*book // by ID
	authors map[string]*author
	fetches atomic.Int64
}

func newLibrary() *library {
	return &library{
		books: []*book{
			{1, "Dune", "herbert"},
			{2, "Emma", "austen"},
			{3, "Persuasion", "austen"},
			{4, "Beloved", "morrison"},
		},
		authors: map[string]*author{
			"herbert":  {"herbert", "Frank Herbert"},
			"austen":   {"austen", "Jane Austen"},
			"morrison": {"morrison", "Toni Morrison"},
		},
	}
}

// errDisk is a fetcher's fault, which clients see masked.
var errDisk = errors.New("disk on fire")

// book fetches a book by its decimal ID: a nil *book when there is none,
// an error for "13".
func (l *library) book(_ context.Context, id string) (*book, error) {
	l.fetches.Add(1)
	if id == "13" {
		return nil, errDisk
	}
	for _, b := range l.books {
		if fmt.Sprint(b.ID) == id {
			return b, nil
		}
	}
	return nil, nil
}

// author fetches an author, with errcode.ErrNotFound when there is none.
func (l *library) author(_ context.Context, key string) (*author, error) {
	l.fetches.Add(1)
	a, ok := l.authors[key]
	if !ok {
		return nil, fmt.Errorf("author %q: %w", key, errcode.ErrNotFound)
	}
	return a, nil
}

// bookKey is a book's place in the books connection.
type bookKey struct {
	ID int `json:"id"`
}

// loadBooks reads a page of books in ID order, forward only.
func (l *library) loadBooks(_ context.Context, _ any, req relay.Request[bookKey]) ([]*book, error) {
	var out []*book
	for _, b := range l.books {
		if (req.After == nil || b.ID > req.After.ID) && len(out) < req.Limit {
			out = append(out, b)
		}
	}
	return out, nil
}

// nodeTypes are the Node objects of the node tests, made anew for each
// schema.
type nodeTypes struct {
	nodes  *relay.Nodes
	book   *graphql.Object
	author *graphql.Object
}

func newNodeTypes(t testing.TB, l *library, cfg relay.NodesConfig) nodeTypes {
	t.Helper()
	nodes, err := relay.NewNodes(cfg)
	if err != nil {
		t.Fatalf("NewNodes: %v", err)
	}
	nt := nodeTypes{nodes: nodes}
	nt.author = &graphql.Object{Name: "Author", Interfaces: []*graphql.Interface{nodes.Interface()}, Fields: graphql.Fields{
		relay.IDField("Author", func(a *author) string { return a.Key }),
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	nt.book = &graphql.Object{Name: "Book", Interfaces: []*graphql.Interface{nodes.Interface()}, Fields: graphql.Fields{
		relay.IDField("Book", func(b *book) string { return fmt.Sprint(b.ID) }),
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "author", Type: nt.author, Typed: graphql.Resolver(func(_ context.Context, b *book, _ graphql.NoArgs) (*author, error) {
			return l.authors[b.AuthorID], nil
		})},
	}}
	return nt
}

// newRegistered returns the node types over l, with Book and Author
// registered with their fetchers.
func newRegistered(t testing.TB, l *library) nodeTypes {
	t.Helper()
	nt := newNodeTypes(t, l, relay.NodesConfig{})
	if err := relay.Register(nt.nodes, nt.book, l.book); err != nil {
		t.Fatalf("Register(Book): %v", err)
	}
	if err := relay.Register(nt.nodes, nt.author, l.author); err != nil {
		t.Fatalf("Register(Author): %v", err)
	}
	return nt
}

// newNodeSchema returns a schema with node, nodes and booksConnection
// (of books implementing Node) over l, and its Nodes.
func newNodeSchema(t testing.TB, l *library, cfg relay.NodesConfig) (*graphql.Schema, *relay.Nodes) {
	t.Helper()
	nt := newNodeTypes(t, l, cfg)
	return buildNodeSchema(t, l, nt, relay.Register(nt.nodes, nt.book, l.book))
}

// buildNodeSchema is newNodeSchema for nt, whose Book was registered with
// the error registered.
func buildNodeSchema(t testing.TB, l *library, nt nodeTypes, registered error) (*graphql.Schema, *relay.Nodes) {
	t.Helper()
	if registered != nil {
		t.Fatalf("registering Book: %v", registered)
	}
	if err := relay.Register(nt.nodes, nt.author, l.author); err != nil {
		t.Fatalf("Register(Author): %v", err)
	}
	books, err := relay.New(nt.book, func(b *book) bookKey { return bookKey{b.ID} }, l.loadBooks, relay.Config[any]{})
	if err != nil {
		t.Fatalf("relay.New: %v", err)
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		nt.nodes.NodeField(),
		nt.nodes.NodesField(),
		books.Field("booksConnection"),
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	if err := nt.nodes.Check(schema); err != nil {
		t.Fatalf("Check: %v", err)
	}
	return schema, nt.nodes
}

// nodeErr is the answer of a root node field refused with message msg
// (a JSON string's content) at line 1, column col.
func nodeErr(field, data, msg string, col int) string {
	return fmt.Sprintf(`{"data":%s,"errors":[{"message":"%s","locations":[{"line":1,"column":%d}],"path":["%s"],"extensions":{"code":"BAD_USER_INPUT"}}]}`,
		data, msg, col, field)
}

// bookIDs returns the global IDs of the books with the given IDs.
func bookIDs(ids ...int) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = relay.GlobalID("Book", fmt.Sprint(id))
	}
	return out
}
