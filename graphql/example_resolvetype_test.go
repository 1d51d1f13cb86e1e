package graphql_test

import (
	"context"
	"fmt"

	"github.com/gqlkit/gqlkit/graphql"
)

func ExampleResolveTypeFunc() {
	type book struct{ Title string }
	type film struct{ Title, Director string }
	bookType := &graphql.Object{Name: "Book", Fields: graphql.Fields{{Name: "title", Type: graphql.String}}}
	filmType := &graphql.Object{Name: "Film", Fields: graphql.Fields{{Name: "title", Type: graphql.String}, {Name: "director", Type: graphql.String}}}
	// A search returns books and films. The union names each value's
	// object; without ResolveType, the Go types typed resolvers teach
	// NewSchema, a map's "__typename" or the objects' IsTypeOf would.
	result := &graphql.Union{Name: "SearchResult", Types: []*graphql.Object{bookType, filmType},
		ResolveType: func(_ context.Context, v any) (string, error) {
			switch v.(type) {
			case *book:
				return "Book", nil
			case *film:
				return "Film", nil
			}
			return "", fmt.Errorf("unexpected %T", v) // a masked error at the field's path
		}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "search", Type: graphql.NewList(result), Args: []graphql.Argument{{Name: "text", Type: graphql.String}},
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return []any{&book{Title: "Solaris"}, &film{Title: "Solaris", Director: "Tarkovsky"}, 42}, nil
			}},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := schema.Do(context.Background(), graphql.Request{
		Query: `{ search(text: "solaris") { __typename ... on Book { title } ... on Film { title director } } }`,
	})
	out, _ := res.MarshalJSON()
	fmt.Println(string(out))
	// Output:
	// {"data":{"search":[{"__typename":"Book","title":"Solaris"},{"__typename":"Film","title":"Solaris","director":"Tarkovsky"},null]},"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":3}],"path":["search",2],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}
}
