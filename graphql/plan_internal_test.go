package graphql

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql/internal/plan"
)

// TestConditionalPlansAreBounded: a client that varies many @include
// conditions on one cached operation must not grow it without end. Every
// answer stays right once the per-field plan cache is full.
func TestConditionalPlansAreBounded(t *testing.T) {
	hero := &Object{Name: "Hero", Fields: Fields{{Name: "a", Type: String}, {Name: "b", Type: String}}}
	s, err := NewSchema(SchemaConfig{Query: &Object{Name: "Query", Fields: Fields{{Name: "hero", Type: hero,
		Resolve: func(context.Context, any, Args, ResolveInfo) (any, error) {
			return map[string]any{"a": "A", "b": "B"}, nil
		}}}}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	var defs, sels []string
	for i := range n {
		defs = append(defs, fmt.Sprintf("$v%d: Boolean!", i))
		field := "a"
		if i == n-1 {
			field = "b"
		}
		sels = append(sels, fmt.Sprintf("hero @include(if: $v%d) { %s }", i, field))
	}
	doc, perr := ParseQuery("query("+strings.Join(defs, ", ")+") { "+strings.Join(sels, " ")+" }", 0)
	if perr != nil {
		t.Fatal(perr)
	}
	if errs, fault := s.Validate(doc, ValidateOptions{}); fault != nil || len(errs) > 0 {
		t.Fatal(errs, fault)
	}
	op, errs := s.Prepare(doc, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		vars := map[string]any{}
		anyA := false
		for i := range n {
			on := rng.IntN(2) == 0
			vars[fmt.Sprintf("v%d", i)] = on
			anyA = anyA || on && i < n-1
		}
		want := `{}`
		switch b := vars[fmt.Sprintf("v%d", n-1)].(bool); {
		case anyA && b:
			want = `{"hero":{"a":"A","b":"B"}}`
		case anyA:
			want = `{"hero":{"a":"A"}}`
		case b:
			want = `{"hero":{"b":"B"}}`
		}
		res, err := op.Execute(context.Background(), ExecParams{Variables: vars})
		if err != nil || len(res.Errors) > 0 || string(res.Data) != want {
			t.Fatalf("vars %v: got %s %v, want %s", vars, res.Data, res.Errors, want)
		}
	}
	fp := op.p.Root.Fields[0]
	counted, kept := fp.DynamicPlans()
	if kept > plan.MaxDynPlans || counted != kept {
		t.Errorf("plans kept for one field: %d (count %d), want at most %d", kept, counted, plan.MaxDynPlans)
	}
}
