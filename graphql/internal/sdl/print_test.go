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

// Interfaces and unions print as graphql-js prints them: implemented
// interfaces joined by " & ", union members by " | ".
func TestPrintAbstract(t *testing.T) {
	sch, err := gqlparser.LoadSchema(&ast.Source{Input: `
type Query { node: Node  search: [Result] }
"Has an id."
interface Node { id: ID! }
interface Named implements Node { id: ID!  "The name." name: String }
type Book implements Node & Named { id: ID!  name: String }
type Pen { ink: String }
"Found."
union Result = Pen | Book
`})
	if err != nil {
		t.Fatal(err)
	}
	got := sdl.Print(sch, []string{"Query", "Node", "ID", "Result", "Pen", "Book", "Named", "String"}, "No longer supported")
	want := `type Query {
  node: Node
  search: [Result]
}

"""Has an id."""
interface Node {
  id: ID!
}

"""Found."""
union Result = Pen | Book

type Pen {
  ink: String
}

type Book implements Node & Named {
  id: ID!
  name: String
}

interface Named implements Node {
  id: ID!

  """The name."""
  name: String
}`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
