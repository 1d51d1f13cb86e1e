package relay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

// Example pages a list of books by keyset: the load function reads the
// rows past the after key, as WHERE id > $1 ORDER BY id LIMIT $2 would.
func Example() {
	type Book struct {
		ID    int
		Title string
	}
	books := []Book{{1, "Dune"}, {2, "Emma"}, {3, "Ulysses"}, {4, "Walden"}, {5, "Beloved"}}
	type bookKey struct {
		ID int `json:"id"`
	}
	load := func(_ context.Context, _ any, req relay.Request[bookKey]) ([]Book, error) {
		rows := slices.Clone(books)
		if req.Backward {
			slices.Reverse(rows)
		}
		var page []Book
		for _, b := range rows {
			if (req.After == nil || b.ID > req.After.ID) && (req.Before == nil || b.ID < req.Before.ID) && len(page) < req.Limit {
				page = append(page, b)
			}
		}
		return page, nil
	}
	bookType := &graphql.Object{Name: "Book", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
	}}
	conn, err := relay.New(bookType, func(b Book) bookKey { return bookKey{b.ID} }, load, relay.Config[any]{
		Count: func(context.Context, any, graphql.Args) (int, error) { return len(books), nil },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{conn.Field("books")}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	const query = `query($after: String) {
  books(first: 2, after: $after) {
    totalCount
    edges { node { title } }
    pageInfo { hasNextPage endCursor }
  }
}`
	var after any
	for {
		res := schema.Do(context.Background(), graphql.Request{Query: query, Variables: map[string]any{"after": after}})
		var page struct {
			Books struct {
				TotalCount int
				Edges      []struct{ Node struct{ Title string } }
				PageInfo   struct {
					HasNextPage bool
					EndCursor   string
				}
			}
		}
		if err := json.Unmarshal(res.Data, &page); err != nil || len(res.Errors) > 0 {
			fmt.Println(err, res.Errors)
			return
		}
		for _, e := range page.Books.Edges {
			fmt.Print(e.Node.Title, " ")
		}
		fmt.Printf("(of %d)\n", page.Books.TotalCount)
		if !page.Books.PageInfo.HasNextPage {
			break
		}
		after = page.Books.PageInfo.EndCursor
	}
	// Output:
	// Dune Emma (of 5)
	// Ulysses Walden (of 5)
	// Beloved (of 5)
}
