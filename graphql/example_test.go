package graphql_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/validate"
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

// A typed resolver: the arguments arrive decoded into a struct, Opt tells
// an absent argument from an explicit null, and NewSchema checks the Go
// types against the schema.
func ExampleResolver() {
	type book struct {
		Title string
		Genre string
	}
	type searchArgs struct {
		Genre graphql.Opt[string] // absent: any genre; null: books without one
		First int                 // the default applies when absent
	}
	books := []*book{{"Dune", "sf"}, {"Emma", ""}, {"Solaris", "sf"}}
	bookType := &graphql.Object{Name: "Book", Fields: graphql.Fields{
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "genre", Type: graphql.String},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "books", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(bookType))),
			Args: []graphql.Argument{{Name: "genre", Type: graphql.String}, {Name: "first", Type: graphql.Int, Default: 2}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args searchArgs) ([]*book, error) {
				var out []*book
				for _, b := range books {
					want, given := args.Genre.Get()
					switch {
					case len(out) == args.First:
					case args.Genre.IsNull() && b.Genre == "", given && b.Genre == want, !args.Genre.Present():
						out = append(out, b)
					}
				}
				return out, nil
			})},
	}}
	schema := graphql.MustSchema(graphql.SchemaConfig{Query: query})
	for _, q := range []string{`{ books { title } }`, `{ books(genre: "sf", first: 5) { title } }`, `{ books(genre: null) { title } }`} {
		out, _ := schema.Do(context.Background(), graphql.Request{Query: q}).MarshalJSON()
		fmt.Println(string(out))
	}

	// A mistake in the Go types is NewSchema's error, not a wrong answer.
	query.Fields.(graphql.Fields)[0].Typed = graphql.Resolver(func(_ context.Context, _ any, args struct{ First string }) ([]book, error) {
		return nil, nil
	})
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	fmt.Println(err)
	// Output:
	// {"data":{"books":[{"title":"Dune"},{"title":"Emma"}]}}
	// {"data":{"books":[{"title":"Dune"},{"title":"Solaris"}]}}
	// {"data":{"books":[{"title":"Emma"}]}}
	// graphql: Query.books: argument "first" is Int, which field First of struct { First string } (string) cannot hold: Int needs an int, int32 or int64
}

// Rules on arguments and input fields run before the resolver; every
// failure of the field comes back in one VALIDATION_FAILED error, keyed by
// path, with Laravel's messages.
func ExampleArgument_rules() {
	input := &graphql.InputObject{Name: "PostInput", Fields: []graphql.InputField{
		{Name: "title", Type: graphql.NewNonNull(graphql.String), Rules: []validate.Rule{validate.Required(), validate.Max(20)}},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String)),
			Rules: []validate.Rule{validate.Max(3), validate.Each(validate.Between(2, 10))}},
	}}
	type postInput struct {
		Title string
		Tags  []string
	}
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "createPost", Type: graphql.String, Args: []graphql.Argument{{Name: "input", Type: graphql.NewNonNull(input)}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ Input postInput }) (string, error) {
				return "created " + args.Input.Title, nil
			})},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{{Name: "ok", Type: graphql.Boolean}}}
	schema := graphql.MustSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
	for _, q := range []string{
		`mutation { createPost(input: {title: "Hello", tags: ["go"]}) }`,
		`mutation { createPost(input: {title: " ", tags: ["go", "x"]}) }`,
	} {
		out, _ := schema.Do(context.Background(), graphql.Request{Query: q}).MarshalJSON()
		fmt.Println(string(out))
	}
	// Output:
	// {"data":{"createPost":"created Hello"}}
	// {"data":{"createPost":null},"errors":[{"message":"The title field is required. (and 1 more error)","locations":[{"line":1,"column":12}],"path":["createPost"],"extensions":{"code":"VALIDATION_FAILED","validation":{"input.tags.1":["The tags.1 field must be between 2 and 10 characters."],"input.title":["The title field is required."]}}}]}
}
