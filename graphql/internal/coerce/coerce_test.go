package coerce

import (
	"errors"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/scalar"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// testTypes is a compiled schema of two named input types: the built-in
// Int and a custom scalar Nullish, whose parser says "null" stands for
// null.
func testTypes() map[string]*schema.Type {
	return map[string]*schema.Type{
		"Int": {Kind: schema.KindScalar, Name: "Int", Builtin: scalar.Int},
		"Nullish": {Kind: schema.KindScalar, Name: "Nullish", Scalar: &schema.Scalar{
			ParseValue: func(v any) (any, error) {
				if v == "null" {
					return schema.Null, nil
				}
				return v, nil
			},
		}},
	}
}

func TestTypeFromAST(t *testing.T) {
	named := testTypes()
	got := TypeFromAST(named, &ast.Type{Elem: &ast.Type{NamedType: "Int", NonNull: true}, NonNull: true})
	if got == nil || got.String() != "[Int!]!" || got.Named() != named["Int"] {
		t.Fatalf("TypeFromAST = %v", got)
	}
	if got := TypeFromAST(named, &ast.Type{Elem: &ast.Type{NamedType: "Nope"}}); got != nil {
		t.Fatalf("TypeFromAST of an unknown type = %v, want nil", got)
	}
}

func TestVariables(t *testing.T) {
	defs := ast.VariableDefinitionList{
		{Variable: "n", Type: &ast.Type{NamedType: "Int", NonNull: true}, Position: &ast.Position{Line: 1, Column: 9}},
		{Variable: "x", Type: &ast.Type{NamedType: "Nullish"}, Position: &ast.Position{Line: 1, Column: 19}},
	}
	vars, errs, fault := Variables(testTypes(), defs, nil, map[string]any{"x": "null"})
	if fault != nil || len(errs) != 1 {
		t.Fatalf("Variables = %v, %v, %v; want one error", vars, errs, fault)
	}
	if !errors.Is(errs[0], ErrInvalidVariables) || errs[0].Message != `Variable "$n" of required type "Int!" was not provided.` {
		t.Errorf("error = %q (%v)", errs[0].Message, errs[0].Err)
	}
	if v, ok := vars["x"]; !ok || v != nil {
		t.Errorf("$x = %v (present %v), want nil: the scalar said null", v, ok)
	}
}

func TestCloneShares(t *testing.T) {
	inner := map[string]any{"a": []any{1}}
	outer := map[string]any{"p": inner, "q": inner, "e": []any{}}
	c := Clone(outer).(map[string]any)
	p, q := c["p"].(map[string]any), c["q"].(map[string]any)
	p["a"].([]any)[0] = 2
	if inner["a"].([]any)[0] != 1 {
		t.Error("the clone shares a list with the original")
	}
	if q["a"].([]any)[0] != 2 {
		t.Error("a map met twice was copied twice")
	}
}
