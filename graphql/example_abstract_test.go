package graphql_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gqlkit/gqlkit/graphql"
)

func ExampleInterface() {
	id := graphql.NewNonNull(graphql.ID)
	node := &graphql.Interface{Name: "Node", Description: "An object with a global id.",
		Fields: graphql.Fields{{Name: "id", Type: id}}}
	// Book implements Node: it declares Node's field with its own resolver
	// (here the default one, which reads the parent value).
	book := &graphql.Object{Name: "Book", Interfaces: []*graphql.Interface{node},
		Fields: graphql.Fields{{Name: "id", Type: id}, {Name: "isbn", Type: graphql.String}}}
	// No field returns Author: SchemaConfig.Types makes it one of Node's
	// possible objects.
	author := &graphql.Object{Name: "Author", Interfaces: []*graphql.Interface{node},
		Fields: graphql.Fields{{Name: "id", Type: id}, {Name: "name", Type: graphql.String}}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "node", Type: node, Args: []graphql.Argument{{Name: "id", Type: id}}},
		{Name: "book", Type: book},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Types: []graphql.NamedType{author}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(schema.SDL())
	// Output:
	// type Author implements Node {
	//   id: ID!
	//   name: String
	// }
	//
	// """An object with a global id."""
	// interface Node {
	//   id: ID!
	// }
	//
	// type Query {
	//   node(id: ID!): Node
	//   book: Book
	// }
	//
	// type Book implements Node {
	//   id: ID!
	//   isbn: String
	// }
}

func ExampleUnion() {
	book := &graphql.Object{Name: "Book", Fields: graphql.Fields{{Name: "title", Type: graphql.String}}}
	author := &graphql.Object{Name: "Author", Fields: graphql.Fields{{Name: "name", Type: graphql.String}}}
	result := &graphql.Union{Name: "SearchResult", Types: []*graphql.Object{book, author}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "search", Type: graphql.NewList(result), Args: []graphql.Argument{{Name: "q", Type: graphql.String}}},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := schema.Do(context.Background(), graphql.Request{Query: `{ __type(name: "SearchResult") { kind possibleTypes { name } } }`})
	out, _ := res.MarshalJSON()
	fmt.Println(string(out))

	// A union that lists a member twice is refused, as graphql-js does.
	_, err = graphql.NewSchema(graphql.SchemaConfig{Query: query, Types: []graphql.NamedType{
		&graphql.Union{Name: "Twice", Types: []*graphql.Object{book, book}},
	}})
	fmt.Println(err)
	// Output:
	// {"data":{"__type":{"kind":"UNION","possibleTypes":[{"name":"Book"},{"name":"Author"}]}}}
	// graphql: union Twice lists Book twice
}

// ExampleUnion_search serves a search whose results are books or authors: a
// SearchResult union returned by a typed resolver, over objects that
// implement a Node and a Timestamped interface. Each result's object is
// found by its Go type, which NewSchema learned from the typed resolvers
// that return *Book and *Author; the client selects each member's fields
// with fragments, on the objects and on the interfaces alike.
func ExampleUnion_search() {
	type Author struct{ ID, Name string }
	type Book struct {
		ID, Title, CreatedAt string
		Author               *Author
	}
	herbert, austen := &Author{"a1", "Frank Herbert"}, &Author{"a2", "Jane Austen"}
	books := []*Book{{"b1", "Dune", "1965-08-01", herbert}, {"b2", "Emma", "1815-12-23", austen}}
	authors := []*Author{herbert, austen}

	node := &graphql.Interface{Name: "Node", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
	}}
	timestamped := &graphql.Interface{Name: "Timestamped", Fields: graphql.Fields{
		{Name: "createdAt", Type: graphql.NewNonNull(graphql.String)},
	}}
	author := &graphql.Object{Name: "Author", Interfaces: []*graphql.Interface{node}, Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	book := &graphql.Object{Name: "Book", Interfaces: []*graphql.Interface{node, timestamped}, Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "createdAt", Type: graphql.NewNonNull(graphql.String)},
		{Name: "author", Type: graphql.NewNonNull(author), Typed: graphql.Resolver(func(_ context.Context, b *Book, _ graphql.NoArgs) (*Author, error) {
			return b.Author, nil
		})},
	}}
	searchResult := &graphql.Union{Name: "SearchResult", Types: []*graphql.Object{book, author}}

	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "books", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(book))),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]*Book, error) { return books, nil })},
		{Name: "search", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(searchResult))),
			Args: []graphql.Argument{{Name: "text", Type: graphql.NewNonNull(graphql.String)}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ Text string }) ([]any, error) {
				var found []any
				for _, b := range books {
					if strings.Contains(b.Title, args.Text) {
						found = append(found, b)
					}
				}
				for _, a := range authors {
					if strings.Contains(a.Name, args.Text) {
						found = append(found, a)
					}
				}
				return found, nil
			})},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := schema.Do(context.Background(), graphql.Request{Query: `{
  search(text: "u") {
    __typename
    ... on Node { id }
    ... on Book { title author { name } }
    ... on Author { name }
    ... on Timestamped { createdAt }
  }
}`})
	if len(res.Errors) > 0 {
		fmt.Println(res.Errors)
		return
	}
	fmt.Println(string(res.Data))
	// Output:
	// {"search":[{"__typename":"Book","id":"b1","title":"Dune","author":{"name":"Frank Herbert"},"createdAt":"1965-08-01"},{"__typename":"Author","id":"a2","name":"Jane Austen"}]}
}

// ExampleInterface_feed serves a feed of posts and comments through a
// Timestamped interface that itself implements Node. Its ResolveType
// names each value's object by a type switch; the client reads the
// interface's fields directly and each object's own with a fragment.
func ExampleInterface_feed() {
	type Post struct{ ID, Title, CreatedAt string }
	type Comment struct{ ID, Text, CreatedAt string }

	node := &graphql.Interface{Name: "Node", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
	}}
	timestamped := &graphql.Interface{
		Name:       "Timestamped",
		Interfaces: []*graphql.Interface{node},
		Fields: graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "createdAt", Type: graphql.NewNonNull(graphql.String)},
		},
		ResolveType: func(_ context.Context, v any) (string, error) {
			switch v.(type) {
			case *Post:
				return "Post", nil
			case *Comment:
				return "Comment", nil
			}
			return "", fmt.Errorf("no Timestamped object for %T", v)
		},
	}
	implements := []*graphql.Interface{node, timestamped}
	post := &graphql.Object{Name: "Post", Interfaces: implements, Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "createdAt", Type: graphql.NewNonNull(graphql.String)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
	}}
	comment := &graphql.Object{Name: "Comment", Interfaces: implements, Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "createdAt", Type: graphql.NewNonNull(graphql.String)},
		{Name: "text", Type: graphql.NewNonNull(graphql.String)},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "feed", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(timestamped))),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]any, error) {
				return []any{&Post{"p1", "Hello", "2026-12-01"}, &Comment{"c1", "Nice post", "2026-12-02"}}, nil
			})},
	}}
	// Post and Comment are reached only through the interface: Types
	// makes them part of the schema (and orders the SDL).
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Types: []graphql.NamedType{node, timestamped, post, comment}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(schema.SDL())
	res := schema.Do(context.Background(), graphql.Request{
		Query: `{ feed { __typename createdAt ... on Post { title } ... on Comment { text } } }`,
	})
	if len(res.Errors) > 0 {
		fmt.Println(res.Errors)
		return
	}
	fmt.Println(string(res.Data))
	// Output:
	// interface Node {
	//   id: ID!
	// }
	//
	// interface Timestamped implements Node {
	//   id: ID!
	//   createdAt: String!
	// }
	//
	// type Post implements Node & Timestamped {
	//   id: ID!
	//   createdAt: String!
	//   title: String!
	// }
	//
	// type Comment implements Node & Timestamped {
	//   id: ID!
	//   createdAt: String!
	//   text: String!
	// }
	//
	// type Query {
	//   feed: [Timestamped!]!
	// }
	// {"feed":[{"__typename":"Post","createdAt":"2026-12-01","title":"Hello"},{"__typename":"Comment","createdAt":"2026-12-02","text":"Nice post"}]}
}
