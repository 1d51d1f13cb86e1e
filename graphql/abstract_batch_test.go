package graphql_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// A shop whose search returns a union of products and sellers, through
// typed resolvers; products and sellers have batched fields.
type abProduct struct{ ID, Title string }

type abSeller struct{ ID, Name string }

// abSearchItem is what typed resolvers return for SearchHit: a Go
// interface, whose dynamic types NewSchema learned.
type abSearchItem interface{ hitID() string }

func (p *abProduct) hitID() string { return p.ID }
func (s *abSeller) hitID() string  { return s.ID }

type abShop struct {
	calls []string
	hits  []abSearchItem
}

func (sh *abShop) record(name string, ids []string) {
	sh.calls = append(sh.calls, name+":"+strings.Join(ids, ","))
}

func (sh *abShop) schema(t *testing.T) *graphql.Schema {
	t.Helper()
	entity := &graphql.Interface{Name: "Entity", Fields: graphql.Fields{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}}}
	var hit *graphql.Union
	seller := &graphql.Object{Name: "Seller", Interfaces: []*graphql.Interface{entity}, Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "name", Type: graphql.String},
			{Name: "rating", Type: graphql.Int, Batch: graphql.Batch(func(_ context.Context, ps []*abSeller, _ graphql.NoArgs) ([]int, error) {
				ids := make([]string, len(ps))
				out := make([]int, len(ps))
				for i, p := range ps {
					ids[i], out[i] = p.ID, len(p.Name)
				}
				sh.record("Seller.rating", ids)
				return out, nil
			})},
		}
	})}
	product := &graphql.Object{Name: "Product", Interfaces: []*graphql.Interface{entity}, Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "title", Type: graphql.String},
			{Name: "seller", Type: seller, Batch: graphql.Batch(func(_ context.Context, ps []*abProduct, _ graphql.NoArgs) ([]*abSeller, error) {
				ids := make([]string, len(ps))
				out := make([]*abSeller, len(ps))
				for i, p := range ps {
					ids[i], out[i] = p.ID, &abSeller{ID: "s-" + p.ID, Name: "seller of " + p.Title}
				}
				sh.record("Product.seller", ids)
				return out, nil
			})},
			// A batch resolver returning a value of an abstract type.
			{Name: "related", Type: hit, Batch: graphql.Batch(func(_ context.Context, ps []*abProduct, _ graphql.NoArgs) ([]abSearchItem, error) {
				ids := make([]string, len(ps))
				out := make([]abSearchItem, len(ps))
				for i, p := range ps {
					ids[i] = p.ID
					if i%2 == 0 {
						out[i] = &abSeller{ID: "r-" + p.ID, Name: "R"}
					} else {
						out[i] = &abProduct{ID: "r-" + p.ID, Title: "T"}
					}
				}
				sh.record("Product.related", ids)
				return out, nil
			})},
		}
	})}
	hit = &graphql.Union{Name: "SearchHit", Types: []*graphql.Object{product, seller}}
	return newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "search", Type: graphql.NewNonNull(graphql.NewList(hit)), Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]abSearchItem, error) {
			sh.calls = append(sh.calls, "Query.search")
			return sh.hits, nil
		})},
		{Name: "entities", Type: graphql.NewList(graphql.NewList(entity)), Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([][]abSearchItem, error) {
			sh.calls = append(sh.calls, "Query.entities")
			return [][]abSearchItem{sh.hits[:2], nil, sh.hits[2:]}, nil
		})},
		{Name: "top", Type: hit, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (abSearchItem, error) {
			sh.calls = append(sh.calls, "Query.top")
			return sh.hits[0], nil
		})},
		// Teach NewSchema the Go types of the members.
		{Name: "product", Type: product, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*abProduct, error) { return nil, nil })},
		{Name: "seller", Type: seller, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*abSeller, error) { return nil, nil })},
	}}})
}

func newShop() *abShop {
	return &abShop{hits: []abSearchItem{
		&abProduct{ID: "p1", Title: "Lamp"}, &abSeller{ID: "s1", Name: "Ann"}, &abProduct{ID: "p2", Title: "Desk"},
		nil, &abSeller{ID: "s2", Name: "Bo"}, &abProduct{ID: "p3", Title: "Rug"},
	}}
}

// TestAbstractBatchUnderUnionList: a batched field of an object reached
// through a list of a union is called once for all the values of that
// object at the level, in list order; the levels below follow.
func TestAbstractBatchUnderUnionList(t *testing.T) {
	sh := newShop()
	s := sh.schema(t)
	got := response(t, s, `{ search { __typename ... on Product { id seller { name rating } } ... on Seller { id rating } } }`, "", "")
	want := `{"data":{"search":[` +
		`{"__typename":"Product","id":"p1","seller":{"name":"seller of Lamp","rating":14}},` +
		`{"__typename":"Seller","id":"s1","rating":3},` +
		`{"__typename":"Product","id":"p2","seller":{"name":"seller of Desk","rating":14}},` +
		`null,` +
		`{"__typename":"Seller","id":"s2","rating":2},` +
		`{"__typename":"Product","id":"p3","seller":{"name":"seller of Rug","rating":13}}]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantCalls := []string{"Query.search", "Product.seller:p1,p2,p3", "Seller.rating:s-p1,s-p2,s-p3", "Seller.rating:s1,s2"}
	if !reflect.DeepEqual(sh.calls, wantCalls) {
		t.Errorf("calls: got %q, want %q", sh.calls, wantCalls)
	}
}

// TestAbstractBatchNestedLists: a list of lists of an interface gathers
// its values across the inner lists too.
func TestAbstractBatchNestedLists(t *testing.T) {
	sh := newShop()
	s := sh.schema(t)
	got := response(t, s, `{ entities { id ... on Seller { rating } } }`, "", "")
	want := `{"data":{"entities":[[{"id":"p1"},{"id":"s1","rating":3}],null,[{"id":"p2"},null,{"id":"s2","rating":2},{"id":"p3"}]]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantCalls := []string{"Query.entities", "Seller.rating:s1,s2"}
	if !reflect.DeepEqual(sh.calls, wantCalls) {
		t.Errorf("calls: got %q, want %q", sh.calls, wantCalls)
	}
}

// TestAbstractBatchReturningUnion: a batch resolver whose field is of a
// union type; each value is found its object, and a single abstract value
// runs its object's batched fields for itself.
func TestAbstractBatchReturningUnion(t *testing.T) {
	sh := newShop()
	s := sh.schema(t)
	got := response(t, s, `{ search { ... on Product { related { __typename ... on Seller { id rating } ... on Product { id } } } } top { ... on Product { title } } }`, "", "")
	want := `{"data":{"search":[` +
		`{"related":{"__typename":"Seller","id":"r-p1","rating":1}},{},` +
		`{"related":{"__typename":"Product","id":"r-p2"}},null,{},` +
		`{"related":{"__typename":"Seller","id":"r-p3","rating":1}}],"top":{"title":"Lamp"}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantCalls := []string{"Query.search", "Product.related:p1,p2,p3", "Seller.rating:r-p1", "Seller.rating:r-p3", "Query.top"}
	if !reflect.DeepEqual(sh.calls, wantCalls) {
		t.Errorf("calls: got %q, want %q", sh.calls, wantCalls)
	}
}

// TestAbstractTypedResolverCalls: typed resolvers returning a Go
// interface for an abstract field are called once per field, and each
// value's learned Go type names its object.
func TestAbstractTypedResolverCalls(t *testing.T) {
	sh := newShop()
	s := sh.schema(t)
	op := prepare(t, s, `{ top { __typename ... on Entity { id } } search { __typename } }`)
	for i := range 3 {
		res := execute(op, context.Background(), graphql.ExecParams{})
		want := `{"top":{"__typename":"Product","id":"p1"},"search":[{"__typename":"Product"},{"__typename":"Seller"},{"__typename":"Product"},null,{"__typename":"Seller"},{"__typename":"Product"}]}`
		if string(res.Data) != want || len(res.Errors) > 0 {
			t.Errorf("execution %d: %s %v, want %s", i, res.Data, res.Errors, want)
		}
	}
	if got := fmt.Sprint(sh.calls); got != "[Query.top Query.search Query.top Query.search Query.top Query.search]" {
		t.Errorf("calls %s", got)
	}
}
