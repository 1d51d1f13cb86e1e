package graphql

import (
	"strings"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file compiles the abstract types, interfaces and unions: what the
// executor needs to find the object of a value (schema.Abstract), and an
// interface's own fields, which introspection, the SDL and validation
// read.

// newAbstractInfo makes the info of t, an interface or a union.
func newAbstractInfo(t NamedType, node *schema.Type) *schema.Abstract {
	info := &schema.Abstract{Name: t.TypeName(), Type: node, ByName: map[string]*schema.Object{}}
	switch x := t.(type) {
	case *Interface:
		info.ResolveType = x.ResolveType
		info.FieldByName = map[string]*schema.Field{}
	case *Union:
		info.ResolveType = x.ResolveType
	}
	return info
}

// compileInterface compiles the fields of interface it. They only describe
// what every implementation has: anything that resolves a field is
// refused, since each object resolves its own.
func (b *builder) compileInterface(it *Interface) {
	info := b.s.abstracts[it]
	b.eachField("interface", it, info.FieldByName, func(f Field, coord string) {
		if extra := resolvingParts(f); len(extra) > 0 {
			b.errorf("graphql: interface field %s has %s, which an interface field cannot have: each object that implements %s resolves the field itself (an interface field takes only Name, Type, Args, Description and DeprecationReason)",
				coord, strings.Join(extra, ", "), it.Name)
		}
		fi := &schema.Field{Name: f.Name, Type: b.s.ref(f.Type), Desc: f.Description, Depr: f.DeprecationReason, Coord: coord}
		b.compileArgs(fi, f.Args)
		info.Fields = append(info.Fields, fi)
		info.FieldByName[f.Name] = fi
	})
}

// resolvingParts names what f has that only an object's field can use.
func resolvingParts(f Field) []string {
	var out []string
	add := func(has bool, what string) {
		if has {
			out = append(out, what)
		}
	}
	add(f.Resolve != nil, "Resolve")
	add(f.Typed != nil, "Typed")
	add(f.Batch != nil, "Batch")
	add(len(f.Middleware) > 0, "Middleware")
	add(f.Cost != Cost{}, "Cost")
	add(f.Public, "Public")
	for _, a := range f.Args {
		add(len(a.Rules) > 0, "Rules on argument "+a.Name)
	}
	return out
}

// compileAbstracts fills the possible objects of every interface and
// union, once every object is compiled.
func (b *builder) compileAbstracts() {
	s := b.s
	add := func(info *schema.Abstract, o *Object) {
		oi := s.objects[o]
		if info == nil || oi == nil || info.ByName[oi.Name] != nil {
			return // a nil or clashing type, or a member twice: reported
		}
		info.Possible = append(info.Possible, oi)
		info.ByName[oi.Name] = oi
	}
	for _, t := range s.types {
		switch x := t.(type) {
		case *Object:
			for _, it := range x.Interfaces {
				if it != nil {
					add(s.abstracts[it], x)
				}
			}
		case *Union:
			for _, m := range x.Types {
				if m != nil {
					add(s.abstracts[x], m)
				}
			}
		}
	}
}
