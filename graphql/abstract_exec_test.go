package graphql_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

// The Go values of the catalog schema below.
type axBook struct {
	ID, Name, ISBN string
}

type axAuthor struct {
	ID, Name string
	Favorite any
	Books    []*axBook
}

type axReview struct {
	Stars int
	About any
}

// axOptions change the catalog schema for one test.
type axOptions struct {
	nodeResolve   graphql.ResolveTypeFunc // Node.ResolveType
	searchResolve graphql.ResolveTypeFunc // SearchResult.ResolveType
	bookIsTypeOf  func(any) bool
	reviewIsType  func(any) bool
	noTyped       bool // no typed resolvers: no Go type is learned
	bookFields    graphql.Fields
}

// axCatalog returns a schema with two interfaces, Node { id } and
// Named { name }, implemented by Book (both) and Author (both), a union
// SearchResult = Book | Author | Review, and Query fields that read the
// root value: node: Node, nodes: [Node], named: Named,
// search: [SearchResult!]!, first: SearchResult!, maybe: SearchResult.
// Typed resolvers book, author and review teach NewSchema the Go types
// *axBook, *axAuthor and *axReview.
func axCatalog(t *testing.T, o axOptions) *graphql.Schema {
	t.Helper()
	idNN := graphql.NewNonNull(graphql.ID)
	node := &graphql.Interface{Name: "Node", Fields: graphql.Fields{{Name: "id", Type: idNN}}, ResolveType: o.nodeResolve}
	named := &graphql.Interface{Name: "Named", Fields: graphql.Fields{{Name: "name", Type: graphql.String}}}
	book := &graphql.Object{Name: "Book", Interfaces: []*graphql.Interface{node, named}, IsTypeOf: o.bookIsTypeOf,
		Fields: append(graphql.Fields{{Name: "id", Type: idNN}, {Name: "name", Type: graphql.String}, {Name: "isbn", Type: graphql.String}}, o.bookFields...)}
	var search *graphql.Union
	author := &graphql.Object{Name: "Author", Interfaces: []*graphql.Interface{node, named}, Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{{Name: "id", Type: idNN}, {Name: "name", Type: graphql.String},
			{Name: "favorite", Type: search}, {Name: "books", Type: graphql.NewList(book)}}
	})}
	review := &graphql.Object{Name: "Review", IsTypeOf: o.reviewIsType, Fields: graphql.Fields{
		{Name: "stars", Type: graphql.Int}, {Name: "about", Type: node}}}
	search = &graphql.Union{Name: "SearchResult", Types: []*graphql.Object{book, author, review}, ResolveType: o.searchResolve}
	q := graphql.Fields{
		{Name: "node", Type: node}, {Name: "nodes", Type: graphql.NewList(node)}, {Name: "named", Type: named},
		{Name: "search", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(search)))},
		{Name: "first", Type: graphql.NewNonNull(search)}, {Name: "maybe", Type: search},
	}
	if !o.noTyped {
		q = append(q,
			graphql.Field{Name: "book", Type: book, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*axBook, error) { return nil, nil })},
			graphql.Field{Name: "author", Type: author, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*axAuthor, error) { return nil, nil })},
			graphql.Field{Name: "review", Type: review, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*axReview, error) { return nil, nil })},
		)
	}
	return newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: q}})
}

// axDo runs query against s with root as the root value, errors
// presented as clients see them (masked), and returns the response JSON.
func axDo(t *testing.T, s *graphql.Schema, query string, root map[string]any, variables string) string {
	t.Helper()
	res := s.Do(context.Background(), graphql.Request{Query: query, Root: root, Variables: decodeVariables(t, variables)})
	out, err := res.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(out) {
		t.Fatalf("invalid JSON: %s", out)
	}
	return string(out)
}

var (
	axDune    = &axBook{ID: "b1", Name: "Dune", ISBN: "978-0441"}
	axEmma    = &axBook{ID: "b2", Name: "Emma", ISBN: "978-0141"}
	axHerbert = &axAuthor{ID: "a1", Name: "Frank Herbert", Books: []*axBook{axDune}}
	axStars5  = &axReview{Stars: 5, About: axDune}
)

func axCheck(t *testing.T, s *graphql.Schema, query string, root map[string]any, want string) {
	t.Helper()
	if got := axDo(t, s, query, root, ""); got != want {
		t.Errorf("query %s\n got %s\nwant %s", query, got, want)
	}
}

func TestAbstractInterfaceField(t *testing.T) {
	s := axCatalog(t, axOptions{})
	root := map[string]any{"nodes": []any{axDune, axHerbert, nil, axEmma}, "node": axHerbert}
	axCheck(t, s, `{ nodes { id __typename ... on Book { isbn } ... on Author { name } } }`, root,
		`{"data":{"nodes":[{"id":"b1","__typename":"Book","isbn":"978-0441"},{"id":"a1","__typename":"Author","name":"Frank Herbert"},null,{"id":"b2","__typename":"Book","isbn":"978-0141"}]}}`)
	// A fragment on the other interface, a named fragment on the
	// interface itself, and fields of the interface merged with the
	// object's, in graphql-js's collection order.
	axCheck(t, s, `{ node { ... on Named { name } ...N __typename } } fragment N on Node { id ... on Author { books { name } } }`, root,
		`{"data":{"node":{"name":"Frank Herbert","id":"a1","books":[{"name":"Dune"}],"__typename":"Author"}}}`)
	axCheck(t, s, `{ named { name ... on Book { id } } }`, map[string]any{"named": axEmma},
		`{"data":{"named":{"name":"Emma","id":"b2"}}}`)
}

func TestAbstractUnionFragments(t *testing.T) {
	s := axCatalog(t, axOptions{})
	root := map[string]any{"search": []any{axDune, axHerbert, axStars5}}
	axCheck(t, s, `{ search { __typename ...B ... on Named { name } ... on Review { stars } } } fragment B on Book { isbn }`, root,
		`{"data":{"search":[{"__typename":"Book","isbn":"978-0441","name":"Dune"},{"__typename":"Author","name":"Frank Herbert"},{"__typename":"Review","stars":5}]}}`)
	// A key selected under two fragments is written once, where it was
	// first collected, with the sub-selections of both merged.
	axCheck(t, s, `{ search { ... on Named { name } __typename ... on Book { name isbn } ... on Review { about { id } } ... on Review { about { ... on Book { isbn } } } } }`, root,
		`{"data":{"search":[{"name":"Dune","__typename":"Book","isbn":"978-0441"},{"name":"Frank Herbert","__typename":"Author"},{"__typename":"Review","about":{"id":"b1","isbn":"978-0441"}}]}}`)
	// A member selected by nothing is an empty object.
	axCheck(t, s, `{ search { ... on Review { stars } } }`, root,
		`{"data":{"search":[{},{},{"stars":5}]}}`)
}

func TestAbstractNested(t *testing.T) {
	s := axCatalog(t, axOptions{})
	herbert := &axAuthor{ID: "a1", Name: "Frank Herbert", Favorite: &axReview{Stars: 4, About: &axAuthor{ID: "a2", Name: "Jane", Favorite: axEmma}}}
	axCheck(t, s, `{ first { ... on Author { name favorite { __typename ... on Review { stars about { __typename id ... on Author { favorite { ... on Book { name } } } } } } } } }`,
		map[string]any{"first": herbert},
		`{"data":{"first":{"name":"Frank Herbert","favorite":{"__typename":"Review","stars":4,"about":{"__typename":"Author","id":"a2","favorite":{"name":"Emma"}}}}}}`)
}

// TestAbstractResolutionRules: each rule of ResolveTypeFunc's order, and
// that the first that applies decides.
func TestAbstractResolutionRules(t *testing.T) {
	q := `{ maybe { __typename } }`
	t.Run("ResolveType", func(t *testing.T) {
		var seen []any
		s := axCatalog(t, axOptions{searchResolve: func(_ context.Context, v any) (string, error) {
			seen = append(seen, v)
			return "Review", nil // decides, whatever the Go type says
		}})
		axCheck(t, s, q, map[string]any{"maybe": axDune}, `{"data":{"maybe":{"__typename":"Review"}}}`)
		if len(seen) != 1 || seen[0] != any(axDune) {
			t.Errorf("ResolveType was given %v, want the one value", seen)
		}
	})
	t.Run("Go type", func(t *testing.T) {
		s := axCatalog(t, axOptions{bookIsTypeOf: func(any) bool { return true }})
		// The learned *axAuthor decides before Book's IsTypeOf, and a
		// struct value through its pointer counterpart.
		axCheck(t, s, q, map[string]any{"maybe": axHerbert}, `{"data":{"maybe":{"__typename":"Author"}}}`)
		axCheck(t, s, q, map[string]any{"maybe": axReview{Stars: 1}}, `{"data":{"maybe":{"__typename":"Review"}}}`)
	})
	t.Run("__typename", func(t *testing.T) {
		s := axCatalog(t, axOptions{noTyped: true, bookIsTypeOf: func(any) bool { return true }})
		axCheck(t, s, `{ maybe { __typename ... on Author { name } } }`, map[string]any{"maybe": map[string]any{"__typename": "Author", "name": "Ann"}},
			`{"data":{"maybe":{"__typename":"Author","name":"Ann"}}}`)
		// A map of another type with a string key works too; an entry that
		// is not a string leaves the decision to IsTypeOf.
		axCheck(t, s, q, map[string]any{"maybe": map[string]string{"__typename": "Review"}}, `{"data":{"maybe":{"__typename":"Review"}}}`)
		axCheck(t, s, q, map[string]any{"maybe": map[string]any{"__typename": 7}}, `{"data":{"maybe":{"__typename":"Book"}}}`)
	})
	t.Run("IsTypeOf in order", func(t *testing.T) {
		var asked []string
		s := axCatalog(t, axOptions{noTyped: true,
			bookIsTypeOf: func(v any) bool { asked = append(asked, "Book"); _, ok := v.(*axBook); return ok },
			reviewIsType: func(v any) bool { asked = append(asked, "Review"); _, ok := v.(*axReview); return ok }})
		axCheck(t, s, `{ maybe { ... on Review { stars } } }`, map[string]any{"maybe": axStars5}, `{"data":{"maybe":{"stars":5}}}`)
		if len(asked) != 2 || asked[0] != "Book" || asked[1] != "Review" {
			t.Errorf("IsTypeOf asked %v, want [Book Review]", asked)
		}
	})
}

// masked is the client's view of an internal error at path.
func axMasked(path string) string {
	return `{"message":"` + errcode.MessageInternal + `","locations":[{"line":1,"column":3}],"path":` + path + `,"extensions":{"code":"INTERNAL_SERVER_ERROR"}}`
}

// TestAbstractResolutionFailures: a value whose object cannot be found is
// a masked field error at the field's path, whose null propagates.
func TestAbstractResolutionFailures(t *testing.T) {
	type other struct{ X int }
	for name, tc := range map[string]struct {
		o    axOptions
		root any
	}{
		"no rule matches":         {axOptions{noTyped: true}, &other{1}},
		"unknown Go type":         {axOptions{}, other{1}},
		"name not possible":       {axOptions{searchResolve: func(context.Context, any) (string, error) { return "Query", nil }}, axDune},
		"name of no type":         {axOptions{searchResolve: func(context.Context, any) (string, error) { return "Nope", nil }}, axDune},
		"__typename not possible": {axOptions{noTyped: true}, map[string]any{"__typename": "Node"}},
		"ResolveType error": {axOptions{searchResolve: func(context.Context, any) (string, error) {
			return "", errcode.NotFound("a coded error is masked all the same")
		}}, axDune},
		"ResolveType panic": {axOptions{searchResolve: func(context.Context, any) (string, error) { panic("boom") }}, axDune},
		"IsTypeOf panic":    {axOptions{noTyped: true, bookIsTypeOf: func(any) bool { panic(errors.New("boom")) }}, &other{2}},
	} {
		t.Run(name, func(t *testing.T) {
			s := axCatalog(t, tc.o)
			// A nullable field is null.
			axCheck(t, s, `{ maybe { __typename } }`, map[string]any{"maybe": tc.root},
				`{"data":{"maybe":null},"errors":[`+axMasked(`["maybe"]`)+`]}`)
			// A non-null one nulls its parent, here the data.
			axCheck(t, s, `{ first { __typename } }`, map[string]any{"first": tc.root},
				`{"data":null,"errors":[`+axMasked(`["first"]`)+`]}`)
			// An item of [SearchResult!]! nulls the list, and so the data.
			axCheck(t, s, `{ search { __typename } }`, map[string]any{"search": []any{tc.root}},
				`{"data":null,"errors":[`+axMasked(`["search",0]`)+`]}`)
		})
	}
}

// TestAbstractAmbiguousGoType: a Go type learned for two possible objects
// decides nothing but an error.
func TestAbstractAmbiguousGoType(t *testing.T) {
	type thing struct{ ID, Name string }
	node := &graphql.Interface{Name: "Node", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	a := &graphql.Object{Name: "A", Interfaces: []*graphql.Interface{node}, Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	b := &graphql.Object{Name: "B", Interfaces: []*graphql.Interface{node}, Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "a", Type: a, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*thing, error) { return &thing{ID: "1"}, nil })},
		{Name: "b", Type: b, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*thing, error) { return &thing{ID: "2"}, nil })},
		{Name: "node", Type: node, Resolve: constant(&thing{ID: "3"})},
	}}})
	axCheck(t, s, `{ node { id } }`, nil, `{"data":{"node":null},"errors":[`+axMasked(`["node"]`)+`]}`)
	axCheck(t, s, `{ a { id } b { id } }`, nil, `{"data":{"a":{"id":"1"},"b":{"id":"2"}}}`)
}

// TestAbstractConditional: @skip and @include with variables on abstract
// fields and on fragments inside them, over several executions of one
// prepared operation (whose per-object plans are then cached).
func TestAbstractConditional(t *testing.T) {
	s := axCatalog(t, axOptions{})
	op := prepare(t, s, `query($v: Boolean!, $w: Boolean!) {
		search @include(if: $v) { __typename ... on Book @include(if: $w) { isbn } ... on Named @skip(if: $w) { name } }
		maybe { ... on Book { id } ... on Book @include(if: $v) { name } }
	}`)
	root := map[string]any{"search": []any{axDune, axHerbert}, "maybe": axEmma}
	for range 3 {
		for _, tc := range []struct{ vars, want string }{
			{`{"v":true,"w":true}`, `{"search":[{"__typename":"Book","isbn":"978-0441"},{"__typename":"Author"}],"maybe":{"id":"b2","name":"Emma"}}`},
			{`{"v":true,"w":false}`, `{"search":[{"__typename":"Book","name":"Dune"},{"__typename":"Author","name":"Frank Herbert"}],"maybe":{"id":"b2","name":"Emma"}}`},
			{`{"v":false,"w":true}`, `{"maybe":{"id":"b2"}}`},
		} {
			res := execute(op, context.Background(), graphql.ExecParams{Root: root, Variables: decodeVariables(t, tc.vars)})
			if string(res.Data) != tc.want || len(res.Errors) > 0 {
				t.Errorf("%s: got %s %v\nwant %s", tc.vars, res.Data, res.Errors, tc.want)
			}
		}
	}
}

// TestAbstractFragmentCycles: a fragment cycle through interface and union
// fragments is refused by validation and, on a document never validated,
// by Prepare.
func TestAbstractFragmentCycles(t *testing.T) {
	s := axCatalog(t, axOptions{})
	q := `{ node { ...A } } fragment A on Node { ... on Book { ...B } } fragment B on SearchResult { ... on Named { ...A } }`
	got := axDo(t, s, q, nil, "")
	want := `{"errors":[{"message":"Cannot spread fragment \"A\" within itself via \"B\".","locations":[{"line":1,"column":110}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	doc, err := graphql.ParseQuery(q, 0)
	if err != nil {
		t.Fatal(err)
	}
	op, errs := s.Prepare(doc, "")
	if op != nil || len(errs) != 1 || !errors.Is(errs[0], graphql.ErrInvalidDocument) {
		t.Fatalf("Prepare: %v %v", op, errs)
	}
	if errs[0].Message != `Cannot spread fragment "A" within itself.` {
		t.Errorf("Prepare's error: %s", errs[0].Message)
	}
}

// TestAbstractResolveInfo: a resolver of an object's field reached through
// an interface sees its concrete parent type and its own path, also where
// the plan is shared by the same field reached through another object.
func TestAbstractResolveInfo(t *testing.T) {
	var seen []string
	var node *graphql.Interface
	node = &graphql.Interface{Name: "Node", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{{Name: "id", Type: graphql.ID}, {Name: "next", Type: node}}
	})}
	obj := func(name string) *graphql.Object {
		return &graphql.Object{Name: name, Interfaces: []*graphql.Interface{node},
			IsTypeOf: func(v any) bool { return v.(map[string]any)["kind"] == name },
			Fields: graphql.FieldsFunc(func() graphql.Fields {
				return graphql.Fields{{Name: "id", Type: graphql.ID, Resolve: func(_ context.Context, p any, _ graphql.Args, info graphql.ResolveInfo) (any, error) {
					seen = append(seen, fmt.Sprintf("%s %v %s", info.ParentType().Name, info.Path(), info.ReturnType()))
					return p.(map[string]any)["id"], nil
				}}, {Name: "next", Type: node}}
			})}
	}
	a, b := obj("A"), obj("B")
	chain := func(kinds ...string) map[string]any {
		var v map[string]any
		for i := len(kinds) - 1; i >= 0; i-- {
			v = map[string]any{"kind": kinds[i], "id": fmt.Sprint(i), "next": v}
		}
		return v
	}
	s := newSchema(t, graphql.SchemaConfig{Types: []graphql.NamedType{a, b}, Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "roots", Type: graphql.NewList(node), Resolve: constant([]any{chain("A", "B", "A"), chain("B", "B")})},
	}}})
	got := response(t, s, `{ roots { id next { id next { id } } } }`, "", "")
	want := `{"data":{"roots":[{"id":"0","next":{"id":"1","next":{"id":"2"}}},{"id":"0","next":{"id":"1","next":null}}]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantSeen := []string{"A roots[0].id ID", "B roots[0].next.id ID", "A roots[0].next.next.id ID", "B roots[1].id ID", "B roots[1].next.id ID"}
	if fmt.Sprint(seen) != fmt.Sprint(wantSeen) {
		t.Errorf("resolvers saw %q\nwant %q", seen, wantSeen)
	}
}

// TestAbstractSelectedFields: a resolver of a field of an abstract type
// sees the sub-fields selected for any of its possible objects.
func TestAbstractSelectedFields(t *testing.T) {
	var got []string
	node := &graphql.Interface{Name: "Node", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	author := &graphql.Object{Name: "Author", Interfaces: []*graphql.Interface{node}, Fields: graphql.Fields{{Name: "id", Type: graphql.ID}, {Name: "name", Type: graphql.String}}}
	book := &graphql.Object{Name: "Book", Interfaces: []*graphql.Interface{node}, Fields: graphql.Fields{{Name: "id", Type: graphql.ID}, {Name: "author", Type: author}}}
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "node", Type: node, Resolve: func(_ context.Context, _ any, _ graphql.Args, info graphql.ResolveInfo) (any, error) {
			got = append(got, fmt.Sprint(info.SelectedFields(), info.IsSelected("author.name"), info.IsSelected("name"), info.IsSelected("author.id"), info.IsSelected("title")))
			return nil, nil
		}},
	}}, Types: []graphql.NamedType{book}})
	response(t, s, `query($v: Boolean!) { node { ... on Book { author { name } } id ... on Author { name @include(if: $v) } } }`, "", `{"v": true}`)
	response(t, s, `query($v: Boolean!) { node { ... on Book { author { name } } id ... on Author { name @include(if: $v) } } }`, "", `{"v": false}`)
	want := []string{"[author id name] true true false false", "[author id] true false false false"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestAbstractConcurrent: one prepared operation whose abstract fields
// are planned for each object during executions (conditional ones)
// answers right from many goroutines at once.
func TestAbstractConcurrent(t *testing.T) {
	s := axCatalog(t, axOptions{})
	op := prepare(t, s, `query($v: Boolean!) {
		search { ... on Book @include(if: $v) { isbn } ... on Named { name } }
		maybe @skip(if: $v) { __typename ... on Author { favorite { ... on Review { stars } } } }
	}`)
	root := map[string]any{"search": []any{axDune, axHerbert}, "maybe": &axAuthor{ID: "a9", Favorite: axStars5}}
	wants := map[bool]string{
		true:  `{"search":[{"isbn":"978-0441","name":"Dune"},{"name":"Frank Herbert"}]}`,
		false: `{"search":[{"name":"Dune"},{"name":"Frank Herbert"}],"maybe":{"__typename":"Author","favorite":{"stars":5}}}`,
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				v := (g+i)%2 == 0
				res, err := op.Execute(context.Background(), graphql.ExecParams{Root: root, Variables: map[string]any{"v": v}})
				if err != nil || len(res.Errors) > 0 || string(res.Data) != wants[v] {
					errs <- fmt.Sprintf("v=%v: %s %v %v", v, res.Data, res.Errors, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
