package conformance_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/testenv"
)

// schemaCase is one schema of TestConformanceSchemaChecks, written in SDL.
// graphql-js builds it with buildSchema and checks it with validateSchema;
// gqlkit gets the same types, built with its Go API by configFromSDL, from
// NewSchema. Both must refuse it or both accept it, and they must find the
// same number of problems.
type schemaCase struct {
	name string
	sdl  string
	// inexpressible says why gqlkit's Go API cannot state this schema (its
	// types rule it out at compile time); only graphql-js's refusal is
	// checked then.
	inexpressible string
}

// schemaCases follow the interface and union cases of graphql-js's
// src/type/__tests__/validation-test.ts.
var schemaCases = []schemaCase{
	// An object implementing an interface.
	{name: "object-implements-interface",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field(input: String): String }`},
	{name: "object-with-more-fields",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field(input: String): String other: Int }`},
	{name: "object-with-extra-optional-argument",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field(input: String, more: Int, most: Int = 1): String }`},
	{name: "object-missing-field",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { other: String }`},
	{name: "object-field-wrong-scalar",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field(input: String): Int }`},
	{name: "object-field-other-object",
		sdl: `type Query { q: I } type X { x: Int } type Y { y: Int } interface I { field: X } type A implements I { field: Y }`},
	{name: "object-field-subtype-interface",
		sdl: `type Query { q: I } interface I { field: I } type A implements I { field: A }`},
	{name: "object-field-subtype-union",
		sdl: `type Query { q: I } type M { m: Int } union U = M interface I { field: U } type A implements I { field: M }`},
	{name: "object-field-union-not-member",
		sdl: `type Query { q: I } type M { m: Int } type N { n: Int } union U = M interface I { field: U } type A implements I { field: N }`},
	{name: "object-missing-argument",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field: String }`},
	{name: "object-argument-wrong-type",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field(input: Int): String }`},
	{name: "object-argument-nullable-for-non-null",
		sdl: `type Query { q: I } interface I { field(input: String!): String } type A implements I { field(input: String): String }`},
	{name: "object-argument-non-null-for-nullable",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field(input: String!): String }`},
	{name: "object-field-and-argument-wrong",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field(input: Int): Int }`},
	{name: "object-extra-required-argument",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field(input: String, required: String!): String }`},
	{name: "object-extra-required-argument-with-default",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { field(input: String, required: String! = "x"): String }`},
	{name: "object-field-same-wrapping",
		sdl: `type Query { q: I } interface I { field: [String]! } type A implements I { field: [String]! }`},
	{name: "object-field-list-for-non-list",
		sdl: `type Query { q: I } interface I { field: [String] } type A implements I { field: String }`},
	{name: "object-field-non-list-for-list",
		sdl: `type Query { q: I } interface I { field: String } type A implements I { field: [String] }`},
	{name: "object-field-non-null-for-nullable",
		sdl: `type Query { q: I } interface I { field: String } type A implements I { field: String! }`},
	{name: "object-field-nullable-for-non-null",
		sdl: `type Query { q: I } interface I { field: String! } type A implements I { field: String }`},
	{name: "object-field-list-item-non-null",
		sdl: `type Query { q: I } interface I { field: [String] } type A implements I { field: [String!]! }`},
	{name: "object-field-list-item-nullable",
		sdl: `type Query { q: I } interface I { field: [String!] } type A implements I { field: [String] }`},
	{name: "object-missing-transitive-interface",
		sdl: `type Query { q: I } interface J { field: String } interface I implements J { field: String } type A implements I { field: String }`},
	{name: "object-lists-transitive-interface",
		sdl: `type Query { q: I } interface J { field: String } interface I implements J { field: String } type A implements I & J { field: String }`},
	{name: "object-implements-interface-twice",
		sdl: `type Query { q: I } interface I { field: String } type A implements I & I { field: String }`},
	{name: "object-implements-object",
		sdl:           `type Query { q: A } type B { field: String } type A implements B { field: String }`,
		inexpressible: "Object.Interfaces is []*Interface"},
	{name: "object-without-fields", sdl: `type Query { q: A } type A`},
	{name: "two-objects-wrong-at-once",
		sdl: `type Query { q: I } interface I { field(input: String): String } type A implements I { other: String } type B implements I { field(input: Int): String }`},

	// An interface implementing an interface.
	{name: "interface-implements-interface",
		sdl: `type Query { q: I } interface J { field(input: String): String } interface I implements J { field(input: String): String more: Int }`},
	{name: "interface-missing-field",
		sdl: `type Query { q: I } interface J { field(input: String): String } interface I implements J { other: String }`},
	{name: "interface-field-wrong-type",
		sdl: `type Query { q: I } interface J { field(input: String): String } interface I implements J { field(input: String): Int }`},
	{name: "interface-field-subtype-interface",
		sdl: `type Query { q: I } interface J { field: J } interface I implements J { field: I }`},
	{name: "interface-missing-argument",
		sdl: `type Query { q: I } interface J { field(input: String): String } interface I implements J { field: String }`},
	{name: "interface-extra-required-argument",
		sdl: `type Query { q: I } interface J { field(input: String): String } interface I implements J { field(input: String, required: String!): String }`},
	{name: "interface-field-nullable-for-non-null",
		sdl: `type Query { q: I } interface J { field: String! } interface I implements J { field: String }`},
	{name: "interface-missing-transitive-interface",
		sdl: `type Query { q: I } interface K { field: String } interface J implements K { field: String } interface I implements J { field: String }`},
	{name: "interface-implements-itself",
		sdl: `type Query { q: I } interface I implements I { field: String }`},
	{name: "interfaces-implement-each-other",
		sdl: `type Query { q: I } interface I implements J & I { field: String } interface J implements I & J { field: String }`},
	{name: "interface-cycle-of-three",
		sdl: `type Query { q: I } interface I implements K & J { field: String } interface J implements I & K { field: String } interface K implements J & I { field: String }`},
	{name: "interface-implements-object",
		sdl:           `type Query { q: I } type A { field: String } interface I implements A { field: String }`,
		inexpressible: "Interface.Interfaces is []*Interface"},
	{name: "interface-without-fields", sdl: `type Query { q: I } interface I`},
	{name: "interface-without-implementations", sdl: `type Query { q: I } interface I { field: String }`},

	// Unions.
	{name: "union-of-objects", sdl: `type Query { q: U } type A { a: Int } type B { b: Int } union U = A | B`},
	{name: "union-empty", sdl: `type Query { q: U } union U`},
	{name: "union-duplicate-member", sdl: `type Query { q: U } type A { a: Int } type B { b: Int } union U = A | B | A`},
	{name: "union-of-scalar", sdl: `type Query { q: U } type A { a: Int } union U = A | String`,
		inexpressible: "Union.Types is []*Object"},
	{name: "union-of-interface", sdl: `type Query { q: U } type A { a: Int } interface I { i: Int } union U = A | I`,
		inexpressible: "Union.Types is []*Object"},
	{name: "union-of-union", sdl: `type Query { q: U } type A { a: Int } union V = A union U = A | V`,
		inexpressible: "Union.Types is []*Object"},
}

func TestConformanceSchemaChecks(t *testing.T) {
	testenv.SkipIfShort(t, "conformance: schema checks through graphql-js under node")
	js := nodeReady(t)
	sdls := make([]string, len(schemaCases))
	for i, c := range schemaCases {
		sdls[i] = c.sdl
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	verdicts := js.SchemaErrors(ctx, t, sdls)
	for i, c := range schemaCases {
		jsErrors := verdicts[i]
		t.Run(c.name, func(t *testing.T) {
			if c.inexpressible != "" {
				if len(jsErrors) == 0 {
					t.Errorf("graphql-js accepts a schema that gqlkit cannot express (%s)", c.inexpressible)
				}
				return
			}
			cfg, err := configFromSDL(c.sdl)
			if err != nil {
				t.Fatalf("translating the SDL: %v", err)
			}
			_, err = graphql.NewSchema(cfg)
			problems := schemaProblems(err)
			switch {
			case len(jsErrors) == 0 && err != nil:
				t.Errorf("gqlkit refuses a schema that graphql-js accepts:\n%v", err)
			case len(jsErrors) > 0 && err == nil:
				t.Errorf("gqlkit accepts a schema that graphql-js refuses: %q", jsErrors)
			case len(problems) != len(jsErrors):
				t.Errorf("gqlkit finds %d problems, graphql-js %d\ngqlkit:     %q\ngraphql-js: %q",
					len(problems), len(jsErrors), problems, jsErrors)
			}
		})
	}
}

// schemaProblems splits NewSchema's error into its problems (it joins
// them with errors.Join).
func schemaProblems(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			out = append(out, schemaProblems(e)...)
		}
		return out
	}
	return []string{err.Error()}
}

// configFromSDL builds, with gqlkit's Go API, the object, interface and
// union types that sdl defines (fields of the built-in scalars, objects,
// interfaces and unions, lists and non-null, arguments and their
// defaults). The type named Query is the query root; the others are
// listed in SchemaConfig.Types in the order of sdl. Fields have no
// resolvers: NewSchema alone is under test.
func configFromSDL(sdl string) (graphql.SchemaConfig, error) {
	doc, err := parser.ParseSchema(&ast.Source{Name: "case", Input: sdl})
	if err != nil {
		return graphql.SchemaConfig{}, err
	}
	named := map[string]graphql.NamedType{
		"String": graphql.String, "Int": graphql.Int, "Float": graphql.Float,
		"Boolean": graphql.Boolean, "ID": graphql.ID,
	}
	for _, d := range doc.Definitions {
		switch d.Kind {
		case ast.Object:
			named[d.Name] = &graphql.Object{Name: d.Name}
		case ast.Interface:
			named[d.Name] = &graphql.Interface{Name: d.Name}
		case ast.Union:
			named[d.Name] = &graphql.Union{Name: d.Name}
		default:
			return graphql.SchemaConfig{}, fmt.Errorf("%s: unsupported kind %s", d.Name, d.Kind)
		}
	}
	var typeOf func(*ast.Type) (graphql.Type, error)
	typeOf = func(t *ast.Type) (graphql.Type, error) {
		var out graphql.Type
		if t.Elem != nil {
			elem, err := typeOf(t.Elem)
			if err != nil {
				return nil, err
			}
			out = graphql.NewList(elem)
		} else if n, ok := named[t.NamedType]; ok {
			out = n
		} else {
			return nil, fmt.Errorf("unknown type %s", t.NamedType)
		}
		if t.NonNull {
			out = graphql.NewNonNull(out)
		}
		return out, nil
	}
	fieldsOf := func(d *ast.Definition) (graphql.Fields, error) {
		fields := graphql.Fields{}
		for _, f := range d.Fields {
			ft, err := typeOf(f.Type)
			if err != nil {
				return nil, err
			}
			field := graphql.Field{Name: f.Name, Type: ft}
			for _, a := range f.Arguments {
				at, err := typeOf(a.Type)
				if err != nil {
					return nil, err
				}
				arg := graphql.Argument{Name: a.Name, Type: at}
				if a.DefaultValue != nil {
					if arg.Default, err = a.DefaultValue.Value(nil); err != nil {
						return nil, err
					}
				}
				field.Args = append(field.Args, arg)
			}
			fields = append(fields, field)
		}
		return fields, nil
	}
	interfaces := func(names []string) ([]*graphql.Interface, error) {
		var out []*graphql.Interface
		for _, n := range names {
			i, ok := named[n].(*graphql.Interface)
			if !ok {
				return nil, fmt.Errorf("%s is not an interface", n)
			}
			out = append(out, i)
		}
		return out, nil
	}
	var cfg graphql.SchemaConfig
	for _, d := range doc.Definitions {
		var err error
		switch t := named[d.Name].(type) {
		case *graphql.Object:
			if t.Interfaces, err = interfaces(d.Interfaces); err == nil {
				t.Fields, err = fieldsOf(d)
			}
		case *graphql.Interface:
			if t.Interfaces, err = interfaces(d.Interfaces); err == nil {
				t.Fields, err = fieldsOf(d)
			}
		case *graphql.Union:
			for _, n := range d.Types {
				o, ok := named[n].(*graphql.Object)
				if !ok {
					err = errors.Join(err, fmt.Errorf("%s is not an object", n))
				}
				t.Types = append(t.Types, o)
			}
		}
		if err != nil {
			return graphql.SchemaConfig{}, fmt.Errorf("%s: %w", d.Name, err)
		}
		if d.Name == "Query" {
			cfg.Query = named[d.Name].(*graphql.Object)
		} else {
			cfg.Types = append(cfg.Types, named[d.Name])
		}
	}
	return cfg, nil
}
