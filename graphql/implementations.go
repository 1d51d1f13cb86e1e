package graphql

import "github.com/gqlkit/gqlkit/graphql/internal/schema"

// This file holds NewSchema's checks of the abstract types, those of
// graphql-js's validateSchema: an object or interface has every field of
// each interface it implements, with a type that is the same or a subtype
// and the same arguments, names the interfaces those implement, and
// implements nothing twice nor itself; a union lists each member once and
// has some. Every problem is reported, in the order of the schema's types.

// checkAbstracts runs the checks once every object and interface is
// compiled.
func (b *builder) checkAbstracts() {
	for _, t := range b.s.types {
		switch x := t.(type) {
		case *Object:
			b.checkImplements("object", x, x.Interfaces)
		case *Interface:
			b.checkImplements("interface", x, x.Interfaces)
		case *Union:
			b.checkUnion(x)
		}
	}
}

// checkImplements checks that t, an object or an interface (kind), implements
// ifaces.
func (b *builder) checkImplements(kind string, t NamedType, ifaces []*Interface) {
	name := t.TypeName()
	seen := map[*Interface]bool{}
	for _, it := range ifaces {
		if it == nil || b.s.abstracts[it] == nil {
			continue // nil, or a name clash: reported when collected
		}
		switch {
		case NamedType(it) == t:
			b.errorf("graphql: interface %s implements itself", name)
			continue
		case seen[it]:
			b.errorf("graphql: %s %s implements %s twice", kind, name, it.Name)
			continue
		}
		seen[it] = true
		for _, anc := range it.Interfaces {
			switch {
			case anc == nil || hasInterface(ifaces, anc):
			case NamedType(anc) == t:
				b.errorf("graphql: interface %s cannot implement %s, which implements %s: a cycle", name, it.Name, name)
			default:
				b.errorf("graphql: %s %s implements %s, so it must also implement %s, which %s implements", kind, name, it.Name, anc.Name, it.Name)
			}
		}
		b.checkFieldsOf(kind, t, it)
	}
}

func hasInterface(ifaces []*Interface, it *Interface) bool {
	for _, x := range ifaces {
		if x == it {
			return true
		}
	}
	return false
}

// compiledFields returns the compiled fields of t, an object or interface.
func (b *builder) compiledFields(t NamedType) map[string]*schema.Field {
	switch x := t.(type) {
	case *Object:
		return b.s.objects[x].ByName
	case *Interface:
		return b.s.abstracts[x].FieldByName
	}
	return nil
}

// checkFieldsOf checks that t (a kind) has every field of interface it,
// with a fitting type and the same arguments.
func (b *builder) checkFieldsOf(kind string, t NamedType, it *Interface) {
	name := t.TypeName()
	own := b.compiledFields(t)
	for _, want := range b.s.abstracts[it].Fields {
		got := own[want.Name]
		if got == nil {
			if !b.declares(t, want.Name) { // else refused for another reason
				b.errorf("graphql: %s %s implements %s but has no field %s", kind, name, it.Name, want.Name)
			}
			continue
		}
		if !b.s.isSubtype(defOf(got.Type), defOf(want.Type)) {
			b.errorf("graphql: field %s is of type %s, which does not fit %s of type %s (the same type, a non-null of it, or for an interface or union one of its possible types)",
				got.Coord, typeString(defOf(got.Type)), want.Coord, typeString(defOf(want.Type)))
		}
		for _, wa := range want.Args {
			ga := argNamed(got.Args, wa.Name)
			switch {
			case ga == nil:
				b.errorf("graphql: field %s has no argument %s, which %s has", got.Coord, wa.Name, want.Coord)
			case !sameType(defOf(ga.Type), defOf(wa.Type)):
				b.errorf("graphql: argument %s(%s:) is of type %s, but %s(%s:) is of type %s; an implementing field's argument has the interface's type",
					got.Coord, ga.Name, typeString(defOf(ga.Type)), want.Coord, wa.Name, typeString(defOf(wa.Type)))
			}
		}
		for _, ga := range got.Args {
			if argNamed(want.Args, ga.Name) == nil && isRequired(ga) {
				b.errorf("graphql: field %s has the required argument %s, which %s does not have; an implementing field's other arguments must be optional",
					got.Coord, ga.Name, want.Coord)
			}
		}
	}
}

// declares reports whether t declares a field called name, compiled or not.
func (b *builder) declares(t NamedType, name string) bool {
	for _, f := range b.fields[t] {
		if f.Name == name {
			return true
		}
	}
	return false
}

func argNamed(args []*schema.Arg, name string) *schema.Arg {
	for _, a := range args {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// isRequired reports whether a is a required argument: non-null without a
// default.
func isRequired(a *schema.Arg) bool {
	return a.Type.Kind == schema.KindNonNull && !a.HasDefault
}

// checkUnion checks the members of union u.
func (b *builder) checkUnion(u *Union) {
	if len(u.Types) == 0 {
		b.errorf("graphql: union %s has no member types", u.Name)
	}
	seen := map[*Object]bool{}
	for _, m := range u.Types {
		if m == nil {
			continue // reported when collected
		}
		if seen[m] {
			b.errorf("graphql: union %s lists %s twice", u.Name, m.Name)
		}
		seen[m] = true
	}
}

// isSubtype reports whether a field of type sub may implement one of type
// super, as graphql-js's isTypeSubTypeOf: the same type, a non-null where
// super is nullable, lists of such types, or an object or interface that
// is a possible type of super's interface or union.
func (s *Schema) isSubtype(sub, super Type) bool {
	for range 2*maxTypeWrappers + 2 {
		if sub == super {
			return true
		}
		if nn, ok := super.(*NonNull); ok {
			snn, ok := sub.(*NonNull)
			if !ok {
				return false
			}
			sub, super = snn.OfType, nn.OfType
			continue
		}
		if nn, ok := sub.(*NonNull); ok {
			sub = nn.OfType
			continue
		}
		if l, ok := super.(*List); ok {
			sl, ok := sub.(*List)
			if !ok {
				return false
			}
			sub, super = sl.OfType, l.OfType
			continue
		}
		if _, ok := sub.(*List); ok {
			return false
		}
		return s.implementsAbstract(sub, super)
	}
	return false
}

// implementsAbstract reports whether sub, an object or interface, is among
// the types of super, an interface (that sub names in its Interfaces) or a
// union (that lists sub, an object).
func (s *Schema) implementsAbstract(sub, super Type) bool {
	switch sup := super.(type) {
	case *Interface:
		switch x := sub.(type) {
		case *Object:
			return hasInterface(x.Interfaces, sup)
		case *Interface:
			return hasInterface(x.Interfaces, sup)
		}
	case *Union:
		if o, ok := sub.(*Object); ok {
			for _, m := range sup.Types {
				if m == o {
					return true
				}
			}
		}
	}
	return false
}

// sameType reports whether a and b are the same type, wrappers and all.
func sameType(a, b Type) bool {
	for range maxTypeWrappers + 1 {
		switch x := a.(type) {
		case *NonNull:
			y, ok := b.(*NonNull)
			if !ok {
				return false
			}
			a, b = x.OfType, y.OfType
		case *List:
			y, ok := b.(*List)
			if !ok {
				return false
			}
			a, b = x.OfType, y.OfType
		default:
			return a == b
		}
	}
	return false
}
