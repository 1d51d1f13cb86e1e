package graphql_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// The schemas with interfaces and unions that FuzzExecute and
// FuzzExecuteCyclic run every input against, beside their own.

// abstractFuzzSeeds are valid documents for abstractFuzzSchema.
var abstractFuzzSeeds = []struct{ query, vars string }{
	{`{ search { __typename ... on Product { id seller { name rating } related { ... on Seller { id } } } ... on Seller { rating } } }`, ``},
	{`{ entities { id ... on Seller { rating } ...P } } fragment P on Product { title }`, ``},
	{`query($v: Boolean!) { top { ... on Entity @include(if: $v) { id } __typename } broken { __typename } }`, `{"v": true}`},
	{`{ strict { __typename } }`, ``},
	{`{ search { ... on Entity { id } ... on Product { seller { ... on Entity { id } } } } }`, ``},
}

// abstractFuzzSchema is the shop of abstract_batch_test.go with two more
// fields: broken, whose value no rule matches, and strict, a non-null
// union field whose ResolveType fails.
func abstractFuzzSchema(tb testing.TB) *graphql.Schema {
	tb.Helper()
	sh := newShop()
	sh.extra = func(hit *graphql.Union) graphql.Fields {
		strict := &graphql.Union{Name: "Strict", Types: hit.Types,
			ResolveType: func(context.Context, any) (string, error) { return "", errors.New("no type") }}
		return graphql.Fields{
			{Name: "broken", Type: hit, Resolve: constant(struct{ X int }{1})},
			{Name: "strict", Type: graphql.NewNonNull(strict), Resolve: constant(&abProduct{ID: "p9"})},
		}
	}
	return sh.schema(tb)
}

// abstractCyclicSchema has an interface Entity { id, best: Entity,
// related: [Entity] } implemented by Person and Place, a union
// Thing = Person | Place, and data where a person's best is a place and a
// place's best a person, for ever. Persons are maps with a __typename,
// places structs that Place.IsTypeOf knows; a Thing.ResolveType names
// them for the union.
func abstractCyclicSchema(tb testing.TB) *graphql.Schema {
	tb.Helper()
	type place struct{ ID string }
	var person map[string]any
	home := &place{ID: "home"}
	person = map[string]any{"__typename": "Person", "id": "ada"}
	var entity *graphql.Interface
	entity = &graphql.Interface{Name: "Entity", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}, {Name: "best", Type: entity}, {Name: "related", Type: graphql.NewList(entity)}}
	})}
	other := func(_ context.Context, p any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
		if _, ok := p.(*place); ok {
			return person, nil
		}
		return home, nil
	}
	both := func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
		return []any{person, home, nil}, nil
	}
	personT := &graphql.Object{Name: "Person", Interfaces: []*graphql.Interface{entity}, Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}, {Name: "best", Type: entity, Resolve: other},
			{Name: "related", Type: graphql.NewList(entity), Resolve: both}, {Name: "name", Type: graphql.String}}
	})}
	placeT := &graphql.Object{Name: "Place", Interfaces: []*graphql.Interface{entity},
		IsTypeOf: func(v any) bool { _, ok := v.(*place); return ok },
		Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}, {Name: "best", Type: entity, Resolve: other},
				{Name: "related", Type: graphql.NewList(entity), Resolve: both}}
		})}
	thing := &graphql.Union{Name: "Thing", Types: []*graphql.Object{personT, placeT},
		ResolveType: func(_ context.Context, v any) (string, error) {
			switch v.(type) {
			case *place:
				return "Place", nil
			case map[string]any:
				return "Person", nil
			}
			return "", errors.New("not a thing")
		}}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "entity", Type: entity, Resolve: constant(person)},
		{Name: "thing", Type: graphql.NewNonNull(thing), Resolve: constant(home)},
		{Name: "things", Type: graphql.NewList(thing), Resolve: constant([]any{home, person, 42})},
	}}})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// abstractCyclicSeeds are valid documents for abstractCyclicSchema, with
// fragments that nest through the interface and the union.
var abstractCyclicSeeds = []struct{ query, vars string }{
	{`{entity{...A}}fragment A on Entity{id best{...B}}fragment B on Entity{... on Place{best{...C}}}fragment C on Entity{id}`, ``},
	{`{thing{...T}}fragment T on Thing{... on Place{best{... on Person{related{id ... on Place{best{id}}}}}}}`, ``},
	{`{things{__typename ... on Entity{id related{__typename}}}}`, ``},
	{`query($v: Boolean!){entity{best @include(if:$v){best{best{related{best{id}}}}}}}`, `{"v": true}`},
	{`{entity{...A ...B}}fragment A on Entity{best{...A2}}fragment A2 on Entity{id}fragment B on Person{best{... on Place{id}}}`, ``},
}

// TestAbstractFuzzSeeds: the seeds of the abstract schemas are valid
// documents, and answer with data.
func TestAbstractFuzzSeeds(t *testing.T) {
	for _, c := range []struct {
		s     *graphql.Schema
		seeds []struct{ query, vars string }
	}{{abstractFuzzSchema(t), abstractFuzzSeeds}, {abstractCyclicSchema(t), abstractCyclicSeeds}} {
		for _, seed := range c.seeds {
			doc := parseValidated(t, c.s, seed.query)
			if len(doc.Operations) != 1 {
				t.Fatalf("%s: %d operations", seed.query, len(doc.Operations))
			}
			res := c.s.Do(context.Background(), graphql.Request{Query: seed.query, Variables: decodeVariables(t, seed.vars)})
			if res.Data == nil {
				t.Errorf("%s: no data: %v", seed.query, res.Errors)
			}
		}
	}
}
