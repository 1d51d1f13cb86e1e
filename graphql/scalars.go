package graphql

import "github.com/gqlkit/gqlkit/graphql/internal/scalar"

// BuiltinScalar is one of the five scalars every schema has: [Int],
// [Float], [String], [Boolean] and [ID]. They are constants, so no program
// can rename, redescribe or replace them; every schema uses the kit's own
// implementation of each. The zero value is no type, and NewSchema refuses
// it and any other value outside the five.
type BuiltinScalar uint8

// The built-in scalars.
const (
	// Int is a signed 32-bit integer. Resolvers receive int arguments.
	Int BuiltinScalar = iota + 1
	// Float is a double-precision number. Resolvers receive float64 arguments.
	Float
	// String is UTF-8 text. Resolvers receive string arguments.
	String
	// Boolean is true or false. Resolvers receive bool arguments.
	Boolean
	// ID is an identifier, written as a string. It accepts a string or an
	// integer as input; resolvers receive string arguments.
	ID
)

func (k BuiltinScalar) valid() bool { return k >= Int && k <= ID }

// TypeName returns the scalar's name, such as "Int".
func (k BuiltinScalar) TypeName() string { return scalar.Kind(k).Name() }

// String returns the scalar's name, as [BuiltinScalar.TypeName] does.
func (k BuiltinScalar) String() string { return k.TypeName() }

// Description returns the description graphql-js gives the scalar.
func (k BuiltinScalar) Description() string { return scalar.Kind(k).Description() }

func (BuiltinScalar) isType() {}
