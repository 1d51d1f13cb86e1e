package graphql_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/validate"
)

// rulesSchema has rules on arguments, on input fields (so they apply
// wherever the input object is used), on list items, nested input objects
// and a list of input objects.
func rulesSchema(t *testing.T, ran *[]string) *graphql.Schema {
	t.Helper()
	author := &graphql.InputObject{Name: "AuthorInput", Fields: []graphql.InputField{
		{Name: "name", Type: graphql.String, Rules: []validate.Rule{validate.Required()}},
		{Name: "email", Type: graphql.String, Rules: []validate.Rule{validate.Email()}},
	}}
	input := &graphql.InputObject{Name: "PostInput", Fields: []graphql.InputField{
		{Name: "title", Type: graphql.NewNonNull(graphql.String), Rules: []validate.Rule{validate.Required(), validate.Max(10)}},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String)),
			Rules: []validate.Rule{validate.Max(3), validate.Each(validate.Between(1, 5))}},
		{Name: "slug", Type: graphql.String, Rules: []validate.Rule{validate.Pattern(regexp.MustCompile(`^[a-z-]+$`))}},
		{Name: "genre", Type: genreEnum, Rules: []validate.Rule{validate.OneOf(genreT("sf"))}},
		{Name: "author", Type: author},
		{Name: "createdAt", Type: graphql.String, Rules: []validate.Rule{validate.Func(func(v any) string {
			if !strings.HasPrefix(v.(string), "2026-") {
				return "The :attribute field must be in 2026."
			}
			return ""
		})}},
	}}
	record := func(name string) graphql.ResolveFunc {
		return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			*ran = append(*ran, name)
			return "ok", nil
		}
	}
	return newSchema(t, graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
			{Name: "search", Type: graphql.String, Args: []graphql.Argument{
				{Name: "first", Type: graphql.Int, Default: 10, Rules: []validate.Rule{validate.Between(1, 50)}},
				{Name: "q", Type: graphql.String, Rules: []validate.Rule{validate.Required(), validate.Min(2)}},
			}, Resolve: record("search")},
		}},
		Mutation: &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
			{Name: "createPost", Type: graphql.String, Args: []graphql.Argument{{Name: "input", Type: graphql.NewNonNull(input)}},
				Resolve: record("createPost")},
			{Name: "createPosts", Type: graphql.String, Args: []graphql.Argument{{Name: "inputs", Type: graphql.NewList(input)}},
				Typed: graphql.Resolver(func(_ context.Context, _ any, a struct{ Inputs []struct{ Title string } }) (string, error) {
					*ran = append(*ran, "createPosts")
					return "ok", nil
				})},
		}},
	})
}

func TestArgumentRules(t *testing.T) {
	tests := []struct {
		name, query, want string
		ran               bool
	}{
		{"valid arguments reach the resolver", `{ search(q: "go") }`, `{"data":{"search":"ok"}}`, true},
		{"an absent argument is missing, a default is checked", `{ search(first: 0) }`,
			`{"data":{"search":null},"errors":[{"message":"The first field must be between 1 and 50. (and 1 more error)","locations":[{"line":1,"column":3}],"path":["search"],"extensions":{"code":"VALIDATION_FAILED","validation":{"first":["The first field must be between 1 and 50."],"q":["The q field is required."]}}}]}`, false},
		{"null is not missing, but Required refuses it too", `{ search(q: null) }`,
			`{"data":{"search":null},"errors":[{"message":"The q field is required.","locations":[{"line":1,"column":3}],"path":["search"],"extensions":{"code":"VALIDATION_FAILED","validation":{"q":["The q field is required."]}}}]}`, false},
		{"every failure inside an input object, named without the argument",
			`mutation { createPost(input: {title: "  ", tags: ["", "ok", "toolong", "x"], slug: "Not A Slug", genre: FANTASY, author: {email: "nope"}, createdAt: "2025-01-01"}) }`,
			`{"data":{"createPost":null},"errors":[{"message":"The title field is required. (and 8 more errors)","locations":[{"line":1,"column":12}],"path":["createPost"],"extensions":{"code":"VALIDATION_FAILED","validation":{` +
				`"input.author.email":["The author.email field must be a valid email address."],` +
				`"input.author.name":["The author.name field is required."],` +
				`"input.createdAt":["The created at field must be in 2026."],` +
				`"input.genre":["The selected genre is invalid."],` +
				`"input.slug":["The slug field format is invalid."],` +
				`"input.tags":["The tags field must not have more than 3 items."],` +
				`"input.tags.0":["The tags.0 field must be between 1 and 5 characters."],` +
				`"input.tags.2":["The tags.2 field must be between 1 and 5 characters."],` +
				`"input.title":["The title field is required."]}}}]}`, false},
		{"a list of input objects keeps the argument in the name",
			`mutation { createPosts(inputs: [{title: "fine"}, {title: "far too long"}]) }`,
			`{"data":{"createPosts":null},"errors":[{"message":"The inputs.1.title field must not be greater than 10 characters.","locations":[{"line":1,"column":12}],"path":["createPosts"],"extensions":{"code":"VALIDATION_FAILED","validation":{"inputs.1.title":["The inputs.1.title field must not be greater than 10 characters."]}}}]}`, false},
		{"valid input", `mutation { createPost(input: {title: "Hi", tags: ["go"], genre: SF, author: {name: "Ann", email: "ann@example.com"}}) createPosts(inputs: {title: "x"}) }`,
			`{"data":{"createPost":"ok","createPosts":"ok"}}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ran []string
			s := rulesSchema(t, &ran)
			res := s.Do(context.Background(), graphql.Request{Query: tc.query})
			out, err := res.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got  %s\nwant %s", out, tc.want)
			}
			if (len(ran) > 0) != tc.ran {
				t.Errorf("resolvers ran: %v; want ran=%v", ran, tc.ran)
			}
		})
	}
}

// TestArgumentRulesAfterMiddleware: an authorization check in middleware
// runs before the rules, so an unauthorized caller learns nothing about
// what the input should be.
func TestArgumentRulesAfterMiddleware(t *testing.T) {
	deny := func(graphql.ResolveFunc) graphql.ResolveFunc {
		return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return nil, errcode.Forbidden("You may not.")
		}
	}
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "f", Type: graphql.String, Middleware: []graphql.FieldMiddleware{deny},
			Args:    []graphql.Argument{{Name: "x", Type: graphql.String, Rules: []validate.Rule{validate.Required()}}},
			Resolve: constant("ran")},
	}}})
	res := s.Do(context.Background(), graphql.Request{Query: `{ f }`})
	out, _ := res.MarshalJSON()
	if want := `{"data":{"f":null},"errors":[{"message":"You may not.","locations":[{"line":1,"column":3}],"path":["f"],"extensions":{"code":"FORBIDDEN"}}]}`; string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}
