package graphql_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/graphqljs"
)

// catalogSDL is what graphql-js 16.15's printSchema prints for the
// catalog built with its own constructors (GraphQLInterfaceType,
// GraphQLUnionType, types: [Author]), byte for byte.
const catalogSDL = `type Author implements Node {
  id: ID!
  name: String
}

"""An object with a global id."""
interface Node {
  id: ID!
}

type Query {
  node(id: ID!): Node
  search(q: String): [SearchResult!]!
  entries: [Entry]
}

"""What a search finds."""
union SearchResult = Magazine | Book | Author

type Magazine {
  title: String
  issue: Int
}

type Book implements Node & Timestamped & Entry {
  id: ID!
  createdAt(format: String = "RFC3339", zone: String): String!
  title: String
  isbn: String
}

interface Timestamped {
  createdAt(format: String = "RFC3339"): String
}

interface Entry implements Node & Timestamped {
  id: ID!
  createdAt(format: String = "RFC3339"): String
  title: String @deprecated(reason: "Use name.")
}`

func TestAbstractSDL(t *testing.T) {
	s := newSchema(t, newCatalog().cfg)
	if got := s.SDL(); got != catalogSDL {
		t.Errorf("SDL:\n%s\nwant:\n%s", got, catalogSDL)
	}
}

// The answers are graphql-js 16.15's for the same schema: interfaces is a
// list for objects and interfaces (empty for none), null for other kinds;
// possibleTypes lists an interface's objects in type order and a union's
// members in the order declared.
func TestAbstractIntrospection(t *testing.T) {
	s := newSchema(t, newCatalog().cfg)
	query := `{ node: __type(name: "Node") { kind name description interfaces { name } possibleTypes { name } fields { name args { name } } inputFields { name } enumValues { name } }
 entry: __type(name: "Entry") { kind interfaces { name } possibleTypes { name } }
 search: __type(name: "SearchResult") { kind description interfaces { name } possibleTypes { name } fields { name } }
 magazine: __type(name: "Magazine") { kind interfaces { name } possibleTypes { name } }
 book: __type(name: "Book") { kind interfaces { name } possibleTypes { name } }
 id: __type(name: "ID") { kind interfaces { name } possibleTypes { name } fields { name } } }`
	want := `{"data":{"node":{"kind":"INTERFACE","name":"Node","description":"An object with a global id.","interfaces":[],"possibleTypes":[{"name":"Author"},{"name":"Book"}],"fields":[{"name":"id","args":[]}],"inputFields":null,"enumValues":null},` +
		`"entry":{"kind":"INTERFACE","interfaces":[{"name":"Node"},{"name":"Timestamped"}],"possibleTypes":[{"name":"Book"}]},` +
		`"search":{"kind":"UNION","description":"What a search finds.","interfaces":null,"possibleTypes":[{"name":"Magazine"},{"name":"Book"},{"name":"Author"}],"fields":null},` +
		`"magazine":{"kind":"OBJECT","interfaces":[],"possibleTypes":null},` +
		`"book":{"kind":"OBJECT","interfaces":[{"name":"Node"},{"name":"Timestamped"},{"name":"Entry"}],"possibleTypes":null},` +
		`"id":{"kind":"SCALAR","interfaces":null,"possibleTypes":null,"fields":null}}}`
	if got := response(t, s, query, "", ""); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Deprecated interface fields are left out unless asked for.
	got := response(t, s, `{ __type(name: "Entry") { a: fields { name } b: fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`, "", "")
	want = `{"data":{"__type":{"a":[{"name":"id"},{"name":"createdAt"}],"b":[{"name":"id","isDeprecated":false,"deprecationReason":null},{"name":"createdAt","isDeprecated":false,"deprecationReason":null},{"name":"title","isDeprecated":true,"deprecationReason":"Use name."}]}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// graphql-js builds a client schema from the catalog's introspection
// answer (getIntrospectionQuery, every option) and prints it as Schema.SDL
// does. Needs node; skipped without it (failed under CI).
func TestAbstractClientSDL(t *testing.T) {
	js := graphqljs.Ready(t, filepath.Join("conformance", "node"))
	ctx := context.Background()
	s := newSchema(t, newCatalog().cfg)
	res := s.Do(ctx, graphql.Request{Query: js.IntrospectionQuery(ctx, t), Present: graphql.Unmasked})
	if len(res.Errors) > 0 {
		t.Fatalf("introspection: %v", res.Errors)
	}
	answer, err := json.Marshal(map[string]json.RawMessage{"data": res.Data})
	if err != nil {
		t.Fatal(err)
	}
	if got := js.ClientSDL(ctx, t, answer); got != catalogSDL {
		t.Errorf("graphql-js prints the client schema as:\n%s\nwant:\n%s", got, catalogSDL)
	}
}
