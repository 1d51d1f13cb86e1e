package introspection

import (
	"context"
	"reflect"
	"testing"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// testSchema is a compiled schema with a query object of one field and an
// enum with a deprecated value, without package graphql.
func testSchema(t *testing.T) (*schema.Schema, *Types) {
	t.Helper()
	boolean := &schema.Type{Kind: schema.KindScalar, Name: "Boolean"}
	str := &schema.Type{Kind: schema.KindScalar, Name: "String"}
	s := &schema.Schema{Description: "the schema"}
	it := New(s, boolean, str)
	color := &schema.Type{Kind: schema.KindEnum, Name: "Color", Enum: &schema.Enum{Values: []schema.EnumValue{
		{Name: "RED"}, {Name: "BLUE", Depr: "gone"}}}}
	query := &schema.Type{Kind: schema.KindObject, Name: "Query"}
	query.Object = &schema.Object{Type: query, Name: "Query", Fields: []*schema.Field{{Name: "color", Type: color}}}
	s.Query = query.Object
	s.Types = append([]*schema.Type{query, color, boolean, str}, it.All()...)
	s.Directives = Directives(boolean, str)
	return s, it
}

// resolve resolves field name of object o over parent, with args.
func resolve(t *testing.T, o *schema.Type, name string, parent any, args map[string]any) any {
	t.Helper()
	f := o.Object.ByName[name]
	if f == nil {
		t.Fatalf("%s has no field %s", o.Name, name)
	}
	v, err := f.Resolve(context.Background(), parent, args, schema.Info{})
	if err != nil {
		t.Fatalf("%s: %v", f.Coord, err)
	}
	return v
}

func TestTypes(t *testing.T) {
	s, it := testSchema(t)
	var names []string
	for _, n := range it.All() {
		names = append(names, n.Name)
		if n.Description == "" {
			t.Errorf("%s has no description", n.Name)
		}
		if n.Kind == schema.KindObject {
			for _, f := range n.Object.Fields {
				if f.Resolve == nil || f.Coord != n.Name+"."+f.Name || f.Traced {
					t.Errorf("%s: resolver %v, coordinates %q, traced %v", f.Name, f.Resolve != nil, f.Coord, f.Traced)
				}
			}
		}
	}
	want := []string{"__Schema", "__Type", "__Field", "__InputValue", "__EnumValue", "__Directive", "__TypeKind", "__DirectiveLocation"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("All: %v, want %v", names, want)
	}
	if got := resolve(t, it.Schema, "description", nil, nil); got != "the schema" {
		t.Errorf("description: %v", got)
	}
	if got := resolve(t, it.Schema, "queryType", nil, nil); got != s.Query.Type {
		t.Errorf("queryType: %v", got)
	}
	if got := resolve(t, it.Schema, "mutationType", nil, nil); got != nil {
		t.Errorf("mutationType: %v, want nil", got)
	}
	if got := len(resolve(t, it.Schema, "directives", nil, nil).([]*schema.Directive)); got != 5 {
		t.Errorf("%d directives, want 5", got)
	}
}

func TestTypeFields(t *testing.T) {
	s, it := testSchema(t)
	query, color := s.Query.Type, s.Types[1]
	list := &schema.Type{Kind: schema.KindList, Of: color}
	for _, c := range []struct {
		typ         *schema.Type
		field, want string
	}{
		{query, "kind", "OBJECT"}, {color, "kind", "ENUM"}, {list, "kind", "LIST"},
		{query, "name", "Query"},
	} {
		if got := resolve(t, it.Type, c.field, c.typ, nil); got != c.want {
			t.Errorf("%s.%s: %v, want %v", c.typ, c.field, got, c.want)
		}
	}
	for _, field := range []string{"name", "description", "fields", "interfaces", "possibleTypes", "enumValues", "inputFields"} {
		if got := resolve(t, it.Type, field, list, map[string]any{}); got != nil {
			t.Errorf("[Color].%s: %v, want null", field, got)
		}
	}
	if got := resolve(t, it.Type, "ofType", list, nil); got != color {
		t.Errorf("[Color].ofType: %v", got)
	}
	// Lists are never nil slices, which the executor writes as null.
	if got := resolve(t, it.Type, "interfaces", query, nil).([]*schema.Type); got == nil || len(got) != 0 {
		t.Errorf("Query.interfaces: %#v, want []", got)
	}
	values := func(include bool) int {
		return len(resolve(t, it.Type, "enumValues", color, map[string]any{"includeDeprecated": include}).([]*schema.EnumValue))
	}
	if values(false) != 1 || values(true) != 2 {
		t.Errorf("enumValues: %d without deprecated, %d with; want 1, 2", values(false), values(true))
	}
}
