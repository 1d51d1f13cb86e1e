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
	name string
	typ  NamedType // *Interface or *Union
	// possible holds the objects a value may be of, in graphql-js's
	// getPossibleTypes order, which introspection's possibleTypes lists:
	// an interface's implementations in the schema's type order, a
	// union's members in the order declared.
	possible []*objectInfo
	// resolveType is Interface.ResolveType or Union.ResolveType, or nil.
	resolveType ResolveTypeFunc
	// byGoType maps the Go types NewSchema learned for possible objects
	// (from typed resolvers, see typecheck_abstract.go) to their object,
	// each struct type S and *S alike; a Go type learned for two of them
	// maps to nil: it is ambiguous. Map types are never in it, and it is
	// nil when nothing was learned.
	byGoType map[reflect.Type]*objectInfo
	// byName holds the possible objects by name.
	byName map[string]*objectInfo

	// fields are an interface's fields, in declaration order (none for a
	// union); they have no resolvers.
	fields      []*fieldInfo
	fieldByName map[string]*fieldInfo
}

// newAbstractInfo makes the info of t, an interface or a union.
func newAbstractInfo(t NamedType) *abstractInfo {
	info := &abstractInfo{name: t.TypeName(), typ: t, byName: map[string]*objectInfo{}}
	switch x := t.(type) {
	case *Interface:
		info.resolveType = x.ResolveType
		info.fieldByName = map[string]*fieldInfo{}
	case *Union:
		info.resolveType = x.ResolveType
	}
	return info
}

// compileInterface compiles the fields of interface it. They only describe
// what every implementation has: anything that resolves a field is
// refused, since each object resolves its own.
func (b *builder) compileInterface(it *Interface) {
	info := b.s.abstracts[it]
	b.eachField("interface", it, info.fieldByName, false, func(f Field, coord string) {
		if extra := resolvingParts(f); len(extra) > 0 {
			b.errorf("graphql: interface field %s has %s, which an interface field cannot have: each object that implements %s resolves the field itself (an interface field takes only Name, Type, Args, Description and DeprecationReason)",
				coord, strings.Join(extra, ", "), it.Name)
		}
		fi := &fieldInfo{name: f.Name, typ: f.Type, desc: f.Description, depr: f.DeprecationReason, coord: coord}
		b.compileArgs(fi, f.Args)
		info.fields = append(info.fields, fi)
		info.fieldByName[f.Name] = fi
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
		if info == nil || oi == nil || info.byName[oi.name] != nil {
			return // a nil or clashing type, or a member twice: reported
		}
		info.possible = append(info.possible, oi)
		info.byName[oi.name] = oi
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
