package graphql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// queryWith returns a Query type with the given fields.
func queryWith(fields ...graphql.Field) *graphql.Object {
	return &graphql.Object{Name: "Query", Fields: graphql.Fields(fields)}
}

func TestNewSchemaErrors(t *testing.T) {
	str := graphql.String
	user := func() *graphql.Object {
		return &graphql.Object{Name: "User", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	}
	filter := &graphql.InputObject{Name: "Filter", Fields: []graphql.InputField{{Name: "q", Type: str}}}
	colors := &graphql.Enum{Name: "Color", Values: []graphql.EnumValue{{Name: "RED", Value: red}}}
	money := func(serialize, parse bool) *graphql.Scalar {
		sc := &graphql.Scalar{Name: "Money"}
		if serialize {
			sc.Serialize = func(v any) (any, error) { return v, nil }
		}
		if parse {
			sc.ParseValue = func(v any) (any, error) { return v, nil }
		}
		return sc
	}
	tests := []struct {
		name string
		cfg  graphql.SchemaConfig
		want []string // the joined errors, one per line
	}{
		{name: "no Query", cfg: graphql.SchemaConfig{},
			want: []string{"graphql: SchemaConfig.Query is required"}},
		{name: "Query is Mutation", cfg: func() graphql.SchemaConfig {
			q := queryWith(graphql.Field{Name: "a", Type: str})
			return graphql.SchemaConfig{Query: q, Mutation: q}
		}(),
			want: []string{"graphql: Query and Mutation must be different types"}},
		{name: "duplicate field", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str}, graphql.Field{Name: "a", Type: graphql.Int})},
			want: []string{"graphql: object Query: field a is defined twice"}},
		{name: "duplicate argument", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str,
			Args: []graphql.Argument{{Name: "x", Type: str}, {Name: "x", Type: str}}})},
			want: []string{"graphql: field Query.a: argument x is defined twice"}},
		{name: "duplicate input field", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str,
			Args: []graphql.Argument{{Name: "f", Type: &graphql.InputObject{Name: "F", Fields: []graphql.InputField{{Name: "x", Type: str}, {Name: "x", Type: str}}}}}})},
			want: []string{"graphql: input object F: field x is defined twice"}},
		{name: "two types with one name", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: user()}, graphql.Field{Name: "b", Type: user()})},
			want: []string{`graphql: two different types are named "User" (Query.a and Query.b)`}},
		{name: "object as argument", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str,
			Args: []graphql.Argument{{Name: "u", Type: graphql.NewList(user())}}})},
			want: []string{"graphql: field Query.a: u is of output type [User]; arguments and input fields need an input type (scalar, enum or input object)"}},
		{name: "object as input field", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str,
			Args: []graphql.Argument{{Name: "f", Type: &graphql.InputObject{Name: "F", Fields: []graphql.InputField{{Name: "u", Type: graphql.NewNonNull(user())}}}}}})},
			want: []string{"graphql: input object F: u is of output type User!; arguments and input fields need an input type (scalar, enum or input object)"}},
		{name: "input object as field type", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: graphql.NewList(filter)})},
			want: []string{"graphql: field Query.a is of input type [Filter]; fields need an output type (scalar, enum, object, interface or union)"}},
		{name: "empty object", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: &graphql.Object{Name: "Empty"}})},
			want: []string{"graphql: object Empty has no fields"}},
		{name: "empty Fields list", cfg: graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{}}},
			want: []string{"graphql: object Query has no fields"}},
		{name: "nil FieldsFunc", cfg: graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.FieldsFunc(nil)}},
			want: []string{"graphql: object Query has no fields"}},
		{name: "empty enum", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: &graphql.Enum{Name: "E"}})},
			want: []string{"graphql: enum E has no values"}},
		{name: "empty input object", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str,
			Args: []graphql.Argument{{Name: "i", Type: &graphql.InputObject{Name: "I"}}}})},
			want: []string{"graphql: input object I has no fields"}},
		{name: "invalid names", cfg: graphql.SchemaConfig{Query: queryWith(
			graphql.Field{Name: "a", Type: &graphql.Object{Name: "Bad-Name", Fields: graphql.Fields{{Name: "x", Type: str}}}},
			graphql.Field{Name: "1b", Type: str},
			graphql.Field{Name: "c", Type: str, Args: []graphql.Argument{{Name: "", Type: str}}},
			graphql.Field{Name: "d", Type: &graphql.Enum{Name: "E", Values: []graphql.EnumValue{{Name: "a b"}, {Name: "true"}, {Name: "OK"}}}},
		)},
			want: []string{
				`graphql: Query.a: "Bad-Name" is not a valid type name`,
				`graphql: enum E: "a b" is not a valid value name`,
				`graphql: enum E: "true" cannot be an enum value name`,
				`graphql: object Query: "1b" is not a valid field name`,
				`graphql: field Query.c: "" is not a valid name`,
			}},
		{name: "invalid member names", cfg: graphql.SchemaConfig{Query: queryWith(
			graphql.Field{Name: "1b", Type: str},
			graphql.Field{Name: "c", Type: str, Args: []graphql.Argument{{Name: "", Type: str}}},
			graphql.Field{Name: "d", Type: &graphql.Enum{Name: "E", Values: []graphql.EnumValue{{Name: "a b"}, {Name: "true"}, {Name: "OK"}}}},
		)},
			want: []string{
				`graphql: enum E: "a b" is not a valid value name`,
				`graphql: enum E: "true" cannot be an enum value name`,
				`graphql: object Query: "1b" is not a valid field name`,
				`graphql: field Query.c: "" is not a valid name`,
			}},
		{name: "names beginning with __", cfg: graphql.SchemaConfig{Query: queryWith(
			graphql.Field{Name: "a", Type: &graphql.Object{Name: "__Foo", Fields: graphql.Fields{{Name: "x", Type: str}}}},
		)},
			want: []string{`graphql: Query.a: type name "__Foo" must not begin with "__"`}},
		{name: "member names beginning with __", cfg: graphql.SchemaConfig{Query: queryWith(
			graphql.Field{Name: "__b", Type: str},
			graphql.Field{Name: "c", Type: str, Args: []graphql.Argument{{Name: "__x", Type: str}}},
			graphql.Field{Name: "d", Type: &graphql.Enum{Name: "E", Values: []graphql.EnumValue{{Name: "__V"}}}},
			graphql.Field{Name: "e", Type: str, Args: []graphql.Argument{{Name: "f", Type: &graphql.InputObject{Name: "F", Fields: []graphql.InputField{{Name: "__f", Type: str}}}}}},
		)},
			want: []string{
				`graphql: enum E: "__V" is not a valid value name`,
				`graphql: input object F: "__f" is not a valid name`,
				`graphql: object Query: "__b" is not a valid field name`,
				`graphql: field Query.c: "__x" is not a valid name`,
			}},
		{name: "nil types", cfg: graphql.SchemaConfig{Query: queryWith(
			graphql.Field{Name: "a"},
			graphql.Field{Name: "b", Type: (*graphql.Object)(nil)},
			graphql.Field{Name: "c", Type: graphql.NewList(nil)},
			graphql.Field{Name: "d", Type: str, Args: []graphql.Argument{{Name: "x"}}},
		), Types: []graphql.NamedType{nil, (*graphql.Enum)(nil)}},
			want: []string{
				"graphql: SchemaConfig.Types contains a nil type",
				"graphql: SchemaConfig.Types contains a nil type",
				"graphql: Query.a has no type",
				"graphql: Query.b has a nil type",
				"graphql: Query.c has no type",
				"graphql: Query.d(x:) has no type",
			}},
		{name: "non-null of non-null", cfg: graphql.SchemaConfig{Query: queryWith(
			graphql.Field{Name: "a", Type: graphql.NewNonNull(graphql.NewNonNull(str))},
			graphql.Field{Name: "b", Type: graphql.NewList(graphql.NewNonNull(graphql.NewNonNull(str)))},
		)},
			want: []string{
				"graphql: Query.a is non-null of non-null",
				"graphql: Query.b is non-null of non-null",
			}},
		{name: "custom scalar without Serialize", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: money(false, true)})},
			want: []string{"graphql: scalar Money needs a Serialize function"}},
		{name: "custom scalar without ParseValue", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: money(true, false)})},
			want: []string{"graphql: scalar Money needs a ParseValue function"}},
		{name: "custom scalar without functions", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: money(false, false)})},
			want: []string{"graphql: scalar Money needs a Serialize function", "graphql: scalar Money needs a ParseValue function"}},
		{name: "custom scalar named Int", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: &graphql.Scalar{Name: "Int",
			Serialize: func(v any) (any, error) { return v, nil }, ParseValue: func(v any) (any, error) { return v, nil }}})},
			want: []string{`graphql: Query.a: custom scalar "Int" redefines a built-in scalar; use graphql.Int`}},
		{name: "default of the wrong type", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str, Args: []graphql.Argument{
			{Name: "n", Type: graphql.Int, Default: "ten"},
			{Name: "big", Type: graphql.Int, Default: int64(1) << 40},
			{Name: "b", Type: graphql.Boolean, Default: "yes"},
			{Name: "c", Type: colors, Default: "RED"},
		}})},
			want: []string{
				`graphql: field Query.a: the default of n is not a valid Int: Int cannot represent non-integer value: "ten"`,
				`graphql: field Query.a: the default of big is not a valid Int: Int cannot represent non 32-bit signed integer value: 1099511627776`,
				`graphql: field Query.a: the default of b is not a valid Boolean: Boolean cannot represent a non boolean value: "yes"`,
				`graphql: field Query.a: the default of c is not a valid Color: "RED" is not a value of enum Color`,
			}},
		{name: "default with an unknown input field", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str, Args: []graphql.Argument{
			{Name: "f", Type: filter, Default: map[string]any{"q": "x", "nope": 1}},
		}})},
			want: []string{`graphql: field Query.a: the default of f is not a valid Filter: field "nope" is not defined by Filter`}},
		{name: "default null for non-null", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str, Args: []graphql.Argument{
			{Name: "n", Type: graphql.NewNonNull(graphql.Int), Default: graphql.Null},
			{Name: "l", Type: graphql.NewList(graphql.NewNonNull(graphql.Int)), Default: []any{1, nil}},
		}})},
			want: []string{
				`graphql: field Query.a: the default of n is not a valid Int!: null is not allowed for Int!`,
				`graphql: field Query.a: the default of l is not a valid [Int!]: item 1: null is not allowed for Int!`,
			}},
		{name: "default missing a required input field", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str, Args: []graphql.Argument{
			{Name: "p", Type: &graphql.InputObject{Name: "P", Fields: []graphql.InputField{{Name: "x", Type: graphql.NewNonNull(graphql.Int)}}}, Default: map[string]any{}},
		}})},
			want: []string{`graphql: field Query.a: the default of p is not a valid P: Field "x" of required type "Int!" was not provided.`}},
		{name: "enum values not comparable or duplicated", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: &graphql.Enum{Name: "E", Values: []graphql.EnumValue{
			{Name: "A", Value: []int{1}},
			{Name: "B", Value: 1},
			{Name: "C", Value: 1},
			{Name: "B", Value: 2},
		}}})},
			want: []string{
				`graphql: enum E: the value of A ([]int) is not comparable`,
				`graphql: enum E: B and C have the same internal value`,
				`graphql: enum E: value B is defined twice`,
			}},
		{name: "FieldsFunc panics", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: &graphql.Object{Name: "Lazy",
			Fields: graphql.FieldsFunc(func() graphql.Fields { panic("not ready") })}})},
			want: []string{"graphql: the fields of Lazy panicked: not ready"}},
		{name: "required argument deprecated", cfg: graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: str, Args: []graphql.Argument{
			{Name: "x", Type: graphql.NewNonNull(str), DeprecationReason: "gone"},
		}})},
			want: []string{"graphql: field Query.a: the required x cannot be deprecated"}},
		{name: "every problem at once", cfg: graphql.SchemaConfig{Query: queryWith(
			graphql.Field{Name: "a", Type: money(false, true)},
			graphql.Field{Name: "b", Type: &graphql.Enum{Name: "E"}},
			graphql.Field{Name: "c", Type: str, Args: []graphql.Argument{{Name: "n", Type: graphql.Int, Default: 1.5}}},
			graphql.Field{Name: "d", Type: filter},
		)},
			want: []string{
				"graphql: scalar Money needs a Serialize function",
				"graphql: enum E has no values",
				"graphql: field Query.c: the default of n is not a valid Int: Int cannot represent non-integer value: 1.5",
				"graphql: field Query.d is of input type Filter; fields need an output type (scalar, enum, object, interface or union)",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := graphql.NewSchema(tt.cfg)
			if err == nil {
				t.Fatal("NewSchema succeeded, want an error")
			}
			if s != nil {
				t.Errorf("NewSchema returned a schema with its error")
			}
			if got, want := err.Error(), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("error:\n got %s\nwant %s", got, want)
			}
			if len(tt.want) > 1 {
				joined, ok := err.(interface{ Unwrap() []error })
				if !ok || len(joined.Unwrap()) != len(tt.want) {
					t.Errorf("error is not errors.Join of %d errors: %#v", len(tt.want), err)
				}
			}
		})
	}
}

func TestMustSchemaPanics(t *testing.T) {
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok || err.Error() != "graphql: SchemaConfig.Query is required" {
			t.Errorf("recovered %v, want the NewSchema error", r)
		}
	}()
	graphql.MustSchema(graphql.SchemaConfig{})
}

// The cycle User.posts -> Post.author -> User, declared with FieldsFunc.
type cycleUser struct {
	ID    string
	Name  string
	Posts []*cyclePost
}

type cyclePost struct {
	Title  string
	Author *cycleUser
}

func cycleSchema(t *testing.T) (*graphql.Schema, *cycleUser) {
	t.Helper()
	var post *graphql.Object
	user := &graphql.Object{Name: "User", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "name", Type: graphql.String},
			{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post)))},
		}
	})}
	post = &graphql.Object{Name: "Post", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "title", Type: graphql.String},
			{Name: "author", Type: user},
		}
	})}
	ada := &cycleUser{ID: "1", Name: "Ada"}
	ada.Posts = []*cyclePost{{Title: "Notes", Author: ada}, {Title: "Engines", Author: ada}}
	query := queryWith(graphql.Field{Name: "me", Type: user, Resolve: constant(ada)})
	return newSchema(t, graphql.SchemaConfig{Query: query}), ada
}

func TestFieldsFuncCycle(t *testing.T) {
	s, _ := cycleSchema(t)
	got := response(t, s, `{ me { name posts { title author { id posts { title } } } } }`, "", "")
	want := `{"data":{"me":{"name":"Ada","posts":[` +
		`{"title":"Notes","author":{"id":"1","posts":[{"title":"Notes"},{"title":"Engines"}]}},` +
		`{"title":"Engines","author":{"id":"1","posts":[{"title":"Notes"},{"title":"Engines"}]}}]}}}`
	if got != want {
		t.Errorf("response:\n got %s\nwant %s", got, want)
	}
	wantSDL := "type Query {\n  me: User\n}\n\ntype User {\n  id: ID!\n  name: String\n  posts: [Post!]!\n}\n\ntype Post {\n  title: String\n  author: User\n}"
	if got := s.SDL(); got != wantSDL {
		t.Errorf("SDL:\n got %q\nwant %q", got, wantSDL)
	}
}

func TestFieldsFuncCalledOnce(t *testing.T) {
	n := 0
	obj := &graphql.Object{Name: "Query", Fields: graphql.FieldsFunc(func() graphql.Fields {
		n++
		return graphql.Fields{{Name: "a", Type: graphql.String, Resolve: constant("x")}}
	})}
	s := newSchema(t, graphql.SchemaConfig{Query: obj})
	for range 3 {
		if got, want := response(t, s, `{ a }`, "", ""), `{"data":{"a":"x"}}`; got != want {
			t.Errorf("response: got %s, want %s", got, want)
		}
	}
	if n != 1 {
		t.Errorf("FieldsFunc called %d times, want 1", n)
	}
}

func TestSchemaTypes(t *testing.T) {
	s, _ := cycleSchema(t)
	var names []string
	for _, nt := range s.Types() {
		names = append(names, nt.TypeName())
	}
	want := "Query User ID String Post Boolean __Schema __Type __TypeKind __Field __InputValue __EnumValue __Directive __DirectiveLocation"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("Types():\n got %s\nwant %s", got, want)
	}
	if got := s.Type("Post"); got == nil || got.TypeName() != "Post" {
		t.Errorf("Type(Post) = %v", got)
	}
	if got := s.Type("Int"); got != nil {
		t.Errorf("Type(Int) = %v, want nil (Int is not used)", got)
	}
	if got := s.Type("String"); got != graphql.String {
		t.Errorf("Type(String) = %v, want graphql.String", got)
	}
	if s.AST().Types["Post"] == nil || s.AST().Query.Name != "Query" {
		t.Errorf("AST() lacks Post or Query")
	}
	// Types returns a copy.
	s.Types()[0] = nil
	if s.Types()[0] == nil {
		t.Errorf("Types() exposes the schema's slice")
	}
}

func TestTypeStrings(t *testing.T) {
	tests := []struct {
		typ  graphql.Type
		want string
	}{
		{typ: graphql.Int, want: "Int"},
		{typ: graphql.NewNonNull(graphql.String), want: "String!"},
		{typ: graphql.NewList(graphql.ID), want: "[ID]"},
		{typ: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(&graphql.Object{Name: "Post"}))), want: "[Post!]!"},
		{typ: graphql.NewList(graphql.NewList(&graphql.Enum{Name: "E"})), want: "[[E]]"},
		{typ: graphql.NewList(&graphql.InputObject{Name: "In"}), want: "[In]"},
		{typ: graphql.NewList(nil), want: "[<nil>]"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.typ.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestOptionalMutationRoot(t *testing.T) {
	q := queryWith(graphql.Field{Name: "a", Type: graphql.String, Resolve: constant("q")})
	without := newSchema(t, graphql.SchemaConfig{Query: q})
	with := newSchema(t, graphql.SchemaConfig{Query: q, Mutation: &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "b", Type: graphql.String, Resolve: constant("m")},
	}}})
	tests := []struct {
		name   string
		schema *graphql.Schema
		query  string
		want   string
	}{
		{name: "query", schema: without, query: `{ a }`, want: `{"data":{"a":"q"}}`},
		{name: "mutation", schema: with, query: `mutation { b }`, want: `{"data":{"b":"m"}}`},
		{name: "mutation without a Mutation root", schema: without, query: `mutation { b }`,
			want: `{"errors":[{"message":"Schema does not support operation type \"mutation\"","locations":[{"line":1,"column":1}]}]}`},
		{name: "subscription", schema: with, query: `subscription { a }`,
			want: `{"errors":[{"message":"Schema does not support operation type \"subscription\"","locations":[{"line":1,"column":1}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := response(t, tt.schema, tt.query, "", ""); got != tt.want {
				t.Errorf("response:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestNewSchemaNeverPanics(t *testing.T) {
	// Broken definitions of every kind, together: an error, not a panic.
	var nilObj *graphql.Object
	cfg := graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{
				{Name: "a", Type: nilObj},
				{Name: "b", Type: graphql.NewNonNull(nil)},
				{Name: "c", Type: graphql.NewList(graphql.NewList(nil))},
				{Name: "d", Type: graphql.String, Args: []graphql.Argument{{Name: "e", Type: (*graphql.InputObject)(nil)}}},
				{Name: "f", Type: &graphql.Object{Name: "F", Fields: graphql.FieldsFunc(func() graphql.Fields {
					panic("not ready")
				})}},
			}
		})},
		Types: []graphql.NamedType{(*graphql.Scalar)(nil), &graphql.Scalar{Name: "S"}},
	}
	_, err := graphql.NewSchema(cfg)
	if err == nil {
		t.Fatal("NewSchema succeeded")
	}
	for _, part := range []string{"Query.a has a nil type", "Query.b has no type", "Query.c has no type", "Query.d(e:) has a nil type", "the fields of F panicked"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error lacks %q:\n%v", part, err)
		}
	}
}

func TestNewSchemaNonNullInputCycle(t *testing.T) {
	// gqlparser's schema validation runs last and still reports its finding.
	self := &graphql.InputObject{Name: "Self"}
	self.Fields = []graphql.InputField{{Name: "me", Type: graphql.NewNonNull(self)}}
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{{Name: "a", Type: self}}})})
	if err == nil || !strings.Contains(err.Error(), `Cannot reference Input Object "Self" within itself through a series of non-null fields: "me".`) {
		t.Errorf("error = %v, want the non-null cycle reported", err)
	}
}

func TestRegressionInputFieldDefaultOfLaterInputObject(t *testing.T) {
	// A is collected before B; B's fields must be known when A's default is checked.
	b := &graphql.InputObject{Name: "B", Fields: []graphql.InputField{{Name: "n", Type: graphql.Int}, {Name: "m", Type: graphql.Int, Default: 5}}}
	a := &graphql.InputObject{Name: "A", Fields: []graphql.InputField{{Name: "b", Type: b, Default: map[string]any{"n": 1}}}}
	var got string
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "f", Type: graphql.String,
		Args: []graphql.Argument{{Name: "a", Type: a}},
		Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
			got = typedArgs(args)
			return "ok", nil
		}})})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	response(t, s, `{ f(a: {}) }`, "", "")
	if want := `{"a":{"b":{"m":"int:5","n":"int:1"}}}`; got != want {
		t.Errorf("arguments: got %s, want %s", got, want)
	}
}

func TestRegressionSchemaErrorsOfEveryKind(t *testing.T) {
	user := func() *graphql.Object {
		return &graphql.Object{Name: "User", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	}
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "a", Type: user()},
		graphql.Field{Name: "b", Type: user()},
		graphql.Field{Name: "c", Type: &graphql.Enum{Name: "E"}},
	)})
	want := "graphql: two different types are named \"User\" (Query.a and Query.b)\ngraphql: enum E has no values"
	if err == nil || err.Error() != want {
		t.Errorf("error:\n got %v\nwant %s", err, want)
	}
}

func TestRegressionDuplicateTypeNameReportedOnce(t *testing.T) {
	user := func() *graphql.Object {
		return &graphql.Object{Name: "User", Fields: graphql.Fields{{Name: "id", Type: graphql.ID}}}
	}
	other := user()
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "a", Type: user()}, graphql.Field{Name: "b", Type: other}, graphql.Field{Name: "c", Type: other})})
	if err == nil || strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("two User types: got\n%v\nwant one error", err)
	}
	_, err = graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a",
		Type: &graphql.Object{Name: "String", Fields: graphql.Fields{{Name: "x", Type: graphql.Int}}}})})
	if err == nil || strings.Count(err.Error(), "\n") != 0 || !strings.Contains(err.Error(), "Query.a") {
		t.Errorf("an object named String: got\n%v\nwant one error naming Query.a", err)
	}
}

func TestRegressionEnumValueNotHashable(t *testing.T) {
	// The type of [1]any is comparable, a slice inside is not: NewSchema
	// reports it beside the other problems instead of stopping.
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "a", Type: &graphql.Enum{Name: "A", Values: []graphql.EnumValue{{Name: "X", Value: [1]any{[]int{1}}}}}},
		graphql.Field{Name: "b", Type: &graphql.Enum{Name: "B"}},
	)})
	want := "graphql: enum A: the value of X ([1]interface {}) is not comparable\ngraphql: enum B has no values"
	if err == nil || err.Error() != want {
		t.Errorf("NewSchema error:\n got %v\nwant %s", err, want)
	}
}
