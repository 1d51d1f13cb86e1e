package graphql_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

// The tests in this file check that every recursive walk of the engine
// ends, on documents whose fragments spread themselves and on schemas whose
// types refer to themselves. A walk that does not end overflows the stack,
// which no recover catches: the test binary itself would die.

// cyclicSchema has types that refer to themselves and to each other:
// User.friends -> User, User.posts -> Post, Post.author -> User,
// Post.replies -> Post; and input types that do the same: Filter.not ->
// Filter, Filter.and -> [Filter!], A.b -> B, B.a -> A. Every field resolves
// from a small in-memory graph with a cycle in its data too.
func cyclicSchema(tb testing.TB) *graphql.Schema {
	tb.Helper()
	type user struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Friends []*user
		Posts   []map[string]any
	}
	ada := &user{ID: "1", Name: "Ada"}
	alan := &user{ID: "2", Name: "Alan"}
	ada.Friends, alan.Friends = []*user{alan}, []*user{ada}
	p1 := map[string]any{"id": "p1", "title": "Notes", "author": ada}
	p2 := map[string]any{"id": "p2", "title": "Re: Notes", "author": alan}
	p1["replies"], p2["replies"] = []any{p2}, []any{p1}
	ada.Posts, alan.Posts = []map[string]any{p1}, []map[string]any{p2}

	stamp := &graphql.Scalar{Name: "Stamp",
		Serialize:  func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) { return v, nil }}
	filter := &graphql.InputObject{Name: "Filter"}
	filter.Fields = []graphql.InputField{
		{Name: "tag", Type: graphql.String},
		{Name: "since", Type: stamp},
		{Name: "not", Type: filter},
		{Name: "and", Type: graphql.NewList(graphql.NewNonNull(filter))},
	}
	a := &graphql.InputObject{Name: "A"}
	b := &graphql.InputObject{Name: "B", Fields: []graphql.InputField{{Name: "a", Type: a}, {Name: "n", Type: graphql.Int, Default: 1}}}
	a.Fields = []graphql.InputField{{Name: "b", Type: b}, {Name: "s", Type: graphql.String}}

	var userT, postT *graphql.Object
	userT = &graphql.Object{Name: "User", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "name", Type: graphql.String},
			{Name: "best", Type: userT, Resolve: func(_ context.Context, p any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
				return p.(*user).Friends[0], nil
			}},
			{Name: "friends", Type: graphql.NewList(userT), Args: []graphql.Argument{{Name: "where", Type: filter}}},
			{Name: "posts", Type: graphql.NewList(postT)},
		}
	})}
	postT = &graphql.Object{Name: "Post", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "title", Type: graphql.String},
			{Name: "author", Type: userT},
			{Name: "replies", Type: graphql.NewList(postT)},
		}
	})}
	echo := func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
		b, err := json.Marshal(args)
		return string(b), err
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "user", Type: userT, Args: []graphql.Argument{{Name: "id", Type: graphql.ID}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				if id, _ := args.String("id"); id == "2" {
					return alan, nil
				}
				return ada, nil
			}},
		{Name: "post", Type: postT, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return p1, nil }},
		{Name: "search", Type: graphql.String, Args: []graphql.Argument{{Name: "where", Type: filter}, {Name: "a", Type: a}}, Resolve: echo},
		{Name: "a", Type: graphql.String},
		{Name: "b", Type: graphql.String},
	}}
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		tb.Fatalf("NewSchema: %v", err)
	}
	return s
}

// ends runs query through Do (parse, validate, prepare, execute) and
// returns the response, which must be well-formed.
func ends(t *testing.T, s *graphql.Schema, query, variables string) string {
	t.Helper()
	return response(t, s, query, "", variables)
}

// TestTerminationPrepare prepares documents that were never validated:
// Prepare must refuse fragment cycles and absurd depths itself.
func TestTerminationPrepare(t *testing.T) {
	s := cyclicSchema(t)
	deepChain := func(n int) string {
		var b strings.Builder
		b.WriteString("{ user { ...F0 } }")
		for i := range n {
			b.WriteString(" fragment F" + itoa(i) + " on User { best { best { ...F" + itoa(i+1) + " } } }")
		}
		b.WriteString(" fragment F" + itoa(n) + " on User { id }")
		return b.String()
	}
	tests := []struct {
		name, query, want string
	}{
		{"a fragment spread within itself", `{user{...A}}fragment A on User{posts{author{...A}}}`, `Cannot spread fragment "A" within itself.`},
		{"two fragments side by side", `{user{...A ...B}}fragment A on User{posts{author{...A}}}fragment B on User{posts{author{...B}}}`, `Cannot spread fragment "A" within itself.`},
		{"a cycle behind @include with a variable", `query($v: Boolean!){user{...A @include(if: $v)}}fragment A on User{best{...A @skip(if: $v)}}`, `Cannot spread fragment "A" within itself.`},
		{"mutual recursion", `{user{...A}}fragment A on User{friends{...B}}fragment B on User{best{...A}}`, `Cannot spread fragment "A" within itself.`},
		{"a chain 1002 fields deep", deepChain(500), "The operation nests more than 1000 fields deep."},
		{"a chain of 2000 spreads with no fields between", `{user{...F0}}` + spreadChain(2000), "Fragment spreads are nested more than 1000 levels deep."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op, errs := parseAndPrepare(t, s, tt.query)
			checkRefusal(t, op, errs, tt.want)
		})
	}
	// 1000 fields deep is allowed and runs (the data has a cycle too).
	doc, perr := parser.ParseQuery(&ast.Source{Input: deepChain(499)})
	if perr != nil {
		t.Fatal(perr)
	}
	op, errs := s.Prepare(doc, "")
	if len(errs) > 0 {
		t.Fatalf("Prepare(1000 fields deep) = %v", errs)
	}
	res := execute(op, context.Background(), graphql.ExecParams{Variables: nil})
	if len(res.Errors) > 0 || !json.Valid(res.Data) || strings.Count(string(res.Data), `"best"`) != 998 {
		t.Errorf("Execute(1000 fields deep): %d errors, %d bytes", len(res.Errors), len(res.Data))
	}
}

// TestPrepareFragmentNesting: planning follows at most 256 fragments,
// inline or spread, between two fields, so Prepare refuses a selection set
// that nests more rather than plan it without the fields past them.
func TestPrepareFragmentNesting(t *testing.T) {
	s := cyclicSchema(t)
	inline := func(n int, inside string) string {
		return strings.Repeat("... { ", n) + inside + strings.Repeat(" }", n)
	}
	// Five fragments, each 60 inline fragments deep, the last holding id:
	// 300 fragments between user and id.
	var chained strings.Builder
	chained.WriteString("{ user { ...F0 name } }")
	for i := range 5 {
		inside := "...F" + itoa(i+1)
		if i == 4 {
			inside = "id"
		}
		chained.WriteString(" fragment F" + itoa(i) + " on User { " + inline(59, inside) + " }")
	}
	const refused = "The operation nests more than 256 fragments between two fields."
	tests := []struct {
		name, query, want, data string
	}{
		{name: "256 inline fragments", query: "{ user { " + inline(256, "id") + " } }", data: `{"user":{"id":"1"}}`},
		{name: "257 inline fragments", query: "{ user { " + inline(257, "id") + " } }", want: refused},
		{name: "257 at the top", query: "{ " + inline(257, "user { id }") + " }", want: refused},
		{name: "fragments of 60 inline fragments, chained", query: chained.String(), want: refused},
		{name: "257 under a field that is not the first", query: "{ user { id best { " + inline(257, "id") + " } } }", want: refused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op, errs := parseAndPrepare(t, s, tt.query)
			if tt.want != "" {
				checkRefusal(t, op, errs, tt.want)
				return
			}
			if len(errs) > 0 {
				t.Fatalf("Prepare: %v", errs)
			}
			res := execute(op, context.Background(), graphql.ExecParams{})
			if got := jsonText(res); got != `{"data":`+tt.data+`}` {
				t.Errorf("Execute = %s, want data %s", got, tt.data)
			}
		})
	}
}

func spreadChain(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(" fragment F" + itoa(i) + " on User { ...F" + itoa(i+1) + " }")
	}
	b.WriteString(" fragment F" + itoa(n) + " on User { id }")
	return b.String()
}

func itoa(i int) string { return strings.TrimSpace(jsonText(i)) }

// TestTerminationCyclicTypes executes deep selections over types and data
// that refer to themselves, with variable conditions at every level.
func TestTerminationCyclicTypes(t *testing.T) {
	s := cyclicSchema(t)
	var sel strings.Builder
	for range 40 {
		sel.WriteString(`best @include(if: $v) { id friends @skip(if: $w) { name } posts { replies { author { `)
	}
	sel.WriteString("id")
	for range 40 {
		sel.WriteString(" } } } }")
	}
	query := `query($v: Boolean!, $w: Boolean!) { user { ` + sel.String() + ` } }`
	for _, vars := range []string{`{"v": true, "w": false}`, `{"v": true, "w": true}`, `{"v": false, "w": false}`} {
		t.Run(vars, func(t *testing.T) {
			got := ends(t, s, query, vars)
			if strings.Contains(got, `"errors"`) {
				t.Errorf("%s: %.300s", vars, got)
			}
		})
	}
}

func TestTerminationInputValues(t *testing.T) {
	s := cyclicSchema(t)
	nested := func(n int) string {
		return strings.Repeat(`{"not":`, n) + `{"tag":"x"}` + strings.Repeat("}", n)
	}
	tests := []struct {
		name, query, vars, want string
	}{
		{"a self-referring input 100 deep", `query($f: Filter){search(where: $f)}`, `{"f":` + nested(100) + `}`,
			`{"data":{"search":"{\"where\":` + strings.Repeat(`{\"not\":`, 100) + `{\"tag\":\"x\"}`},
		{"a self-referring input 300 deep is refused", `query($f: Filter){search(where: $f)}`, `{"f":` + nested(300) + `}`,
			`The value is nested more than 256 levels deep.`},
		{"mutually referring inputs, literal, defaults filled", `{search(a: {b: {a: {b: {}}}})}`, ``,
			`{"data":{"search":"{\"a\":{\"b\":{\"a\":{\"b\":{\"n\":1}},\"n\":1}}}"}}`},
		{"a list of self-referring inputs", `query($f: Filter){search(where: $f)}`, `{"f":{"and":[{"and":[{"tag":"a"}]},{"not":{"tag":"b"}}]}}`,
			`"data":{"search":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ends(t, s, tt.query, tt.vars)
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %.400s\nwant it to contain %.400s", got, tt.want)
			}
		})
	}
	// A Go caller's variable value that contains itself.
	loop := map[string]any{"tag": "x"}
	loop["not"] = loop
	res := s.Do(context.Background(), graphql.Request{Query: `query($f: Filter){search(where: $f)}`, Variables: map[string]any{"f": loop}, Present: graphql.Unmasked})
	if res.Data != nil || len(res.Errors) == 0 {
		t.Fatalf("self-containing variable: %s %v", res.Data, res.Errors)
	}
	for _, e := range res.Errors {
		if !strings.HasSuffix(e.Message, "The value is nested more than 256 levels deep.") {
			t.Errorf("self-containing variable: %s", e.Message)
		}
	}
}

// TestTerminationSchemaDefinitions builds schemas from definitions that
// contain themselves: NewSchema reports them instead of looping.
func TestTerminationSchemaDefinitions(t *testing.T) {
	loopList := &graphql.List{}
	loopList.OfType = loopList
	loopNonNull := &graphql.NonNull{}
	loopNonNull.OfType = graphql.NewList(loopNonNull)
	if got := loopList.String(); !strings.Contains(got, "…") {
		t.Errorf("String of a list that contains itself = %q", got)
	}
	selfDefault := map[string]any{}
	selfDefault["next"] = selfDefault
	node := &graphql.InputObject{Name: "Node"}
	node.Fields = []graphql.InputField{{Name: "next", Type: node}, {Name: "v", Type: graphql.Int}}
	var selfAny any
	selfAny = &selfAny
	tests := []struct {
		name  string
		field graphql.Field
		want  string
	}{
		{"a list type that contains itself", graphql.Field{Name: "f", Type: loopList},
			"graphql: Query.f wraps more than 64 lists and non-nulls (does a wrapper contain itself?)"},
		{"a non-null of a list of itself", graphql.Field{Name: "f", Type: loopNonNull},
			"graphql: Query.f wraps more than 64 lists and non-nulls (does a wrapper contain itself?)"},
		{"an argument whose type contains itself", graphql.Field{Name: "f", Type: graphql.Int, Args: []graphql.Argument{{Name: "a", Type: loopList}}},
			"graphql: Query.f(a:) wraps more than 64 lists and non-nulls (does a wrapper contain itself?)"},
		{"a default that contains itself", graphql.Field{Name: "f", Type: graphql.Int, Args: []graphql.Argument{{Name: "a", Type: node, Default: selfDefault}}},
			"graphql: field Query.f: the default of a is not a valid Node: field next: "},
		{"an unknown built-in scalar", graphql.Field{Name: "f", Type: graphql.BuiltinScalar(9)},
			"graphql: Query.f has the unknown built-in scalar 9"},
		{"no type at all", graphql.Field{Name: "f", Type: graphql.BuiltinScalar(0)},
			"graphql: Query.f has the unknown built-in scalar 0"},
		{"a default that is a pointer to itself", graphql.Field{Name: "f", Type: graphql.Int, Args: []graphql.Argument{{Name: "a", Type: graphql.String, Default: selfAny}}},
			"graphql: field Query.f: the default of a is not a valid String: String cannot represent value: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(tt.field)})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewSchema error = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestTerminationHostileResults resolves values that contain themselves:
// each costs one field error, never the process.
func TestTerminationHostileResults(t *testing.T) {
	selfList := []any{nil}
	selfList[0] = selfList
	selfMap := map[any]any{}
	selfMap["me"] = selfMap
	var selfPtr any
	selfPtr = &selfPtr
	type node struct{ Next any }
	selfStruct := &node{}
	selfStruct.Next = selfStruct
	jsonSelf := map[string]any{}
	jsonSelf["me"] = jsonSelf
	custom := &graphql.Scalar{Name: "JSON",
		Serialize:  func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) { return v, nil }}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "list", Type: graphql.String, Resolve: constant(selfList)},
		graphql.Field{Name: "map", Type: graphql.String, Resolve: constant(selfMap)},
		graphql.Field{Name: "ptr", Type: graphql.String, Resolve: constant(selfPtr)},
		graphql.Field{Name: "st", Type: graphql.Int, Resolve: constant(selfStruct)},
		graphql.Field{Name: "json", Type: custom, Resolve: constant(jsonSelf)},
		graphql.Field{Name: "panics", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			panic(selfMap)
		}},
		graphql.Field{Name: "ok", Type: graphql.String, Resolve: constant("ok")},
	)})
	got := ends(t, s, `{ list map ptr st json panics ok }`, "")
	want := `{"data":{"list":null,"map":null,"ptr":null,"st":null,"json":null,"panics":null,"ok":"ok"},"errors":[` +
		`{"message":"String cannot represent value: [[[[Array]]]]","locations":[{"line":1,"column":3}],"path":["list"]},` +
		`{"message":"String cannot represent value: { me: { me: { me: [Object] } } }","locations":[{"line":1,"column":8}],"path":["map"]},` +
		`{"message":"Int cannot represent non-integer value: { Next: { Next: { Next: [Object] } } }","locations":[{"line":1,"column":16}],"path":["st"]},` +
		`{"message":"the value is nested more than 256 levels deep","locations":[{"line":1,"column":19}],"path":["json"]},` +
		`{"message":"panic: { me: { me: { me: [Object] } } }","locations":[{"line":1,"column":24}],"path":["panics"]}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestTerminationIntrospectionAndSDL walks the introspection types, which
// refer to each other, and prints a schema whose types refer to themselves.
func TestTerminationIntrospectionAndSDL(t *testing.T) {
	s := cyclicSchema(t)
	sdl := s.SDL()
	for _, want := range []string{"type User {", "best: User", "input Filter {", "not: Filter", "input A {", "b: B"} {
		if !strings.Contains(sdl, want) {
			t.Errorf("SDL lacks %q:\n%s", want, sdl)
		}
	}
	got := ends(t, s, `{ __type(name: "Filter") { inputFields { name type { name ofType { name inputFields { name type { name } } } } } } }`, "")
	if !strings.Contains(got, `{"name":"and","type":{"name":null,"ofType":{"name":null,"inputFields":null}}}`) {
		t.Errorf("introspection of a self-referring input: %s", got)
	}
}

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
	res := s.Do(context.Background(), graphql.Request{Query: `query($v: Loopy) { in(v: $v) }`, Variables: map[string]any{"v": 1}, Present: graphql.Unmasked})
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "Expected type \"Loopy\". self join") {
		t.Errorf("parser error: %v", res.Errors)
	}
	// The panic's cause can be inspected without looping.
	var pe *errcode.PanicError
	var self *selfJoin
	if r := s.Do(context.Background(), graphql.Request{Query: `{ panics }`, Present: graphql.Unmasked}); !errors.As(r.Errors[0], &pe) || errors.As(pe, &self) {
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
	res := s.Do(context.Background(), graphql.Request{Query: `query($f: Filter){search(where: $f)}`, Variables: map[string]any{"f": shared(40)}, Present: graphql.Unmasked})
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
	for _, tt := range []struct {
		name string
		v    map[string]any
	}{{"shared sub-maps", shared(40)}, {"a map that contains itself", loop}} {
		t.Run(tt.name, func(t *testing.T) {
			a := graphql.NewArgs(map[string]any{"v": tt.v})
			c := a.Value("v").(map[string]any)
			c["tag"] = "changed"
			if tt.v["tag"] == "changed" {
				t.Error("Value returned the caller's map")
			}
		})
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

// parseAndPrepare parses query with gqlparser's parser and prepares its
// operation with s.
func parseAndPrepare(t *testing.T, s *graphql.Schema, query string) (*graphql.Operation, gqlerror.List) {
	t.Helper()
	doc, perr := parser.ParseQuery(&ast.Source{Input: query})
	if perr != nil {
		t.Fatal(perr)
	}
	return s.Prepare(doc, "")
}

// checkRefusal checks that Prepare, which returned op and errs, refused
// its document with one ErrInvalidDocument whose message is want.
func checkRefusal(t *testing.T, op *graphql.Operation, errs gqlerror.List, want string) {
	t.Helper()
	if op != nil || len(errs) != 1 || errs[0].Message != want || !errors.Is(errs[0], graphql.ErrInvalidDocument) {
		t.Errorf("Prepare = %v, %v; want one ErrInvalidDocument %q", op, errs, want)
	}
}
