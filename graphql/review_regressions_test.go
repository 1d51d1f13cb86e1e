package graphql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// Regression tests for what an independent review of the termination and
// isolation work found; each failed (or never ended) before its fix.

// selfJoin is an error whose chain leads back to itself through
// Unwrap() []error; selfWrap through Unwrap() error.
type selfJoin struct{}

func (e *selfJoin) Error() string   { return "self join" }
func (e *selfJoin) Unwrap() []error { return []error{e} }

type selfWrap struct{}

func (e *selfWrap) Error() string { return "self wrap" }
func (e *selfWrap) Unwrap() error { return e }

func TestTerminationErrorChains(t *testing.T) {
	loopy := &graphql.Scalar{Name: "Loopy",
		Serialize:  func(v any) (any, error) { return nil, &selfWrap{} },
		ParseValue: func(v any) (any, error) { return nil, &selfJoin{} }}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "join", Type: graphql.String, Resolve: failing(&selfJoin{})},
		graphql.Field{Name: "wrap", Type: graphql.String, Resolve: failing(&selfWrap{})},
		graphql.Field{Name: "panics", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			panic(&selfJoin{})
		}},
		graphql.Field{Name: "out", Type: loopy, Resolve: constant("x")},
		graphql.Field{Name: "in", Type: graphql.String, Args: []graphql.Argument{{Name: "v", Type: loopy}}, Resolve: constant("ran")},
	)})
	got := response(t, s, `{ join wrap panics out }`, "", "")
	want := `{"data":{"join":null,"wrap":null,"panics":null,"out":null},"errors":[` +
		`{"message":"self join","locations":[{"line":1,"column":3}],"path":["join"]},` +
		`{"message":"self wrap","locations":[{"line":1,"column":8}],"path":["wrap"]},` +
		`{"message":"panic: self join","locations":[{"line":1,"column":13}],"path":["panics"]},` +
		`{"message":"self wrap","locations":[{"line":1,"column":20}],"path":["out"]}]}`
	if got != want {
		t.Errorf("resolver errors:\n got %s\nwant %s", got, want)
	}
	res := s.Do(context.Background(), `query($v: Loopy) { in(v: $v) }`, "", map[string]any{"v": 1})
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "Expected type \"Loopy\". self join") {
		t.Errorf("parser error: %v", res.Errors)
	}
	// The panic's cause can be inspected without looping.
	var pe *graphql.PanicError
	var self *selfJoin
	if r := s.Do(context.Background(), `{ panics }`, "", nil); !errors.As(r.Errors[0], &pe) || errors.As(pe, &self) {
		t.Errorf("PanicError chain: %v", r.Errors)
	}
}

// TestTerminationConditionalSpreads: fragments that spread the next one
// twice, under opposite conditions, expand to 2^n selections; Prepare
// refuses them instead of planning for minutes.
func TestTerminationConditionalSpreads(t *testing.T) {
	s := cyclicSchema(t)
	var b strings.Builder
	b.WriteString(`query($v: Boolean!){user{...F0}}`)
	const n = 40
	for i := range n {
		b.WriteString(" fragment F" + itoa(i) + " on User{...F" + itoa(i+1) + " @include(if:$v) ...F" + itoa(i+1) + " @skip(if:$v)}")
	}
	b.WriteString(" fragment F" + itoa(n) + " on User{id}")
	got := response(t, s, b.String(), "", `{"v": true}`)
	if want := `{"errors":[{"message":"The operation expands to more than 100000 field selections."}]}`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// shared returns a value of depth levels whose maps share their sub-map:
// a small value that unfolds to 2^depth parts.
func shared(depth int) map[string]any {
	d := map[string]any{"tag": "x"}
	for range depth {
		d = map[string]any{"not": d, "and": []any{d}}
	}
	return d
}

func TestTerminationSharedValues(t *testing.T) {
	s := cyclicSchema(t)
	res := s.Do(context.Background(), `query($f: Filter){search(where: $f)}`, "", map[string]any{"f": shared(40)})
	if res.Data != nil || len(res.Errors) != 1 || !strings.HasSuffix(res.Errors[0].Message, "The value has more than 1048576 parts.") {
		t.Errorf("shared variable: %s %v", res.Data, res.Errors)
	}
	filter := s.Type("Filter").(*graphql.InputObject)
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.Int,
		Args: []graphql.Argument{{Name: "a", Type: filter, Default: shared(40)}}})})
	if err == nil || !strings.Contains(err.Error(), "more than 1048576 parts") {
		t.Errorf("shared default: %v", err)
	}
	// A custom scalar's own value, shared or containing itself, is copied
	// once per map (Args.Value keeps its shape).
	loop := map[string]any{}
	loop["a"], loop["b"] = loop, loop
	for _, v := range []map[string]any{shared(40), loop} {
		a := graphql.NewArgs(map[string]any{"v": v})
		c := a.Value("v").(map[string]any)
		c["tag"] = "changed"
		if v["tag"] == "changed" {
			t.Error("Value returned the caller's map")
		}
	}
}

type embeddedObject struct{ *graphql.Object }

func TestTerminationSchemaBuilding(t *testing.T) {
	var mk func(i int) *graphql.Object
	mk = func(i int) *graphql.Object {
		return &graphql.Object{Name: "T" + itoa(i), Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{{Name: "next", Type: mk(i + 1)}}
		})}
	}
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: mk(0)})})
	if err == nil || !strings.Contains(err.Error(), "the schema has more than 10000 types (does a FieldsFunc make new types on every call?)") {
		t.Errorf("endless FieldsFunc: %v", err)
	}
	e := embeddedObject{&graphql.Object{Name: "E", Fields: graphql.Fields{{Name: "a", Type: graphql.Int}}}}
	_, err = graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.Int}), Types: []graphql.NamedType{e}})
	if err == nil || !strings.Contains(err.Error(), "has an unsupported type graphql_test.embeddedObject") {
		t.Errorf("a struct embedding *Object: %v", err)
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
		if res := op.Execute(context.Background(), nil); len(res.Errors) > 0 {
			t.Fatal(res.Errors)
		}
	}
	if strings.Join(seen, ",") != "x,x" {
		t.Errorf("executions saw %v", seen)
	}
}

// TestIsolationCoercedVariables: what CoerceVariables returns is the
// caller's, defaults included.
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
	vars, errs := op.CoerceVariables(map[string]any{"o": map[string]any{}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	vars["o"].(map[string]any)["in"].(map[string]any)["k"] = "CHANGED"
	if got := response(t, s, `{ f(o: {}) }`, "", ""); got != `{"data":{"f":"{\"o\":{\"in\":{\"k\":\"d\"}}}"}}` {
		t.Errorf("a default changed by a caller: %s", got)
	}
}

func TestNullFromResolver(t *testing.T) {
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "a", Type: graphql.Int, Resolve: constant(graphql.Null)},
		graphql.Field{Name: "b", Type: graphql.NewNonNull(graphql.Int), Resolve: constant(graphql.Null)},
	)})
	if got, want := response(t, s, `{ a }`, "", ""), `{"data":{"a":null}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := response(t, s, `{ b }`, "", ""), `{"data":null,"errors":[{"message":"Cannot return null for non-nullable field Query.b.","locations":[{"line":1,"column":3}],"path":["b"]}]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
