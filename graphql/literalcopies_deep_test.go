package graphql_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// poisonAll is poisonLiterals without its depth bound, fragments' inline
// fragments included.
func poisonAll(doc *ast.QueryDocument) {
	var value func(v *ast.Value)
	value = func(v *ast.Value) {
		if v == nil {
			return
		}
		for _, c := range v.Children {
			value(c.Value)
			c.Value.Kind, c.Value.Raw, c.Value.Children = ast.StringValue, "poisoned", nil
		}
	}
	var set func(ss ast.SelectionSet)
	set = func(ss ast.SelectionSet) {
		for _, sel := range ss {
			switch x := sel.(type) {
			case *ast.Field:
				for _, a := range x.Arguments {
					value(a.Value)
				}
				set(x.SelectionSet)
			case *ast.InlineFragment:
				set(x.SelectionSet)
			}
		}
	}
	for _, op := range doc.Operations {
		set(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		set(f.SelectionSet)
	}
}

// TestOperationKeepsNoLiteralDeep: keepBelow stops walking at depth
// plan.MaxDepth+plan.NestingGuard (1256), counting fields, inline fragments
// and spreads together and never starting again, while planning during
// executions (and for the cost) bounds only the fragment nesting within
// one field's selection set (256). Fragments of 250 nested inline
// fragments each take keepBelow past its bound at the fifth fragment,
// whose field's arguments are then planned from the document after
// Prepare.
func TestOperationKeepsNoLiteralDeep(t *testing.T) {
	var kept []*ast.Value
	var mu sync.Mutex
	s := ownedSchema(t, &kept, &mu)
	const nest = 250
	var b strings.Builder
	b.WriteString("query($c: Boolean!) { child @include(if: $c) { ...F1 } }\n")
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, "fragment F%d on Node { %s show(v: [[%d]])", i, strings.Repeat("... on Node { ", nest), i)
		if i < 5 {
			fmt.Fprintf(&b, " child { ...F%d }", i+1)
		}
		b.WriteString(strings.Repeat(" }", nest) + " }\n")
	}
	query := b.String()
	fresh := prepare(t, s, query)
	doc := parseValidated(t, s, query)
	op, errs := s.Prepare(doc, "")
	if errs != nil {
		t.Fatalf("Prepare: %v", errs)
	}
	poisonAll(doc)
	run := func(op *graphql.Operation) string {
		return jsonText(execute(op, context.Background(), graphql.ExecParams{Variables: map[string]any{"c": true}, MaxCost: 1000}))
	}
	want := run(fresh)
	if strings.Contains(want, "poisoned") || !strings.Contains(want, "[[5]]") {
		t.Fatalf("fresh: %s", want)
	}
	if got := run(op); got != want {
		t.Errorf("after the literals changed:\n got %s\nwant %s", got, want)
	}
}

// TestOperationCopiesLongLiterals: copyLiteral stops at maxLiteralNodes
// (2^20) nodes, which package plan's literalcopies.go says a document from ParseQuery never
// reaches ("one a token"); without a token limit (Schema.Do parses with
// none, and graphqlhttp with limits.NoLimit) a 2 MB document does, and the
// operation's copy of an argument with a variable silently loses the
// items past the budget.
func TestOperationCopiesLongLiterals(t *testing.T) {
	testenv.SkipIfShort(t, "a 2 MB document")
	var kept []*ast.Value
	var mu sync.Mutex
	s := ownedSchema(t, &kept, &mu)
	const n = 1 << 20
	q := "query($x: Int) { show(v: [[$x" + strings.Repeat(",0", n) + "]]) }"
	out := response(t, s, q, "", `{"x": 7}`)
	if got := strings.Count(out, ",0"); got != n {
		t.Errorf("the answer holds %d of the %d items after $x", got, n)
	}
}
