package graphql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// catalog is a schema with interfaces (one implementing two others) and a
// union, whose type order differs from a union's member order: Author is
// listed in SchemaConfig.Types, so it comes first.
type catalog struct {
	node, timestamped, entry *graphql.Interface
	book, author, magazine   *graphql.Object
	search                   *graphql.Union
	cfg                      graphql.SchemaConfig
}

func newCatalog() *catalog {
	c := &catalog{}
	id := graphql.NewNonNull(graphql.ID)
	c.node = &graphql.Interface{Name: "Node", Description: "An object with a global id.",
		Fields: graphql.Fields{{Name: "id", Type: id}}}
	c.timestamped = &graphql.Interface{Name: "Timestamped",
		Fields: graphql.Fields{{Name: "createdAt", Type: graphql.String, Args: []graphql.Argument{{Name: "format", Type: graphql.String, Default: "RFC3339"}}}}}
	c.entry = &graphql.Interface{Name: "Entry", Interfaces: []*graphql.Interface{c.node, c.timestamped},
		Fields: graphql.Fields{{Name: "id", Type: id}, {Name: "createdAt", Type: graphql.String, Args: []graphql.Argument{{Name: "format", Type: graphql.String, Default: "RFC3339"}}},
			{Name: "title", Type: graphql.String, DeprecationReason: "Use name."}}}
	c.book = &graphql.Object{Name: "Book", Interfaces: []*graphql.Interface{c.node, c.timestamped, c.entry},
		Fields: graphql.Fields{{Name: "id", Type: id}, {Name: "createdAt", Type: graphql.NewNonNull(graphql.String), Args: []graphql.Argument{{Name: "format", Type: graphql.String, Default: "RFC3339"}, {Name: "zone", Type: graphql.String}}},
			{Name: "title", Type: graphql.String}, {Name: "isbn", Type: graphql.String}}}
	c.author = &graphql.Object{Name: "Author", Interfaces: []*graphql.Interface{c.node},
		Fields: graphql.Fields{{Name: "id", Type: id}, {Name: "name", Type: graphql.String}}}
	c.magazine = &graphql.Object{Name: "Magazine", Fields: graphql.Fields{{Name: "title", Type: graphql.String}, {Name: "issue", Type: graphql.Int}}}
	c.search = &graphql.Union{Name: "SearchResult", Description: "What a search finds.", Types: []*graphql.Object{c.magazine, c.book, c.author}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "node", Type: c.node, Args: []graphql.Argument{{Name: "id", Type: id}}, Resolve: constant(nil)},
		{Name: "search", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(c.search))), Args: []graphql.Argument{{Name: "q", Type: graphql.String}},
			Resolve: constant([]any{})},
		{Name: "entries", Type: graphql.NewList(c.entry), Resolve: constant(nil)},
	}}
	c.cfg = graphql.SchemaConfig{Query: query, Types: []graphql.NamedType{c.author}}
	return c
}

func typeNames(s *graphql.Schema) string {
	var names []string
	for _, t := range s.Types() {
		names = append(names, t.TypeName())
	}
	return strings.Join(names, " ")
}

func TestAbstractTypesCollected(t *testing.T) {
	c := newCatalog()
	s := newSchema(t, c.cfg)
	// graphql-js's order: Types first, then Query depth-first, an object's
	// or interface's interfaces before its fields, a union's members in
	// order.
	want := "Author Node ID String Query SearchResult Magazine Int Book Timestamped Entry Boolean " +
		"__Schema __Type __TypeKind __Field __InputValue __EnumValue __Directive __DirectiveLocation"
	if got := typeNames(s); got != want {
		t.Errorf("Types:\n got %s\nwant %s", got, want)
	}
	for name, want := range map[string]graphql.NamedType{"Node": c.node, "Entry": c.entry, "SearchResult": c.search, "Book": c.book} {
		if got := s.Type(name); got != want {
			t.Errorf("Type(%q) = %v, want the declared type", name, got)
		}
	}
	for name, want := range map[string]string{
		"Node":         "Author Book",
		"Timestamped":  "Book",
		"Entry":        "Book",
		"SearchResult": "Magazine Book Author",
	} {
		if got := strings.Join(s.PossibleNames(name), " "); got != want {
			t.Errorf("possible types of %s = %q, want %q", name, got, want)
		}
	}
	if s.PossibleNames("Book") != nil {
		t.Errorf("Book has possible types as an abstract type")
	}
}

func TestAbstractTypesInAST(t *testing.T) {
	s := newSchema(t, newCatalog().cfg)
	a := s.AST()
	names := func(t *testing.T, what string, got []string, want string) {
		t.Helper()
		if strings.Join(got, " ") != want {
			t.Errorf("%s = %q, want %q", what, strings.Join(got, " "), want)
		}
	}
	defNames := func(name string) []string {
		var out []string
		for _, d := range a.PossibleTypes[name] {
			out = append(out, d.Name)
		}
		return out
	}
	if k := a.Types["Node"].Kind; k != "INTERFACE" {
		t.Errorf("Node is %s", k)
	}
	if k := a.Types["SearchResult"].Kind; k != "UNION" {
		t.Errorf("SearchResult is %s", k)
	}
	names(t, "Entry implements", a.Types["Entry"].Interfaces, "Node Timestamped")
	names(t, "Book implements", a.Types["Book"].Interfaces, "Node Timestamped Entry")
	names(t, "SearchResult members", a.Types["SearchResult"].Types, "Magazine Book Author")
	// Only objects, as graphql-js's getPossibleTypes: not Entry, which
	// implements Node.
	names(t, "possible types of Node", defNames("Node"), "Author Book")
	names(t, "possible types of SearchResult", defNames("SearchResult"), "Magazine Book Author")
	if f := a.Types["Entry"].Fields.ForName("createdAt"); f == nil || f.Arguments.ForName("format") == nil {
		t.Errorf("Entry.createdAt(format:) missing from the AST")
	}
}

// The documents that graphql-js accepts and refuses on abstract types
// are now validated against them.
func TestAbstractTypesValidate(t *testing.T) {
	s := newSchema(t, newCatalog().cfg)
	for _, q := range []string{
		`{ node(id: "1") { id __typename ... on Book { isbn } ... on Author { name } } }`,
		`{ search { __typename ... on Entry { title } ... on Magazine { issue } } }`,
		`{ entries { id createdAt(format: "x") ... on Node { id } } }`,
	} {
		doc, err := graphql.ParseQuery(q, 0)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if errs := validateDoc(s, doc, graphql.ValidateOptions{}); len(errs) > 0 {
			t.Errorf("%s: %v", q, errs)
		}
	}
	for q, want := range map[string]string{
		`{ search { title } }`:                   `Cannot query field "title" on type "SearchResult". Did you mean to use an inline fragment on "Entry", "Book", or "Magazine"?`,
		`{ entries { ... on Author { name } } }`: `Fragment cannot be spread here as objects of type "Entry" can never be of type "Author".`,
		`{ node(id: "1") { isbn } }`:             `Cannot query field "isbn" on type "Node". Did you mean to use an inline fragment on "Book"?`,
	} {
		doc, err := graphql.ParseQuery(q, 0)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		errs := validateDoc(s, doc, graphql.ValidateOptions{})
		if len(errs) != 1 || errs[0].Message != want {
			t.Errorf("%s: %v, want %q", q, errs, want)
		}
	}
}

func TestAbstractResolutionCompiled(t *testing.T) {
	c := newCatalog()
	c.book.IsTypeOf = func(v any) bool { return false }
	c.search.ResolveType = func(context.Context, any) (string, error) { return "Book", nil }
	s := newSchema(t, c.cfg)
	if !s.HasIsTypeOf("Book") || s.HasIsTypeOf("Author") {
		t.Errorf("IsTypeOf compiled as Book %v, Author %v", s.HasIsTypeOf("Book"), s.HasIsTypeOf("Author"))
	}
	if !s.HasResolveType("SearchResult") || s.HasResolveType("Node") {
		t.Errorf("ResolveType compiled as SearchResult %v, Node %v", s.HasResolveType("SearchResult"), s.HasResolveType("Node"))
	}
}

// Interfaces are declared lazily like objects: FieldsFunc thunks may refer
// to types declared after them, and each is called once.
func TestInterfaceFieldsFuncCalledOnce(t *testing.T) {
	calls := 0
	var post *graphql.Object
	named := &graphql.Interface{Name: "Named"}
	named.Fields = graphql.FieldsFunc(func() graphql.Fields {
		calls++
		return graphql.Fields{{Name: "name", Type: graphql.String}, {Name: "latest", Type: post}, {Name: "next", Type: named}}
	})
	post = &graphql.Object{Name: "Post", Interfaces: []*graphql.Interface{named}, Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{{Name: "name", Type: graphql.String}, {Name: "latest", Type: post}, {Name: "next", Type: post}}
	})}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "named", Type: named}), Types: []graphql.NamedType{post}})
	if calls != 1 {
		t.Errorf("the interface's FieldsFunc was called %d times, want 1", calls)
	}
	if got := typeNames(s); !strings.HasPrefix(got, "Post Named String Query Boolean") {
		t.Errorf("Types = %s", got)
	}
	if got := strings.Join(s.PossibleNames("Named"), " "); got != "Post" {
		t.Errorf("possible types of Named = %q", got)
	}
}
