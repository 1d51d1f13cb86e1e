package graphql_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gqlkit/gqlkit/graphql"
)

func ExampleNewSchema() {
	type user struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	users := map[string]*user{"1": {ID: "1", Name: "Ada"}, "2": {ID: "2", Name: "Alan"}}
	// The arguments of the user field, decoded by their json names.
	type userArgs struct {
		ID string `json:"id"`
	}

	userType := &graphql.Object{Name: "User", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{
			Name: "user",
			Type: userType,
			Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			// A typed resolver: NewSchema checks userArgs against the
			// arguments and *user against User's fields.
			Typed: graphql.Resolver(func(_ context.Context, _ any, args userArgs) (*user, error) {
				return users[args.ID], nil // not found: a nil *user, and the field is null
			}),
		},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		fmt.Println(err)
		return
	}

	res := schema.Do(context.Background(), graphql.Request{Query: `query Two($id: ID!) { first: user(id: 1) { name } second: user(id: $id) { id name } missing: user(id: "9") { id } }`, OperationName: "Two", Variables: map[string]any{"id": "2"}})
	out, _ := res.MarshalJSON()
	fmt.Println(string(out))

	// Bad variables are refused before any resolver runs.
	res = schema.Do(context.Background(), graphql.Request{Query: `query($id: ID!) { user(id: $id) { name } }`, Variables: map[string]any{"id": true}})
	out, _ = res.MarshalJSON()
	fmt.Println(string(out))
	// Output:
	// {"data":{"first":{"name":"Ada"},"second":{"id":"2","name":"Alan"},"missing":null}}
	// {"errors":[{"message":"Variable \"$id\" got invalid value true; ID cannot represent value: true","locations":[{"line":1,"column":7}],"extensions":{"code":"BAD_USER_INPUT"}}]}
}

func ExampleResolveInfo_SelectedFields() {
	type post struct {
		Title    string
		AuthorID string
	}
	author := &graphql.Object{Name: "Author", Fields: graphql.Fields{
		{Name: "name", Type: graphql.String},
	}}
	postType := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "title", Type: graphql.String},
		{Name: "author", Type: author, Resolve: func(_ context.Context, p any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			return map[string]any{"name": "Author " + p.(post).AuthorID}, nil
		}},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewList(postType),
			Resolve: func(_ context.Context, _ any, _ graphql.Args, info graphql.ResolveInfo) (any, error) {
				// Decide what to load from what the client asked for.
				fmt.Printf("posts: selected %s; join authors: %v\n",
					strings.Join(info.SelectedFields(), ","), info.IsSelected("author.name"))
				return []post{{Title: "Hello", AuthorID: "7"}}, nil
			}},
	}}
	schema := graphql.MustSchema(graphql.SchemaConfig{Query: query})

	const q = `query($withAuthor: Boolean!) { posts { title ...A @include(if: $withAuthor) } } fragment A on Post { author { name } }`
	for _, withAuthor := range []bool{false, true} {
		res := schema.Do(context.Background(), graphql.Request{Query: q, Variables: map[string]any{"withAuthor": withAuthor}})
		fmt.Println(string(res.Data))
	}
	// Output:
	// posts: selected title; join authors: false
	// {"posts":[{"title":"Hello"}]}
	// posts: selected title,author; join authors: true
	// {"posts":[{"title":"Hello","author":{"name":"Author 7"}}]}
}

func ExampleSchema_SDL() {
	color := &graphql.Enum{Name: "Color", Values: []graphql.EnumValue{
		{Name: "RED"}, {Name: "GREEN", DeprecationReason: "Use RED."},
	}}
	query := &graphql.Object{Name: "Query", Description: "The root.", Fields: graphql.Fields{
		{Name: "paint", Type: graphql.NewNonNull(color), Args: []graphql.Argument{{Name: "color", Type: color, Default: "RED"}}},
	}}
	fmt.Println(graphql.MustSchema(graphql.SchemaConfig{Query: query}).SDL())
	// Output:
	// """The root."""
	// type Query {
	//   paint(color: Color = RED): Color!
	// }
	//
	// enum Color {
	//   RED
	//   GREEN @deprecated(reason: "Use RED.")
	// }
}

// A resolver's Args cannot be changed, and what it hands out is a copy:
// here a resolver (or a test calling one) edits the list it was given,
// and the arguments stay as they were.
func ExampleNewArgs() {
	args := graphql.NewArgs(map[string]any{"first": 10, "tags": []any{"go", "graphql"}})
	tags, _ := args.List("tags")
	tags[0] = "changed"
	first, _ := args.Int("first")
	again, _ := args.List("tags")
	_, err := args.String("first") // an Int read as a String: an error, not ""
	fmt.Println(first, again, args.Has("after"))
	fmt.Println(err)
	// Output:
	// 10 [go graphql] false
	// graphql: Args.String("first"): the value is a int
}
