package graphql_test

import (
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

func TestSDL(t *testing.T) {
	want := `"""The library."""
schema {
  query: Query
  mutation: Mutation
}

type Query {
  """Every book, filtered."""
  books(
    """Which books."""
    filter: BookFilter = {genre: FICTION, limit: 5, tags: ["new"]}
    after: ID
  ): [Book!]!
  book(id: ID!): Book
  search(q: String = "say \"hi\"\n", exact: Boolean = false, score: Float = 0.5, old: String @deprecated(reason: "Use q.")): [Book]
}

"""
A book.

With a second paragraph.
"""
type Book {
  id: ID!

  """The title, as printed."""
  title: String!
  genre: Genre
  published: Date
  isbn: String @deprecated(reason: "Use \"ids\".")
  similar(first: Int = 3): [Book!]!
}

"""What a book is about."""
enum Genre {
  """Made up."""
  FICTION
  HISTORY

  """Verse."""
  POETRY @deprecated(reason: "Merged into FICTION.")
  DRAMA @deprecated
}

"""A calendar date."""
scalar Date @specifiedBy(url: "https://example.com/date")

"""Narrows a book list."""
input BookFilter {
  genre: Genre = FICTION

  """Published on or after."""
  since: Date
  title: String @deprecated(reason: "Use search.")
  limit: Int! = 20
  tags: [String!] = ["new"]
}

type Mutation {
  addBook(title: String!, genre: Genre = HISTORY, tags: [String] = null): Book!
}`
	if got := librarySchema(t).SDL(); got != want {
		t.Errorf("SDL:\n%s\nwant:\n%s", got, want)
	}
}

func TestSDLCases(t *testing.T) {
	str := graphql.String
	tests := []struct {
		name string
		cfg  graphql.SchemaConfig
		want string
	}{
		{name: "common root names, no description", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str})},
			want: "type Query {\n  a: String\n}"},
		{name: "other root names", cfg: graphql.SchemaConfig{
			Query:    &graphql.Object{Name: "Root", Fields: graphql.Fields{{Name: "a", Type: str}}},
			Mutation: &graphql.Object{Name: "Mutation", Fields: graphql.Fields{{Name: "b", Type: str}}}},
			want: "schema {\n  query: Root\n  mutation: Mutation\n}\n\ntype Root {\n  a: String\n}\n\ntype Mutation {\n  b: String\n}"},
		{name: "other mutation root name", cfg: graphql.SchemaConfig{
			Query:    queryWith(graphql.Field{Name: "a", Type: str}),
			Mutation: &graphql.Object{Name: "Writes", Fields: graphql.Fields{{Name: "b", Type: str}}}},
			want: "schema {\n  query: Query\n  mutation: Writes\n}\n\ntype Query {\n  a: String\n}\n\ntype Writes {\n  b: String\n}"},
		{name: "explicit types come first", cfg: graphql.SchemaConfig{
			Query: queryWith(graphql.Field{Name: "a", Type: str}),
			Types: []graphql.NamedType{&graphql.Enum{Name: "Unused", Values: []graphql.EnumValue{{Name: "X"}}}, graphql.Int}},
			want: "enum Unused {\n  X\n}\n\ntype Query {\n  a: String\n}"},
		{name: "descriptions printed as strings or blocks", cfg: graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
			{Name: "long", Type: str, Description: "A description that is longer than seventy characters, so it gets its own lines."},
			{Name: "quoted", Type: str, Description: `Ends with a "quote"`},
			{Name: "control", Type: str, Description: "Has a \x01 control character"},
			{Name: "indented", Type: str, Description: "  starts with blanks"},
			{Name: "triple", Type: str, Description: `Holds """ three quotes`},
		}}},
			want: "type Query {\n" +
				"  \"\"\"\n  A description that is longer than seventy characters, so it gets its own lines.\n  \"\"\"\n  long: String\n\n" +
				"  \"\"\"\n  Ends with a \"quote\"\n  \"\"\"\n  quoted: String\n\n" +
				"  \"Has a \\u0001 control character\"\n  control: String\n\n" +
				"  \"\"\"  starts with blanks\"\"\"\n  indented: String\n\n" +
				"  \"\"\"Holds \\\"\"\" three quotes\"\"\"\n  triple: String\n" +
				"}"},
		{name: "argument descriptions", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: str, Args: []graphql.Argument{
			{Name: "a", Type: str},
			{Name: "b", Type: graphql.Int, Description: "The b.", Default: 1},
			{Name: "c", Type: graphql.Int, Description: "The c."},
		}})},
			want: "type Query {\n  f(\n    a: String\n\n    \"\"\"The b.\"\"\"\n    b: Int = 1\n\n    \"\"\"The c.\"\"\"\n    c: Int\n  ): String\n}"},
		{name: "default reason", cfg: graphql.SchemaConfig{Query: queryWith(
			graphql.Field{Name: "a", Type: str, DeprecationReason: "No longer supported"},
			graphql.Field{Name: "b", Type: str, DeprecationReason: "Gone\nfor good"},
		)},
			want: "type Query {\n  a: String @deprecated\n  b: String @deprecated(reason: \"Gone\\nfor good\")\n}"},
		{name: "default literals", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: str, Args: []graphql.Argument{
			{Name: "id", Type: graphql.ID, Default: "42"},
			{Name: "sid", Type: graphql.ID, Default: "x42"},
			{Name: "fl", Type: graphql.Float, Default: 2},
			{Name: "big", Type: graphql.Float, Default: 1e21},
			{Name: "list", Type: graphql.NewList(graphql.NewList(graphql.Int)), Default: [][]int{{1, 2}, {}}},
			{Name: "one", Type: graphql.NewList(graphql.Int), Default: 3},
			{Name: "d", Type: dateScalar, Default: mustDate(t, "2001-02-03")},
		}})},
			want: "type Query {\n  f(id: ID = 42, sid: ID = \"x42\", fl: Float = 2, big: Float = 1e+21, list: [[Int]] = [[1, 2], []], one: [Int] = [3], d: Date = \"2001-02-03\"): String\n}" +
				"\n\n\"\"\"A calendar date, written YYYY-MM-DD.\"\"\"\nscalar Date @specifiedBy(url: \"https://www.rfc-editor.org/rfc/rfc3339#section-5.6\")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newSchema(t, tt.cfg).SDL(); got != tt.want {
				t.Errorf("SDL:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
