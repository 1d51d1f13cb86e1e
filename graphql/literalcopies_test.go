package graphql_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql"
)

// poisonLiterals overwrites what every list and object literal of doc
// holds (its items and fields, not the literal's own node) with strings
// "poisoned": what a reused document would show an Operation that still
// read it.
func poisonLiterals(doc *ast.QueryDocument) {
	var value func(v *ast.Value, depth int)
	value = func(v *ast.Value, depth int) {
		if v == nil || depth > 100 {
			return
		}
		for _, c := range v.Children {
			value(c.Value, depth+1)
			if c.Name != "" {
				c.Name = "poisoned"
			}
			c.Value.Kind, c.Value.Raw, c.Value.Children = ast.StringValue, "poisoned", nil
		}
	}
	args := func(list ast.ArgumentList) {
		for _, a := range list {
			value(a.Value, 0)
		}
	}
	var set func(ss ast.SelectionSet, depth int)
	set = func(ss ast.SelectionSet, depth int) {
		if depth > 100 {
			return
		}
		for _, sel := range ss {
			switch x := sel.(type) {
			case *ast.Field:
				args(x.Arguments)
				for _, d := range x.Directives {
					args(d.Arguments)
				}
				set(x.SelectionSet, depth+1)
			case *ast.InlineFragment:
				set(x.SelectionSet, depth+1)
			}
		}
	}
	for _, op := range doc.Operations {
		for _, d := range op.VariableDefinitions {
			value(d.DefaultValue, 0)
		}
		set(op.SelectionSet, 0)
	}
	for _, f := range doc.Fragments {
		set(f.SelectionSet, 0)
	}
}

// poisonedDocument fills the memory a Parser reuses with lists and objects
// of strings "poisoned", of the shapes the tests below use and more.
var poisonedDocument = "{ " + strings.Repeat(`show(v: [["poisoned", "poisoned"], ["poisoned"]], in: {a: ["poisoned"], b: "poisoned"}, lit: [{poisoned: ["poisoned"]}]) `, 300) + "}"

// ownedSchema has fields whose results show their arguments, and a custom
// scalar whose ParseLiteral keeps every literal it is handed in kept.
func ownedSchema(t *testing.T, kept *[]*ast.Value, mu *sync.Mutex) *graphql.Schema {
	t.Helper()
	show := func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
		b, err := args.MarshalJSON()
		return string(b), err
	}
	in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{
		{Name: "a", Type: graphql.NewList(graphql.Int)},
		{Name: "b", Type: graphql.String},
	}}
	lit := &graphql.Scalar{Name: "Lit",
		Serialize:  func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) { return v, nil },
		ParseLiteral: func(v *ast.Value) (any, error) {
			mu.Lock()
			*kept = append(*kept, v)
			mu.Unlock()
			return v.String(), nil
		},
	}
	var node *graphql.Object
	node = &graphql.Object{Name: "Node", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "show", Type: graphql.String, Resolve: show, Args: []graphql.Argument{
				{Name: "v", Type: graphql.NewList(graphql.NewList(graphql.Int))},
				{Name: "in", Type: in},
				{Name: "w", Type: graphql.Int},
				{Name: "lit", Type: lit},
			}},
			{Name: "child", Type: node, Resolve: constant(struct{}{})},
			{Name: "nodes", Type: graphql.NewList(node), Cost: graphql.Cost{SizeArg: "first"},
				Args:    []graphql.Argument{{Name: "first", Type: graphql.Int}, {Name: "v", Type: graphql.NewList(graphql.Int)}},
				Resolve: constant([]struct{}{{}, {}})},
		}
	})}
	return newSchema(t, graphql.SchemaConfig{Query: node})
}

// TestOperationKeepsNoLiteral checks the promise of package plan's literalcopies.go: once prepared, an
// operation gives the same results after the inside of its document's list
// and object literals has been overwritten, whatever it coerces again
// (arguments with variables or custom scalars, fields planned during an
// execution, the cost, defaults), and a ParseLiteral keeps what it was
// handed.
func TestOperationKeepsNoLiteral(t *testing.T) {
	var kept []*ast.Value
	var mu sync.Mutex
	s := ownedSchema(t, &kept, &mu)
	tests := []struct {
		name, query string
		variables   []string // each execution's
	}{
		{name: "arguments with a variable", query: `query($w: Int) { show(v: [[1, 2], [3]], in: {a: [4], b: "x"}, w: $w) }`,
			variables: []string{`{"w": 1}`, `{}`, `{"w": null}`}},
		{name: "a variable inside a list", query: `query($w: Int) { show(v: [[1, $w], [3]], in: {a: [$w, 5]}) }`,
			variables: []string{`{"w": 1}`, `{}`}},
		{name: "conditional field", query: `query($c: Boolean!) {
			child @include(if: $c) { show(v: [[1]], in: {a: [2, 3], b: "y"}) child { show(v: [[4, 5]]) } }
			other: child { show(v: [[6]]) }
		}`, variables: []string{`{"c": true}`, `{"c": false}`, `{"c": true}`}},
		{name: "conditional fragments", query: `query($c: Boolean!, $d: Boolean!) {
			child { ...F @include(if: $c) ... @skip(if: $d) { child { ...F } } }
		} fragment F on Node { show(v: [[7], [8, 9]]) nodes(first: 1, v: [1, 2]) { show(in: {a: [10]}) } }`,
			variables: []string{`{"c": true, "d": false}`, `{"c": false, "d": false}`, `{"c": true, "d": true}`}},
		{name: "defaults", query: `query($v: [[Int]] = [[11, 12]], $in: In = {a: [13], b: "z"}) { show(v: $v, in: $in) }`,
			variables: []string{`{}`, `{"v": [[1]]}`, `{}`}},
		{name: "custom scalar literal", query: `{ show(lit: [1, {a: [2, "b"]}], v: [[14]]) child { show(lit: {x: [3]}) } }`,
			variables: []string{``, ``}},
	}
	// Two ways the inside of the literals changes: overwritten in place, or
	// released to a Parser that reuses the memory for another document.
	var parser graphql.Parser
	spoil := map[string]func(doc *ast.QueryDocument){
		"overwritten": poisonLiterals,
		"reused": func(*ast.QueryDocument) {
			parser.Release()
			if _, err := parser.Parse(poisonedDocument, 0); err != nil {
				t.Fatalf("the poisoned document: %v", err)
			}
		},
	}
	for _, tt := range tests {
		for way, spoil := range spoil {
			t.Run(tt.name+"/"+way, func(t *testing.T) {
				fresh := prepare(t, s, tt.query)
				doc, err := parser.Parse(tt.query, 0)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if errs := validateDoc(s, doc, graphql.ValidateOptions{}); errs != nil {
					t.Fatalf("Validate: %v", errs)
				}
				op, errs := s.Prepare(doc, "")
				if errs != nil {
					t.Fatalf("Prepare: %v", errs)
				}
				mu.Lock()
				kept = nil
				mu.Unlock()
				run := func(op *graphql.Operation, vars string) string {
					res := execute(op, context.Background(), graphql.ExecParams{Variables: decodeVariables(t, vars), MaxCost: 1000})
					return jsonText(res)
				}
				// Its first execution with the document as parsed.
				if got, want := run(op, tt.variables[0]), run(fresh, tt.variables[0]); got != want {
					t.Fatalf("before: %s, want %s", got, want)
				}
				mu.Lock()
				before := make([]string, len(kept))
				for i, v := range kept {
					before[i] = v.String()
				}
				mu.Unlock()
				spoil(doc)
				for _, vars := range tt.variables {
					want := run(fresh, vars)
					if strings.Contains(want, "poisoned") {
						t.Fatalf("the fresh operation read its poisoned twin: %s", want)
					}
					if got := run(op, vars); got != want {
						t.Errorf("variables %s: got %s, want %s", vars, got, want)
					}
				}
				mu.Lock()
				defer mu.Unlock()
				for i, v := range kept[:len(before)] {
					if got := v.String(); got != before[i] {
						t.Errorf("a literal ParseLiteral kept changed: %s, was %s", got, before[i])
					}
				}
			})
		}
	}
}
