package graphql_test

import (
	"context"
	"fmt"

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
