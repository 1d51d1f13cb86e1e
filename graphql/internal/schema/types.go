package schema

import (
	"context"
	"reflect"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/access"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/scalar"
	"github.com/gqlkit/gqlkit/validate"
)

// Kind is what a Type is.
type Kind uint8

// The kinds of types.
const (
	KindScalar Kind = iota + 1 // a built-in (Builtin) or custom (Scalar) scalar
	KindEnum
	KindInputObject
	KindObject
	KindInterface
	KindUnion
	KindList
	KindNonNull
)

// Type is a compiled type reference: a named type, shared by every
// reference to it, or a list or non-null wrapper around another.
type Type struct {
	Kind Kind
	Of   *Type // what a list or a non-null wraps
	// Def is the definition NewSchema was given for this reference (a
	// graphql.Type), which ResolveInfo.ReturnType hands back; for the
	// nodes package introspection makes, the public definitions package
	// graphql mirrors them with (see graphql.Schema.Types).
	Def any

	// The named type's parts: its name, and the one that its Kind uses.
	Name     string
	Builtin  scalar.Kind // a built-in scalar; 0 for every other type
	Scalar   *Scalar
	Enum     *Enum
	Input    *Input
	Object   *Object
	Abstract *Abstract // an interface or a union

	// What introspection describes of a named type besides: its
	// description ("" for none), a custom scalar's specifiedByURL, and the
	// interfaces an object or an interface declares, in order.
	Description    string
	SpecifiedByURL string
	Interfaces     []*Type
}

// Named returns the named type inside t's lists and non-nulls.
func (t *Type) Named() *Type {
	for t.Of != nil {
		t = t.Of
	}
	return t
}

// Wrapped reports whether t is a list or a non-null.
func (t *Type) Wrapped() bool { return t.Kind == KindList || t.Kind == KindNonNull }

// Nullable returns t without its outer non-null.
func (t *Type) Nullable() *Type {
	if t.Kind == KindNonNull {
		return t.Of
	}
	return t
}

// IsAbstract reports whether t is an interface or a union.
func (t *Type) IsAbstract() bool { return t.Kind == KindInterface || t.Kind == KindUnion }

// String writes t as GraphQL does, for example "[String!]!".
func (t *Type) String() string {
	switch t.Kind {
	case KindList:
		return "[" + t.Of.String() + "]"
	case KindNonNull:
		return t.Of.String() + "!"
	}
	return t.Name
}

// Lists counts the list wrappers of t.
func (t *Type) Lists() int {
	n := 0
	for ; t != nil; t = t.Of {
		if t.Kind == KindList {
			n++
		}
	}
	return n
}

// AST returns t as a gqlparser type reference.
func (t *Type) AST() *ast.Type {
	switch t.Kind {
	case KindList:
		return &ast.Type{Elem: t.Of.AST()}
	case KindNonNull:
		inner := t.Of.AST()
		inner.NonNull = true
		return inner
	}
	return &ast.Type{NamedType: t.Name}
}

// Scalar is a custom scalar's functions.
type Scalar struct {
	Serialize    func(value any) (any, error)
	ParseValue   func(value any) (any, error)
	ParseLiteral func(value *ast.Value) (any, error)
}

// Enum is an enum's values, both ways.
type Enum struct {
	// Values are the values in declaration order, as introspection
	// lists them.
	Values  []EnumValue
	ByName  map[string]any
	ByValue map[any]string
	// Pointers: some internal value is a pointer, which results are
	// matched against before it is followed.
	Pointers bool
}

// EnumValue is one value of an enum, as introspection describes it.
type EnumValue struct {
	Name string
	Desc string
	Depr string // the deprecation reason, "" when not deprecated
}

// Input is an input object's fields.
type Input struct {
	Fields []*Arg
	ByName map[string]*Arg
	// Checked: some field, here or in an input object inside, has rules.
	Checked bool
}

// Arg is an argument of a field or a field of an input object.
type Arg struct {
	Owner      string // for messages about its default
	Name       string
	Type       *Type
	HasDefault bool
	Default    any        // coerced internal value
	DefaultAST *ast.Value // the default as a literal, nested defaults filled in
	// Fresh: the type holds a custom scalar, so the default is parsed
	// again from DefaultAST for every use.
	Fresh bool
	Desc  string
	Depr  string
	Rules []validate.Rule
	// Checked: rules apply to the value, or to input fields inside it.
	Checked bool
}

// Object is an object type: its fields and how values are matched to it.
type Object struct {
	Type   *Type // the named type
	Name   string
	Fields []*Field
	ByName map[string]*Field
	// Batched: some field has a batch resolver.
	Batched bool
	// IsTypeOf is Object.IsTypeOf: whether a value of an abstract field
	// is of this object; nil when not given.
	IsTypeOf func(any) bool
}

// Field is a field of an object or an interface.
type Field struct {
	Name string
	Type *Type
	Args []*Arg
	// Resolve is the field's resolver wrapped in its middleware, nil for
	// a field read from its parent.
	Resolve Resolver
	// Traced: the field has a resolver of its own, so a tracer sees it;
	// introspection fields are never traced.
	Traced bool
	// Batch: Resolve is a batch resolver's, called with the parents (see
	// BatchParents) and returning a *BatchOut.
	Batch bool
	Desc  string
	Depr  string
	Coord string // "Type.field", for messages
	// FreshArgs: some argument's type holds a custom scalar, whose values
	// each execution parses for itself.
	FreshArgs bool
	// Read reads the field from its parent's Go value when it has no
	// resolver, and says how the direct leaf path writes the field's type.
	Read access.FieldReader
	Cost Cost
	// Checked: some argument has rules, which run before the resolver.
	Checked bool
	Public  bool // Field.Public
}

// Cost is a field's graphql.Cost as the schema compiled it.
type Cost struct {
	Weight     int  // 0 for a negative Weight, 1 for a zero one
	SizeArg    *Arg // the Int argument that gives the size, or nil
	Size       int  // Size: 1 for a zero one, 0 for a negative one
	MaxSize    int  // MaxSize: 0 for none
	NullAbsent bool // NullSizeAsAbsent
}

// Resolver is a field's resolver as the engine calls it: the public
// resolver, adapted once when the schema is built.
type Resolver func(ctx context.Context, parent any, args map[string]any, info Info) (any, error)

// Info is what the engine knows of a field being resolved; the public
// ResolveInfo wraps it. It holds nothing the engine reuses.
type Info struct {
	Field any            // the field's plan (a *plan.Field), read-only
	Op    any            // the *graphql.Operation being executed
	Vars  map[string]any // the execution's coerced variables, read-only
	Idx   response.PathIndexes
}

// BatchOut is what a bound batch resolver returns through the middleware:
// one value per parent (a slice as a reflect.Value) and, when some items
// failed, one error per parent.
type BatchOut struct {
	Vals reflect.Value
	Errs []error
}

// Abstract is an interface or a union as the schema compiled it.
type Abstract struct {
	Type *Type // the named type
	Name string
	// Possible holds the objects a value may be of, in graphql-js's
	// getPossibleTypes order.
	Possible []*Object
	// ResolveType is Interface.ResolveType or Union.ResolveType, or nil.
	ResolveType func(ctx context.Context, value any) (string, error)
	// ByGoType maps the Go types NewSchema learned for possible objects to
	// their object, each struct type S and *S alike; a Go type learned for
	// two of them maps to nil: it is ambiguous.
	ByGoType map[reflect.Type]*Object
	// ByName holds the possible objects by name.
	ByName map[string]*Object
	// Fields are an interface's fields, in declaration order (none for a
	// union); they have no resolvers.
	Fields      []*Field
	FieldByName map[string]*Field
}

// IndexOf returns the index of o among a's possible objects, -1 if it is
// not one.
func (a *Abstract) IndexOf(o *Object) int {
	for i, p := range a.Possible {
		if p == o {
			return i
		}
	}
	return -1
}

// IsInput reports whether t may be the type of an argument or a variable.
func (t *Type) IsInput() bool {
	switch t.Named().Kind {
	case KindScalar, KindEnum, KindInputObject:
		return true
	}
	return false
}
