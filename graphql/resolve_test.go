package graphql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// Parent values for the default resolver.

type base struct {
	Created string
	Shared  string `json:"shared"`
}

type extra struct {
	Note string
}

type account struct {
	base          // embedded by value: its fields are promoted
	*extra        // embedded by pointer, possibly nil
	ID     string // read for "id" by a case-insensitive match
	Name   string
	Email  string  `json:"mail"`
	Secret string  `json:"-"`
	Nick   *string // pointer to a scalar
	Tags   []string
	Scores []int
	Boss   *account
	hidden string
}

func (a account) Greeting() string { return "hello " + a.Name }

func (a *account) Initials() (string, error) {
	if a.Name == "" {
		return "", errors.New("no name")
	}
	return a.Name[:1], nil
}

type ctxKey struct{}

func (a *account) Viewer(ctx context.Context) (string, error) {
	v, _ := ctx.Value(ctxKey{}).(string)
	return v + " views " + a.Name, nil
}

func (a *account) Wrong(n int) string { return "never" } // not a resolver signature

func (a *account) Fragile() (string, error) { panic("fragile method") }

func accountObject() *graphql.Object {
	var obj *graphql.Object
	obj = &graphql.Object{Name: "Account", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.ID},
			{Name: "name", Type: graphql.String},
			{Name: "mail", Type: graphql.String},
			{Name: "email", Type: graphql.String},
			{Name: "secret", Type: graphql.String},
			{Name: "nick", Type: graphql.String},
			{Name: "created", Type: graphql.String},
			{Name: "shared", Type: graphql.String},
			{Name: "note", Type: graphql.String},
			{Name: "tags", Type: graphql.NewList(graphql.String)},
			{Name: "tagsNN", Type: graphql.NewNonNull(graphql.NewList(graphql.String)), Resolve: func(_ context.Context, p any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
				return p.(*account).Tags, nil
			}},
			{Name: "scores", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.Int)))},
			{Name: "boss", Type: obj},
			{Name: "hidden", Type: graphql.String},
			{Name: "greeting", Type: graphql.String},
			{Name: "initials", Type: graphql.String},
			{Name: "viewer", Type: graphql.String},
			{Name: "wrong", Type: graphql.String},
			{Name: "missing", Type: graphql.String},
			{Name: "fragile", Type: graphql.String},
		}
	})}
	return obj
}

func TestDefaultResolver(t *testing.T) {
	nick := "ace"
	full := &account{
		base:  base{Created: "2024", Shared: "s"},
		extra: &extra{Note: "n"},
		ID:    "7", Name: "Ada", Email: "ada@example.com", Secret: "pw", Nick: &nick,
		Tags: []string{"a"}, Scores: []int{3}, hidden: "h",
		Boss: &account{Name: "Bob"},
	}
	empty := &account{}
	obj := accountObject()
	valueObj := &graphql.Object{Name: "Value", Fields: graphql.Fields{
		{Name: "name", Type: graphql.String},
		{Name: "greeting", Type: graphql.String},
		{Name: "initials", Type: graphql.String},
	}}
	mapObj := &graphql.Object{Name: "Map", Fields: graphql.Fields{
		{Name: "a", Type: graphql.Int},
		{Name: "b", Type: graphql.String},
		{Name: "nested", Type: valueObj},
		{Name: "list", Type: graphql.NewList(graphql.Int)},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "full", Type: obj, Resolve: constant(full)},
		graphql.Field{Name: "empty", Type: obj, Resolve: constant(empty)},
		graphql.Field{Name: "none", Type: obj, Resolve: constant((*account)(nil))},
		graphql.Field{Name: "value", Type: valueObj, Resolve: constant(account{Name: "Val"})},
		graphql.Field{Name: "anyMap", Type: mapObj, Resolve: constant(map[string]any{"a": 1, "b": "two", "nested": map[string]any{"name": "in"}, "list": []any{1, nil}})},
		graphql.Field{Name: "stringMap", Type: mapObj, Resolve: constant(map[string]string{"b": "str"})},
		graphql.Field{Name: "nilMap", Type: mapObj, Resolve: constant(map[string]any(nil))},
		graphql.Field{Name: "intMap", Type: mapObj, Resolve: constant(map[int]int{1: 1})},
	)})
	ctx := context.WithValue(context.Background(), ctxKey{}, "Grace")
	tests := []struct {
		name  string
		query string
		want  string
	}{
		{name: "exported fields", query: `{ full { id name } }`, want: `{"data":{"full":{"id":"7","name":"Ada"}}}`},
		{name: "json tags", query: `{ full { mail email secret } }`, want: `{"data":{"full":{"mail":"ada@example.com","email":null,"secret":null}}}`},
		{name: "embedded structs", query: `{ full { created shared note } }`, want: `{"data":{"full":{"created":"2024","shared":"s","note":"n"}}}`},
		{name: "nil embedded pointer", query: `{ empty { note created } }`, want: `{"data":{"empty":{"note":null,"created":""}}}`},
		{name: "pointers", query: `{ full { nick boss { name boss { name } } } empty { nick boss { name } } }`,
			want: `{"data":{"full":{"nick":"ace","boss":{"name":"Bob","boss":null}},"empty":{"nick":null,"boss":null}}}`},
		{name: "nil object", query: `{ none { name } }`, want: `{"data":{"none":null}}`},
		{name: "unexported and missing fields", query: `{ full { hidden missing } }`, want: `{"data":{"full":{"hidden":null,"missing":null}}}`},
		{name: "methods", query: `{ full { greeting initials viewer } }`,
			want: `{"data":{"full":{"greeting":"hello Ada","initials":"A","viewer":"Grace views Ada"}}}`},
		{name: "method error", query: `{ empty { initials } }`,
			want: `{"data":{"empty":{"initials":null}},"errors":[{"message":"no name","locations":[{"line":1,"column":11}],"path":["empty","initials"]}]}`},
		{name: "method panics", query: `{ full { fragile name } }`,
			want: `{"data":{"full":{"fragile":null,"name":"Ada"}},"errors":[{"message":"panic: fragile method","locations":[{"line":1,"column":10}],"path":["full","fragile"]}]}`},
		{name: "method with another signature", query: `{ full { wrong } }`, want: `{"data":{"full":{"wrong":null}}}`},
		{name: "methods of a struct value", query: `{ value { name greeting initials } }`,
			want: `{"data":{"value":{"name":"Val","greeting":"hello Val","initials":null}}}`},
		{name: "nil slices", query: `{ empty { tags tagsNN scores } }`, want: `{"data":{"empty":{"tags":null,"tagsNN":[],"scores":[]}}}`},
		{name: "slices", query: `{ full { tags tagsNN scores } }`, want: `{"data":{"full":{"tags":["a"],"tagsNN":["a"],"scores":[3]}}}`},
		{name: "map[string]any", query: `{ anyMap { a b nested { name } list } }`, want: `{"data":{"anyMap":{"a":1,"b":"two","nested":{"name":"in"},"list":[1,null]}}}`},
		{name: "map key missing", query: `{ anyMap { a } stringMap { a b nested { name } } }`, want: `{"data":{"anyMap":{"a":1},"stringMap":{"a":null,"b":"str","nested":null}}}`},
		{name: "nil map", query: `{ nilMap { a } }`, want: `{"data":{"nilMap":null}}`},
		{name: "map without string keys", query: `{ intMap { a } }`, want: `{"data":{"intMap":{"a":null}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := responseCtx(t, ctx, s, tt.query, "", ""); got != tt.want {
				t.Errorf("response:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestDefaultResolverFieldPrecedence(t *testing.T) {
	// A json tag naming the field wins over a Go field of that name; an
	// exact Go name wins over a case-insensitive match.
	type both struct {
		Title  string `json:"headline"`
		Other  string `json:"title"`
		URL    string
		Url    string // another spelling, matched exactly
		UserID int
	}
	obj := &graphql.Object{Name: "Both", Fields: graphql.Fields{
		{Name: "title", Type: graphql.String},
		{Name: "headline", Type: graphql.String},
		{Name: "url", Type: graphql.String},
		{Name: "userId", Type: graphql.Int},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "b", Type: obj,
		Resolve: constant(both{Title: "T", Other: "O", URL: "U", Url: "u", UserID: 5})})})
	got := response(t, s, `{ b { title headline url userId } }`, "", "")
	if want := `{"data":{"b":{"title":"O","headline":"T","url":"u","userId":5}}}`; got != want {
		t.Errorf("response:\n got %s\nwant %s", got, want)
	}
}

// A captured view of a ResolveInfo, taken during the call.
type infoView struct {
	fieldName, alias, parentType, returnType, path, selected string
	isSelected                                               map[string]bool
	operation                                                string
	variables                                                string
}

func TestResolveInfo(t *testing.T) {
	type post struct{ ID, Title, Body string }
	views := map[string]infoView{} // by path
	var probes []string
	capture := func(ctx context.Context, parent any, args graphql.Args, info graphql.ResolveInfo) {
		v := infoView{
			fieldName:  info.FieldName(),
			alias:      info.ResponseKey(),
			parentType: info.ParentType().Name,
			returnType: info.ReturnType().String(),
			path:       fmt.Sprint(info.Path()),
			selected:   strings.Join(info.SelectedFields(), ","),
			isSelected: map[string]bool{},
			variables:  jsonText(info.Variables()),
		}
		if info.Operation() != nil {
			v.operation = info.Operation().Name()
		}
		for _, p := range probes {
			v.isSelected[p] = info.IsSelected(p)
		}
		views[v.path] = v
	}
	user := &graphql.Object{Name: "User", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.String},
		{Name: "email", Type: graphql.String},
	}}
	var postType *graphql.Object
	authorType := graphql.Type(user)
	postType = &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.String},
		{Name: "body", Type: graphql.String},
		{Name: "author", Type: authorType, Resolve: func(ctx context.Context, p any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			capture(ctx, p, args, info)
			if info.ReturnType() != authorType || info.ParentType() != postType {
				return nil, errors.New("ReturnType or ParentType is not the declared type")
			}
			return map[string]any{"id": "u-" + p.(*post).ID, "name": "N", "email": "E"}, nil
		}},
	}}
	postsType := graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(postType)))
	var gotCtx, gotParent, gotArgs string
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "posts", Type: postsType,
		Args: []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 10}, {Name: "tag", Type: graphql.String}},
		Resolve: func(ctx context.Context, p any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			capture(ctx, p, args, info)
			gotCtx, _ = ctx.Value(ctxKey{}).(string)
			gotParent = fmt.Sprint(p)
			gotArgs = typedArgs(args)
			if info.ReturnType() != postsType {
				return nil, errors.New("ReturnType is not the declared type")
			}
			return []*post{{ID: "1", Title: "A"}, {ID: "2", Title: "B"}}, nil
		}})})

	probes = []string{"id", "title", "body", "author", "author.name", "author.email", "author.id.x", "nope", ""}
	query := `query Feed($withAuthor: Boolean!, $n: Int) {
  feed: posts(first: $n) {
    id
    ...F
    __typename
    author @include(if: $withAuthor) { name ... on User { id } }
    title @skip(if: true)
    again: id
  }
}
fragment F on Post { title body @skip(if: $withAuthor) }`
	ctx := context.WithValue(context.Background(), ctxKey{}, "request-42")
	got := responseCtx(t, ctx, s, query, "Feed", `{"withAuthor": true, "n": 2}`)
	want := `{"data":{"feed":[{"id":"1","title":"A","__typename":"Post","author":{"name":"N","id":"u-1"},"again":"1"},{"id":"2","title":"B","__typename":"Post","author":{"name":"N","id":"u-2"},"again":"2"}]}}`
	if got != want {
		t.Fatalf("response:\n got %s\nwant %s", got, want)
	}
	if gotCtx != "request-42" || gotParent != "<nil>" || gotArgs != `{"first":"int:2"}` {
		t.Errorf("posts got ctx %q, parent %q, args %s; want request-42, <nil>, {\"first\":\"int:2\"}", gotCtx, gotParent, gotArgs)
	}
	wantViews := map[string]infoView{
		"feed": {fieldName: "posts", alias: "feed", parentType: "Query", returnType: "[Post!]!", path: "feed",
			selected: "id,title,author", operation: "Feed", variables: `{"n":2,"withAuthor":true}`,
			isSelected: map[string]bool{"id": true, "title": true, "body": false, "author": true, "author.name": true,
				"author.email": false, "author.id.x": false, "nope": false, "": false}},
		"feed[1].author": {fieldName: "author", alias: "author", parentType: "Post", returnType: "User", path: "feed[1].author",
			selected: "name,id", operation: "Feed", variables: `{"n":2,"withAuthor":true}`,
			isSelected: map[string]bool{"id": true, "title": false, "body": false, "author": false, "author.name": false,
				"author.email": false, "author.id.x": false, "nope": false, "": false}},
	}
	for path, want := range wantViews {
		got, ok := views[path]
		if !ok {
			t.Errorf("no resolver call at %s; calls at %v", path, keys(views))
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("info at %s:\n got %+v\nwant %+v", path, got, want)
		}
	}
	if _, ok := views["feed[0].author"]; !ok {
		t.Errorf("author of the first post not resolved")
	}

	// Without the author, SelectedFields says so: a resolver can skip the join.
	clear(views)
	got = responseCtx(t, ctx, s, query, "Feed", `{"withAuthor": false}`)
	want = `{"data":{"feed":[{"id":"1","title":"A","body":"","__typename":"Post","again":"1"},{"id":"2","title":"B","body":"","__typename":"Post","again":"2"}]}}`
	if got != want {
		t.Fatalf("response:\n got %s\nwant %s", got, want)
	}
	if v := views["feed"]; v.selected != "id,title,body" || v.isSelected["author"] || !v.isSelected["body"] {
		t.Errorf("without author: SelectedFields = %s, IsSelected(author) = %v, IsSelected(body) = %v; want id,title,body, false, true",
			v.selected, v.isSelected["author"], v.isSelected["body"])
	}
	if gotArgs != `{"first":"int:10"}` {
		t.Errorf("args = %s, want the default first", gotArgs)
	}
}

func TestSelectedFieldsOfLeaf(t *testing.T) {
	var selected []string
	var leafSelected bool
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "leaf", Type: graphql.String,
		Resolve: func(_ context.Context, _ any, _ graphql.Args, info graphql.ResolveInfo) (any, error) {
			selected = info.SelectedFields()
			leafSelected = info.IsSelected("leaf")
			return "x", nil
		}})})
	if got := response(t, s, `{ leaf }`, "", ""); got != `{"data":{"leaf":"x"}}` {
		t.Fatalf("response: %s", got)
	}
	if len(selected) != 0 || leafSelected {
		t.Errorf("leaf: SelectedFields = %q, IsSelected(leaf) = %v; want none, false", selected, leafSelected)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

type level int

type genre string

func TestArgsAccessors(t *testing.T) {
	args := graphql.NewArgs(map[string]any{"i": 3, "f": 1.5, "s": "x", "b": true, "in": map[string]any{"k": 1},
		"null": nil, "genre": genre("sf"), "level": level(2), "l": []any{1}})
	check := func(what string, got, want any, err error) {
		t.Helper()
		if err != nil || got != want {
			t.Errorf("%s = %v, %v; want %v, nil", what, got, err, want)
		}
	}
	i, err := args.Int("i")
	check("Int(i)", i, 3, err)
	f, err := args.Float("f")
	check("Float(f)", f, 1.5, err)
	f, err = args.Float("i")
	check("Float(i)", f, 3.0, err)
	s, err := args.String("s")
	check("String(s)", s, "x", err)
	b, err := args.Bool("b")
	check("Bool(b)", b, true, err)
	in, err := args.Input("in")
	check("Input(in).Value(k)", in.Value("k"), 1, err)
	// Values of types defined on string and int (enum values) convert.
	s, err = args.String("genre")
	check("String(genre)", s, "sf", err)
	i, err = args.Int("level")
	check("Int(level)", i, 2, err)
	// Absent and null are the zero value, without an error.
	for _, name := range []string{"null", "none"} {
		i, err := args.Int(name)
		check("Int("+name+")", i, 0, err)
		s, err := args.String(name)
		check("String("+name+")", s, "", err)
		b, err := args.Bool(name)
		check("Bool("+name+")", b, false, err)
		f, err := args.Float(name)
		check("Float("+name+")", f, 0.0, err)
		in, err := args.Input(name)
		check("Input("+name+").Len()", in.Len(), 0, err)
		l, err := args.List(name)
		check("List("+name+") == nil", l == nil, true, err)
	}
	// A value of another type is an error, never a silent zero.
	wrong := []struct {
		name string
		read func() error
		want string
	}{
		{"String(i)", func() error { _, err := args.String("i"); return err }, `graphql: Args.String("i"): the value is a int`},
		{"Int(s)", func() error { _, err := args.Int("s"); return err }, `graphql: Args.Int("s"): the value is a string`},
		{"Int(f)", func() error { _, err := args.Int("f"); return err }, `graphql: Args.Int("f"): the value is a float64`},
		{"Float(s)", func() error { _, err := args.Float("s"); return err }, `graphql: Args.Float("s"): the value is a string`},
		{"Bool(s)", func() error { _, err := args.Bool("s"); return err }, `graphql: Args.Bool("s"): the value is a string`},
		{"Input(l)", func() error { _, err := args.Input("l"); return err }, `graphql: Args.Input("l"): the value is a []interface {}`},
		{"List(in)", func() error { _, err := args.List("in"); return err }, `graphql: Args.List("in"): the value is a map[string]interface {}`},
		{"String(level)", func() error { _, err := args.String("level"); return err }, `graphql: Args.String("level"): the value is a graphql_test.level`},
	}
	for _, w := range wrong {
		if err := w.read(); err == nil || err.Error() != w.want {
			t.Errorf("%s: error %v; want %q", w.name, err, w.want)
		}
	}
	if !args.Has("null") || !args.Has("i") || args.Has("none") {
		t.Errorf("Has: null %v, i %v, none %v; want true, true, false", args.Has("null"), args.Has("i"), args.Has("none"))
	}
}
