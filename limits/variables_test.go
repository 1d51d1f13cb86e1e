package limits

import (
	"cmp"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

func TestScanUndefinedVariable(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  VariableRef
	}{
		{name: "declared", query: `query Q($a: Int, $b: [ID!] = [1]) { f(a: $a, b: $b) }`},
		{name: "undeclared", query: `query Q($a: Int) { f(a: $a, b: $b) }`,
			want: VariableRef{Name: "b", Operation: "Q", Line: 1, Column: 32}},
		{name: "anonymous operation", query: "{\n  f(a: $a)\n}",
			want: VariableRef{Name: "a", Line: 2, Column: 8}},
		{name: "anonymous with definitions", query: `query ($a: Int) { f(a: $a, c: $c) }`,
			want: VariableRef{Name: "c", Line: 1, Column: 31}},
		{name: "mutation", query: `mutation M { f(a: $x) }`,
			want: VariableRef{Name: "x", Operation: "M", Line: 1, Column: 19}},
		{name: "only the second operation is wrong", query: "query A($a: Int) { f(a: $a) }\nquery B { f(a: $a) }",
			want: VariableRef{Name: "a", Operation: "B", Line: 2, Column: 16}},
		{name: "declarations do not carry over", query: "query A($a: Int) { f(a: $a) } { g(a: $a) }",
			want: VariableRef{Name: "a", Line: 1, Column: 38}},
		{name: "first of several", query: `{ f(a: $x, b: $y) }`,
			want: VariableRef{Name: "x", Line: 1, Column: 8}},
		{name: "fragments ignored", query: `query Q { ...F } fragment F on T { f(a: $a) }`},
		{name: "operation after fragment", query: `fragment F on T { f(a: $a) } query Q($a: Int) { ...F g(b: $b) }`,
			want: VariableRef{Name: "b", Operation: "Q", Line: 1, Column: 59}},
		{name: "in a string", query: `{ f(a: "$a") }`},
		{name: "in a block string", query: `{ f(a: """ $a "" \""" $b """) }`},
		{name: "in a comment", query: "{ f # (a: $a)\n}"},
		{name: "comment between $ and name", query: "{ f(a: $ # x\n b) }",
			want: VariableRef{Name: "b", Line: 1, Column: 8}},
		{name: "field directive", query: `query Q($a: Boolean) { f @include(if: $a) g @skip(if: $s) }`,
			want: VariableRef{Name: "s", Operation: "Q", Line: 1, Column: 55}},
		{name: "operation directive", query: `query Q($a: Int) @d(x: $a, y: $z) { f }`,
			want: VariableRef{Name: "z", Operation: "Q", Line: 1, Column: 31}},
		{name: "variable definition directive", query: `query Q($a: Int @d(x: 1)) { f(a: $a) }`},
		{name: "nested input object", query: `query Q($a: Int) { f(in: {x: [{y: $a}, {z: {w: $w}}]}) }`,
			want: VariableRef{Name: "w", Operation: "Q", Line: 1, Column: 48}},
		{name: "inline fragment and nested field", query: `query Q { ... on T @d(x: $i) { g { h(a: $h) } } }`,
			want: VariableRef{Name: "i", Operation: "Q", Line: 1, Column: 26}},
		{name: "same name as operation", query: `query a { f(a: $a) }`,
			want: VariableRef{Name: "a", Operation: "a", Line: 1, Column: 16}},
		{name: "many declared", query: manyVariables(40, 40)},
		{name: "many declared one missing", query: manyVariables(40, 41),
			want: VariableRef{Name: "v40", Operation: "Q", Line: 1, Column: 1 + strings.Index(manyVariables(40, 41), "$v40 )")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stats, err := unlimited().Scan(tt.query)
			if err != nil {
				t.Fatalf("Scan: %v", err)
			}
			if got := stats.UndefinedVariable; got != tt.want {
				t.Errorf("UndefinedVariable = %+v, want %+v", got, tt.want)
			}
			if got := firstUndefinedVariable(parse(t, tt.query)); got != tt.want {
				t.Errorf("gqlparser's AST has %+v, want %+v", got, tt.want)
			}
		})
	}
}

// manyVariables returns an operation Q declaring $v0 … $v{declared-1} and
// a field with an argument per variable $v0 … $v{used-1}.
func manyVariables(declared, used int) string {
	q := "query Q("
	for i := range declared {
		q += "$v" + itoa(i) + ": Int "
	}
	q += ") { f("
	for i := range used {
		q += "a" + itoa(i) + ": $v" + itoa(i) + " "
	}
	return q + ") }"
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// firstUndefinedVariable walks a parsed document and returns the first
// reference, by position, in an operation to a variable the operation does
// not declare. Fragment spreads are not followed.
func firstUndefinedVariable(doc *ast.QueryDocument) VariableRef {
	var first VariableRef
	for _, op := range doc.Operations {
		declared := map[string]bool{}
		for _, d := range op.VariableDefinitions {
			declared[d.Variable] = true
		}
		var value func(*ast.Value)
		value = func(v *ast.Value) {
			if v == nil {
				return
			}
			if v.Kind == ast.Variable && !declared[v.Raw] {
				ref := VariableRef{Name: v.Raw, Operation: op.Name, Line: v.Position.Line, Column: v.Position.Column}
				if first.Name == "" || cmp.Or(cmp.Compare(ref.Line, first.Line), cmp.Compare(ref.Column, first.Column)) < 0 {
					first = ref
				}
			}
			for _, c := range v.Children {
				value(c.Value)
			}
		}
		directives := func(ds ast.DirectiveList) {
			for _, d := range ds {
				for _, a := range d.Arguments {
					value(a.Value)
				}
			}
		}
		var selections func(ast.SelectionSet)
		selections = func(set ast.SelectionSet) {
			for _, s := range set {
				switch s := s.(type) {
				case *ast.Field:
					for _, a := range s.Arguments {
						value(a.Value)
					}
					directives(s.Directives)
					selections(s.SelectionSet)
				case *ast.InlineFragment:
					directives(s.Directives)
					selections(s.SelectionSet)
				case *ast.FragmentSpread:
					directives(s.Directives)
				}
			}
		}
		directives(op.Directives)
		selections(op.SelectionSet)
	}
	return first
}
