package scalar

import (
	"strconv"
)

// Kind is one of the five built-in scalars; its values are those of
// package graphql's BuiltinScalar, which converts to it.
type Kind uint8

// The built-in scalars.
const (
	Int Kind = iota + 1
	Float
	String
	Boolean
	ID
)

// kinds holds each scalar's name and graphql-js's description of it.
var kinds = [...]struct{ name, desc string }{
	Int:     {"Int", "The `Int` scalar type represents non-fractional signed whole numeric values. Int can represent values between -(2^31) and 2^31 - 1."},
	Float:   {"Float", "The `Float` scalar type represents signed double-precision fractional values as specified by [IEEE 754](https://en.wikipedia.org/wiki/IEEE_floating_point)."},
	String:  {"String", "The `String` scalar type represents textual data, represented as UTF-8 character sequences. The String type is most often used by GraphQL to represent free-form human-readable text."},
	Boolean: {"Boolean", "The `Boolean` scalar type represents `true` or `false`."},
	ID:      {"ID", "The `ID` scalar type represents a unique identifier, often used to refetch an object or as key for a cache. The ID type appears in a JSON response as a String; however, it is not intended to be human-readable. When expected as an input type, any string (such as `\"4\"`) or integer (such as `4`) input value will be accepted as an ID."},
}

// Valid reports whether k is one of the five.
func (k Kind) Valid() bool { return k >= Int && k <= ID }

// Name returns the scalar's name, such as "Int", or "BuiltinScalar(n)"
// for a value outside the five.
func (k Kind) Name() string {
	if !k.Valid() {
		return "BuiltinScalar(" + strconv.Itoa(int(k)) + ")"
	}
	return kinds[k].name
}

// String returns the scalar's name.
func (k Kind) String() string { return k.Name() }

// Description returns the description graphql-js gives the scalar, "" for
// a value outside the five.
func (k Kind) Description() string {
	if !k.Valid() {
		return ""
	}
	return kinds[k].desc
}
