package graphql

import (
	"context"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/validate"
)

// Type is any GraphQL type: a named type (a [BuiltinScalar], [*Scalar],
// [*Enum], [*InputObject], [*Object], [*Interface] or [*Union]) or a wrapper
// made with [NewList] and [NewNonNull].
type Type interface {
	// String returns the type as written in GraphQL, for example "[String!]!".
	String() string
	isType()
}

// NamedType is a type with a name: a scalar, an enum, an input object, an
// object, an interface or a union.
type NamedType interface {
	Type
	TypeName() string
}

// List is the list wrapper of a type. Make one with [NewList].
type List struct{ OfType Type }

// NonNull is the non-null wrapper of a type. Make one with [NewNonNull].
type NonNull struct{ OfType Type }

// NewList returns the type "[of]".
func NewList(of Type) *List { return &List{OfType: of} }

// NewNonNull returns the type "of!".
func NewNonNull(of Type) *NonNull { return &NonNull{OfType: of} }

func (t *List) String() string    { return typeString(t) }
func (t *NonNull) String() string { return typeString(t) }
func (*List) isType()             {}
func (*NonNull) isType()          {}

// typeString writes t as GraphQL does. It follows at most maxTypeWrappers
// wrappers, so that a wrapper that contains itself prints as "…" instead of
// recursing for ever.
func typeString(t Type) string {
	var suffix []byte
	prefix := 0
	inner, ok := walkType(t, func(wrapper Type) {
		if _, isList := wrapper.(*List); isList {
			prefix++
			suffix = append([]byte{']'}, suffix...)
		} else {
			suffix = append([]byte{'!'}, suffix...)
		}
	})
	wrap := func(name string) string { return strings.Repeat("[", prefix) + name + string(suffix) }
	switch {
	case !ok:
		return wrap("…")
	case inner == nil || isNilType(inner):
		return wrap("<nil>")
	}
	return wrap(inner.String())
}

// maxTypeWrappers bounds the lists and non-nulls around one named type:
// NewSchema refuses more (a wrapper that contains itself would have no
// end), and every walk over wrappers stops there.
const maxTypeWrappers = 64

// walkType follows the lists and non-nulls around t, outermost first,
// calling visit (when it is not nil) with each, and returns what they wrap:
// the named type, or whatever else ends the chain (nil, a nil wrapper, a
// Type of no kind the engine knows). ok is false when t has more than
// maxTypeWrappers wrappers; visit has then seen maxTypeWrappers+1 of them.
func walkType(t Type, visit func(wrapper Type)) (inner Type, ok bool) {
	for range maxTypeWrappers + 1 {
		var of Type
		switch x := t.(type) {
		case *List:
			if x == nil {
				return t, true
			}
			of = x.OfType
		case *NonNull:
			if x == nil {
				return t, true
			}
			of = x.OfType
		default:
			return t, true
		}
		if visit != nil {
			visit(t)
		}
		t = of
	}
	return nil, false
}

// namedOf returns the named type inside t's lists and non-nulls, or nil
// when t is not well formed (see builder.checkTypeRef, which reports why).
func namedOf(t Type) NamedType {
	inner, ok := walkType(t, nil)
	nt, named := inner.(NamedType)
	if !ok || !named || isNilType(nt) {
		return nil
	}
	return nt
}

// Scalar is a custom leaf type; the five built-in scalars are the
// [BuiltinScalar] constants. A custom scalar needs a Name, Serialize and
// ParseValue.
//
// Serialize turns a resolved Go value into a value that can be written as
// JSON: nil, bool, a string, any Go integer or float type, json.Number,
// []any, map[string]any, or a json.Marshaler. ParseValue turns an input value
// into the internal Go value that resolvers receive; it is given what
// encoding/json produces with UseNumber (nil, bool, string, json.Number,
// []any, map[string]any), or whatever a Go caller put in the variables.
// ParseLiteral, when nil, converts the literal to the same JSON-like value
// and calls ParseValue. The literal ParseLiteral is handed is a copy, its
// own to keep or change: never a node of a document that a cache or
// another request holds.
//
// The parsers follow graphql-js's contract. A returned error makes the
// input invalid: a *gqlerror.Error is reported with its own message and
// extensions, another error after `Expected type "Name".`. A nil result
// without an error also makes the input invalid (graphql-js's undefined);
// [Null] says the input stands for null (refused in a non-null position).
// A Serialize that returns nil (or Null) is a field error: null is the
// field's to decide, and Serialize is never given a nil value.
type Scalar struct {
	Name           string
	Description    string
	SpecifiedByURL string
	Serialize      func(value any) (any, error)
	ParseValue     func(value any) (any, error)
	ParseLiteral   func(value *ast.Value) (any, error)
}

func (s *Scalar) String() string   { return s.Name }
func (s *Scalar) TypeName() string { return s.Name }
func (*Scalar) isType()            {}

// Enum is a set of names, each mapped to an internal Go value. Arguments and
// variables receive the internal value; results are written as the name whose
// value equals the resolved value (values must be comparable).
type Enum struct {
	Name        string
	Description string
	Values      []EnumValue
}

// EnumValue is one member of an [Enum]. A nil Value means the name itself
// (a Go string) is the internal value.
type EnumValue struct {
	Name              string
	Value             any
	Description       string
	DeprecationReason string
}

func (e *Enum) String() string   { return e.Name }
func (e *Enum) TypeName() string { return e.Name }
func (*Enum) isType()            {}

// InputObject is a structured input: arguments and variables of this type
// arrive in resolvers as map[string]any keyed by field name, with defaults
// applied and unknown fields rejected.
type InputObject struct {
	Name        string
	Description string
	Fields      []InputField
}

// InputField is one field of an [InputObject]. Default is the value used when
// the field is omitted; nil means there is none (use [Null] for a default of
// null). Defaults are given as internal values (an enum default is the enum's
// internal value) and checked when the schema is built.
type InputField struct {
	Name              string
	Type              Type
	Default           any
	Description       string
	DeprecationReason string
	// Rules validate the field's coerced value wherever the input object
	// is used, before the resolver runs (see [Argument].Rules).
	Rules []validate.Rule
}

func (o *InputObject) String() string   { return o.Name }
func (o *InputObject) TypeName() string { return o.Name }
func (*InputObject) isType()            {}

// Null, used as a Default, gives an argument or input field an explicit
// default of null (a nil Default means "no default"). Returned by a custom
// scalar's ParseValue or ParseLiteral, it means the input stands for null.
// It is a constant: no program can change what it means.
const Null nullValue = 1

type nullValue = schema.NullValue

// Object is an output type with fields. Fields may be given directly as a
// [Fields] list or lazily as a [FieldsFunc], so that types can refer to
// each other.
type Object struct {
	Name        string
	Description string
	Fields      FieldSource
	// Interfaces lists the interfaces the object implements; NewSchema
	// checks that it has their fields (see [Interface]).
	Interfaces []*Interface
	// IsTypeOf reports whether a value that a field of an interface or
	// union type resolved to is of this object, when neither the abstract
	// type's ResolveType nor the value's Go type decides it (see
	// [ResolveTypeFunc]). nil means "not by this rule".
	IsTypeOf func(value any) bool
}

func (o *Object) String() string   { return o.Name }
func (o *Object) TypeName() string { return o.Name }
func (*Object) isType()            {}

// FieldSource supplies the fields of an [Object] or an [Interface]: a
// [Fields] list or a [FieldsFunc] thunk called once, when the schema is
// built.
type FieldSource interface{ fieldList() Fields }

// Fields is a list of fields in declaration order.
type Fields []Field

// FieldsFunc returns the fields of an object or an interface; it is called
// once, when the schema is built, so it may refer to types declared after
// the object.
type FieldsFunc func() Fields

func (f Fields) fieldList() Fields     { return f }
func (f FieldsFunc) fieldList() Fields { return f() }

// Field is one field of an [Object] (or of an [Interface], where only its
// Name, Type, Args, Description and DeprecationReason may be set). Only
// Name and Type are required ("a bare type"); a field without a resolver
// (Typed or Resolve) reads the same-named map key, exported struct field
// (its `graphql` tag name counts, else its `json` tag name; see Field names
// in the package documentation) or method of the parent value.
type Field struct {
	Name string
	Type Type
	Args []Argument
	// Typed is the field's resolver with Go types, made with [Resolver]
	// or [ResolverWithInfo]: the arguments arrive decoded into a struct,
	// and NewSchema checks the Go types against the field.
	Typed TypedResolver
	// Resolve is an untyped resolver, given the arguments as [Args] and
	// the parent as any. A field has Typed, Resolve or Batch, or none.
	Resolve ResolveFunc
	// Batch resolves the field for every parent at one level of the answer
	// in one call, made with [Batch]: the way to load related rows without
	// a statement per parent.
	Batch             BatchResolver
	Description       string
	DeprecationReason string

	// Middleware wraps this field's resolver, after the schema-wide
	// SchemaConfig.FieldMiddleware (see [FieldMiddleware] for the order).
	// On a field without Resolve it wraps the default resolver, which
	// reads the field from the parent value.
	Middleware []FieldMiddleware

	// Cost declares what the field adds to an operation's cost; the zero
	// value is a field that costs 1 and, when it is a list, is counted as
	// holding one item. See [Cost].
	Cost Cost

	// Public marks a field of the mutation type that needs no
	// authenticated user, such as signUp or resetPassword: a mutation
	// that may select only public fields passes graphqlhttp's mutation
	// gate without credentials (see [Operation.Public]). Off by default:
	// every mutation field needs a user. NewSchema refuses it on a field
	// of another type, where it would mean nothing.
	Public bool
}

// Cost declares what a field adds to the cost of an operation that selects
// it, the measure graphqlhttp bounds with limits.Config.MaxCost. The cost
// of a selection set is the sum of the costs of its fields; a field costs
// its Weight plus, when it has a sub-selection, the cost of the
// sub-selection times the field's size: the value of its SizeArg argument
// (after variables are coerced; its default when absent), else Size.
//
// For posts(first: Int = 10): [Post!]! declared with
// Cost{SizeArg: "first", MaxSize: 50}, the selection
// posts(first: 50) { author { name } } costs 1 + 50 × (1 + 1) = 101,
// posts { title } costs 1 + 10 × 1 = 11, and posts(first: 2147483647) { id }
// costs 1 + 50 × 1 = 51, since the resolver returns at most 50 posts
// whatever first says. Introspection (__schema, __type, __typename) costs
// nothing. Fields under @skip or @include count whatever their condition,
// and the sub-selection of a field of an interface or union type counts as
// the most costly of its possible objects' selections: the cost is an
// upper bound known before anything runs. Sums and products saturate at
// the largest int.
type Cost struct {
	// Weight is the cost of the field itself; 0 means 1, a negative
	// value means 0 (a field that is as cheap as reading a struct field).
	Weight int
	// SizeArg names the Int argument that bounds the length of the list
	// the field returns (first, limit). A null or negative value counts
	// as 0 items; an absent argument counts as its default, or as Size
	// when it has none. NewSchema checks that the argument exists and is
	// an Int.
	SizeArg string
	// Size is the number of items the field counts as when SizeArg does
	// not give one; 0 means 1.
	Size int
	// MaxSize is the most items the field returns, whatever its SizeArg
	// asks for: the clamp its resolver applies, or its store's largest
	// page (Hot Chocolate's MaxPageSize). A larger size, from the
	// argument, its default or Size, counts as MaxSize. 0 means no
	// maximum; NewSchema refuses a negative value. Declare it wherever the
	// resolver clamps, so that a client asking for a huge page that it
	// will never get is not refused for its cost.
	MaxSize int
	// NullSizeAsAbsent makes a null SizeArg (a literal null, or a
	// variable whose value is null) count as an absent one, its default
	// or Size, instead of as 0 items: for an argument whose null means
	// "not given", as a Relay connection's first does when a client pages
	// backwards with last (package graphql/relay sets it).
	NullSizeAsAbsent bool
}

// FieldMiddleware wraps a resolver: it is given the next resolver of the
// chain and returns the one to call instead, which may run code before and
// after next, change its result, or not call it at all (an authorization
// check). Middleware is composed once, when the schema is built, so a field
// pays at run time only for the middleware that wraps it.
//
// The order is that of net/http middleware: the schema-wide
// SchemaConfig.FieldMiddleware come first, outermost first, then the
// field's own Field.Middleware, outermost first, then the resolver; for
// schema-wide [a, b] and field [c], a runs first and the resolver last,
// a(b(c(resolve))). A panic in middleware is a field error, masked like a
// panic in the resolver. On a batched field (Field.Batch), middleware is
// called once per batch, with the parents as a [BatchParents].
type FieldMiddleware func(next ResolveFunc) ResolveFunc

// Argument is one argument of a [Field]. Default follows the rules of
// [InputField.Default].
type Argument struct {
	Name              string
	Type              Type
	Default           any
	Description       string
	DeprecationReason string
	// Rules validate the argument's coerced value (default applied)
	// after the field's middleware and before its resolver. Every failure
	// of the field's arguments and of the input fields inside them is
	// gathered into one VALIDATION_FAILED error at the field, with
	// extensions.validation keyed by path ("input.title") and Laravel's
	// messages, which name an input object's fields without the
	// argument ("The title field is required."). An absent argument is
	// [validate.Missing] to the rules, null is nil.
	Rules []validate.Rule
}

// ResolveFunc produces the value of a field. It receives the context of the
// request (graphqlhttp puts the *http.Request and the authenticated user id
// there), the parent value, the coerced arguments and information about the
// field being resolved. A returned error, or a panic, becomes a field error:
// the field is null and the error is listed with its path.
//
// args and info are the resolver's own: args cannot be changed (accessors
// that return maps or slices return copies), and info holds nothing the
// engine reuses, so both may be kept after the call (by a batch loader).
// Within one execution, fields given the same variable of a custom scalar
// receive the one value its ParseValue returned for the request.
type ResolveFunc func(ctx context.Context, parent any, args Args, info ResolveInfo) (any, error)
