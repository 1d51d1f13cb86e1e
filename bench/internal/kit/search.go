package kit

import (
	"context"
	"fmt"

	"github.com/gqlkit/gqlkit/bench/search"
	"github.com/gqlkit/gqlkit/graphql"
)

// NewSearchSchema returns the union workload's schema over store: the
// SearchResult union names each result's member by a type switch on its
// Go type (its ResolveType); the fields are read from the structs, but
// Book.author and Review.book, which look the object up in the store.
func NewSearchSchema(store *search.Store) (*graphql.Schema, error) {
	author := &graphql.Object{Name: "Author", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
		{Name: "born", Type: graphql.Int},
	}}
	book := &graphql.Object{Name: "Book", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "year", Type: graphql.NewNonNull(graphql.Int)},
		{Name: "author", Type: graphql.NewNonNull(author), Typed: graphql.Resolver(func(_ context.Context, b *search.Book, _ graphql.NoArgs) (*search.Author, error) {
			return store.Author(b.AuthorID), nil
		})},
	}}
	review := &graphql.Object{Name: "Review", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "stars", Type: graphql.NewNonNull(graphql.Int)},
		{Name: "body", Type: graphql.NewNonNull(graphql.String)},
		{Name: "book", Type: graphql.NewNonNull(book), Typed: graphql.Resolver(func(_ context.Context, r *search.Review, _ graphql.NoArgs) (*search.Book, error) {
			return store.Book(r.BookID), nil
		})},
	}}
	result := &graphql.Union{Name: "SearchResult", Types: []*graphql.Object{book, author, review},
		ResolveType: func(_ context.Context, v any) (string, error) {
			switch v.(type) {
			case *search.Book:
				return "Book", nil
			case *search.Author:
				return "Author", nil
			case *search.Review:
				return "Review", nil
			}
			return "", fmt.Errorf("search: no SearchResult member for %T", v)
		}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{{
		Name: "search",
		Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(result))),
		Args: []graphql.Argument{{Name: "first", Type: graphql.Int, Default: search.DefaultFirst}},
		Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ First graphql.Opt[int] }) ([]any, error) {
			n, ok := args.First.Get()
			if !ok { // an explicit null: the default
				n = search.DefaultFirst
			}
			return store.Search(n), nil
		}),
	}}}
	// Types lists the members and the union first only so that Schema.SDL
	// prints the types in the order of search.SDL.
	return graphql.NewSchema(graphql.SchemaConfig{Query: query, Types: []graphql.NamedType{author, book, review, result}})
}
