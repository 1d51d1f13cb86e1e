package graphql_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// Lists of lists whose objects are found (abstract types) or batched
// before the list is completed: an inner [X!] list whose completion stops
// early (a null item, a value whose object cannot be found, a non-null
// error bubbling up to an item) leaves its later items unvisited, and the
// items of the next inner list must still get their own object and batch
// results (package exec, listskip.go).

type gridSeller struct{ ID, Name string }

type gridProduct struct{ ID, Title string }

// gridWrapper has no resolver of its own: Wrapper.seller is read ahead
// with its level (the Seller plan has a batched field).
type gridWrapper struct{ Seller *gridSeller }

type gridShop struct {
	ID   string
	Grid [][]*gridWrapper
}

// gridUnknown is a value of no object of union Hit.
type gridUnknown struct{}

// gridSchema: Seller { id name rating must } with rating batched (the
// length of the name) and must: String! null for a seller without name;
// Product { id title }; union Hit = Seller | Product; Wrapper { seller };
// Shop { id grid: [[Wrapper!]] }. Query.sellers: [[Seller!]] and
// Query.grid: [[Hit!]] return rows, Query.shops: [Shop] returns shops.
func gridSchema(t *testing.T, calls *[]string, sellers [][]*gridSeller, grid [][]any, shops []*gridShop) *graphql.Schema {
	t.Helper()
	seller := &graphql.Object{Name: "Seller", Fields: graphql.Fields{
		{Name: "id", Type: graphql.ID},
		{Name: "name", Type: graphql.String},
		{Name: "rating", Type: graphql.Int, Batch: graphql.Batch(func(_ context.Context, ps []*gridSeller, _ graphql.NoArgs) ([]int, error) {
			ids := make([]string, len(ps))
			out := make([]int, len(ps))
			for i, p := range ps {
				ids[i], out[i] = p.ID, len(p.Name)
			}
			*calls = append(*calls, "rating:"+strings.Join(ids, ","))
			return out, nil
		})},
		{Name: "must", Type: graphql.NewNonNull(graphql.String), Typed: graphql.Resolver(func(_ context.Context, s *gridSeller, _ graphql.NoArgs) (*string, error) {
			if s.Name == "" {
				return nil, nil
			}
			return &s.Name, nil
		})},
	}}
	product := &graphql.Object{Name: "Product", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}, {Name: "title", Type: graphql.String}}}
	hit := &graphql.Union{Name: "Hit", Types: []*graphql.Object{seller, product}}
	wrapper := &graphql.Object{Name: "Wrapper", Fields: graphql.Fields{{Name: "seller", Type: seller}}}
	shop := &graphql.Object{Name: "Shop", Fields: graphql.Fields{
		{Name: "id", Type: graphql.ID},
		{Name: "grid", Type: graphql.NewList(graphql.NewList(graphql.NewNonNull(wrapper)))},
	}}
	return newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "sellers", Type: graphql.NewList(graphql.NewList(graphql.NewNonNull(seller))),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([][]*gridSeller, error) { return sellers, nil })},
		{Name: "grid", Type: graphql.NewList(graphql.NewList(graphql.NewNonNull(hit))),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([][]any, error) { return grid, nil })},
		{Name: "shops", Type: graphql.NewList(shop),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]*gridShop, error) { return shops, nil })},
		// Teaches NewSchema the Go type of Product.
		{Name: "product", Type: product, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*gridProduct, error) { return nil, nil })},
	}}})
}

var (
	gridS1 = &gridSeller{ID: "s1", Name: "A"}
	gridS2 = &gridSeller{ID: "s2", Name: "BB"}
	gridS3 = &gridSeller{ID: "s3", Name: "CCC"}
	gridS4 = &gridSeller{ID: "s4", Name: "DDDD"}
	gridP1 = &gridProduct{ID: "p1", Title: "Lamp"}
	gridX  = &gridSeller{ID: "x"} // no name: must is null
)

func gridCheck(t *testing.T, s *graphql.Schema, calls *[]string, query, want string, wantCalls []string) {
	t.Helper()
	*calls = nil
	if got := response(t, s, query, "", ""); got != want {
		t.Errorf("%s\n got %s\nwant %s", query, got, want)
	}
	if !reflect.DeepEqual(*calls, wantCalls) {
		t.Errorf("%s\ncalls %q, want %q", query, *calls, wantCalls)
	}
}

// TestInnerListStoppedKeepsBatchResults: [[Seller!]] with a null in the
// first inner list: s3 gets its own rating (3), not that of s2, which
// completion never visited (before the fix: 2, also before interfaces).
func TestInnerListStoppedKeepsBatchResults(t *testing.T) {
	var calls []string
	s := gridSchema(t, &calls, [][]*gridSeller{{gridS1, nil, gridS2}, {gridS3}}, nil, nil)
	gridCheck(t, s, &calls, `{ sellers { id rating } }`,
		`{"data":{"sellers":[null,[{"id":"s3","rating":3}]]},"errors":[{"message":"Cannot return null for non-nullable field Query.sellers.","locations":[{"line":1,"column":3}],"path":["sellers",0,1]}]}`,
		[]string{"rating:s1,s2,s3"})
}

// TestInnerListStoppedKeepsObjectTypes: the same with a union, [[Hit!]]:
// p1 is written as a Product and s3 as a Seller with its own rating
// (before the fix: p1 as a Seller with s2's rating, s3 as a Product).
func TestInnerListStoppedKeepsObjectTypes(t *testing.T) {
	var calls []string
	s := gridSchema(t, &calls, nil, [][]any{{gridS1, nil, gridS2}, {gridP1, gridS3}}, nil)
	gridCheck(t, s, &calls, `{ grid { __typename ... on Seller { id rating } ... on Product { id title } } }`,
		`{"data":{"grid":[null,[{"__typename":"Product","id":"p1","title":"Lamp"},{"__typename":"Seller","id":"s3","rating":3}]]},"errors":[{"message":"Cannot return null for non-nullable field Query.grid.","locations":[{"line":1,"column":3}],"path":["grid",0,1]}]}`,
		[]string{"rating:s1,s2,s3"})
}

// TestInnerListStoppedByItemFailure: the inner list stops at an item
// whose object cannot be found, or at an item nulled by a non-null field
// of its own; the items after it (s2, and s4 in a nested inner list) are
// passed over and the next inner list keeps its own objects and ratings.
func TestInnerListStoppedByItemFailure(t *testing.T) {
	var calls []string
	s := gridSchema(t, &calls, nil, [][]any{{gridS1, &gridUnknown{}, gridS2, gridS4}, {gridP1, gridS3}}, nil)
	gridCheck(t, s, &calls, `{ grid { __typename ... on Seller { id rating } ... on Product { id title } } }`,
		`{"data":{"grid":[null,[{"__typename":"Product","id":"p1","title":"Lamp"},{"__typename":"Seller","id":"s3","rating":3}]]},"errors":[{"message":"graphql: abstract type \"Hit\" must resolve to an object type at runtime for field \"Query.grid\": the value of Go type *graphql_test.gridUnknown has no ResolveType, learned Go type, __typename or IsTypeOf that names one of its possible types","locations":[{"line":1,"column":3}],"path":["grid",0,1]}]}`,
		[]string{"rating:s1,s2,s4,s3"})

	s = gridSchema(t, &calls, [][]*gridSeller{{gridS1, gridX, gridS2}, {gridS3}}, [][]any{{gridX, gridS2, gridP1}, {gridP1, gridS3}}, nil)
	gridCheck(t, s, &calls, `{ sellers { id rating must } }`,
		`{"data":{"sellers":[null,[{"id":"s3","rating":3,"must":"CCC"}]]},"errors":[{"message":"Cannot return null for non-nullable field Seller.must.","locations":[{"line":1,"column":23}],"path":["sellers",0,1,"must"]}]}`,
		[]string{"rating:s1,x,s2,s3"})
	gridCheck(t, s, &calls, `{ grid { __typename ... on Seller { id rating must } ... on Product { id title } } }`,
		`{"data":{"grid":[null,[{"__typename":"Product","id":"p1","title":"Lamp"},{"__typename":"Seller","id":"s3","rating":3,"must":"CCC"}]]},"errors":[{"message":"Cannot return null for non-nullable field Seller.must.","locations":[{"line":1,"column":47}],"path":["grid",0,0,"must"]}]}`,
		[]string{"rating:x,s2,s3"})
}

// TestInnerListStoppedInsideLevel: the rows are the value of a field read
// ahead with the shop's level (Shop.grid, whose Wrapper objects have no
// batched field of their own but reach Seller.rating): the wrappers of
// the rows are one level, and those of the first row passed over must
// not give theirs to the second row.
func TestInnerListStoppedInsideLevel(t *testing.T) {
	var calls []string
	w := func(s *gridSeller) *gridWrapper { return &gridWrapper{Seller: s} }
	shops := []*gridShop{{ID: "a", Grid: [][]*gridWrapper{{w(gridS1), nil, w(gridS2)}, {w(gridS3), w(gridS4)}}}}
	s := gridSchema(t, &calls, nil, nil, shops)
	gridCheck(t, s, &calls, `{ shops { id grid { seller { id rating } } } }`,
		`{"data":{"shops":[{"id":"a","grid":[null,[{"seller":{"id":"s3","rating":3}},{"seller":{"id":"s4","rating":4}}]]}]},"errors":[{"message":"Cannot return null for non-nullable field Shop.grid.","locations":[{"line":1,"column":14}],"path":["shops",0,"grid",0,1]}]}`,
		[]string{"rating:s1,s2,s3,s4"})
}
