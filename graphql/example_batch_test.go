package graphql_test

import (
	"context"
	"fmt"

	"github.com/gqlkit/gqlkit/graphql"
)

func ExampleBatch() {
	type author struct{ ID, Name string }
	type post struct{ Title, AuthorID string }
	authors := map[string]*author{"1": {ID: "1", Name: "Ada"}, "2": {ID: "2", Name: "Alan"}}
	posts := []*post{{"Engines", "1"}, {"Machines", "2"}, {"Notes", "1"}}
	statements := 0

	authorType := &graphql.Object{Name: "Author", Fields: graphql.Fields{
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	postType := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{
			Name: "author",
			Type: authorType,
			// One call for every post of the answer: a store would run
			// one statement, SELECT … WHERE id IN (…), here.
			Batch: graphql.Batch(func(_ context.Context, ps []*post, _ graphql.NoArgs) ([]*author, error) {
				statements++
				out := make([]*author, len(ps)) // one result per parent, in order
				for i, p := range ps {
					out[i] = authors[p.AuthorID]
				}
				return out, nil
			}),
		},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(postType))),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]*post, error) {
				statements++
				return posts, nil
			})},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		fmt.Println(err)
		return
	}

	res := schema.Do(context.Background(), graphql.Request{Query: `{ posts { title author { name } } }`})
	out, _ := res.MarshalJSON()
	fmt.Println(string(out))
	fmt.Println("statements:", statements)
	// Output:
	// {"data":{"posts":[{"title":"Engines","author":{"name":"Ada"}},{"title":"Machines","author":{"name":"Alan"}},{"title":"Notes","author":{"name":"Ada"}}]}}
	// statements: 2
}
