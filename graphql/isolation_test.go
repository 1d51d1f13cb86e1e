package graphql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql"
)

// The tests in this file check that one request cannot change what the
// next one sees: what a resolver receives is its own or read-only.

func TestIsolationArgs(t *testing.T) {
	var seen []string
	var mu sync.Mutex
	vandal := func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		b, _ := json.Marshal(args)
		seen = append(seen, string(b))
		// Everything a resolver can get its hands on, changed.
		m := args.Map()
		m["n"] = 99
		if l, _ := args.List("tags"); len(l) > 0 {
			l[0] = "changed"
		}
		if in, ok := args.Value("in").(map[string]any); ok {
			in["k"] = "changed"
			if l, ok := in["l"].([]any); ok && len(l) > 0 {
				l[0] = "changed"
			}
		}
		if in, _ := args.Input("in"); in.Map() != nil {
			in := in.Map()
			in["k"] = "changed"
		}
		return "ok", nil
	}
	in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{
		{Name: "k", Type: graphql.String},
		{Name: "l", Type: graphql.NewList(graphql.String), Default: []any{"d"}},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{
			{Name: "n", Type: graphql.Int},
			{Name: "tags", Type: graphql.NewList(graphql.String), Default: []any{"a", "b"}},
			{Name: "in", Type: in, Default: map[string]any{"k": "default"}},
		},
		Resolve: vandal})})
	const query = `{ f(n: 1) }`
	doc := parseValidated(t, s, query)
	op, errs := s.Prepare(doc, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// Sequential and concurrent executions of one prepared operation.
	for range 2 {
		execute(op, context.Background(), graphql.ExecParams{Variables: nil})
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { execute(op, context.Background(), graphql.ExecParams{Variables: nil}) })
	}
	wg.Wait()
	want := `{"in":{"k":"default","l":["d"]},"n":1,"tags":["a","b"]}`
	for i, got := range seen {
		if got != want {
			t.Errorf("execution %d saw %s, want %s", i, got, want)
		}
	}
	// Literal input objects too, through Do (which prepares again).
	seen = nil
	for range 2 {
		response(t, s, `{ f(in: {k: "lit", l: ["x"]}) }`, "", "")
	}
	for i, got := range seen {
		if want := `{"in":{"k":"lit","l":["x"]},"n":null,"tags":["a","b"]}`; strings.Replace(got, `,"n":null`, "", 1) != strings.Replace(want, `,"n":null`, "", 1) {
			t.Errorf("Do %d saw %s", i, got)
		}
	}
}

func TestIsolationArgsAccessors(t *testing.T) {
	var zero graphql.Args
	zl, _ := zero.List("x")
	zi, _ := zero.Input("x")
	if zero.Len() != 0 || zero.Has("x") || zero.Value("x") != nil || zero.Map() != nil || zl != nil || zi.Len() != 0 {
		t.Error("the zero Args is not empty")
	}
	if b, _ := json.Marshal(zero); string(b) != "{}" {
		t.Errorf("zero Args marshals as %s", b)
	}
	src := map[string]any{"l": []any{1, map[string]any{"k": "v"}}, "m": map[string]any{"x": 1}, "s": "str"}
	a := graphql.NewArgs(src)
	src["s"] = "changed" // NewArgs copied
	src["l"].([]any)[1].(map[string]any)["k"] = "changed"
	if got := jsonText(a); got != `{"l":[1,{"k":"v"}],"m":{"x":1},"s":"str"}` {
		t.Errorf("NewArgs shares the caller's map: %s", got)
	}
	if got := strings.Join(a.Names(), ","); got != "l,m,s" {
		t.Errorf("Names = %s", got)
	}
	m, _ := a.Input("m")
	if x, err := m.Int("x"); x != 1 || err != nil {
		t.Errorf("Input(m).Int(x) = %d, %v; want 1, nil", x, err)
	}
	if _, err := a.Input("s"); err == nil {
		t.Error("Input of a string: no error")
	}
	if _, err := a.List("m"); err == nil {
		t.Error("List of an input object: no error")
	}
	loop := map[string]any{}
	loop["me"] = loop
	if graphql.NewArgs(loop).Len() != 1 { // copied up to a bound, not for ever
		t.Error("NewArgs of a map that contains itself")
	}
}

// TestIsolationResolveInfoKept keeps every ResolveInfo a resolver received
// (as a batch loader does) and reads them after execution, and after other
// executions have reused the executor.
func TestIsolationResolveInfoKept(t *testing.T) {
	var kept []graphql.ResolveInfo
	type post struct{ ID string }
	author := &graphql.Object{Name: "Author", Fields: graphql.Fields{{Name: "name", Type: graphql.String}, {Name: "id", Type: graphql.ID}}}
	postT := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.ID},
		{Name: "author", Type: author, Resolve: func(_ context.Context, p any, _ graphql.Args, info graphql.ResolveInfo) (any, error) {
			kept = append(kept, info)
			return map[string]any{"name": "N" + p.(*post).ID}, nil
		}},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "groups", Type: graphql.NewList(graphql.NewList(postT)),
		Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return [][]*post{{{"1"}, {"2"}}, {{"3"}}}, nil
		}})})
	res := s.Do(context.Background(), graphql.Request{Query: `query Q($x: Boolean = true) { groups { writer: author @include(if: $x) { name } } }`, Present: graphql.Unmasked})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	// Other executions, of other documents, reuse the pooled executor.
	for range 3 {
		s.Do(context.Background(), graphql.Request{Query: `{ groups { id author { id } } }`, Present: graphql.Unmasked})
	}
	var got []string
	for _, info := range kept[:3] {
		got = append(got, fmt.Sprintf("%s %s %s %s %s %s %v %s", info.Path().String(), info.FieldName(), info.ResponseKey(), info.ParentType().Name,
			info.ReturnType(), info.Operation().Name(), info.SelectedFields(), jsonText(info.Variables())))
	}
	want := []string{
		`groups[0][0].writer author writer Post Author Q [name] {"x":true}`,
		`groups[0][1].writer author writer Post Author Q [name] {"x":true}`,
		`groups[1][0].writer author writer Post Author Q [name] {"x":true}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("kept infos:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !kept[0].IsSelected("name") || kept[0].IsSelected("id") || kept[3].IsSelected("name") || !kept[3].IsSelected("id") {
		t.Error("IsSelected of kept infos mixes the executions up")
	}
}

func TestIsolationDeepPathKept(t *testing.T) {
	var kept graphql.ResolveInfo
	leaf := &graphql.Object{Name: "Leaf", Fields: graphql.Fields{{Name: "v", Type: graphql.Int,
		Resolve: func(_ context.Context, _ any, _ graphql.Args, info graphql.ResolveInfo) (any, error) {
			kept = info
			return 1, nil
		}}}}
	deep := graphql.Type(leaf)
	for range 5 {
		deep = graphql.NewList(deep)
	}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "d", Type: deep,
		Resolve: constant([]any{[]any{[]any{[]any{[]any{map[string]any{}}}}}})})})
	response(t, s, `{ d { v } }`, "", "")
	if got := kept.Path().String(); got != "d[0][0][0][0][0].v" {
		t.Errorf("Path = %s", got)
	}
}

// TestIsolationCustomScalarLiterals gives each execution its own value of a
// custom scalar literal, even when ParseLiteral returns a pointer.
func TestIsolationCustomScalarLiterals(t *testing.T) {
	type box struct{ n int }
	parses := 0
	boxed := &graphql.Scalar{Name: "Box",
		Serialize:  func(v any) (any, error) { return v.(*box).n, nil },
		ParseValue: func(v any) (any, error) { n, err := v.(json.Number).Int64(); return &box{int(n)}, err },
		ParseLiteral: func(v *ast.Value) (any, error) {
			parses++
			var n int
			_, err := fmt.Sscan(v.Raw, &n)
			return &box{n}, err
		}}
	var got []int
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.Int,
		Args: []graphql.Argument{{Name: "b", Type: boxed}, {Name: "d", Type: boxed, Default: &box{5}}},
		Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
			b, d := args.Value("b").(*box), args.Value("d").(*box)
			got = append(got, b.n, d.n)
			b.n, d.n = 99, 99 // the resolver's own values
			return 0, nil
		}})})
	op, errs := s.Prepare(parseValidated(t, s, `{ f(b: 1) }`), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for range 3 {
		if res := execute(op, context.Background(), graphql.ExecParams{Variables: nil}); len(res.Errors) > 0 {
			t.Fatal(res.Errors)
		}
	}
	if fmt.Sprint(got) != "[1 5 1 5 1 5]" {
		t.Errorf("values seen = %v, want [1 5 1 5 1 5]", got)
	}
}

// TestIsolationBuiltins checks what the constants guarantee: the built-in
// scalars and Null mean the same in every schema of the process.
func TestIsolationBuiltins(t *testing.T) {
	for _, c := range []struct {
		t    graphql.BuiltinScalar
		name string
	}{{graphql.Int, "Int"}, {graphql.Float, "Float"}, {graphql.String, "String"}, {graphql.Boolean, "Boolean"}, {graphql.ID, "ID"}} {
		t.Run(c.name, func(t *testing.T) {
			if c.t.TypeName() != c.name || c.t.String() != c.name || c.t.Description() == "" {
				t.Errorf("%s: TypeName %q, String %q, Description %q", c.name, c.t.TypeName(), c.t.String(), c.t.Description())
			}
		})
	}
	if got := graphql.BuiltinScalar(7).TypeName(); got != "BuiltinScalar(7)" {
		t.Errorf("TypeName of no built-in = %q", got)
	}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{{Name: "a", Type: graphql.Int, Default: graphql.Null}},
		Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
			return jsonText(args), nil
		}})})
	if got := response(t, s, `{ f }`, "", ""); got != `{"data":{"f":"{\"a\":null}"}}` {
		t.Errorf("Null default: %s", got)
	}
	if s.Type("Int") != graphql.Int {
		t.Errorf("Type(Int) = %v", s.Type("Int"))
	}
}

// TestCustomScalarContract follows graphql-js: a parser's GraphQL error
// keeps its message and extensions, a parser may say "null", and a
// serializer may not.
func TestCustomScalarContract(t *testing.T) {
	coded := &gqlerror.Error{Message: "Not a colour: use #rrggbb.", Extensions: map[string]any{"hint": "hex"}}
	colour := &graphql.Scalar{Name: "Colour",
		Serialize: func(v any) (any, error) {
			if v == "none" {
				return nil, nil
			}
			return v, nil
		},
		ParseValue: func(v any) (any, error) {
			switch v {
			case "bad":
				return nil, coded
			case "plain":
				return nil, fmt.Errorf("plain failure")
			case "nothing":
				return nil, nil
			case "none":
				return graphql.Null, nil
			}
			return v, nil
		}}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "echo", Type: graphql.String, Args: []graphql.Argument{{Name: "c", Type: colour}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				return fmt.Sprintf("%v/%v", args.Has("c"), args.Value("c")), nil
			}},
		graphql.Field{Name: "must", Type: graphql.String, Args: []graphql.Argument{{Name: "c", Type: graphql.NewNonNull(colour)}},
			Resolve: constant("ran")},
		graphql.Field{Name: "out", Type: colour, Args: []graphql.Argument{{Name: "v", Type: graphql.String}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				return args.String("v")
			}},
	)})
	tests := []struct {
		name, query, vars, want string
		ext                     map[string]any
	}{
		{name: "variable: a GraphQL error keeps its message and extensions", query: `query($c: Colour) { echo(c: $c) }`, vars: `{"c": "bad"}`,
			want: `{"errors":[{"message":"Variable \"$c\" got invalid value \"bad\"; Not a colour: use #rrggbb.","locations":[{"line":1,"column":7}],"extensions":{"hint":"hex"}}]}`},
		{name: "variable: a plain error follows graphql-js's prefix", query: `query($c: Colour) { echo(c: $c) }`, vars: `{"c": "plain"}`,
			want: `{"errors":[{"message":"Variable \"$c\" got invalid value \"plain\"; Expected type \"Colour\". plain failure","locations":[{"line":1,"column":7}]}]}`},
		{name: "variable: no value is invalid", query: `query($c: Colour) { echo(c: $c) }`, vars: `{"c": "nothing"}`,
			want: `{"errors":[{"message":"Variable \"$c\" got invalid value \"nothing\"; Expected type \"Colour\".","locations":[{"line":1,"column":7}]}]}`},
		{name: "variable: Null means null", query: `query($c: Colour) { echo(c: $c) }`, vars: `{"c": "none"}`,
			want: `{"data":{"echo":"true/<nil>"}}`},
		{name: "variable: Null in a non-null position", query: `query($c: Colour!) { must(c: $c) }`, vars: `{"c": "none"}`,
			want: `{"errors":[{"message":"Variable \"$c\" got invalid value \"none\"; Expected non-nullable type \"Colour!\" not to be null.","locations":[{"line":1,"column":7}]}]}`},
		{name: "literal: a GraphQL error is reported as it is", query: `{ echo(c: "bad") }`,
			want: `{"errors":[{"message":"Not a colour: use #rrggbb.","locations":[{"line":1,"column":12}],"extensions":{"hint":"hex"}}]}`},
		{name: "literal: a plain error", query: `{ echo(c: "plain") }`,
			want: `{"errors":[{"message":"Expected value of type \"Colour\", found \"plain\"; plain failure","locations":[{"line":1,"column":12}]}]}`},
		{name: "literal: Null means null", query: `{ echo(c: "none") }`,
			want: `{"data":{"echo":"true/<nil>"}}`},
		{name: "literal: Null in a non-null position", query: `{ must(c: "none") }`,
			want: `{"errors":[{"message":"Argument \"c\" has invalid value \"none\": Expected non-nullable type \"Colour!\" not to be null.","locations":[{"line":1,"column":3}]}]}`},
		{name: "Serialize returning nil is a field error", query: `{ out(v: "none") ok: out(v: "#fff") }`,
			want: "{\"data\":{\"out\":null,\"ok\":\"#fff\"},\"errors\":[{\"message\":\"Expected `Colour.serialize(\\\"none\\\")` to return non-nullable value, returned: null\",\"locations\":[{\"line\":1,\"column\":3}],\"path\":[\"out\"]}]}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := response(t, s, tt.query, "", tt.vars); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestIsolationDeepLiteral: a literal nested deeper than variables may be
// is still copied whole by Args.Value.
func TestIsolationDeepLiteral(t *testing.T) {
	s := cyclicSchema(t)
	var seen []string
	probe := graphql.Field{Name: "deep", Type: graphql.String,
		Args: []graphql.Argument{{Name: "w", Type: s.Type("Filter").(*graphql.InputObject)}},
		Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
			m := args.Value("w").(map[string]any)
			for m["not"] != nil {
				m = m["not"].(map[string]any)
			}
			seen = append(seen, m["tag"].(string))
			m["tag"] = "CHANGED"
			return "ok", nil
		}}
	s2 := newSchema(t, graphql.SchemaConfig{Query: queryWith(probe)})
	op := prepare(t, s2, `{ deep(w: `+strings.Repeat(`{not: `, 300)+`{tag: "x"}`+strings.Repeat(`}`, 300)+`) }`)
	for range 2 {
		if res := execute(op, context.Background(), graphql.ExecParams{Variables: nil}); len(res.Errors) > 0 {
			t.Fatal(res.Errors)
		}
	}
	if strings.Join(seen, ",") != "x,x" {
		t.Errorf("executions saw %v", seen)
	}
}

// TestIsolationCoercedVariables: coercion neither writes into the
// caller's variables nor hands out the schema's defaults, so what one
// request sends or changes is no other request's.
func TestIsolationCoercedVariables(t *testing.T) {
	in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{{Name: "k", Type: graphql.String}}}
	outer := &graphql.InputObject{Name: "O", Fields: []graphql.InputField{{Name: "in", Type: in, Default: map[string]any{"k": "d"}}}}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{{Name: "o", Type: outer}},
		Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
			return jsonText(args), nil
		}})})
	op, errs := s.Prepare(parseValidated(t, s, `query($o: O) { f(o: $o) }`), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	raw := map[string]any{"o": map[string]any{}}
	const want = `{"f":"{\"o\":{\"in\":{\"k\":\"d\"}}}"}`
	if res := execute(op, context.Background(), graphql.ExecParams{Variables: raw}); string(res.Data) != want {
		t.Fatalf("first execution: %s %v", res.Data, res.Errors)
	}
	if got := jsonText(raw); got != `{"o":{}}` {
		t.Errorf("coercion wrote into the caller's variables: %s", got)
	}
	raw["o"].(map[string]any)["in"] = map[string]any{"k": "CHANGED"}
	if got := response(t, s, `{ f(o: {}) }`, "", ""); got != `{"data":{"f":"{\"o\":{\"in\":{\"k\":\"d\"}}}"}}` {
		t.Errorf("a default changed by a caller: %s", got)
	}
}
