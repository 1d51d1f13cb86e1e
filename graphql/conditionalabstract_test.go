package graphql_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// TestConditionalWideInterfacePlansKept: a conditional field (@include or
// @skip with a variable) of an interface with 30 implementations keeps a
// plan for every object under each set of occurrences that count (up to
// 16 sets, as an object field keeps 16 plans): once every object has been
// met, an execution allocates the same whichever object its value is of.
// (Before: 16 (set, object) pairs in all, so objects met after the 16th
// were planned anew for every execution.) The answers are checked under
// both values of the variable.
func TestConditionalWideInterfacePlansKept(t *testing.T) {
	node := &graphql.Interface{Name: "Node", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	types := make([]graphql.NamedType, 30)
	for i := range types {
		types[i] = &graphql.Object{Name: fmt.Sprintf("T%d", i), Interfaces: []*graphql.Interface{node},
			Fields: graphql.Fields{{Name: "id", Type: graphql.ID}, {Name: "n", Type: graphql.Int}}}
	}
	s := newSchema(t, graphql.SchemaConfig{Types: types, Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{{Name: "node", Type: node}}}})
	op := prepare(t, s, `query($v: Boolean!) { node @include(if: $v) { id } node { __typename ... on T7 { n @skip(if: $v) } } }`)
	roots := make([]map[string]any, 30)
	for i := range roots {
		roots[i] = map[string]any{"node": map[string]any{"__typename": fmt.Sprintf("T%d", i), "id": "x", "n": i}}
	}
	run := func(i int, v bool) {
		res, err := op.Execute(context.Background(), graphql.ExecParams{Root: roots[i], Variables: map[string]any{"v": v}, Dst: make([]byte, 0, 256)})
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
	for _, v := range []bool{true, false} {
		for i := range roots {
			run(i, v) // every object met once
		}
	}
	for _, v := range []bool{true, false} {
		first := testing.AllocsPerRun(20, func() { run(0, v) })
		last := testing.AllocsPerRun(20, func() { run(29, v) })
		if last != first {
			t.Errorf("v=%v: allocations per execution: %v for T0, %v for T29", v, first, last)
		}
	}
}
