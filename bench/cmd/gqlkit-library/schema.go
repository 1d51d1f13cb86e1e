package main

import (
	"context"
	"strconv"

	"github.com/gqlkit/gqlkit/graphql"
)

type firstArgs struct{ First int }

type booksArgs struct {
	First int
	After *string
}

// newSchema is workload L's schema over s: every field that follows a
// foreign key is a batch resolver, so a request sends one statement per
// level of its answer, with no eager loading written by hand.
func newSchema(s *store) (*graphql.Schema, error) {
	list := func(t *graphql.Object) graphql.Type {
		return graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(t)))
	}
	first := func(def int) []graphql.Argument {
		return []graphql.Argument{{Name: "first", Type: graphql.Int, Default: def}}
	}
	cost := graphql.Cost{SizeArg: "first", MaxSize: maxFirst}
	var authorT, bookT, reviewT *graphql.Object
	authorT = &graphql.Object{Name: "Author", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "name", Type: graphql.NewNonNull(graphql.String)},
			{Name: "books", Type: list(bookT), Args: first(10), Cost: cost,
				Batch: graphql.Batch(func(ctx context.Context, as []*author, args firstArgs) ([][]*book, error) {
					ids := make([]int, len(as))
					for i, a := range as {
						ids[i] = a.ID
					}
					byAuthor, err := s.booksOf(ctx, ids, args.First)
					if err != nil {
						return nil, err
					}
					out := make([][]*book, len(as))
					for i, a := range as {
						out[i] = byAuthor[a.ID]
					}
					return out, nil
				})},
		}
	})}
	bookT = &graphql.Object{Name: "Book", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "title", Type: graphql.NewNonNull(graphql.String)},
			{Name: "year", Type: graphql.NewNonNull(graphql.Int)},
			{Name: "genre", Type: graphql.NewNonNull(graphql.String)},
			{Name: "author", Type: graphql.NewNonNull(authorT),
				Batch: graphql.Batch(func(ctx context.Context, bs []*book, _ graphql.NoArgs) ([]*author, error) {
					ids := make([]int, len(bs))
					for i, b := range bs {
						ids[i] = b.AuthorID
					}
					byID, err := s.authors(ctx, ids)
					if err != nil {
						return nil, err
					}
					out := make([]*author, len(bs))
					for i, b := range bs {
						out[i] = byID[b.AuthorID]
					}
					return out, nil
				})},
			{Name: "reviews", Type: list(reviewT), Args: first(5), Cost: cost,
				Batch: graphql.Batch(func(ctx context.Context, bs []*book, args firstArgs) ([][]*review, error) {
					ids := make([]int, len(bs))
					for i, b := range bs {
						ids[i] = b.ID
					}
					byBook, err := s.reviewsOf(ctx, ids, args.First)
					if err != nil {
						return nil, err
					}
					out := make([][]*review, len(bs))
					for i, b := range bs {
						out[i] = byBook[b.ID]
					}
					return out, nil
				})},
		}
	})}
	reviewT = &graphql.Object{Name: "Review", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "rating", Type: graphql.NewNonNull(graphql.Int)},
		{Name: "body", Type: graphql.NewNonNull(graphql.String)},
		{Name: "reviewer", Type: graphql.NewNonNull(authorT),
			Batch: graphql.Batch(func(ctx context.Context, rs []*review, _ graphql.NoArgs) ([]*author, error) {
				ids := make([]int, len(rs))
				for i, r := range rs {
					ids[i] = r.ReviewerID
				}
				byID, err := s.authors(ctx, ids)
				if err != nil {
					return nil, err
				}
				out := make([]*author, len(rs))
				for i, r := range rs {
					out[i] = byID[r.ReviewerID]
				}
				return out, nil
			})},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "books", Type: list(bookT), Cost: cost,
			Args: []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 20}, {Name: "after", Type: graphql.ID}},
			Typed: graphql.Resolver(func(ctx context.Context, _ any, args booksArgs) ([]*book, error) {
				after := 0
				if args.After != nil {
					// An id that is not a number names no book: the list
					// starts at the beginning, as after nothing.
					after, _ = strconv.Atoi(*args.After)
				}
				return s.books(ctx, after, args.First)
			})},
		{Name: "author", Type: authorT, Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			Typed: graphql.Resolver(func(ctx context.Context, _ any, args struct{ ID string }) (*author, error) {
				id, err := strconv.Atoi(args.ID)
				if err != nil {
					return nil, nil // not an id of the library: no author
				}
				return s.author(ctx, id)
			})},
	}}
	return graphql.NewSchema(graphql.SchemaConfig{Query: query})
}
