package graphql_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/validate"
)

// TestRulesInDescriptions: the rules of arguments and input fields are
// appended to their descriptions, in the SDL and in introspection alike.
func TestRulesInDescriptions(t *testing.T) {
	input := &graphql.InputObject{Name: "PostInput", Fields: []graphql.InputField{
		{Name: "title", Type: graphql.NewNonNull(graphql.String), Description: "The title.",
			Rules: []validate.Rule{validate.Trimmed(validate.Required(), validate.Max(200))}},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String)),
			Rules: []validate.Rule{validate.Max(10), validate.Each(validate.Between(1, 20))}},
		{Name: "plain", Type: graphql.String},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "posts", Type: graphql.String, Args: []graphql.Argument{
		{Name: "first", Type: graphql.Int, Rules: []validate.Rule{validate.Between(1, 100)}},
		{Name: "input", Type: input},
	}})})
	want := `type Query {
  posts(
    """Rules: between 1 and 100."""
    first: Int
    input: PostInput
  ): String
}

input PostInput {
  """
  The title.
  
  Rules: trimmed (required, at most 200 characters).
  """
  title: String!

  """Rules: at most 10 items; each item: between 1 and 20 characters."""
  tags: [String!]
  plain: String
}`
	if got := s.SDL(); got != want {
		t.Errorf("SDL:\n%s\nwant:\n%s", got, want)
	}

	res := s.Do(context.Background(), graphql.Request{Query: `{
  __type(name: "PostInput") { inputFields { name description } }
  __schema { queryType { fields { args { name description } } } }
}`})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	wantData := `{"__type":{"inputFields":[` +
		`{"name":"title","description":"The title.\n\nRules: trimmed (required, at most 200 characters)."},` +
		`{"name":"tags","description":"Rules: at most 10 items; each item: between 1 and 20 characters."},` +
		`{"name":"plain","description":null}]},` +
		`"__schema":{"queryType":{"fields":[{"args":[{"name":"first","description":"Rules: between 1 and 100."},{"name":"input","description":null}]}]}}}`
	var got, wantJSON any
	if err := json.Unmarshal(res.Data, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(wantData), &wantJSON); err != nil {
		t.Fatal(err)
	}
	if g, w := mustMarshal(t, got), mustMarshal(t, wantJSON); g != w {
		t.Errorf("introspection:\n%s\nwant:\n%s", g, w)
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
