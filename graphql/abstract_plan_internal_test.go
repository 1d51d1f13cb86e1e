package graphql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/limits"
)

// chainSchema has an interface I { id: ID!, next: I } implemented by n
// objects O0…O(n-1), and Query.root: I. Values are maps whose __typename
// names their object.
func chainSchema(tb testing.TB, n int) *Schema {
	tb.Helper()
	var it *Interface
	it = &Interface{Name: "I", Fields: FieldsFunc(func() Fields {
		return Fields{{Name: "id", Type: NewNonNull(ID)}, {Name: "next", Type: it}}
	})}
	types := make([]NamedType, n)
	for i := range n {
		types[i] = &Object{Name: fmt.Sprintf("O%d", i), Interfaces: []*Interface{it}, Fields: FieldsFunc(func() Fields {
			return Fields{{Name: "id", Type: NewNonNull(ID)}, {Name: "next", Type: it, Cost: Cost{Weight: 2 + i%3}}}
		})}
	}
	s, err := NewSchema(SchemaConfig{Query: &Object{Name: "Query", Fields: Fields{{Name: "root", Type: it}}}, Types: types})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// chainValue returns a chain of depth values, the i-th of object O(i%n).
func chainValue(depth, n int) map[string]any {
	var v map[string]any
	for i := depth - 1; i >= 0; i-- {
		v = map[string]any{"__typename": fmt.Sprintf("O%d", i%n), "id": fmt.Sprint(i), "next": v}
	}
	return v
}

// distinctPlans counts the selection plans reachable from sp, each once.
func distinctPlans(sp *plan.Selection, seen map[*plan.Selection]bool) int {
	if sp == nil || seen[sp] {
		return 0
	}
	seen[sp] = true
	n := 1
	for _, fp := range sp.Fields {
		n += distinctPlans(fp.Child, seen)
		if fp.Abs != nil {
			for i := range fp.Abs.Plans {
				n += distinctPlans(fp.Abs.Plans[i].Load(), seen)
			}
		}
	}
	return n
}

// TestAbstractNestingBounded: a document nesting a field of an interface
// with 10 implementations 10 deep, each level also selecting through a
// fragment on one implementation, plans 10 × 10 per-object plans (not
// 10^10): the same field reached through different objects shares them.
// Its cost is computed over them, and it executes.
func TestAbstractNestingBounded(t *testing.T) {
	const impls, depth = 10, 10
	s := chainSchema(t, impls)
	q := "{ root { id " + strings.Repeat("next { id __typename ... on O3 { id } ", depth) + strings.Repeat("} ", depth) + "} }"
	op := prepareCost(t, s, q)
	if got, want := distinctPlans(op.p.Root, map[*plan.Selection]bool{}), 1+impls+depth*impls; got != want {
		t.Errorf("%d distinct plans, want %d", got, want)
	}
	// The same nodes, under a fragment on each implementation: the
	// fields differ between cousins at the first level only.
	var b strings.Builder
	b.WriteString("{ root { id ")
	for range depth {
		for i := range impls {
			fmt.Fprintf(&b, "... on O%d { next { id ", i)
			if i < impls-1 {
				b.WriteString("} } ")
			}
		}
	}
	for range depth {
		b.WriteString("} } ")
	}
	b.WriteString("} }")
	op2 := prepareCost(t, s, b.String())
	if got := distinctPlans(op2.p.Root, map[*plan.Selection]bool{}); got > 1+impls+depth*impls*impls {
		t.Errorf("%d distinct plans for the fragments on each implementation, want at most %d", got, 1+impls+depth*impls*impls)
	}
	// Cost: root 1 + the costliest object's selection; each level's next
	// costs the largest weight (4) plus 1 for id plus the level below.
	want := 1 + 1 // root, id
	for range depth {
		want += 4 + 1
	}
	if got := op.p.Cost(nil); got != want {
		t.Errorf("cost = %d, want %d", got, want)
	}
	res, err := op.Execute(context.Background(), ExecParams{Root: map[string]any{"root": chainValue(depth+1, 7)}})
	if err != nil || len(res.Errors) > 0 {
		t.Fatal(err, res.Errors)
	}
	var wantData strings.Builder
	wantData.WriteString(`{"root":{"id":"0"`)
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&wantData, `,"next":{"id":"%d","__typename":"O%d"`, i, i%7)
	}
	wantData.WriteString(strings.Repeat("}", depth+2))
	if string(res.Data) != wantData.String() {
		t.Errorf("data %s\nwant %s", res.Data, wantData.String())
	}
}

// TestAbstractPlanBudget: an operation that plans past plan.MaxSelections
// fields once its abstract fields are planned for each possible object is
// refused, before anything runs.
func TestAbstractPlanBudget(t *testing.T) {
	const impls = 30
	s := chainSchema(t, impls)
	n := plan.MaxSelections/impls + 10
	doc, perr := ParseQuery("{ root { "+idAliases(n)+"} }", 0)
	if perr != nil {
		t.Fatal(perr)
	}
	op, errs := s.Prepare(doc, "")
	if op != nil || len(errs) != 1 || !errors.Is(errs[0], ErrInvalidDocument) {
		t.Fatalf("Prepare = %v, %v; want ErrInvalidDocument", op, errs)
	}
	if want := fmt.Sprintf("The operation expands to more than %d field selections once planned for each possible type of its interface and union fields.", plan.MaxSelections); errs[0].Message != want {
		t.Errorf("message %q", errs[0].Message)
	}
	// A third as many aliases fit.
	prepareCost(t, s, "{ root { "+idAliases(n/3)+"} }")
}

// TestAbstractCostMax: a selection on an abstract type costs its most
// costly possible object's selection, under the variables too.
func TestAbstractCostMax(t *testing.T) {
	page := &Object{Name: "Page", Fields: Fields{{Name: "n", Type: Int}}}
	node := &Interface{Name: "Node", Fields: Fields{{Name: "id", Type: ID}}}
	cheap := &Object{Name: "Cheap", Interfaces: []*Interface{node}, Fields: Fields{{Name: "id", Type: ID}, {Name: "heavy", Type: Int, Cost: Cost{Weight: 10}}}}
	pager := &Object{Name: "Pager", Interfaces: []*Interface{node}, Fields: Fields{{Name: "id", Type: ID},
		{Name: "pages", Type: NewList(page), Args: []Argument{{Name: "first", Type: Int, Default: 5}}, Cost: Cost{SizeArg: "first"}}}}
	hit := &Union{Name: "Hit", Types: []*Object{cheap, pager}}
	s, err := NewSchema(SchemaConfig{Query: &Object{Name: "Query", Fields: Fields{
		{Name: "node", Type: node},
		{Name: "search", Type: NewList(hit), Args: []Argument{{Name: "first", Type: Int, Default: 10}}, Cost: Cost{SizeArg: "first"}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query string
		vars  map[string]any
		want  int
	}{
		{`{ node { id } }`, nil, 1 + 1},
		{`{ node { __typename } }`, nil, 1},
		{`{ node { ... on Cheap { heavy } ... on Pager { id } } }`, nil, 1 + 10},
		{`{ search { ... on Cheap { heavy } ... on Pager { pages { n } } } }`, nil, 1 + 10*10},                  // 10 > 1 + 5
		{`{ search(first: 2) { ... on Cheap { id } ... on Pager { pages(first: 20) { n } } } }`, nil, 1 + 2*21}, // 21 > 1
		{`query($p: Int) { search { ... on Cheap { heavy } ... on Pager { pages(first: $p) { n } } } }`, map[string]any{"p": 3}, 1 + 10*10},
		{`query($p: Int) { search { ... on Cheap { heavy } ... on Pager { pages(first: $p) { n } } } }`, map[string]any{"p": 30}, 1 + 10*31},
		{`query($p: Int) { search { ... on Node { id } ... on Pager { pages(first: $p) { n } } } }`, map[string]any{"p": 1 << 40}, 1 + 10*(1+1+1<<40)},
	} {
		op := prepareCost(t, s, tc.query)
		if got := op.p.Cost(tc.vars); got != tc.want {
			t.Errorf("%s %v: cost %d, want %d", tc.query, tc.vars, got, tc.want)
		}
	}
	// The limit refuses by that cost before any resolver runs, and lets
	// an operation at the limit run.
	op := prepareCost(t, s, `{ search { ... on Cheap { heavy } ... on Pager { pages { n } } } }`)
	res, err := op.Execute(context.Background(), ExecParams{MaxCost: 100})
	var le *limits.Error
	if !errors.As(err, &le) || le.Limit != limits.Cost || le.Found != 101 || res.Data != nil {
		t.Errorf("MaxCost 100: %v %v, want a cost limit error with 101", res, err)
	}
	if res, err := op.Execute(context.Background(), ExecParams{MaxCost: 101}); err != nil || string(res.Data) != `{"search":null}` {
		t.Errorf("MaxCost 101: %s %v", res.Data, err)
	}
}

// distinctSetsDoc returns a document over chainSchema(2) whose field
// nodes under the same response key differ with every object met on the
// way: C_k_j is the node of chain j at level k, and G_k, spread in every
// node of level k-1, adds chain k's node under O0 only. Its plans cannot
// be shared (2^depth distinct sets of nodes), but its named fragments
// expand as fast.
func distinctSetsDoc(depth int) string {
	var b strings.Builder
	b.WriteString("{ root { ...C_1_0 ...G_1 } }\n")
	for k := 1; k <= depth; k++ {
		for j := 0; j < k; j++ {
			fmt.Fprintf(&b, "fragment C_%d_%d on I { next { id", k, j)
			if k < depth {
				fmt.Fprintf(&b, " ...C_%d_%d ...G_%d", k+1, j, k+1)
			}
			b.WriteString(" } }\n")
		}
		fmt.Fprintf(&b, "fragment G_%d on O0 { ...C_%d_%d }\n", k, k, k-1)
	}
	return b.String()
}

// TestAbstractDistinctSets: plans that no sharing joins grow only as the
// document's expansion does, which Prepare bounds (plan.CheckShape):
// depth 10 makes 2^11 plans, depth 40 is refused before planning.
func TestAbstractDistinctSets(t *testing.T) {
	s := chainSchema(t, 2)
	op := prepareCost(t, s, distinctSetsDoc(10))
	if got := distinctPlans(op.p.Root, map[*plan.Selection]bool{}); got != 1<<11+1 {
		t.Errorf("%d plans, want %d", got, 1<<11+1)
	}
	doc, perr := ParseQuery(distinctSetsDoc(40), 0)
	if perr != nil {
		t.Fatal(perr)
	}
	op, errs := s.Prepare(doc, "")
	if op != nil || len(errs) != 1 || !errors.Is(errs[0], ErrInvalidDocument) ||
		errs[0].Message != fmt.Sprintf("The operation expands to more than %d field selections.", plan.MaxSelections) {
		t.Fatalf("Prepare = %v, %v; want ErrInvalidDocument", op, errs)
	}
}
