package graphql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/validate"
)

type genreT string

type levelT int

var (
	genreEnum = &graphql.Enum{Name: "Genre", Values: []graphql.EnumValue{
		{Name: "SF", Value: genreT("sf")}, {Name: "FANTASY", Value: genreT("fantasy")}}}
	levelEnum = &graphql.Enum{Name: "Level", Values: []graphql.EnumValue{
		{Name: "LOW", Value: levelT(1)}, {Name: "HIGH", Value: levelT(2)}}}
)

type filterIn struct {
	Title  graphql.Opt[string]
	Genres []genreT
	Inner  *filterIn
}

func (f *filterIn) String() string {
	if f == nil {
		return "nil"
	}
	return fmt.Sprintf("{title=%v genres=%v inner=%v}", f.Title, f.Genres, f.Inner)
}

type echoArgs struct {
	N     int
	Big   int64
	Small int32
	F     float64
	S     *string
	O     graphql.Opt[string]
	P     graphql.Opt[int]
	G     genreT
	Gs    string `json:"gs"` // an enum of a string type into a string
	L     levelT
	IDs   []string `json:"ids"`
	In    *filterIn
	Ins   []filterIn
	Raw   map[string]any
	Any   any
	Date  time.Time
	Untyp graphql.Args `json:"untyped"`
	skip  int          //lint:ignore U1000 an unexported field is left alone
}

func (a echoArgs) String() string {
	s := "<nil>"
	if a.S != nil {
		s = *a.S
	}
	ins := make([]string, len(a.Ins))
	for i := range a.Ins {
		ins[i] = a.Ins[i].String()
	}
	date := ""
	if !a.Date.IsZero() {
		date = a.Date.Format(time.DateOnly)
	}
	u, _ := a.Untyp.Int("x")
	return fmt.Sprintf("n=%d big=%d small=%d f=%v s=%s o=%v p=%v g=%q gs=%q l=%d ids=%q in=%v ins=%v raw=%v any=%v date=%s untyped.x=%d",
		a.N, a.Big, a.Small, a.F, s, a.O, a.P, a.G, a.Gs, a.L, a.IDs, a.In, ins, a.Raw, a.Any, date, u)
}

func echoSchema(t *testing.T) *graphql.Schema {
	t.Helper()
	s, err := newEchoSchema()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newEchoSchema() (*graphql.Schema, error) {
	filter := &graphql.InputObject{Name: "Filter"}
	filter.Fields = []graphql.InputField{
		{Name: "title", Type: graphql.String},
		{Name: "genres", Type: graphql.NewList(graphql.NewNonNull(genreEnum))},
		{Name: "inner", Type: filter},
	}
	untyped := &graphql.InputObject{Name: "Untyped", Fields: []graphql.InputField{{Name: "x", Type: graphql.Int}}}
	return graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "echo", Type: graphql.String, Args: []graphql.Argument{
			{Name: "n", Type: graphql.Int, Default: 10},
			{Name: "big", Type: graphql.Int},
			{Name: "small", Type: graphql.Int},
			{Name: "f", Type: graphql.Float},
			{Name: "s", Type: graphql.String},
			{Name: "o", Type: graphql.String, Default: "dflt"},
			{Name: "p", Type: graphql.Int},
			{Name: "g", Type: genreEnum},
			{Name: "gs", Type: genreEnum},
			{Name: "l", Type: levelEnum},
			{Name: "ids", Type: graphql.NewList(graphql.ID)},
			{Name: "in", Type: filter},
			{Name: "ins", Type: graphql.NewList(graphql.NewNonNull(filter))},
			{Name: "raw", Type: filter},
			{Name: "any", Type: filter},
			{Name: "date", Type: dateScalar},
			{Name: "untyped", Type: untyped},
		}, Typed: graphql.Resolver(func(_ context.Context, _ any, args echoArgs) (string, error) {
			return args.String(), nil
		})},
	}}})
}

// TestTypedArguments covers how coerced arguments land in the args
// struct: absent, null and default kept apart by Opt; pointers, enums of
// defined types, nested and listed input objects, Int bounds, custom
// scalars, maps, any and Args.
func TestTypedArguments(t *testing.T) {
	s := echoSchema(t)
	const zero = `n=10 big=0 small=0 f=0 s=<nil> o=dflt p=absent g="" gs="" l=0 ids=[] in=nil ins=[] raw=map[] any=<nil> date= untyped.x=0`
	tests := []struct {
		name, query, vars, want string
	}{
		{"absent: defaults and zero values", `{ echo }`, "", zero},
		{"null overrides the default; a pointer is nil, an Opt null",
			`{ echo(n: null, o: null, p: null, s: null) }`, "",
			`n=0 big=0 small=0 f=0 s=<nil> o=null p=null g="" gs="" l=0 ids=[] in=nil ins=[] raw=map[] any=<nil> date= untyped.x=0`},
		{"given values", `{ echo(n: 3, f: 2, s: "x", o: "y", p: 0, g: SF, gs: FANTASY, l: HIGH, ids: [1, "b"]) }`, "",
			`n=3 big=0 small=0 f=2 s=x o=y p=0 g="sf" gs="fantasy" l=2 ids=["1" "b"] in=nil ins=[] raw=map[] any=<nil> date= untyped.x=0`},
		{"Int bounds", `{ echo(big: 2147483647, small: -2147483648) }`, "",
			`n=10 big=2147483647 small=-2147483648 f=0 s=<nil> o=dflt p=absent g="" gs="" l=0 ids=[] in=nil ins=[] raw=map[] any=<nil> date= untyped.x=0`},
		{"nested input objects", `{ echo(in: {title: "t", genres: [SF, FANTASY], inner: {title: null, genres: SF}}) }`, "",
			`n=10 big=0 small=0 f=0 s=<nil> o=dflt p=absent g="" gs="" l=0 ids=[] in={title=t genres=[sf fantasy] inner={title=null genres=[sf] inner=nil}} ins=[] raw=map[] any=<nil> date= untyped.x=0`},
		{"a list of input objects, and one given alone", `{ a: echo(ins: [{title: "a"}, {genres: [FANTASY]}]) b: echo(ins: {}) }`, "",
			`{"data":{"a":"n=10 big=0 small=0 f=0 s=<nil> o=dflt p=absent g=\"\" gs=\"\" l=0 ids=[] in=nil ins=[{title=a genres=[] inner=nil} {title=absent genres=[fantasy] inner=nil}] raw=map[] any=<nil> date= untyped.x=0",` +
				`"b":"n=10 big=0 small=0 f=0 s=<nil> o=dflt p=absent g=\"\" gs=\"\" l=0 ids=[] in=nil ins=[{title=absent genres=[] inner=nil}] raw=map[] any=<nil> date= untyped.x=0"}}`},
		{"map, any, a custom scalar and Args", `{ echo(raw: {title: "r"}, any: {genres: SF}, date: "2026-11-25", untyped: {x: 7}) }`, "",
			`n=10 big=0 small=0 f=0 s=<nil> o=dflt p=absent g="" gs="" l=0 ids=[] in=nil ins=[] raw=map[title:r] any=map[genres:[sf]] date=2026-11-25 untyped.x=7`},
		{"variables: absent", `query($p: Int, $o: String) { echo(p: $p, o: $o) }`, `{}`, zero},
		{"variables: null", `query($p: Int, $o: String) { echo(p: $p, o: $o) }`, `{"p": null, "o": null}`,
			`n=10 big=0 small=0 f=0 s=<nil> o=null p=null g="" gs="" l=0 ids=[] in=nil ins=[] raw=map[] any=<nil> date= untyped.x=0`},
		{"variables: given", `query($p: Int, $in: Filter) { echo(p: $p, in: $in) }`, `{"p": 5, "in": {"genres": "FANTASY", "inner": {"title": "i"}}}`,
			`n=10 big=0 small=0 f=0 s=<nil> o=dflt p=5 g="" gs="" l=0 ids=[] in={title=absent genres=[fantasy] inner={title=i genres=[] inner=nil}} ins=[] raw=map[] any=<nil> date= untyped.x=0`},
		{"an Int out of range is the client's error", `{ echo(small: 2147483648) }`, "",
			`{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":15}]}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := response(t, s, tc.query, "", tc.vars)
			want := tc.want
			if !strings.HasPrefix(want, "{") {
				want = `{"data":{"echo":` + quoteJSON(tc.want) + `}}`
			}
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// quoteJSON writes s as a JSON string, as the engine does (no HTML
// escapes).
func quoteJSON(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// TestTypedArgumentsAreTheResolversOwn: slices and structs are decoded
// afresh for each call, so a resolver that changes them changes nothing
// the next call sees.
func TestTypedArgumentsAreTheResolversOwn(t *testing.T) {
	type args struct {
		Tags []string
		In   struct{ L []int }
	}
	in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{{Name: "l", Type: graphql.NewList(graphql.Int)}}}
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "f", Type: graphql.String, Args: []graphql.Argument{
			{Name: "tags", Type: graphql.NewList(graphql.String), Default: []any{"a", "b"}},
			{Name: "in", Type: in, Default: map[string]any{"l": []any{1}}},
		}, Typed: graphql.Resolver(func(_ context.Context, _ any, a args) (string, error) {
			out := fmt.Sprint(a.Tags, a.In.L)
			a.Tags[0], a.In.L[0] = "changed", 99
			return out, nil
		})},
	}}})
	doc := parseValidated(t, s, `{ f f2: f(tags: ["x"], in: {l: [2]}) }`)
	op, errs := s.Prepare(doc, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for range 3 {
		res := execute(op, context.Background(), graphql.ExecParams{})
		if got := string(res.Data); got != `{"f":"[a b] [1]","f2":"[x] [2]"}` {
			t.Fatalf("data %s: a resolver's change leaked into the next call", got)
		}
	}
}

// TestTypedRuntimeMismatch: what NewSchema cannot check is an error at
// the field, never a panic: a custom scalar's value of another type, a
// root value of another type.
func TestTypedRuntimeMismatch(t *testing.T) {
	type rootT struct{ Name string }
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "date", Type: graphql.String, Args: []graphql.Argument{{Name: "d", Type: dateScalar}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, a struct{ D string }) (string, error) { return a.D, nil })},
		{Name: "root", Type: graphql.String,
			Typed: graphql.Resolver(func(_ context.Context, r *rootT, _ graphql.NoArgs) (string, error) {
				if r == nil {
					return "no root", nil
				}
				return r.Name, nil
			})},
	}}})
	got := response(t, s, `{ date(d: "2026-11-25") root }`, "", "")
	want := `{"data":{"date":null,"root":"no root"},"errors":[{"message":"graphql: Query.date: argument d holds a time.Time, which cannot be stored in a string","locations":[{"line":1,"column":3}],"path":["date"]}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	doc := parseValidated(t, s, `{ root }`)
	op, _ := s.Prepare(doc, "")
	for _, tc := range []struct {
		root any
		want string
	}{
		{&rootT{Name: "r"}, `{"root":"r"}`},
		{rootT{Name: "r"}, `{"root":null}`},
	} {
		res := execute(op, context.Background(), graphql.ExecParams{Root: tc.root})
		if got := string(res.Data); got != tc.want {
			t.Errorf("root %T: data %s; want %s", tc.root, got, tc.want)
		}
		if tc.want == `{"root":null}` && (len(res.Errors) != 1 || res.Errors[0].Message != "graphql: Query.root: the resolver takes a parent of type *graphql_test.rootT, but was given graphql_test.rootT") {
			t.Errorf("root %T: errors %v", tc.root, res.Errors)
		}
	}
}

type tPost struct {
	ID     string `json:"id"`
	Title  string
	Genre  genreT
	Author *tUser
}

type tUser struct{ Name string }

func (u *tUser) Initials() string { return u.Name[:1] }

// TestNewSchemaTypedMismatches is the table of what NewSchema says about
// typed resolvers whose Go types do not fit the schema.
func TestNewSchemaTypedMismatches(t *testing.T) {
	user := &graphql.Object{Name: "User", Fields: graphql.Fields{
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
		{Name: "initials", Type: graphql.String},
	}}
	postFields := func(extra ...graphql.Field) *graphql.Object {
		return &graphql.Object{Name: "Post", Fields: append(graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "title", Type: graphql.String},
			{Name: "genre", Type: genreEnum},
			{Name: "author", Type: user},
		}, extra...)}
	}
	filter := &graphql.InputObject{Name: "Filter", Fields: []graphql.InputField{
		{Name: "title", Type: graphql.String}, {Name: "genres", Type: graphql.NewList(genreEnum)}}}
	posts := func(t graphql.TypedResolver) graphql.Field {
		return graphql.Field{Name: "posts", Type: graphql.NewList(postFields()), Typed: t,
			Args: []graphql.Argument{{Name: "first", Type: graphql.Int}, {Name: "filter", Type: filter}, {Name: "level", Type: levelEnum}}}
	}
	none := func(context.Context, any, graphql.NoArgs) ([]*tPost, error) { return nil, nil }
	tests := []struct {
		name  string
		query graphql.Fields
		want  []string
	}{
		{"an args field that names no argument", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, struct {
			First int `json:"frist"`
		}) ([]*tPost, error) {
			return nil, nil
		}))}, []string{`graphql: Query.posts: field First of the resolver's args type struct { First int "json:\"frist\"" } stands for the argument "frist", which the field does not have (its arguments: filter, first, level)`}},
		{"args that are not a struct", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, int) ([]*tPost, error) { return nil, nil }))},
			[]string{`graphql: Query.posts: the resolver's args type int is not a struct (graphql.NoArgs takes none, graphql.Args the untyped ones)`}},
		{"an Int into a string", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, struct{ First string }) ([]*tPost, error) { return nil, nil }))},
			[]string{`graphql: Query.posts: argument "first" is Int, which field First of struct { First string } (string) cannot hold: Int needs an int, int32 or int64`}},
		{"an enum into another enum's type", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, struct{ Level genreT }) ([]*tPost, error) { return nil, nil }))},
			[]string{`graphql: Query.posts: argument "level" is Level, which field Level of struct { Level graphql_test.genreT } (graphql_test.genreT) cannot hold: the values of enum Level are graphql_test.levelT`}},
		{"an input object into a string, a list into a string", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, struct {
			Filter struct{ Genres genreT }
		}) ([]*tPost, error) {
			return nil, nil
		}))}, []string{`graphql: Query.posts: input field Filter.genres is [Genre], which field Genres of struct { Genres graphql_test.genreT } (graphql_test.genreT) cannot hold: a list needs a slice`}},
		{"a struct field that names no input field", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, struct {
			Filter struct{ Author string }
		}) ([]*tPost, error) {
			return nil, nil
		}))}, []string{`graphql: Query.posts: field Author of struct { Author string } stands for the input field "author", which input object Filter does not have (its fields: genres, title)`}},
		{"an embedded pointer", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, struct{ *tUser }) ([]*tPost, error) { return nil, nil }))},
			[]string{`graphql: Query.posts: the resolver's args type struct { *graphql_test.tUser }: the embedded pointer tUser cannot be decoded into; embed the struct itself`}},
		{"a string for a list", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, graphql.NoArgs) (string, error) { return "", nil }))},
			[]string{`graphql: Query.posts: the resolver returns string, which does not fit [Post] ([Post] is string; a list needs a slice or an array)`}},
		{"a map for a String", graphql.Fields{{Name: "s", Type: graphql.String, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (map[string]int, error) { return nil, nil })}},
			[]string{`graphql: Query.s: the resolver returns map[string]int, which does not fit String (String is map[string]int; String needs a string, number or bool type, or a fmt.Stringer)`}},
		{"an embedded Opt", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, struct {
			First struct {
				A string
				graphql.Opt[int]
			}
		}) ([]*tPost, error) {
			return nil, nil
		}))}, []string{`graphql: Query.posts: argument "first" is Int, which field First of struct { First struct { A string; graphql.Opt[int] } } (struct { A string; graphql.Opt[int] }) cannot hold: Int needs an int, int32 or int64`}},
		{"a pointer type that points to itself", graphql.Fields{posts(graphql.Resolver(func(context.Context, any, struct{ First selfPtr }) ([]*tPost, error) { return nil, nil })),
			{Name: "p", Type: graphql.String, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (selfPtr, error) { return nil, nil })}},
			[]string{`graphql: Query.posts: argument "first": field First of struct { First graphql_test.selfPtr } (graphql_test.selfPtr) cannot be decoded into: the pointer type graphql_test.selfPtr points to itself`,
				`graphql: Query.p: the resolver returns graphql_test.selfPtr, which does not fit String (String is graphql_test.selfPtr; String needs a string, number or bool type, or a fmt.Stringer)`}},
		{`"sf" instead of genreT("sf")`, graphql.Fields{{Name: "g", Type: genreEnum, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (string, error) { return "sf", nil })}},
			[]string{`graphql: Query.g: the resolver returns string, which does not fit Genre (Genre is string; the values of enum Genre are graphql_test.genreT)`}},
		{"a struct where a pointer was expected", graphql.Fields{{Name: "posts", Type: graphql.NewList(postFields(
			graphql.Field{Name: "excerpt", Type: graphql.String, Typed: graphql.Resolver(func(_ context.Context, p *tPost, _ graphql.NoArgs) (string, error) { return p.Title, nil })})),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]tPost, error) { return nil, nil })}},
			[]string{`graphql: Post.excerpt: the resolver takes a parent of type *graphql_test.tPost, but the values of Post are graphql_test.tPost (from the resolver returns []graphql_test.tPost for Query.posts)`}},
		{"a field the Go type does not have, and a method on the pointer only", graphql.Fields{{Name: "posts", Type: graphql.NewList(postFields(
			graphql.Field{Name: "subtitle", Type: graphql.String})),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]tPost, error) { return nil, nil })}},
			[]string{`graphql: Post.subtitle: graphql_test.tPost (the values of Post from the resolver returns []graphql_test.tPost for Query.posts) has no field or method "subtitle" for it to read`}},
		{"a parent of another object's Go type", graphql.Fields{{Name: "posts", Type: graphql.NewList(postFields(
			graphql.Field{Name: "count", Type: graphql.Int, Typed: graphql.Resolver(func(_ context.Context, p *tUser, _ graphql.NoArgs) (int, error) { return 0, nil })})),
			Typed: graphql.Resolver(none)}},
			[]string{`graphql: Post.count: the resolver takes a parent of type *graphql_test.tUser, but the values of Post are *graphql_test.tPost (from the resolver returns []*graphql_test.tPost for Query.posts)`}},
		{"a struct field of the wrong type, found through the fields read", graphql.Fields{{Name: "posts", Type: graphql.NewList(postFields()),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]*struct {
				ID     int
				Title  string
				Genre  string
				Author tUser
			}, error) {
				return nil, nil
			})}},
			[]string{`graphql: Post.genre: field Genre of *struct { ID int; Title string; Genre string; Author graphql_test.tUser }, which does not fit Genre (Genre is string; the values of enum Genre are graphql_test.genreT)`,
				`graphql: User.initials: graphql_test.tUser (the values of User from field Author of *struct { ID int; Title string; Genre string; Author graphql_test.tUser } for Post.author) has no field or method "initials" for it to read`}},
		{"both Typed and Resolve, and a nil function", graphql.Fields{
			{Name: "a", Type: graphql.String, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (string, error) { return "", nil }), Resolve: constant("a")},
			{Name: "b", Type: graphql.String, Typed: graphql.Resolver[any, graphql.NoArgs, string](nil)},
		}, []string{`graphql: field Query.a has both Typed and Resolve; give it one resolver`, `graphql: field Query.b: the typed resolver's function is nil`}},
		{"every mismatch at once", graphql.Fields{
			{Name: "s", Type: graphql.String, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (struct{}, error) { return struct{}{}, nil })},
			{Name: "i", Type: graphql.Int, Args: []graphql.Argument{{Name: "x", Type: graphql.Boolean}},
				Typed: graphql.Resolver(func(context.Context, any, struct{ X, Y int }) ([]int, error) { return nil, nil })},
		}, []string{
			`graphql: Query.s: the resolver returns struct {}, which does not fit String (String is struct {}; String needs a string, number or bool type, or a fmt.Stringer)`,
			`graphql: Query.i: argument "x" is Boolean, which field X of struct { X int; Y int } (int) cannot hold: Boolean needs a bool`,
			`graphql: Query.i: field Y of the resolver's args type struct { X int; Y int } stands for the argument "y", which the field does not have (its arguments: x)`,
			`graphql: Query.i: the resolver returns []int, which does not fit Int (Int is []int; Int needs an integer type)`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: tc.query}})
			if err == nil {
				t.Fatal("NewSchema accepted the schema")
			}
			if got, want := err.Error(), strings.Join(tc.want, "\n"); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestNewSchemaTypedFits: the forms that fit are accepted, through
// pointers, interfaces, methods, maps and recursive input objects.
func TestNewSchemaTypedFits(t *testing.T) {
	user := &graphql.Object{Name: "User", Fields: graphql.Fields{
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
		{Name: "initials", Type: graphql.String}, // a method on *tUser
	}}
	post := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.String},
		{Name: "genre", Type: genreEnum},
		{Name: "author", Type: user},
		{Name: "shout", Type: graphql.String, Typed: graphql.Resolver(func(_ context.Context, p fmt.Stringer, _ graphql.NoArgs) (string, error) {
			return strings.ToUpper(p.String()), nil
		})},
	}}
	filter := &graphql.InputObject{Name: "Filter"}
	filter.Fields = []graphql.InputField{{Name: "not", Type: filter}, {Name: "title", Type: graphql.String}}
	type filterArg struct {
		Not   *filterArg
		Title *string
	}
	meta := &graphql.Object{Name: "Meta", Fields: graphql.Fields{{Name: "count", Type: graphql.Int}}}
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post))),
			Args: []graphql.Argument{{Name: "filter", Type: filter}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, a struct{ Filter filterArg }) ([]*stringerPost, error) {
				return []*stringerPost{{tPost{ID: "1", Title: "t", Genre: "sf", Author: &tUser{Name: "Ada"}}}}, nil
			})},
		{Name: "meta", Type: meta, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (map[string]int, error) {
			return map[string]int{"count": 2}, nil
		})},
		{Name: "anything", Type: graphql.String, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (any, error) { return "x", nil })},
	}}})
	got := response(t, s, `{ posts(filter: {not: {title: "x"}}) { id title genre shout author { name initials } } meta { count } anything }`, "", "")
	want := `{"data":{"posts":[{"id":"1","title":"t","genre":"SF","shout":"T","author":{"name":"Ada","initials":"A"}}],"meta":{"count":2},"anything":"x"}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// stringerPost is a post that is also a fmt.Stringer (its title).
type stringerPost struct{ tPost }

func (p *stringerPost) String() string { return p.Title }

// TestTypedWithInfo: ResolverWithInfo hands the resolver its ResolveInfo.
func TestTypedWithInfo(t *testing.T) {
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "where", Type: graphql.String, Typed: graphql.ResolverWithInfo(func(_ context.Context, _ any, _ graphql.NoArgs, info graphql.ResolveInfo) (string, error) {
			return fmt.Sprint(info.ParentType().Name, ".", info.FieldName(), " as ", info.ResponseKey(), " ", info.Operation() != nil), nil
		})},
	}}})
	if got, want := response(t, s, `{ w: where }`, "", ""), `{"data":{"w":"Query.where as w true"}}`; got != want {
		t.Errorf("got %s; want %s", got, want)
	}
}

// FuzzTypedArgs sends random variables to a field whose typed resolver
// takes every kind of argument: whatever coercion accepts, the decoder
// stores without an error of its own (an internal error would start with
// "graphql:") and without a panic, and the answer is well-formed JSON.
func FuzzTypedArgs(f *testing.F) {
	s, err := newEchoSchema()
	if err != nil {
		f.Fatal(err)
	}
	const query = `query($n: Int, $big: Int, $small: Int, $f: Float, $s: String, $o: String, $p: Int, $g: Genre, $gs: Genre,
		$l: Level, $ids: [ID], $in: Filter, $ins: [Filter!], $raw: Filter, $any: Filter, $date: Date, $u: Untyped) {
		echo(n: $n, big: $big, small: $small, f: $f, s: $s, o: $o, p: $p, g: $g, gs: $gs, l: $l, ids: $ids,
			in: $in, ins: $ins, raw: $raw, any: $any, date: $date, untyped: $u) }`
	for _, seed := range []string{
		`{}`, `{"n": null, "o": null, "p": 3}`, `{"g": "SF", "l": "HIGH", "ids": [1, "x"]}`,
		`{"in": {"title": "t", "genres": ["SF"], "inner": {"inner": {"title": null}}}}`,
		`{"ins": [{"genres": "FANTASY"}, {}], "raw": {"title": "r"}, "any": {"genres": null}}`,
		`{"date": "2026-11-25", "u": {"x": 7}, "f": 1e300, "small": -2147483648, "big": 2147483647}`,
		`{"ins": {"inner": {"inner": {"inner": {}}}}, "s": "\u0000"}`,
	} {
		f.Add(seed)
	}
	doc, errs := graphql.ParseQuery(query, 0)
	if errs != nil {
		f.Fatal(errs)
	}
	op, list := s.Prepare(doc, "")
	if len(list) > 0 {
		f.Fatal(list)
	}
	f.Fuzz(func(t *testing.T, vars string) {
		var raw map[string]any
		dec := json.NewDecoder(strings.NewReader(vars))
		dec.UseNumber()
		if dec.Decode(&raw) != nil {
			return
		}
		res, err := op.Execute(context.Background(), graphql.ExecParams{Variables: raw})
		if err != nil {
			t.Fatalf("fault: %v", err)
		}
		for _, e := range res.Errors {
			if strings.HasPrefix(e.Message, "graphql:") {
				t.Fatalf("the decoder failed on what coercion accepted: %s (variables %s)", e.Message, vars)
			}
		}
		out, merr := res.MarshalJSON()
		if merr != nil || !json.Valid(out) {
			t.Fatalf("invalid response %q: %v", out, merr)
		}
	})
}

// selfPtr is a pointer type that points to itself.
type selfPtr *selfPtr

// bigish is a custom scalar value handed around by pointer.
type bigish struct{ n int }

// TestTypedReviewCases: forms a review found mishandled. A custom scalar
// and an enum whose values are pointers decode into that pointer type;
// struct fields the executor serialises leniently (an int for a String)
// are accepted; a pointer to a map is an object; a named map type holds
// an input object.
func TestTypedReviewCases(t *testing.T) {
	ptrScalar := &graphql.Scalar{Name: "Big",
		Serialize: func(v any) (any, error) { return v.(*bigish).n, nil },
		ParseValue: func(v any) (any, error) {
			n, err := v.(json.Number).Int64()
			return &bigish{int(n)}, err
		}}
	low, high := new(levelT), new(levelT)
	*low, *high = 1, 2
	ptrEnum := &graphql.Enum{Name: "PtrLevel", Values: []graphql.EnumValue{{Name: "LOW", Value: low}, {Name: "HIGH", Value: high}}}
	type lenient struct {
		Views  int
		Score  json.Number
		Active int
	}
	type namedMap map[string]any
	meta := &graphql.Object{Name: "Meta", Fields: graphql.Fields{{Name: "count", Type: graphql.Int}}}
	in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{{Name: "x", Type: graphql.Int}}}
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "big", Type: graphql.Int, Args: []graphql.Argument{{Name: "b", Type: ptrScalar}, {Name: "l", Type: ptrEnum}, {Name: "in", Type: in}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, a struct {
				B  *bigish
				L  *levelT
				In namedMap
			}) (int, error) {
				return a.B.n + int(*a.L) + int(a.In["x"].(int)), nil
			})},
		{Name: "lenient", Type: &graphql.Object{Name: "Lenient", Fields: graphql.Fields{
			{Name: "views", Type: graphql.String}, {Name: "score", Type: graphql.Float}, {Name: "active", Type: graphql.Boolean}}},
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (lenient, error) {
				return lenient{Views: 3, Score: "1.5", Active: 1}, nil
			})},
		{Name: "meta", Type: meta, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*map[string]any, error) {
			m := map[string]any{"count": 2}
			return &m, nil
		})},
	}}})
	got := response(t, s, `{ big(b: 40, l: HIGH, in: {x: 1}) lenient { views score active } meta { count } }`, "", "")
	if want := `{"data":{"big":43,"lenient":{"views":"3","score":1.5,"active":true},"meta":{"count":2}}}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestRulesDoNotChangeTheCachedArguments: a Func rule is user code; what
// it is given is a copy, so a change it makes reaches neither the next
// execution of the cached document nor the resolver.
func TestRulesDoNotChangeTheCachedArguments(t *testing.T) {
	meddle := validate.Func(func(v any) string {
		if l, ok := v.([]any); ok && len(l) > 0 {
			l[0] = l[0].(string) + "!"
		}
		return ""
	})
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "f", Type: graphql.String, Args: []graphql.Argument{{Name: "tags", Type: graphql.NewList(graphql.String), Rules: []validate.Rule{meddle}}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, a struct{ Tags []string }) (string, error) {
				return strings.Join(a.Tags, ","), nil
			})},
	}}})
	op, errs := s.Prepare(parseValidated(t, s, `{ f(tags: ["a"]) }`), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for range 3 {
		if got := string(execute(op, context.Background(), graphql.ExecParams{}).Data); got != `{"f":"a"}` {
			t.Fatalf("data %s; want {\"f\":\"a\"}", got)
		}
	}
}

// TestSchemaMiddlewareSkipsDefaultFieldsWithRules: a field without a
// resolver keeps its exemption from the schema-wide middleware when its
// arguments have rules.
func TestSchemaMiddlewareSkipsDefaultFieldsWithRules(t *testing.T) {
	var wrapped []string
	mw := func(next graphql.ResolveFunc) graphql.ResolveFunc {
		return func(ctx context.Context, p any, a graphql.Args, info graphql.ResolveInfo) (any, error) {
			wrapped = append(wrapped, info.FieldName())
			return next(ctx, p, a, info)
		}
	}
	s := newSchema(t, graphql.SchemaConfig{FieldMiddleware: []graphql.FieldMiddleware{mw}, Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "o", Type: &graphql.Object{Name: "O", Fields: graphql.Fields{
			{Name: "a", Type: graphql.String},
			{Name: "b", Type: graphql.String, Args: []graphql.Argument{{Name: "x", Type: graphql.Int, Rules: []validate.Rule{validate.Max(1)}}}},
		}}, Resolve: constant(map[string]any{"a": "A", "b": "B"})},
	}}})
	if got, want := response(t, s, `{ o { a b(x: 1) } }`, "", ""), `{"data":{"o":{"a":"A","b":"B"}}}`; got != want {
		t.Errorf("got %s; want %s", got, want)
	}
	if strings.Join(wrapped, ",") != "o" {
		t.Errorf("the schema-wide middleware wrapped %v; want only [o]", wrapped)
	}
}
