package graphql_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/validate"
)

func iface(name string, ifaces []*graphql.Interface, fields ...graphql.Field) *graphql.Interface {
	return &graphql.Interface{Name: name, Interfaces: ifaces, Fields: graphql.Fields(fields)}
}

func object(name string, ifaces []*graphql.Interface, fields ...graphql.Field) *graphql.Object {
	return &graphql.Object{Name: name, Interfaces: ifaces, Fields: graphql.Fields(fields)}
}

func ifaces(list ...*graphql.Interface) []*graphql.Interface { return list }

// withTypes returns a schema whose Query has a field "a" of type t and
// whose Types lists more.
func withTypes(t graphql.Type, more ...graphql.NamedType) graphql.SchemaConfig {
	return graphql.SchemaConfig{Query: queryWith(graphql.Field{Name: "a", Type: t}), Types: more}
}

// errorLines returns NewSchema's error, one joined error a line, failing
// the test when it builds.
func errorLines(t *testing.T, cfg graphql.SchemaConfig) []string {
	t.Helper()
	s, err := graphql.NewSchema(cfg)
	if err == nil || s != nil {
		t.Fatalf("NewSchema = %v, %v; want only an error", s, err)
	}
	return strings.Split(err.Error(), "\n")
}

func TestNewSchemaAbstractErrors(t *testing.T) {
	str, id := graphql.String, graphql.ID
	idNN := graphql.NewNonNull(id)
	field := func(name string, t graphql.Type, args ...graphql.Argument) graphql.Field {
		return graphql.Field{Name: name, Type: t, Args: args}
	}
	arg := func(name string, t graphql.Type) graphql.Argument { return graphql.Argument{Name: name, Type: t} }
	node := func() *graphql.Interface { return iface("Node", nil, field("id", idNN)) }
	tests := []struct {
		name string
		cfg  func() graphql.SchemaConfig
		want []string
	}{
		{name: "interface without fields", cfg: func() graphql.SchemaConfig {
			return withTypes(iface("I", nil))
		}, want: []string{"graphql: interface I has no fields"}},
		{name: "interface with a nil FieldsFunc", cfg: func() graphql.SchemaConfig {
			return withTypes(&graphql.Interface{Name: "I", Fields: graphql.FieldsFunc(nil)})
		}, want: []string{"graphql: interface I has no fields"}},
		{name: "interface fields panic", cfg: func() graphql.SchemaConfig {
			return withTypes(&graphql.Interface{Name: "I", Fields: graphql.FieldsFunc(func() graphql.Fields { panic("boom") })})
		}, want: []string{"graphql: the fields of I panicked: boom"}},
		{name: "interface field that resolves", cfg: func() graphql.SchemaConfig {
			mw := func(next graphql.ResolveFunc) graphql.ResolveFunc { return next }
			return withTypes(iface("I", nil,
				graphql.Field{Name: "a", Type: str, Resolve: constant("x"), Middleware: []graphql.FieldMiddleware{mw}, Cost: graphql.Cost{Weight: 2}},
				graphql.Field{Name: "b", Type: str, Public: true, Args: []graphql.Argument{{Name: "q", Type: str, Rules: []validate.Rule{validate.Required()}}}},
				graphql.Field{Name: "c", Type: str, Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (string, error) { return "", nil })},
				graphql.Field{Name: "d", Type: graphql.NewList(str), Batch: graphql.Batch(func(context.Context, []any, graphql.NoArgs) ([][]string, error) { return nil, nil })},
			))
		}, want: []string{
			"graphql: interface field I.a has Resolve, Middleware, Cost, which an interface field cannot have: each object that implements I resolves the field itself (an interface field takes only Name, Type, Args, Description and DeprecationReason)",
			"graphql: interface field I.b has Public, Rules on argument q, which an interface field cannot have: each object that implements I resolves the field itself (an interface field takes only Name, Type, Args, Description and DeprecationReason)",
			"graphql: interface field I.c has Typed, which an interface field cannot have: each object that implements I resolves the field itself (an interface field takes only Name, Type, Args, Description and DeprecationReason)",
			"graphql: interface field I.d has Batch, which an interface field cannot have: each object that implements I resolves the field itself (an interface field takes only Name, Type, Args, Description and DeprecationReason)",
		}},
		{name: "interface field names and types", cfg: func() graphql.SchemaConfig {
			in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{{Name: "x", Type: str}}}
			return withTypes(iface("I", nil, field("__a", str), field("b", str), field("b", id), field("c", in),
				field("d", str, arg("o", iface("J", nil, field("x", str))))))
		}, want: []string{
			`graphql: interface I: "__a" is not a valid field name`,
			"graphql: interface I: field b is defined twice",
			"graphql: field I.c is of input type In; fields need an output type (scalar, enum, object, interface or union)",
			"graphql: field I.d: o is of output type J; arguments and input fields need an input type (scalar, enum or input object)",
		}},
		{name: "abstract type names", cfg: func() graphql.SchemaConfig {
			o := object("O", nil, field("x", str))
			return withTypes(iface("I-1", nil, field("x", str)), &graphql.Union{Name: "__U", Types: []*graphql.Object{o}})
		}, want: []string{
			`graphql: SchemaConfig.Types: type name "__U" must not begin with "__"`,
			`graphql: Query.a: "I-1" is not a valid type name`,
		}},
		{name: "an interface and an object with one name", cfg: func() graphql.SchemaConfig {
			return withTypes(object("Node", nil, field("x", str)), node())
		}, want: []string{`graphql: two different types are named "Node" (SchemaConfig.Types and Query.a)`}},
		{name: "nil interfaces and members", cfg: func() graphql.SchemaConfig {
			j := iface("J", ifaces(nil), field("x", str))
			o := object("O", ifaces(j, nil), field("x", str))
			return withTypes(&graphql.Union{Name: "U", Types: []*graphql.Object{o, nil}})
		}, want: []string{
			"graphql: interface J: interface 0 of its Interfaces is nil",
			"graphql: object O: interface 1 of its Interfaces is nil",
			"graphql: union U: member 1 is nil",
		}},
		{name: "missing field", cfg: func() graphql.SchemaConfig {
			n := iface("Node", nil, field("id", idNN), field("name", str))
			return withTypes(object("Book", ifaces(n), field("id", idNN), field("title", str)))
		}, want: []string{"graphql: object Book implements Node but has no field name"}},
		{name: "field refused for another reason", cfg: func() graphql.SchemaConfig {
			n := node()
			return withTypes(object("Book", ifaces(n), field("id", &graphql.InputObject{Name: "In", Fields: []graphql.InputField{{Name: "x", Type: str}}})))
		}, want: []string{"graphql: field Book.id is of input type In; fields need an output type (scalar, enum, object, interface or union)"}},
		{name: "field types that do not fit", cfg: func() graphql.SchemaConfig {
			n := node()
			other := object("Other", nil, field("x", str))
			i := iface("I", nil, field("a", str), field("b", graphql.NewList(str)), field("c", str), field("d", n), field("e", graphql.NewNonNull(graphql.NewList(n))))
			return withTypes(object("Book", ifaces(i), field("a", id), field("b", str), field("c", graphql.NewList(str)), field("d", other),
				field("e", graphql.NewList(graphql.NewNonNull(object("Book2", ifaces(n), field("id", idNN)))))))
		}, want: []string{
			"graphql: field Book.a is of type ID, which does not fit I.a of type String (the same type, a non-null of it, or for an interface or union one of its possible types)",
			"graphql: field Book.b is of type String, which does not fit I.b of type [String] (the same type, a non-null of it, or for an interface or union one of its possible types)",
			"graphql: field Book.c is of type [String], which does not fit I.c of type String (the same type, a non-null of it, or for an interface or union one of its possible types)",
			"graphql: field Book.d is of type Other, which does not fit I.d of type Node (the same type, a non-null of it, or for an interface or union one of its possible types)",
			"graphql: field Book.e is of type [Book2!], which does not fit I.e of type [Node]! (the same type, a non-null of it, or for an interface or union one of its possible types)",
		}},
		{name: "arguments that do not fit", cfg: func() graphql.SchemaConfig {
			i := iface("I", nil, field("a", str, arg("x", str), arg("y", graphql.NewNonNull(str))), field("b", str, arg("z", graphql.NewList(str))))
			return withTypes(object("O", ifaces(i),
				field("a", str, arg("y", str), arg("extra", graphql.NewNonNull(str)), graphql.Argument{Name: "opt", Type: graphql.NewNonNull(str), Default: "d"}),
				field("b", str, arg("z", graphql.NewList(graphql.NewNonNull(str))))))
		}, want: []string{
			"graphql: field O.a has no argument x, which I.a has",
			"graphql: argument O.a(y:) is of type String, but I.a(y:) is of type String!; an implementing field's argument has the interface's type",
			"graphql: field O.a has the required argument extra, which I.a does not have; an implementing field's other arguments must be optional",
			"graphql: argument O.b(z:) is of type [String!], but I.b(z:) is of type [String]; an implementing field's argument has the interface's type",
		}},
		{name: "implements twice, itself, a cycle, not the ancestors", cfg: func() graphql.SchemaConfig {
			n := node()
			self := iface("Self", nil, field("id", idNN))
			self.Interfaces = ifaces(self)
			a := iface("A", nil, field("id", idNN))
			b := iface("B", ifaces(a), field("id", idNN))
			a.Interfaces = ifaces(b)
			entry := iface("Entry", ifaces(n), field("id", idNN))
			return withTypes(object("Book", ifaces(n, n, entry), field("id", idNN)), self, a, object("Post", ifaces(entry), field("id", idNN)))
		}, want: []string{
			"graphql: interface Self implements itself",
			"graphql: interface A cannot implement B, which implements A: a cycle",
			"graphql: interface B cannot implement A, which implements B: a cycle",
			"graphql: object Post implements Entry, so it must also implement Node, which Entry implements",
			"graphql: object Book implements Node twice",
		}},
		{name: "union members", cfg: func() graphql.SchemaConfig {
			o := object("O", nil, field("x", str))
			return withTypes(&graphql.Union{Name: "U"}, &graphql.Union{Name: "V", Types: []*graphql.Object{o, o}})
		}, want: []string{
			"graphql: union V lists O twice",
			"graphql: union U has no member types",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorLines(t, tt.cfg())
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("errors:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
			}
		})
	}
}

// Every problem is reported at once, as separate joined errors.
func TestNewSchemaAbstractErrorsJoined(t *testing.T) {
	n := iface("Node", nil, graphql.Field{Name: "id", Type: graphql.ID})
	_, err := graphql.NewSchema(withTypes(object("Book", ifaces(n), graphql.Field{Name: "title", Type: graphql.String}), &graphql.Union{Name: "U"}))
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok || len(joined.Unwrap()) != 2 {
		t.Fatalf("error is not errors.Join of 2: %#v", err)
	}
	if errors.Unwrap(err) != nil {
		t.Errorf("joined error unwraps to one error")
	}
}

// The field types graphql-js accepts as implementing an interface's:
// a non-null of it, an object or interface that implements it, a member
// of its union, lists of those; extra arguments that are optional.
func TestNewSchemaAbstractSubtypes(t *testing.T) {
	idNN := graphql.NewNonNull(graphql.ID)
	n := iface("Node", nil, graphql.Field{Name: "id", Type: idNN})
	dog := object("Dog", ifaces(n), graphql.Field{Name: "id", Type: idNN})
	pet := &graphql.Union{Name: "Pet", Types: []*graphql.Object{dog}}
	named := iface("Named", ifaces(n), graphql.Field{Name: "id", Type: idNN})
	i := iface("I", nil,
		graphql.Field{Name: "a", Type: n},
		graphql.Field{Name: "b", Type: graphql.NewList(pet)},
		graphql.Field{Name: "c", Type: n},
		graphql.Field{Name: "d", Type: graphql.NewList(n), Args: []graphql.Argument{{Name: "x", Type: graphql.NewNonNull(graphql.Int)}}},
		graphql.Field{Name: "e", Type: graphql.String})
	o := object("O", ifaces(i),
		graphql.Field{Name: "a", Type: graphql.NewNonNull(dog)},
		graphql.Field{Name: "b", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(dog)))},
		graphql.Field{Name: "c", Type: named},
		graphql.Field{Name: "d", Type: graphql.NewList(graphql.NewNonNull(named)), Args: []graphql.Argument{
			{Name: "x", Type: graphql.NewNonNull(graphql.Int)}, {Name: "y", Type: graphql.Int}, {Name: "z", Type: graphql.NewNonNull(graphql.Int), Default: 1}}},
		graphql.Field{Name: "e", Type: graphql.NewNonNull(graphql.String)},
		graphql.Field{Name: "own", Type: graphql.String})
	newSchema(t, withTypes(o))
}

// Broken abstract definitions of every kind, together: errors, never a
// panic or a hang.
func TestNewSchemaAbstractNeverPanics(t *testing.T) {
	var nilIface *graphql.Interface
	var nilUnion *graphql.Union
	var nilObj *graphql.Object
	// An interface whose fields make a new interface on every call, and an
	// interface whose fields are itself.
	var endless func(n int) *graphql.Interface
	endless = func(n int) *graphql.Interface {
		return &graphql.Interface{Name: "E" + strconv.Itoa(n), Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{{Name: "next", Type: endless(n + 1)}}
		})}
	}
	self := &graphql.Interface{Name: "Self"}
	self.Fields = graphql.FieldsFunc(func() graphql.Fields { return graphql.Fields{{Name: "me", Type: self}} })
	self.Interfaces = ifaces(self, nilIface)
	cfg := graphql.SchemaConfig{
		Query: queryWith(
			graphql.Field{Name: "a", Type: nilIface},
			graphql.Field{Name: "b", Type: graphql.NewList(nilUnion)},
			graphql.Field{Name: "c", Type: &graphql.Union{Name: "U", Types: []*graphql.Object{nilObj}}},
			graphql.Field{Name: "d", Type: self},
			graphql.Field{Name: "e", Type: &graphql.Interface{Name: "P", Fields: graphql.FieldsFunc(func() graphql.Fields { panic("not ready") })}},
			graphql.Field{Name: "f", Type: endless(0)},
		),
		Types: []graphql.NamedType{nilIface, object("O", ifaces(self, nilIface), graphql.Field{Name: "me", Type: self})},
	}
	_, err := graphql.NewSchema(cfg)
	if err == nil {
		t.Fatal("NewSchema succeeded")
	}
	for _, part := range []string{
		"SchemaConfig.Types contains a nil type",
		"Query.a has a nil type",
		"Query.b has a nil type",
		"union U: member 0 is nil",
		"interface Self implements itself",
		"interface Self: interface 1 of its Interfaces is nil",
		"object O: interface 1 of its Interfaces is nil",
		"the fields of P panicked: not ready",
		"the schema has more than 10000 types",
	} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error lacks %q", part)
		}
	}
}
