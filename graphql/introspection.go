package graphql

import (
	"github.com/gqlkit/gqlkit/graphql/internal/introspection"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file gives the builder the introspection types, which package
// introspection makes as compiled nodes, resolvers included. The builder
// mirrors each with a public definition, an *Object or an *Enum without
// resolvers, which it collects like the schema's own types: so Types lists
// them in graphql-js's collection order, a schema type with one of their
// names clashes with them as it does in graphql-js, and the validation
// schema (ast.go) holds them. It does not compile the mirrors: their nodes
// are package introspection's.

// introspection makes the introspection types of s, the query type's
// __schema and __type fields and the directives, over the Boolean and
// String nodes (made here, ahead of the other types'), and mirrors them.
// It returns the mirror of __Schema, which build collects last.
func (b *builder) introspection() *Object {
	s := b.s
	boolean, str := s.newNode(Boolean), s.newNode(String)
	s.nodes[Boolean], s.nodes[String] = boolean, str
	it := introspection.New(s.c, boolean, str)
	for _, t := range it.All() {
		b.intro[b.mirror(t).(NamedType)] = true
	}
	s.c.SchemaField, s.c.TypeField = it.SchemaField, it.TypeField
	s.c.Directives = introspection.Directives(boolean, str)
	// The wrappers outside the types get their definitions too, as every
	// node has one.
	b.mirror(it.SchemaField.Type)
	for _, d := range s.c.Directives {
		b.mirrorArgs(d.Args)
	}
	b.mirrorArgs(it.TypeField.Args)
	return it.Schema.Def.(*Object)
}

// mirror returns the public definition of t, a node of package
// introspection (or the Boolean and String nodes, which have theirs),
// made the first time and kept as t.Def; a named type's node is then the
// mirror's in s.nodes.
func (b *builder) mirror(t *schema.Type) Type {
	if d, ok := t.Def.(Type); ok {
		return d
	}
	switch t.Kind {
	case schema.KindList:
		l := &List{}
		t.Def = l
		l.OfType = b.mirror(t.Of)
		return l
	case schema.KindNonNull:
		nn := &NonNull{}
		t.Def = nn
		nn.OfType = b.mirror(t.Of)
		return nn
	case schema.KindEnum:
		e := &Enum{Name: t.Name, Description: t.Description}
		for _, v := range t.Enum.Values {
			e.Values = append(e.Values, EnumValue{Name: v.Name, Description: v.Desc, DeprecationReason: v.Depr})
		}
		t.Def, b.s.nodes[e] = e, t
		return e
	}
	o := &Object{Name: t.Name, Description: t.Description}
	t.Def, b.s.nodes[o] = o, t
	fields := Fields{}
	for _, f := range t.Object.Fields {
		fields = append(fields, Field{Name: f.Name, Type: b.mirror(f.Type), Args: b.mirrorArgs(f.Args), Description: f.Desc,
			DeprecationReason: f.Depr})
	}
	o.Fields = fields
	return o
}

// mirrorArgs returns the public definitions of args.
func (b *builder) mirrorArgs(args []*schema.Arg) []Argument {
	var out []Argument
	for _, a := range args {
		out = append(out, Argument{Name: a.Name, Type: b.mirror(a.Type), Default: a.Default, Description: a.Desc,
			DeprecationReason: a.Depr})
	}
	return out
}

// useIntrospection registers the node of t, the mirror of an
// introspection type, as the compiled object or enum of t.
func (b *builder) useIntrospection(t NamedType) {
	switch x := t.(type) {
	case *Object:
		b.s.objects[x] = b.s.nodes[x].Object
	case *Enum:
		b.s.enums[x] = b.s.nodes[x].Enum
	}
}
