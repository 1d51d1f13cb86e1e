package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/vektah/gqlparser/v2/ast"
)

// costSchema declares costs the way a server would: posts and User.posts
// are pages bounded by first, Post.comments by a required limit, feed has
// no default (so it counts as its Size), listed and negSize are lists of a
// fixed size, and free, heavy and heavyList have weights of their own.
func costSchema(tb testing.TB) *Schema {
	tb.Helper()
	comment := &Object{Name: "Comment", Fields: Fields{{Name: "text", Type: String}}}
	var user, post *Object
	user = &Object{Name: "User", Fields: FieldsFunc(func() Fields {
		return Fields{
			{Name: "id", Type: NewNonNull(ID)},
			{Name: "name", Type: String},
			{Name: "posts", Type: NewList(post), Args: []Argument{{Name: "first", Type: Int, Default: 3}},
				Cost: Cost{SizeArg: "first"}},
		}
	})}
	post = &Object{Name: "Post", Fields: FieldsFunc(func() Fields {
		return Fields{
			{Name: "id", Type: NewNonNull(ID)},
			{Name: "title", Type: String},
			{Name: "tags", Type: NewList(String)},
			{Name: "createdAt", Type: String},
			{Name: "author", Type: user},
			{Name: "comments", Type: NewList(comment), Args: []Argument{{Name: "limit", Type: NewNonNull(Int)}},
				Cost: Cost{SizeArg: "limit"}},
		}
	})}
	page := []Argument{{Name: "first", Type: Int, Default: 10}}
	s, err := NewSchema(SchemaConfig{
		Query: &Object{Name: "Query", Fields: Fields{
			{Name: "posts", Type: NewNonNull(NewList(NewNonNull(post))), Args: page, Cost: Cost{SizeArg: "first"}},
			{Name: "post", Type: post, Args: []Argument{{Name: "id", Type: NewNonNull(ID)}}},
			{Name: "feed", Type: NewList(post), Args: []Argument{{Name: "first", Type: Int}},
				Cost: Cost{SizeArg: "first", Size: 7}},
			{Name: "noSize", Type: NewList(post), Args: []Argument{{Name: "first", Type: Int}},
				Cost: Cost{SizeArg: "first"}},
			{Name: "listed", Type: NewList(post), Cost: Cost{Size: 5}},
			{Name: "negSize", Type: NewList(post), Cost: Cost{Size: -3}},
			{Name: "words", Type: NewList(String), Args: page, Cost: Cost{SizeArg: "first"}},
			{Name: "free", Type: String, Cost: Cost{Weight: -1}},
			{Name: "heavy", Type: String, Cost: Cost{Weight: 5}},
			{Name: "huge", Type: String, Cost: Cost{Weight: math.MaxInt}},
			{Name: "heavyList", Type: NewList(post), Args: []Argument{{Name: "first", Type: Int, Default: 2}},
				Cost: Cost{Weight: 5, SizeArg: "first"}},
			{Name: "clamped", Type: NewList(post), Args: []Argument{{Name: "first", Type: Int, Default: 80}},
				Cost: Cost{SizeArg: "first", MaxSize: 50}},
			{Name: "clampedFeed", Type: NewList(post), Args: []Argument{{Name: "first", Type: Int}},
				Cost: Cost{SizeArg: "first", Size: 100, MaxSize: 20}},
			{Name: "clampedList", Type: NewList(post), Cost: Cost{Size: 9, MaxSize: 4}},
		}},
		Mutation: &Object{Name: "Mutation", Fields: Fields{
			{Name: "createPost", Type: NewNonNull(post), Args: []Argument{{Name: "title", Type: String}}},
		}},
	})
	if err != nil {
		tb.Fatalf("NewSchema: %v", err)
	}
	return s
}

// prepareCost parses, validates and prepares query.
func prepareCost(tb testing.TB, s *Schema, query string) *Operation {
	tb.Helper()
	doc, perr := ParseQuery(query, 0)
	if perr != nil {
		tb.Fatalf("ParseQuery(%q): %v", query, perr)
	}
	if errs, fault := s.Validate(doc, ValidateOptions{}); fault != nil || len(errs) > 0 {
		tb.Fatalf("Validate(%q): %v %v", query, errs, fault)
	}
	op, errs := s.Prepare(doc, "")
	if len(errs) > 0 {
		tb.Fatalf("Prepare(%q): %v", query, errs)
	}
	return op
}

// coercedVars decodes variables (JSON, "" for none) as a client's, with
// UseNumber, and coerces them for op.
func coercedVars(tb testing.TB, op *Operation, variables string) map[string]any {
	tb.Helper()
	var raw map[string]any
	if variables != "" {
		dec := json.NewDecoder(strings.NewReader(variables))
		dec.UseNumber()
		if err := dec.Decode(&raw); err != nil {
			tb.Fatalf("variables %s: %v", variables, err)
		}
	}
	vars, errs, fault := coerce.Variables(op.s.c.Named, op.p.Def.VariableDefinitions, op.p.Defaults, raw)
	if fault != nil || len(errs) > 0 {
		tb.Fatalf("coercing %s: %v %v", variables, errs, fault)
	}
	return vars
}

// aliased returns "{ a0: sel a1: sel … }" with n aliases.
func aliased(n int, sel string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " a%d: %s", i, sel)
	}
	b.WriteString(" }")
	return b.String()
}

func TestCost(t *testing.T) {
	const maxInt32 = "2147483647"
	nestedMax := "posts(first: " + maxInt32 + ") { author { posts(first: " + maxInt32 + ") { comments(limit: " + maxInt32 + ") { text } } } }"
	tests := []struct {
		name      string
		query     string
		variables string // JSON
		want      int
	}{
		// The examples of the Cost godoc.
		{name: "godoc: posts(first: 50) { author { name } }", query: `{ posts(first: 50) { author { name } } }`, want: 101},
		{name: "godoc: posts { title }", query: `{ posts { title } }`, want: 11},

		// Literal sizes.
		{name: "literal", query: `{ posts(first: 3) { id title } }`, want: 1 + 3*2},
		{name: "literal zero", query: `{ posts(first: 0) { id title } }`, want: 1},
		{name: "literal negative", query: `{ posts(first: -5) { id title } }`, want: 1},
		{name: "literal null", query: `{ posts(first: null) { id title } }`, want: 1},
		{name: "absent without default is Size", query: `{ feed { id title } }`, want: 1 + 7*2},
		{name: "absent without default nor Size is 1", query: `{ noSize { id title } }`, want: 1 + 2},
		{name: "Size", query: `{ listed { id title } }`, want: 1 + 5*2},
		{name: "negative Size is 0", query: `{ negSize { id title } }`, want: 1},
		{name: "a leaf list costs its weight", query: `{ words(first: 1000) }`, want: 1},
		{name: "required size argument", query: `{ post(id: "1") { comments(limit: 4) { text } } }`, want: 1 + (1 + 4)},

		// MaxSize: what the resolver returns at most.
		{name: "MaxSize: a literal above it", query: `{ clamped(first: 2147483647) { id title } }`, want: 1 + 50*2},
		{name: "MaxSize: a literal below it", query: `{ clamped(first: 7) { id title } }`, want: 1 + 7*2},
		{name: "MaxSize: a literal equal to it", query: `{ clamped(first: 50) { id title } }`, want: 1 + 50*2},
		{name: "MaxSize: a negative literal", query: `{ clamped(first: -2147483648) { id title } }`, want: 1},
		{name: "MaxSize: a default above it", query: `{ clamped { id title } }`, want: 1 + 50*2},
		{name: "MaxSize: Size above it", query: `{ clampedFeed { id title } }`, want: 1 + 20*2},
		{name: "MaxSize: Size above it, no SizeArg", query: `{ clampedList { id title } }`, want: 1 + 4*2},
		{name: "MaxSize: a variable above it", query: `query($n: Int) { clamped(first: $n) { id title } }`, variables: `{"n": 2147483647}`, want: 1 + 50*2},
		{name: "MaxSize: a variable below it", query: `query($n: Int) { clamped(first: $n) { id title } }`, variables: `{"n": 3}`, want: 1 + 3*2},
		{name: "MaxSize: a variable absent", query: `query($n: Int) { clamped(first: $n) { id title } }`, variables: `{}`, want: 1 + 50*2},
		{name: "MaxSize: a variable's default above it", query: `query($n: Int = 1000) { clampedFeed(first: $n) { id title } }`, want: 1 + 20*2},
		{name: "MaxSize: nested", query: `query($n: Int) { clamped(first: $n) { author { posts(first: 2) { id } } } }`, variables: `{"n": 99999}`,
			want: 1 + 50*(1+(1+2))},

		// Variables, after coercion.
		{name: "variable", query: `query($n: Int) { posts(first: $n) { id title } }`, variables: `{"n": 20}`, want: 1 + 20*2},
		{name: "variable absent: the argument's default", query: `query($n: Int) { posts(first: $n) { id title } }`, variables: `{}`, want: 1 + 10*2},
		{name: "variable absent: the variable's default", query: `query($n: Int = 4) { posts(first: $n) { id title } }`, want: 1 + 4*2},
		{name: "variable absent without defaults: Size", query: `query($n: Int) { feed(first: $n) { id title } }`, want: 1 + 7*2},
		{name: "variable null", query: `query($n: Int = 4) { posts(first: $n) { id title } }`, variables: `{"n": null}`, want: 1},
		{name: "variable negative", query: `query($n: Int) { posts(first: $n) { id title } }`, variables: `{"n": -3}`, want: 1},
		{name: "variable zero", query: `query($n: Int) { posts(first: $n) { id title } }`, variables: `{"n": 0}`, want: 1},
		{name: "non-null variable", query: `query($n: Int!) { post(id: "1") { comments(limit: $n) { text } } }`, variables: `{"n": 6}`, want: 1 + (1 + 6)},
		{name: "variable under a constant sub-selection",
			query: `query($n: Int) { a: posts(first: 2) { id } b: posts(first: $n) { id author { name } } }`, variables: `{"n": 3}`,
			want: (1 + 2) + (1 + 3*3)},
		{name: "a size whose sub-selection costs nothing", query: `query($n: Int) { posts(first: $n) { __typename } }`, variables: `{"n": 1000}`, want: 1},
		{name: "benchmark query A", query: `query Feed($n: Int) { posts(first: $n) { id title tags createdAt author { id name } } }`,
			variables: `{"n": 20}`, want: 1 + 20*(4+3)},
		{name: "benchmark query B", query: `{ post(id: "7") { id title author { name } } }`, want: 1 + 2 + 2},

		// Nesting and aliases.
		{name: "nested lists multiply", query: `{ posts(first: 5) { comments(limit: 3) { text } } }`, want: 1 + 5*(1+3)},
		{name: "nested lists with variables", query: `query($a: Int, $b: Int!) { posts(first: $a) { comments(limit: $b) { text } } }`,
			variables: `{"a": 5, "b": 3}`, want: 1 + 5*(1+3)},
		{name: "a nested default", query: `{ posts(first: 2) { author { posts { id } } } }`, want: 1 + 2*(1+(1+3))},
		{name: "a variable under a literal under a variable",
			query:     `query($a: Int, $b: Int) { posts(first: $a) { author { posts(first: 4) { comments(limit: 2) { text } author { posts(first: $b) { id } } } } } }`,
			variables: `{"a": 2, "b": 5}`,
			// posts(first: $b) { id } = 1+5 = 6; author{…} = 1+6 = 7;
			// comments = 1+2 = 3; posts(first: 4){…} = 1+4×(3+7) = 41;
			// author{…} = 42; posts(first: $a){…} = 1+2×42 = 85.
			want: 85},
		{name: "aliases add", query: `{ a: posts(first: 2) { id } b: posts(first: 3) { id } }`, want: (1 + 2) + (1 + 3)},
		{name: "a field selected twice counts once", query: `{ posts(first: 2) { id } posts(first: 2) { title } }`, want: 1 + 2*2},
		{name: "fragments", query: `{ posts(first: 2) { ...P } } fragment P on Post { id author { name } }`, want: 1 + 2*3},
		{name: "a fragment spread twice", query: `{ a: posts(first: 2) { ...P } b: posts(first: 3) { ...P } } fragment P on Post { id author { name } }`,
			want: (1 + 2*3) + (1 + 3*3)},
		{name: "inline fragments", query: `{ posts(first: 2) { ... on Post { id } ... { title author { name } } } }`, want: 1 + 2*4},

		// @skip and @include count whatever their condition.
		{name: "@skip with a variable, skipped", query: `query($s: Boolean!) { posts(first: 2) @skip(if: $s) { id } }`,
			variables: `{"s": true}`, want: 1 + 2},
		{name: "@include with a variable, left out", query: `query($s: Boolean!) { posts(first: 2) @include(if: $s) { id } }`,
			variables: `{"s": false}`, want: 1 + 2},
		{name: "a conditional inline fragment", query: `query($s: Boolean!) { posts(first: 2) { id ... @include(if: $s) { title author { name } } } }`,
			variables: `{"s": false}`, want: 1 + 2*4},
		{name: "a conditional fragment spread", query: `query($s: Boolean!) { posts(first: 2) { id ...P @skip(if: $s) } } fragment P on Post { author { name } }`,
			variables: `{"s": true}`, want: 1 + 2*3},
		{name: "either of two occurrences: both count", query: `query($s: Boolean!) { posts(first: 2) @include(if: $s) { id } posts(first: 2) @skip(if: $s) { title author { name } } }`,
			variables: `{"s": true}`, want: 1 + 2*4},
		{name: "a conditional field with a variable size", query: `query($s: Boolean!, $n: Int) { posts(first: $n) @include(if: $s) { id author { name } } }`,
			variables: `{"s": false, "n": 4}`, want: 1 + 4*3},
		{name: "conditions nested under conditions", query: `query($s: Boolean!, $n: Int) { posts(first: $n) @include(if: $s) { author @skip(if: $s) { posts(first: 2) @include(if: $s) { id } } } }`,
			variables: `{"s": false, "n": 4}`, want: 1 + 4*(1+(1+2))},
		{name: "literal @skip(if: true) is not part of the operation", query: `{ posts(first: 2) @skip(if: true) { id } heavy }`, want: 5},
		{name: "literal @include(if: true) counts", query: `{ posts(first: 2) @include(if: true) { id } }`, want: 1 + 2},

		// Introspection is free.
		{name: "introspection", query: `{ __typename __schema { types { name fields { name } } } __type(name: "Post") { name } }`, want: 0},
		{name: "__typename in a list", query: `{ posts(first: 2) { __typename id } }`, want: 1 + 2},

		// Weights.
		{name: "Weight 0 is 1", query: `{ post(id: "1") { id } }`, want: 2},
		{name: "negative Weight is 0, Weight 5 is 5", query: `{ free heavy a: free b: heavy }`, want: 10},
		{name: "Weight of a list", query: `{ heavyList { id } }`, want: 5 + 2},
		{name: "Weight of a list of size 0", query: `{ heavyList(first: 0) { id } }`, want: 5},

		// Mutations cost as queries do.
		{name: "mutation", query: `mutation { createPost(title: "x") { id author { posts(first: 4) { id } } } }`, want: 1 + 1 + (1 + (1 + 4))},

		// Saturation.
		{name: "nested first: MaxInt32 saturates", query: "{ " + nestedMax + " }", want: math.MaxInt},
		{name: "500 aliases of nested first: MaxInt32", query: aliased(500, nestedMax), want: math.MaxInt},
		{name: "500 aliases of nested first: $n", query: "query($n: Int, $m: Int!) " + aliased(500, "posts(first: $n) { author { posts(first: $n) { comments(limit: $m) { text } } } }"),
			variables: `{"n": 2147483647, "m": 2147483647}`, want: math.MaxInt},
		{name: "weights saturate", query: `{ a: huge b: huge }`, want: math.MaxInt},
		{name: "a saturated list of size 0", query: "{ posts(first: 0) { author { " + nestedMax + " } } }", want: 1},
		{name: "2 × 500 aliases", query: aliased(500, "posts(first: 2) { id }"), want: 500 * 3},
		{name: "500 aliases of posts(first: 50)", query: aliased(500, "posts(first: 50) { author { name } }"), want: 50500},
	}
	s := costSchema(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := prepareCost(t, s, tt.query)
			vars := coercedVars(t, op, tt.variables)
			if got := op.p.Cost(vars); got != tt.want {
				t.Errorf("cost = %d, want %d", got, tt.want)
			}
			// Computed once, the same every time.
			if got := op.p.Cost(vars); got != tt.want {
				t.Errorf("second cost = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestCostVariesWithVariables runs one prepared operation with several
// variables: the folded structure is shared, each run reads its own.
func TestCostVariesWithVariables(t *testing.T) {
	s := costSchema(t)
	op := prepareCost(t, s, `query($n: Int, $m: Int!) { posts(first: $n) { id comments(limit: $m) { text } } }`)
	for _, tt := range []struct {
		variables string
		want      int
	}{
		{`{"m": 1}`, 1 + 10*(1+2)},
		{`{"n": 1, "m": 1}`, 1 + 1*(1+2)},
		{`{"n": 3, "m": 0}`, 1 + 3*(1+1)},
		{`{"n": null, "m": 9}`, 1},
		{`{"n": 100, "m": 100}`, 1 + 100*(1+101)},
		{`{"n": -1, "m": 100}`, 1},
	} {
		if got := op.p.Cost(coercedVars(t, op, tt.variables)); got != tt.want {
			t.Errorf("cost with %s = %d, want %d", tt.variables, got, tt.want)
		}
	}
}

// TestCostFolding checks what is kept per operation: nothing but a
// constant when no size is a variable, and only the fields on the way to
// a variable size otherwise.
func TestCostFolding(t *testing.T) {
	s := costSchema(t)
	tests := []struct {
		name      string
		query     string
		constant  int
		variables int // fields kept at the root
	}{
		{name: "literal", query: `{ a: posts(first: 2) { id author { posts { id } } } b: post(id: "1") { id } }`, constant: (1 + 2*(1+1+(1+3))) + 2},
		{name: "defaults", query: `{ posts { id } }`, constant: 11},
		{name: "conditions without variable sizes", query: `query($s: Boolean!) { posts(first: 2) @include(if: $s) { id } }`, constant: 3},
		{name: "a variable size", query: `query($n: Int) { a: posts(first: 2) { id } b: posts(first: $n) { id } }`, constant: 3, variables: 1},
		{name: "a variable size deep down", query: `query($n: Int) { posts(first: 2) { author { posts(first: $n) { id } } } heavy }`, constant: 5, variables: 1},
		{name: "a variable size on a leaf", query: `query($n: Int) { words(first: $n) }`, constant: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := prepareCost(t, s, tt.query)
			root := op.p.Folded()
			if root.Constant != tt.constant || len(root.Fields) != tt.variables {
				t.Errorf("folded to constant %d and %d fields, want %d and %d", root.Constant, len(root.Fields), tt.constant, tt.variables)
			}
		})
	}
	// Below the variable size, what is constant is folded too.
	op := prepareCost(t, s, `query($n: Int) { posts(first: 2) { author { posts(first: $n) { id author { posts(first: 3) { id } } } } } }`)
	f := op.p.Folded().Fields[0]           // posts(first: 2)
	inner := f.Sub.Fields[0].Sub.Fields[0] // author, then posts(first: $n)
	if inner.Size.Variable != "n" || len(inner.Sub.Fields) != 0 || inner.Sub.Constant != 1+(1+(1+3)) {
		t.Errorf("posts(first: $n) kept as %+v", inner)
	}
}

// TestCostAllocations: the cost of a prepared operation allocates nothing,
// whether it is a constant or reads variables.
func TestCostAllocations(t *testing.T) {
	s := costSchema(t)
	static := prepareCost(t, s, aliased(100, `posts(first: 50) { id author { name posts { id } } }`))
	dynamic := prepareCost(t, s, `query($n: Int, $s: Boolean!) { posts(first: $n) { id comments(limit: 3) { text } author { posts(first: $n) @include(if: $s) { id } } } }`)
	vars := coercedVars(t, dynamic, `{"n": 20, "s": true}`)
	static.p.Cost(nil) // folded on first use
	dynamic.p.Cost(vars)
	if n := testing.AllocsPerRun(100, func() { static.p.Cost(nil) }); n != 0 {
		t.Errorf("static cost: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { dynamic.p.Cost(vars) }); n != 0 {
		t.Errorf("variable cost: %v allocations, want 0", n)
	}
}

// TestCostConcurrent computes the cost of one operation from many
// goroutines at once, the first use among them (for the race detector).
func TestCostConcurrent(t *testing.T) {
	s := costSchema(t)
	op := prepareCost(t, s, `query($n: Int, $s: Boolean!) { posts(first: $n) { id ... @include(if: $s) { author { name } } } }`)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			if got, want := op.p.Cost(map[string]any{"n": i, "s": true}), 1+i*3; got != want {
				t.Errorf("cost with n=%d = %d, want %d", i, got, want)
			}
		})
	}
	wg.Wait()
}

// TestCostDeep: an operation 901 fields deep (Prepare allows 1000, the
// parser a few less) is folded and evaluated without trouble (a tree
// deeper than the bound: plan.TestCostDeeperThanBound).
func TestCostDeep(t *testing.T) {
	s := costSchema(t)
	// posts { author { posts { author … { name } } } }: 901 fields.
	q := "query($n: Int) { " + strings.Repeat("posts(first: $n) { author { ", 450) + "name" + strings.Repeat(" } }", 450) + " }"
	op := prepareCost(t, s, q)
	if got := op.p.Cost(map[string]any{"n": 1}); got != 901 {
		t.Errorf("cost = %d, want 901", got)
	}
	if got := op.p.Cost(map[string]any{"n": 2}); got != math.MaxInt {
		t.Errorf("cost with n = 2 = %d, want saturated", got)
	}
}

func TestCostSizeArgErrors(t *testing.T) {
	post := &Object{Name: "Post", Fields: Fields{{Name: "id", Type: ID}}}
	page := func(t Type) []Argument { return []Argument{{Name: "first", Type: t}} }
	tests := []struct {
		name   string
		fields Fields
		want   []string // each must be in the error; none: no error
	}{
		{name: "Int", fields: Fields{{Name: "posts", Type: NewList(post), Args: page(Int), Cost: Cost{SizeArg: "first"}}}},
		{name: "Int!", fields: Fields{{Name: "posts", Type: NewList(post), Args: page(NewNonNull(Int)), Cost: Cost{SizeArg: "first"}}}},
		{name: "no SizeArg", fields: Fields{{Name: "posts", Type: NewList(post), Args: page(String), Cost: Cost{Size: 3}}}},
		{name: "unknown argument", fields: Fields{{Name: "posts", Type: NewList(post), Args: page(Int), Cost: Cost{SizeArg: "frist"}}},
			want: []string{`graphql: field Query.posts: Cost.SizeArg "frist" is not an argument of the field`}},
		{name: "no arguments", fields: Fields{{Name: "posts", Type: NewList(post), Cost: Cost{SizeArg: "first"}}},
			want: []string{`graphql: field Query.posts: Cost.SizeArg "first" is not an argument of the field`}},
		{name: "String", fields: Fields{{Name: "posts", Type: NewList(post), Args: page(String), Cost: Cost{SizeArg: "first"}}},
			want: []string{`graphql: field Query.posts: Cost.SizeArg "first" is of type String; it must be Int or Int!`}},
		{name: "[Int]", fields: Fields{{Name: "posts", Type: NewList(post), Args: page(NewList(Int)), Cost: Cost{SizeArg: "first"}}},
			want: []string{`graphql: field Query.posts: Cost.SizeArg "first" is of type [Int]; it must be Int or Int!`}},
		{name: "Float", fields: Fields{{Name: "posts", Type: NewList(post), Args: page(NewNonNull(Float)), Cost: Cost{SizeArg: "first"}}},
			want: []string{`graphql: field Query.posts: Cost.SizeArg "first" is of type Float!; it must be Int or Int!`}},
		{name: "negative MaxSize", fields: Fields{{Name: "posts", Type: NewList(post), Args: page(Int), Cost: Cost{SizeArg: "first", MaxSize: -1}}},
			want: []string{`graphql: field Query.posts: Cost.MaxSize is -1; it must not be negative (0 means no maximum)`}},
		{name: "MaxSize", fields: Fields{{Name: "posts", Type: NewList(post), Args: page(Int), Cost: Cost{SizeArg: "first", MaxSize: 50}}}},
		{name: "every problem is reported", fields: Fields{
			{Name: "a", Type: NewList(post), Args: page(String), Cost: Cost{SizeArg: "first"}},
			{Name: "b", Type: NewList(post), Cost: Cost{SizeArg: "limit"}},
			{Name: "c", Type: NewList(post), Args: []Argument{{Name: "first", Type: Int, Default: "ten"}}, Cost: Cost{SizeArg: "first"}},
		}, want: []string{
			`graphql: field Query.a: Cost.SizeArg "first" is of type String; it must be Int or Int!`,
			`graphql: field Query.b: Cost.SizeArg "limit" is not an argument of the field`,
			`field Query.c: the default of first is not a valid Int`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewSchema(SchemaConfig{Query: &Object{Name: "Query", Fields: tt.fields}})
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("NewSchema: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("NewSchema succeeded, want %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("NewSchema error %q does not contain %q", err, w)
				}
			}
			if got, want := strings.Count(err.Error(), "\n")+1, len(tt.want); got != want {
				t.Errorf("NewSchema reported %d errors, want %d: %v", got, want, err)
			}
		})
	}
}

// costFuzzSeeds are the seeds of FuzzExecute, whose schema costSchema
// mirrors (Query.posts(first: Int = 10), Query.post(id: ID!), Post,
// User), plus the entries of its corpus in testdata.
func costFuzzSeeds(tb testing.TB) [][2]string {
	tb.Helper()
	seeds := [][2]string{
		{`query Feed($n: Int) { posts(first: $n) { id title tags author { id name } } }`, `{"n": 20}`},
		{`{ post(id: "7") { id title author { name } } }`, ``},
		{`query($id: ID!, $skip: Boolean!) { post(id: $id) { id ... on Post @skip(if: $skip) { title } author { name } } }`, `{"id": 3, "skip": false}`},
		{`{ posts(first: 3) { ...P tags } } fragment P on Post { id title author { id } }`, ``},
		{`{ __schema { types { name kind fields { name } } } }`, ``},
		{`query Q($n: Int = 2147483648) { posts(first: $n) { id } }`, `{"n": "x"}`},
		{`{ a: posts { id } a: posts { title } }`, ``},
		{`mutation { posts { id } }`, ``},
		{`{ posts(first: -1) { id } post(id: "") { id } }`, `{}`},
		{`{ posts(first: 99999999999999999999) { id } }`, ``},
		{`{ posts(first: "3") { id } posts(first: 1.5) { id } }`, ``},
		{`query($n: String) { posts(first: $n) { id } }`, `{"n": "x"}`},
		{`{ posts(first: $undefined) { id } }`, ``},
		{`query($s: Boolean!) { posts @include(if: $s) { ...A } } fragment A on Post { author { posts @skip(if: $s) { ...A } } }`, `{"s": true}`},
		{`{`, ``},
	}
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzExecute", "*"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		lines := bytes.Split(data, []byte("\n"))
		var args []string
		for _, l := range lines[1:] {
			l = bytes.TrimSpace(l)
			if !bytes.HasPrefix(l, []byte("string(")) || !bytes.HasSuffix(l, []byte(")")) {
				continue
			}
			if s, err := strconv.Unquote(string(l[len("string(") : len(l)-1])); err == nil {
				args = append(args, s)
			}
		}
		if len(args) == 2 {
			seeds = append(seeds, [2]string{args[0], args[1]})
		}
	}
	return seeds
}

// FuzzCost prepares arbitrary documents, validated or not, and computes
// their cost with the variables coerced, not coerced, and none: it never
// panics and is never negative. The seeds include the corpus of
// FuzzExecute.
func FuzzCost(f *testing.F) {
	for _, seed := range costFuzzSeeds(f) {
		f.Add(seed[0], seed[1])
	}
	s := costSchema(f)
	f.Fuzz(func(t *testing.T, query, variables string) {
		doc, perr := ParseQuery(query, 0)
		if perr != nil {
			return
		}
		var raw map[string]any
		dec := json.NewDecoder(strings.NewReader(variables))
		dec.UseNumber()
		if dec.Decode(&raw) != nil {
			raw = nil
		}
		valid := false
		if errs, fault := s.Validate(doc, ValidateOptions{}); fault == nil && len(errs) == 0 {
			valid = true
		}
		for _, def := range doc.Operations {
			op, errs := s.Prepare(doc, def.Name)
			if len(errs) > 0 {
				continue
			}
			check := func(what string, vars map[string]any) {
				if c := op.p.Cost(vars); c < 0 {
					t.Fatalf("cost of %q with %s variables = %d", query, what, c)
				}
			}
			check("no", nil)
			check("raw", raw)
			if vars, errs, fault := coerce.Variables(s.c.Named, op.p.Def.VariableDefinitions, op.p.Defaults, raw); fault == nil && len(errs) == 0 {
				check("coerced", vars)
			}
			if valid && op.p.Def.Operation == ast.Query && len(op.p.Def.VariableDefinitions) == 0 {
				// Without variables, the cost is the same folded or not.
				if c, again := op.p.Cost(nil), op.p.Cost(map[string]any{}); c != again {
					t.Fatalf("cost of %q = %d, then %d", query, c, again)
				}
			}
		}
	})
}
