package graphql

import (
	"github.com/gqlkit/gqlkit/graphql/internal/scalar"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file compiles type references: each named type becomes one
// schema.Type that every reference to it shares, and each list or
// non-null around it a schema.Type of its own, so that the engine walks
// types without asking what Go type a definition is.

// newNode makes the compiled node of named type t, with the part of its
// kind (filled in as its type is compiled).
func (s *Schema) newNode(t NamedType) *schema.Type {
	n := &schema.Type{Name: t.TypeName(), Def: t}
	switch x := t.(type) {
	case BuiltinScalar:
		n.Kind, n.Builtin, n.Description = schema.KindScalar, scalar.Kind(x), x.Description()
	case *Scalar:
		n.Kind, n.Description, n.SpecifiedByURL = schema.KindScalar, x.Description, x.SpecifiedByURL
		n.Scalar = &schema.Scalar{Serialize: x.Serialize, ParseValue: x.ParseValue, ParseLiteral: x.ParseLiteral}
	case *Enum:
		n.Kind, n.Description = schema.KindEnum, x.Description
	case *InputObject:
		n.Kind, n.Description = schema.KindInputObject, x.Description
	case *Object:
		n.Kind, n.Description = schema.KindObject, x.Description
	case *Interface:
		n.Kind, n.Description = schema.KindInterface, x.Description
	case *Union:
		n.Kind, n.Description = schema.KindUnion, x.Description
	}
	return n
}

// declareInterfaces gives the node of every object and interface the
// nodes of the interfaces it declares, once every type has its node (an
// interface that is nil or lost a name clash, reported when the types
// were collected, is left out).
func (s *Schema) declareInterfaces() {
	for _, t := range s.types {
		var ifaces []*Interface
		switch x := t.(type) {
		case *Object:
			ifaces = x.Interfaces
		case *Interface:
			ifaces = x.Interfaces
		}
		for _, it := range ifaces {
			if n := s.nodes[it]; it != nil && n != nil {
				s.nodes[t].Interfaces = append(s.nodes[t].Interfaces, n)
			}
		}
	}
}

// ref returns the compiled reference of t, nil when t is not well formed
// (a nil type or wrapper, more than maxTypeWrappers wrappers) or names a
// type the schema does not hold: reported when the types were collected.
func (s *Schema) ref(t Type) *schema.Type {
	var wrappers []Type // outermost first
	inner, ok := walkType(t, func(w Type) { wrappers = append(wrappers, w) })
	nt, named := inner.(NamedType)
	if !ok || !named || isNilType(nt) {
		return nil
	}
	out := s.nodes[nt]
	if out == nil {
		return nil
	}
	for i := len(wrappers) - 1; i >= 0; i-- {
		kind := schema.KindNonNull
		if _, isList := wrappers[i].(*List); isList {
			kind = schema.KindList
		}
		out = &schema.Type{Kind: kind, Of: out, Def: wrappers[i]}
	}
	return out
}

// defOf returns the definition t was compiled from.
func defOf(t *schema.Type) Type {
	if t == nil {
		return nil
	}
	d, _ := t.Def.(Type)
	return d
}

// objectDef returns the *Object o was compiled from.
func objectDef(o *schema.Object) *Object {
	d, _ := o.Type.Def.(*Object)
	return d
}
