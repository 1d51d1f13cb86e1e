package graphql_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

func TestRegressionFragmentChains(t *testing.T) {
	// A chain of spreads adds no depth and no nodes; past MaxFragmentNesting
	// it is refused by validation (the planner used to drop its fields
	// silently past 256, answering {} for a valid-looking document).
	s := heroSchema(t)
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("{ ...f0 }")
		for i := range n {
			fmt.Fprintf(&b, " fragment f%d on Query { ...f%d }", i, i+1)
		}
		fmt.Fprintf(&b, " fragment f%d on Query { __typename }", n)
		return b.String()
	}
	if got, want := response(t, s, chain(graphql.MaxFragmentNesting-1), "", ""), `{"data":{"__typename":"Query"}}`; got != want {
		t.Errorf("a chain of %d spreads:\n got %s\nwant %s", graphql.MaxFragmentNesting, got, want)
	}
	want := `{"errors":[{"message":"Fragment spreads are nested more than 64 levels deep.","locations":[{"line":1,"column":6}]}]}`
	for _, n := range []int{graphql.MaxFragmentNesting, 300, 627} {
		t.Run(fmt.Sprintf("%d spreads", n+1), func(t *testing.T) {
			if got := response(t, s, chain(n), "", ""); got != want {
				t.Errorf("a chain of %d spreads:\n got %s\nwant %s", n+1, got, want)
			}
		})
	}
}

func TestRegressionCustomLiteralWithoutValue(t *testing.T) {
	// A parser that returns nil and no error: graphql-js's one sentence.
	cust := &graphql.Scalar{Name: "Cust",
		Serialize:  func(v any) (any, error) { return v, nil },
		ParseValue: func(any) (any, error) { return nil, nil }}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{{Name: "v", Type: cust}}})})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	want := `{"errors":[{"message":"Expected value of type \"Cust\", found \"nil\".","locations":[{"line":1,"column":9}]}]}`
	if got := response(t, s, `{ f(v: "nil") }`, "", ""); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

func TestValidateMaxErrors(t *testing.T) {
	s := boomSchema(t)
	ints := func(n int) string { return strings.TrimSuffix(strings.Repeat("1, ", n), ", ") }
	for _, c := range []struct {
		name, query string
		max         int
		errs        int  // how many errors Validate returns
		fault       bool // a parser's panic: a fault, and no errors
	}{
		{"fewer errors than the cap", `{ q(s: [` + ints(3) + `]) }`, 10, 3, false},
		{"as many errors as the cap", `{ q(s: [` + ints(10) + `]) }`, 10, 10, false},
		{"more errors than the cap", `{ q(s: [` + ints(150) + `]) }`, 10, 10, false},
		{"no cap: at most 100 per rule", `{ q(s: [` + ints(150) + `]) }`, 0, 100, false},
		{"rules past their own cap", `{ q(s: [` + ints(150) + `], x: 2147483648, f: [true, true]) nope }`, 120, 102, false},
		{"a panic after the cap", `{ q(s: [` + ints(150) + `]) p(b: "boom") }`, 10, 0, true},
		{"a panic in a list after the cap", `{ q(s: [` + ints(150) + `]) p(v: ["x", "boom"]) }`, 10, 0, true},
		{"a panic in an input object after the cap", `{ q(s: [` + ints(150) + `]) p(i: [{need: "x"}, {need: "y", b: "boom"}]) }`, 10, 0, true},
		{"a panic before the cap", `{ p(b: "boom") q(s: [` + ints(150) + `]) }`, 10, 0, true},
		{"custom literals after the cap that parse", `{ q(s: [` + ints(150) + `]) p(b: "fine", v: ["x", 1, {a: 1}]) }`, 10, 10, false},
		{"two panics", `{ p(v: ["boom", "boom"]) }`, 10, 0, true},
		// GqlkitLiteralValues reports 100 errors at most: the panic is not
		// among them, so the document is answered with its errors.
		{"a panic past its rule's own cap", `{ p(n: [[` + strings.Repeat("2147483648, ", 100) + `]]) p2: p(b: "boom") }`, 10, 10, false},
		{"a panic past its rule's own cap, no cap", `{ p(n: [[` + strings.Repeat("2147483648, ", 100) + `]]) p2: p(b: "boom") }`, 0, 100, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, perr := graphql.ParseQuery(c.query, 0)
			if perr != nil {
				t.Fatal(perr)
			}
			errs, fault := s.Validate(doc, graphql.ValidateOptions{MaxErrors: c.max})
			if len(errs) != c.errs || (fault != nil) != c.fault {
				t.Fatalf("%d errors, fault %v; want %d errors, fault %v\n%v", len(errs), fault, c.errs, c.fault, errs)
			}
			if fault != nil && !strings.Contains(fault.Error(), "Boom parser exploded") {
				t.Errorf("fault %v, want the parser's panic", fault)
			}
			checkLikeReference(t, s, c.query)
		})
	}
}

// TestValidateLargestCost checks that Validate does not walk what cannot
// change its answer on the largest documents the limits accept: the items
// of a long list of correct items are set aside for the walk of the rules,
// and a document with thousands of faults stops at the caller's cap (it
// made 120,000 allocations).
func TestValidateLargestCost(t *testing.T) {
	s := listSchema()
	for _, d := range largestInvalid() {
		t.Run(d.name, func(t *testing.T) {
			doc, perr := graphql.ParseQuery(d.query, 20000)
			if perr != nil {
				t.Fatal(perr)
			}
			if n := s.TrimmedLists(doc); d.name != "invalid items" && n != 1 {
				t.Errorf("%d lists shortened for the walk, want 1 (the long one)", n)
			}
			allocs := testing.AllocsPerRun(3, func() {
				if errs, fault := s.Validate(doc, graphql.ValidateOptions{MaxErrors: 100}); len(errs) == 0 || fault != nil {
					t.Fatalf("errors %v, fault %v", errs, fault)
				}
			})
			if allocs > 3000 {
				t.Errorf("Validate made %.0f allocations, want at most 3000", allocs)
			}
			checkLikeReference(t, s, d.query)
		})
	}
}

// TestValidateSpreadCost checks the cost of a fragment with a long list
// spread by 700 operations (spreadInvalid), which took up to 0.8 s: the
// walker visits the fragment once per operation, but not the items set
// aside, and the rules no longer print or parse what they cannot report.
func TestValidateSpreadCost(t *testing.T) {
	s := listSchema()
	small := spreadInvalid(40) // the old path, which the answers are checked against, takes long
	for i, d := range spreadInvalid(700) {
		t.Run(d.name, func(t *testing.T) {
			doc, perr := graphql.ParseQuery(d.query, 0)
			if perr != nil {
				t.Fatal(perr)
			}
			allocs := testing.AllocsPerRun(2, func() { s.Validate(doc, graphql.ValidateOptions{MaxErrors: 100}) })
			if allocs > 12000 {
				t.Errorf("Validate made %.0f allocations, want at most 12000", allocs)
			}
			checkLikeReference(t, s, small[i].query)
		})
	}
}
