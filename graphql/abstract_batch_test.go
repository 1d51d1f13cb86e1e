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
	// extra returns more Query fields, given the union SearchHit.
	extra func(hit *graphql.Union) graphql.Fields
}

func (sh *abShop) record(name string, ids []string) {
	sh.calls = append(sh.calls, name+":"+strings.Join(ids, ","))
}

func (sh *abShop) schema(tb testing.TB) *graphql.Schema {
	tb.Helper()
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
	var extra graphql.Fields
	if sh.extra != nil {
		extra = sh.extra(hit)
	}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: append(graphql.Fields{
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
	}, extra...)}})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func newShop() *abShop {
	return &abShop{hits: []abSearchItem{
		&abProduct{ID: "p1", Title: "Lamp"}, &abSeller{ID: "s1", Name: "Ann"}, &abProduct{ID: "p2", Title: "Desk"},
		nil, &abSeller{ID: "s2", Name: "Bo"}, &abProduct{ID: "p3", Title: "Rug"},
	}}
}

// shopCheck runs query against a new shop and checks the answer and the
// resolver calls.
func shopCheck(t *testing.T, query, want string, wantCalls []string) {
	t.Helper()
	sh := newShop()
	if got := response(t, sh.schema(t), query, "", ""); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !reflect.DeepEqual(sh.calls, wantCalls) {
		t.Errorf("calls: got %q, want %q", sh.calls, wantCalls)
	}
}

// TestAbstractBatchUnderUnionList: a batched field of an object reached
// through a list of a union is called once for all the values of that
// object at the level, in list order; the levels below follow.
func TestAbstractBatchUnderUnionList(t *testing.T) {
	shopCheck(t, `{ search { __typename ... on Product { id seller { name rating } } ... on Seller { id rating } } }`,
		`{"data":{"search":[`+
			`{"__typename":"Product","id":"p1","seller":{"name":"seller of Lamp","rating":14}},`+
			`{"__typename":"Seller","id":"s1","rating":3},`+
			`{"__typename":"Product","id":"p2","seller":{"name":"seller of Desk","rating":14}},`+
			`null,`+
			`{"__typename":"Seller","id":"s2","rating":2},`+
			`{"__typename":"Product","id":"p3","seller":{"name":"seller of Rug","rating":13}}]}}`,
		[]string{"Query.search", "Product.seller:p1,p2,p3", "Seller.rating:s-p1,s-p2,s-p3", "Seller.rating:s1,s2"})
}

// TestAbstractBatchNestedLists: a list of lists of an interface gathers
// its values across the inner lists too.
func TestAbstractBatchNestedLists(t *testing.T) {
	shopCheck(t, `{ entities { id ... on Seller { rating } } }`,
		`{"data":{"entities":[[{"id":"p1"},{"id":"s1","rating":3}],null,[{"id":"p2"},null,{"id":"s2","rating":2},{"id":"p3"}]]}}`,
		[]string{"Query.entities", "Seller.rating:s1,s2"})
}

// TestAbstractBatchReturningUnion: a batch resolver whose field is of a
// union type: the objects of its values across the level's parents make
// one level per object, whose batched fields are called once; a single
// abstract value outside any level runs them for itself.
func TestAbstractBatchReturningUnion(t *testing.T) {
	shopCheck(t, `{ search { ... on Product { related { __typename ... on Seller { id rating } ... on Product { id } } } } top { ... on Product { title } } }`,
		`{"data":{"search":[`+
			`{"related":{"__typename":"Seller","id":"r-p1","rating":1}},{},`+
			`{"related":{"__typename":"Product","id":"r-p2"}},null,{},`+
			`{"related":{"__typename":"Seller","id":"r-p3","rating":1}}],"top":{"title":"Lamp"}}}`,
		[]string{"Query.search", "Product.related:p1,p2,p3", "Seller.rating:r-p1,r-p3", "Query.top"})
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

// A tree whose nodes are of two objects implementing Node { id, score,
// kids: [Node] }, with score and kids batched on both: the per-object
// plans of kids are shared between the two objects (cousins), and their
// levels are open at the same time under each.
type abNode struct{ ID string }

type abBranch struct{ ID string }

func abTree(t *testing.T, calls *[]string) *graphql.Schema {
	t.Helper()
	var node *graphql.Interface
	node = &graphql.Interface{Name: "Node", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{{Name: "id", Type: graphql.ID}, {Name: "score", Type: graphql.Int}, {Name: "kids", Type: graphql.NewList(node)}}
	})}
	idOf := func(v any) string {
		if n, ok := v.(*abNode); ok {
			return n.ID
		}
		return v.(*abBranch).ID
	}
	kids := func(name string) graphql.BatchResolver {
		return graphql.Batch(func(_ context.Context, ps []any, _ graphql.NoArgs) ([][]any, error) {
			ids := make([]string, len(ps))
			out := make([][]any, len(ps))
			for i, p := range ps {
				ids[i] = idOf(p)
				out[i] = []any{&abNode{ID: ids[i] + "0"}, &abBranch{ID: ids[i] + "1"}}
			}
			*calls = append(*calls, name+".kids:"+strings.Join(ids, ","))
			return out, nil
		})
	}
	score := func(name string) graphql.BatchResolver {
		return graphql.Batch(func(_ context.Context, ps []any, _ graphql.NoArgs) ([]int, error) {
			ids := make([]string, len(ps))
			out := make([]int, len(ps))
			for i, p := range ps {
				ids[i] = idOf(p)
				out[i] = len(ids[i])
			}
			*calls = append(*calls, name+".score:"+strings.Join(ids, ","))
			return out, nil
		})
	}
	fields := func(name string) graphql.FieldsFunc {
		return func() graphql.Fields {
			return graphql.Fields{{Name: "id", Type: graphql.ID}, {Name: "score", Type: graphql.Int, Batch: score(name)},
				{Name: "kids", Type: graphql.NewList(node), Batch: kids(name)}}
		}
	}
	leaf := &graphql.Object{Name: "Leaf", Interfaces: []*graphql.Interface{node}, Fields: fields("Leaf"),
		IsTypeOf: func(v any) bool { _, ok := v.(*abNode); return ok }}
	branch := &graphql.Object{Name: "Branch", Interfaces: []*graphql.Interface{node}, Fields: fields("Branch"),
		IsTypeOf: func(v any) bool { _, ok := v.(*abBranch); return ok }}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Types: []graphql.NamedType{leaf, branch}, Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "roots", Type: graphql.NewList(node), Resolve: constant([]any{&abNode{ID: "a"}, &abBranch{ID: "b"}, &abNode{ID: "c"}})},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAbstractBatchCousins: levels of plans shared by cousins, open at
// the same time under each object's level, keep their own parents.
func TestAbstractBatchCousins(t *testing.T) {
	var calls []string
	s := abTree(t, &calls)
	got := response(t, s, `{ roots { id score kids { __typename id score kids { id score } } } }`, "", "")
	var want strings.Builder
	want.WriteString(`{"data":{"roots":[`)
	for i, r := range []string{"a", "b", "c"} {
		if i > 0 {
			want.WriteByte(',')
		}
		fmt.Fprintf(&want, `{"id":"%s","score":1,"kids":[`, r)
		for j, k := range []string{"Leaf", "Branch"} {
			if j > 0 {
				want.WriteByte(',')
			}
			id := fmt.Sprintf("%s%d", r, j)
			fmt.Fprintf(&want, `{"__typename":"%s","id":"%s","score":2,"kids":[{"id":"%s0","score":3},{"id":"%s1","score":3}]}`, k, id, id, id)
		}
		want.WriteString(`]}`)
	}
	want.WriteString(`]}}`)
	if got != want.String() {
		t.Errorf("got  %s\nwant %s", got, want.String())
	}
	wantCalls := []string{
		"Leaf.score:a,c", "Leaf.kids:a,c",
		"Leaf.score:a0,c0", "Leaf.kids:a0,c0", "Leaf.score:a00,c00", "Branch.score:a01,c01",
		"Branch.score:a1,c1", "Branch.kids:a1,c1", "Leaf.score:a10,c10", "Branch.score:a11,c11",
		"Branch.score:b", "Branch.kids:b",
		"Leaf.score:b0", "Leaf.kids:b0", "Leaf.score:b00", "Branch.score:b01",
		"Branch.score:b1", "Branch.kids:b1", "Leaf.score:b10", "Branch.score:b11",
	}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("calls:\n got %q\nwant %q", calls, wantCalls)
	}
}

// TestAbstractBatchUnderConditionalParent: a batch resolver of a union
// type (Product.related) under a list whose field carries
// @include(if: $v), or has an occurrence with @skip(if: $v): the batched
// Seller.rating of the related values is called once for all of them, as
// without the directive. (Before: once per parent, the per-object plans
// of fields planned during an execution being made lazily, so that no
// level was opened for the values' objects.)
func TestAbstractBatchUnderConditionalParent(t *testing.T) {
	extra := func(hit *graphql.Union) graphql.Fields {
		var product *graphql.Object
		for _, o := range hit.Types {
			if o.Name == "Product" {
				product = o
			}
		}
		return graphql.Fields{{Name: "products", Type: graphql.NewList(product),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]*abProduct, error) {
				return []*abProduct{{ID: "p1"}, {ID: "p2"}, {ID: "p3"}}, nil
			})}}
	}
	want := `{"data":{"products":[{"related":{"rating":1}},{"related":{}},{"related":{"rating":1}}]}}`
	wantCalls := []string{"Product.related:p1,p2,p3", "Seller.rating:r-p1,r-p3"}
	shopCheckVars(t, extra, want, wantCalls, [][2]string{
		{`{ products { related { ... on Seller { rating } } } }`, ""},
		{`query($v: Boolean!) { products @include(if: $v) { related { ... on Seller { rating } } } }`, `{"v": true}`},
		{`query($v: Boolean!) { products @skip(if: $v) { id } products { related { ... on Seller { rating } } } }`, `{"v": true}`},
	})
}

// shopCheckVars runs each query of queries (with its variables, JSON)
// against a new shop with extra Query fields, and checks the answer and
// the resolver calls.
func shopCheckVars(t *testing.T, extra func(*graphql.Union) graphql.Fields, want string, wantCalls []string, queries [][2]string) {
	t.Helper()
	for _, q := range queries {
		sh := newShop()
		sh.extra = extra
		if got := response(t, sh.schema(t), q[0], "", q[1]); got != want {
			t.Errorf("%s\n got %s\nwant %s", q[0], got, want)
		}
		if !reflect.DeepEqual(sh.calls, wantCalls) {
			t.Errorf("%s\ncalls %q, want %q", q[0], sh.calls, wantCalls)
		}
	}
}

// abBox holds a value of the union, read without a resolver.
type abBox struct{ Hit abSearchItem }

// TestAbstractReadAheadUnderConditionalParent: a field of a union type
// without resolver (Box.hit), whose Seller values have a batched field,
// is read ahead with its level also when a field above it is
// conditional, and a list of Box objects (no batched field of their own)
// is one level even when its field is conditional: one Seller.rating call
// for the sellers of every box.
func TestAbstractReadAheadUnderConditionalParent(t *testing.T) {
	extra := func(hit *graphql.Union) graphql.Fields {
		box := &graphql.Object{Name: "Box", Fields: graphql.Fields{{Name: "hit", Type: hit}}}
		shelf := &graphql.Object{Name: "Shelf", Fields: graphql.Fields{{Name: "boxes", Type: graphql.NewList(box)}}}
		return graphql.Fields{{Name: "shelf", Type: shelf,
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (map[string]any, error) {
				return map[string]any{"boxes": []*abBox{
					{Hit: &abSeller{ID: "s1", Name: "Ann"}}, {Hit: &abProduct{ID: "p1"}}, {Hit: &abSeller{ID: "s2", Name: "Bo"}},
				}}, nil
			})}}
	}
	want := `{"data":{"shelf":{"boxes":[{"hit":{"rating":3}},{"hit":{}},{"hit":{"rating":2}}]}}}`
	wantCalls := []string{"Seller.rating:s1,s2"}
	shopCheckVars(t, extra, want, wantCalls, [][2]string{
		{`{ shelf { boxes { hit { ... on Seller { rating } } } } }`, ""},
		{`query($v: Boolean!) { shelf @include(if: $v) { boxes { hit { ... on Seller { rating } } } } }`, `{"v": true}`},
		{`query($v: Boolean!) { shelf { boxes @include(if: $v) { hit { ... on Seller { rating } } } } }`, `{"v": true}`},
	})
}
