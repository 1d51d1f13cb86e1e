package graphql

import "context"

// Interface is an abstract output type: the fields that every object (or
// interface) implementing it has. A field of an interface type returns a
// value of one of the objects that implement it, and a client selects
// that object's own fields with a fragment ("... on Book { isbn }").
//
// Fields are declared as on an [Object], with [Fields] or lazily with a
// [FieldsFunc], and there must be at least one; only their Name, Type,
// Args, Description and DeprecationReason mean something here: the
// implementing object resolves its own fields, with its own resolvers,
// middleware and cost, so NewSchema refuses an interface field with
// Resolve, Typed, Batch, Middleware, Cost or Public, or with Rules on an
// argument. Interfaces lists the interfaces this one implements
// (interfaces may implement interfaces, as in the October 2021
// specification).
//
// NewSchema checks every implementation as graphql-js's validateSchema
// does: an object or interface that names an interface has each of its
// fields, with a type that is the same or a subtype, the same arguments
// with the same types (and no new required ones), and names every
// interface that interface implements; no interface implements itself,
// directly or through others.
//
// The objects that implement an interface are those of the schema that
// name it in their Interfaces: an object that no field returns must be
// listed in SchemaConfig.Types to be one of them (as in graphql-js).
//
// How a value is matched to its object is described at [ResolveTypeFunc].
type Interface struct {
	Name        string
	Description string
	Fields      FieldSource
	Interfaces  []*Interface
	// ResolveType, when set, names the object of each value; see
	// [ResolveTypeFunc].
	ResolveType ResolveTypeFunc
}

func (i *Interface) String() string   { return i.Name }
func (i *Interface) TypeName() string { return i.Name }
func (*Interface) isType()            {}

// Union is an abstract output type whose values are of one of its member
// objects; it has no fields of its own (only __typename), so a client
// selects each member's fields with a fragment. NewSchema refuses a union
// without members, with a member listed twice, or with a nil member.
//
// How a value is matched to its object is described at [ResolveTypeFunc].
type Union struct {
	Name        string
	Description string
	Types       []*Object
	// ResolveType, when set, names the object of each value; see
	// [ResolveTypeFunc].
	ResolveType ResolveTypeFunc
}

func (u *Union) String() string   { return u.Name }
func (u *Union) TypeName() string { return u.Name }
func (*Union) isType()            {}

// ResolveTypeFunc names the object type of a value that a field of an
// interface or union type resolved to: the name of one of the abstract
// type's possible objects.
//
// The engine finds a value's object in this order, and the first rule that
// applies decides:
//
//  1. the abstract type's ResolveType, when it has one;
//  2. the value's Go type, when NewSchema learned it for exactly one of
//     the possible objects (typed resolvers teach it, as the package
//     documentation says under Typed resolvers);
//  3. a map value's "__typename" entry, when it is a string;
//  4. the IsTypeOf of the possible objects, in the order introspection
//     lists them as possibleTypes (an interface's implementations in the
//     order of [Schema.Types], a union's members in the order declared,
//     as graphql-js): the first that reports true.
//
// A value that no rule matches, a Go type learned for two possible
// objects, a name that is not a possible object, or an error or panic from
// ResolveType or IsTypeOf is a field error at the field's path, masked as
// an internal error: the field is null (and the null propagates as for any
// field error); nothing panics and no wrong type is written.
type ResolveTypeFunc func(ctx context.Context, value any) (typeName string, err error)
