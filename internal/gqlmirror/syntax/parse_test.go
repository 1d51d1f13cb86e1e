package syntax_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// TestParseLikeGqlparser compares Parse with gqlparser's parser on a few
// documents; graphql's FuzzQuickParse compares them on any text.
func TestParseLikeGqlparser(t *testing.T) {
	var mem syntax.LiteralMemory
	for _, c := range []struct {
		query     string
		maxTokens int
	}{
		{query: `query Q($v: [Int!] = [1, 2]) { a(x: $v, y: {z: "s\u00e9"}) @skip(if: false) { ...F ... on T { b } } } fragment F on T { c }`},
		{query: "# comment\n{ a(b: \"\"\"\n  block\n\"\"\") }"},
		{query: `{ a(`},
		{query: `{ a }}`},
		{query: `{ a b c d }`, maxTokens: 4},
	} {
		got, gotErr := syntax.Parse(c.query, c.maxTokens, &mem)
		want, wantErr := parser.ParseQueryWithTokenLimit(&ast.Source{Input: c.query}, c.maxTokens)
		if wantErr != nil {
			w := wantErr.(*gqlerror.Error)
			if gotErr == nil || strings.TrimPrefix(gotErr.Message, "Syntax Error: ") != w.Message || !reflect.DeepEqual(gotErr.Locations, w.Locations) {
				t.Errorf("%q: error %v, gqlparser's %v", c.query, gotErr, w)
			}
			continue
		}
		if gotErr != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: read differently from gqlparser (error %v)", c.query, gotErr)
		}
		mem.Forget()
	}
}

func TestValues(t *testing.T) {
	if n, ok := syntax.Int32Literal("-2147483648"); !ok || n != -2147483648 {
		t.Errorf("Int32Literal(-2^31) = %d, %v", n, ok)
	}
	if _, ok := syntax.Int32Literal("2147483648"); ok {
		t.Error("Int32Literal(2^31) fits")
	}
	if v, ok := syntax.HexValue("00e9"); !ok || v != 0xe9 {
		t.Errorf("HexValue(00e9) = %x, %v", v, ok)
	}
	v := &ast.Value{Kind: ast.ObjectValue, Children: ast.ChildValueList{
		{Name: "a", Value: &ast.Value{Kind: ast.ListValue, Children: ast.ChildValueList{{Value: &ast.Value{Kind: ast.StringValue, Raw: "x\"\n"}}}}},
		{Name: "b", Value: &ast.Value{Kind: ast.Variable, Raw: "v"}},
	}}
	if got, want := syntax.PrintValue(v), `{a: ["x\"\n"], b: $v}`; got != want {
		t.Errorf("PrintValue = %s, want %s", got, want)
	}
	if !syntax.HasVariables(v) || syntax.HasVariables(v.Children[0].Value) {
		t.Error("HasVariables")
	}
}
