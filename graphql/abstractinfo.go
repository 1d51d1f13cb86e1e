package graphql

import (
	"reflect"
	"strings"
)

// This file compiles the abstract types, interfaces and unions: what the
// executor needs to find the object of a value (abstractInfo), and an
// interface's own fields, which introspection, the SDL and validation
// read.

// abstractInfo is an interface or a union as the schema compiled it.
type abstractInfo struct {
	Name string
	typ  NamedType // *Interface or *Union
	// Possible holds the objects a value may be of, in graphql-js's
	// getPossibleTypes order, which introspection's possibleTypes lists:
	// an interface's implementations in the schema's type order, a
	// union's members in the order declared.
	Possible []*objectInfo
	// ResolveType is Interface.ResolveType or Union.ResolveType, or nil.
	ResolveType ResolveTypeFunc
	// ByGoType maps the Go types NewSchema learned for possible objects
	// (from typed resolvers, see typecheck_abstract.go) to their object,
	// each struct type S and *S alike; a Go type learned for two of them
	// maps to nil: it is ambiguous. Map types are never in it, and it is
	// nil when nothing was learned.
	ByGoType map[reflect.Type]*objectInfo
	// ByName holds the possible objects by name.
	ByName map[string]*objectInfo

	// Fields are an interface's Fields, in declaration order (none for a
	// union); they have no resolvers.
	Fields      []*fieldInfo
	FieldByName map[string]*fieldInfo
}

// newAbstractInfo makes the info of t, an interface or a union.
func newAbstractInfo(t NamedType) *abstractInfo {
	info := &abstractInfo{Name: t.TypeName(), typ: t, ByName: map[string]*objectInfo{}}
	switch x := t.(type) {
	case *Interface:
		info.ResolveType = x.ResolveType
		info.FieldByName = map[string]*fieldInfo{}
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
	b.eachField("interface", it, info.FieldByName, false, func(f Field, coord string) {
		if extra := resolvingParts(f); len(extra) > 0 {
			b.errorf("graphql: interface field %s has %s, which an interface field cannot have: each object that implements %s resolves the field itself (an interface field takes only Name, Type, Args, Description and DeprecationReason)",
				coord, strings.Join(extra, ", "), it.Name)
		}
		fi := &fieldInfo{Name: f.Name, Type: f.Type, Desc: f.Description, Depr: f.DeprecationReason, Coord: coord}
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
	add := func(info *abstractInfo, o *Object) {
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
