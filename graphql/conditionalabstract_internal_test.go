package graphql

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql/internal/plan"
)

// Fields of interfaces and unions below a field whose sub-selection
// depends on a variable's @skip or @include are planned after Prepare
// (for the cost, and for each execution); their per-object plans are
// shared between cousins as Prepare shares them (package plan, abstract.go).

// chainBody returns `id next { id next { … } }` depth levels deep.
func chainBody(depth int) string {
	return "id " + strings.Repeat("next { id ", depth) + strings.Repeat("} ", depth)
}

// TestConditionalAbstractCost: the cost of nested fields of an interface
// with 10 implementations is the same whether or not a field above them
// carries @include(if: $v), at any depth, and the operation executes
// under the default MaxCost. (Before: the plans made while folding were
// not shared, 10^depth of them, and from depth 4 the fold gave up with
// math.MaxInt, refused by any MaxCost.)
func TestConditionalAbstractCost(t *testing.T) {
	s := chainSchema(t, 10)
	for _, depth := range []int{1, 4, 10} {
		plain := prepareCost(t, s, "{ root { "+chainBody(depth)+"} }")
		want := plain.p.Cost(nil)
		if want != 2+5*depth { // root, id; each level: next (weight at most 4), id
			t.Fatalf("depth %d: cost without @include = %d, want %d", depth, want, 2+5*depth)
		}
		for _, q := range []string{
			"query($v: Boolean!) { root @include(if: $v) { " + chainBody(depth) + "} }",
			"query($v: Boolean!) { root { id next @include(if: $v) { " + chainBody(depth-1) + "} } }",
			"query($v: Boolean!) { root { id next @skip(if: $v) { id } next { " + chainBody(depth-1) + "} } }",
		} {
			op := prepareCost(t, s, q)
			for _, v := range []bool{true, false} {
				if got := op.p.Cost(map[string]any{"v": v}); got != want {
					t.Errorf("%s\nv=%v: cost = %d, want %d", q, v, got, want)
				}
			}
			res, err := op.Execute(context.Background(), ExecParams{Variables: map[string]any{"v": true}, Root: map[string]any{"root": chainValue(depth+1, 7)}})
			if err != nil || len(res.Errors) > 0 {
				t.Fatalf("%s\nExecute: %v %v", q, err, res.Errors)
			}
			var wantData strings.Builder
			wantData.WriteString(`{"root":{"id":"0"`)
			for i := 1; i <= depth; i++ {
				fmt.Fprintf(&wantData, `,"next":{"id":"%d"`, i)
			}
			wantData.WriteString(strings.Repeat("}", depth+2))
			if string(res.Data) != wantData.String() {
				t.Errorf("%s\ndata %s\nwant %s", q, res.Data, wantData.String())
			}
			if n, _ := op.p.Kept(); n > 10*(depth+1) {
				t.Errorf("%s\n%d shared plans, want at most %d", q, n, 10*(depth+1))
			}
		}
	}
}

// TestConditionalAbstractPlanBudget: an operation whose conditional field
// hides what would expand past plan.MaxSelections once planned for each
// possible object (Prepare plans nothing below it) keeps at most
// plan.MaxSelections field plans for sharing after Prepare; its cost
// stops at the fold's budget (math.MaxInt, refused by any MaxCost), and
// without a cost bound it executes, planning what its values need.
func TestConditionalAbstractPlanBudget(t *testing.T) {
	const impls = 30
	s := chainSchema(t, impls)
	n := plan.MaxSelections/impls + 10
	op := prepareCost(t, s, "query($v: Boolean!) { root @include(if: $v) { "+idAliases(n)+"} }")
	vars := map[string]any{"v": true}
	if got := op.p.Cost(vars); got != math.MaxInt {
		t.Errorf("cost = %d, want math.MaxInt", got)
	}
	if _, late := op.p.Kept(); late > plan.MaxSelections || late < plan.MaxSelections-n {
		t.Errorf("%d field plans kept after Prepare, want at most %d and at least %d", late, plan.MaxSelections, plan.MaxSelections-n)
	}
	res, err := op.Execute(context.Background(), ExecParams{Variables: vars, MaxCost: -1, Root: map[string]any{"root": chainValue(1, 1)}})
	if err != nil || len(res.Errors) > 0 {
		t.Fatal(err, res.Errors)
	}
	if !strings.HasPrefix(string(res.Data), `{"root":{"a0":"0","a1":"0",`) || len(res.Data) < 9*n {
		t.Errorf("data %.60s… (%d bytes)", res.Data, len(res.Data))
	}
}

// TestConditionalAbstractConcurrent: executions of one operation plan
// and share the per-object plans below a conditional field at once, with
// the cost folded meanwhile (run with -race).
func TestConditionalAbstractConcurrent(t *testing.T) {
	const depth = 6
	s := chainSchema(t, 10)
	op := prepareCost(t, s, "query($v: Boolean!, $w: Boolean!) { root @include(if: $v) { id next @skip(if: $w) { "+chainBody(depth-1)+"} } }")
	root := map[string]any{"root": chainValue(depth+1, 10)}
	var wantData strings.Builder
	wantData.WriteString(`{"root":{"id":"0"`)
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&wantData, `,"next":{"id":"%d"`, i)
	}
	wantData.WriteString(strings.Repeat("}", depth+2))
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for range 20 {
				res, err := op.Execute(context.Background(), ExecParams{Variables: map[string]any{"v": true, "w": g%2 == 1}, Root: root})
				want := wantData.String()
				if g%2 == 1 {
					want = `{"root":{"id":"0"}}`
				}
				if err == nil && (len(res.Errors) > 0 || string(res.Data) != want) {
					err = fmt.Errorf("data %s errors %v, want %s", res.Data, res.Errors, want)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestConditionalWideInterfacePlansKept: a conditional field (@include or
// @skip with a variable) of an interface with 30 implementations keeps a
// plan for every object under each set of occurrences that count (up to
// maxDynPlans sets, as an object field keeps maxDynPlans plans): once
// every object has been met, each has its plan kept, and later
// executions find it instead of planning it again. (Before: maxDynPlans
// (set, object) pairs in all, so objects met after the 16th were planned
// anew for every execution.) The answers are checked under both values
// of the variable.
func TestConditionalWideInterfacePlansKept(t *testing.T) {
	node := &Interface{Name: "Node", Fields: Fields{{Name: "id", Type: ID}}}
	types := make([]NamedType, 30)
	for i := range types {
		types[i] = &Object{Name: fmt.Sprintf("T%d", i), Interfaces: []*Interface{node},
			Fields: Fields{{Name: "id", Type: ID}, {Name: "n", Type: Int}}}
	}
	s, err := NewSchema(SchemaConfig{Types: types, Query: &Object{Name: "Query", Fields: Fields{{Name: "node", Type: node}}}})
	if err != nil {
		t.Fatal(err)
	}
	op := prepareCost(t, s, `query($v: Boolean!) { node @include(if: $v) { id } node { __typename ... on T7 { n @skip(if: $v) } } }`)
	run := func(i int, v bool) {
		root := map[string]any{"node": map[string]any{"__typename": fmt.Sprintf("T%d", i), "id": "x", "n": i}}
		res, err := op.Execute(context.Background(), ExecParams{Root: root, Variables: map[string]any{"v": v}})
		want := fmt.Sprintf(`{"node":{"__typename":"T%d"}}`, i)
		switch {
		case v:
			want = fmt.Sprintf(`{"node":{"id":"x","__typename":"T%d"}}`, i)
		case i == 7:
			want = `{"node":{"__typename":"T7","n":7}}`
		}
		if err != nil || len(res.Errors) > 0 || string(res.Data) != want {
			t.Fatalf("T%d v=%v: %s %v %v, want %s", i, v, res.Data, err, res.Errors, want)
		}
	}
	fp := op.p.Root.Fields[0]
	for _, v := range []bool{true, false} {
		for i := range types {
			run(i, v) // every object met once
		}
		c := plan.Conditions{Vars: map[string]any{"v": v}}
		set := fp.KeptObjectPlans(&c)
		if len(set) != len(types) {
			t.Fatalf("v=%v: %d slots kept, want %d", v, len(set), len(types))
		}
		for i := range set {
			kept := set[i].Load()
			if kept == nil || fp.ObjectPlan(i, &c, nil) != kept {
				t.Errorf("v=%v: the plan of T%d is not kept", v, i)
			}
		}
		run(29, v)
	}
}

// idAliases returns `a0: id a1: id … ` for n aliases.
func idAliases(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "a%d: id ", i)
	}
	return b.String()
}
