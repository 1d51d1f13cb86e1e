package graphql

import (
	"reflect"
	"sort"
	"strings"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file extends NewSchema's checks of typed resolvers to the abstract
// types. A field of an interface or union type is given a Go interface, a
// map (whose "__typename" names the object), or a struct type (or a
// pointer to one) that the executor can match to one possible object: by
// its Go type, learnt for exactly one of them, or else by the abstract
// type's ResolveType or the objects' IsTypeOf. What no rule can ever match
// is refused. The Go types learnt for each object fill the abstract
// types' ByGoType.

// abstractOutput is a Go type given for an abstract type.
type abstractOutput struct {
	coord, source string
	typ           reflect.Type
	abstract      NamedType
}

// noteAbstractOutput checks what can be checked of Go type r, produced by
// source, for abstract type t of field coord now, and keeps the rest for
// checkAbstractOutput.
func (c *typeChecker) noteAbstractOutput(coord, source string, r reflect.Type, t NamedType) {
	r = derefToStruct(r)
	switch {
	case r.Kind() == reflect.Interface, r.Kind() == reflect.Map && r.Key().Kind() == reflect.String:
		// Any value may be inside, or it names its object itself.
	case r.Kind() == reflect.Struct, r.Kind() == reflect.Pointer && r.Elem().Kind() == reflect.Struct:
		c.abstractOuts = append(c.abstractOuts, abstractOutput{coord: coord, source: source, typ: r, abstract: t})
	default:
		kind := "an interface"
		if _, ok := t.(*Union); ok {
			kind = "a union"
		}
		c.mismatch(coord, source, t, r, kind+" needs a Go interface, a struct, a pointer to one or a map")
	}
}

// learnAbstracts fills the ByGoType of every abstract type from the Go
// types learnt for its possible objects, and then, where that leaves them
// free, from their pointer or struct counterparts (a struct S learnt
// stands for *S too, and *S for S), as a value may come either way. Map
// types are left out: many objects share map[string]any, whose values
// name their object by "__typename".
func (c *typeChecker) learnAbstracts() {
	for _, info := range c.b.s.abstracts {
		exact := map[reflect.Type]*schema.Object{}
		paired := map[reflect.Type]*schema.Object{}
		for _, o := range info.Possible {
			for _, v := range c.values[objectDef(o)] {
				if v.typ.Kind() == reflect.Map {
					continue
				}
				learnGoType(exact, v.typ, o)
				if v.typ.Kind() == reflect.Pointer {
					learnGoType(paired, v.typ.Elem(), o)
				} else {
					learnGoType(paired, reflect.PointerTo(v.typ), o)
				}
			}
		}
		for t, o := range paired {
			if _, ok := exact[t]; !ok {
				exact[t] = o
			}
		}
		if len(exact) > 0 {
			info.ByGoType = exact
		}
	}
}

// learnGoType records that Go type t stands for object o in m, or for none
// (nil) when it already stands for another.
func learnGoType(m map[reflect.Type]*schema.Object, t reflect.Type, o *schema.Object) {
	if prev, ok := m[t]; ok && prev != o {
		m[t] = nil
		return
	}
	m[t] = o
}

// checkAbstractOutput refuses a struct type given for an abstract type
// that the executor could never match to an object: it is not learnt for
// exactly one possible object, and neither ResolveType nor any IsTypeOf
// can say.
func (c *typeChecker) checkAbstractOutput(out abstractOutput) {
	info := c.b.s.abstracts[out.abstract]
	if info == nil {
		return
	}
	o, learnt := info.ByGoType[out.typ]
	if o != nil || info.ResolveType != nil {
		return
	}
	for _, p := range info.Possible {
		if p.IsTypeOf != nil {
			return
		}
	}
	var why string
	if learnt {
		why = "it is the Go type of " + strings.Join(c.objectsOf(info, out.typ), " and ")
	} else {
		why = "NewSchema learnt it for none of its possible objects (" + possibleNames(info) + ")"
	}
	c.errorf("graphql: %s: %s, which cannot be matched to an object of %s: %s, and %s has no ResolveType nor its objects an IsTypeOf",
		out.coord, out.source, typeString(out.abstract), why, info.Name)
}

// objectsOf names the possible objects of info that Go type t (or its
// pointer or struct counterpart) was learnt for, sorted.
func (c *typeChecker) objectsOf(info *schema.Abstract, t reflect.Type) []string {
	var names []string
	for _, o := range info.Possible {
		for _, v := range c.values[objectDef(o)] {
			if v.typ == t || v.typ.Kind() == reflect.Pointer && v.typ.Elem() == t || t.Kind() == reflect.Pointer && t.Elem() == v.typ {
				names = append(names, o.Name)
				break
			}
		}
	}
	sort.Strings(names)
	return names
}

func possibleNames(info *schema.Abstract) string {
	if len(info.Possible) == 0 {
		return "none"
	}
	names := make([]string, len(info.Possible))
	for i, o := range info.Possible {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}
