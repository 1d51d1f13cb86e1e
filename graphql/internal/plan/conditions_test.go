package plan

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// directive returns @name(if: value), value a variable when it starts
// with '$'.
func directive(name, value string) *ast.Directive {
	v := &ast.Value{Kind: ast.BooleanValue, Raw: value, Position: &ast.Position{Line: 1, Column: 9}}
	if value[0] == '$' {
		v.Kind, v.Raw = ast.Variable, value[1:]
	}
	return &ast.Directive{Name: name, Arguments: ast.ArgumentList{{Name: "if", Value: v}}}
}

func TestStaticCondition(t *testing.T) {
	tests := []struct {
		name    string
		dirs    ast.DirectiveList
		include bool
		dynamic int
	}{
		{name: "none", include: true},
		{name: "skip false", dirs: ast.DirectiveList{directive("skip", "false")}, include: true},
		{name: "skip true", dirs: ast.DirectiveList{directive("skip", "true")}},
		{name: "include false", dirs: ast.DirectiveList{directive("include", "false")}},
		{name: "include true, skip on a variable", dirs: ast.DirectiveList{directive("include", "true"), directive("skip", "$s")}, include: true, dynamic: 1},
		{name: "a literal false wins over a variable", dirs: ast.DirectiveList{directive("include", "$i"), directive("skip", "true")}},
	}
	for _, tt := range tests {
		include, dynamic := StaticCondition(tt.dirs)
		if include != tt.include || len(dynamic) != tt.dynamic {
			t.Errorf("%s: StaticCondition = %v with %d dynamic, want %v with %d", tt.name, include, len(dynamic), tt.include, tt.dynamic)
		}
	}
}

func TestConditionsCount(t *testing.T) {
	skipS, inclI := directive("skip", "$s"), directive("include", "$i")
	o := &Occurrence{Alts: []Alt{{Conds: []*ast.Directive{skipS}, Seq: 4}, {Conds: []*ast.Directive{inclI}, Seq: 2}}}
	tests := []struct {
		vars map[string]any
		ok   bool
		seq  int
	}{
		{vars: map[string]any{"s": false, "i": false}, ok: true, seq: 4},
		{vars: map[string]any{"s": false, "i": true}, ok: true, seq: 2},
		{vars: map[string]any{"s": true, "i": true}, ok: true, seq: 2},
		{vars: map[string]any{"s": true, "i": false}, seq: -1},
		{vars: map[string]any{}, ok: true, seq: 4}, // an absent variable is false
	}
	for _, tt := range tests {
		c := Conditions{Vars: tt.vars}
		if ok, seq := o.Counts(&c); ok != tt.ok || seq != tt.seq || c.Err != nil {
			t.Errorf("Counts under %v = %v, %d (error %v), want %v, %d", tt.vars, ok, seq, c.Err, tt.ok, tt.seq)
		}
	}
	// A null variable makes the selection fail; the first such error is kept.
	c := Conditions{Vars: map[string]any{"s": nil, "i": nil}}
	if ok, _ := o.Counts(&c); ok {
		t.Errorf("Counts with null variables = true, want false")
	}
	want := `Argument "if" of non-null type "Boolean!" must not be null.`
	if c.Err == nil || c.Err.Msg != want || len(c.Err.Locs) != 1 || c.Err.Locs[0].Line != 1 || c.Err.Locs[0].Column != 9 {
		t.Errorf("error = %+v, want %q at 1:9", c.Err, want)
	}
}
