package sdl_test

import (
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/sdl"
)

func TestPrint(t *testing.T) {
	sch, err := gqlparser.LoadSchema(&ast.Source{Input: `
"The library."
schema { query: Library }
"A date, YYYY-MM-DD."
scalar Date @specifiedBy(url: "https://example.com/date")
enum Genre { FICTION "Made up." POETRY @deprecated }
input Filter { genre: Genre = FICTION  tags: [String!] = ["new"] }
type Library {
  "Every book, filtered."
  books(filter: Filter, after: Date): [Book!]!
  old: String @deprecated(reason: "Use books.")
  older: String @deprecated(reason: "No longer supported")
}
type Book { title: String! }
`})
	if err != nil {
		t.Fatal(err)
	}
	got := sdl.Print(sch, []string{"String", "Library", "Date", "Genre", "Filter", "Book", "__Schema"}, "No longer supported")
	want := `"""The library."""
schema {
  query: Library
}

type Library {
  """Every book, filtered."""
  books(filter: Filter, after: Date): [Book!]!
  old: String @deprecated(reason: "Use books.")
  older: String @deprecated
}

"""A date, YYYY-MM-DD."""
scalar Date @specifiedBy(url: "https://example.com/date")

enum Genre {
  FICTION

  """Made up."""
  POETRY @deprecated
}

input Filter {
  genre: Genre = FICTION
  tags: [String!] = ["new"]
}

type Book {
  title: String!
}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
