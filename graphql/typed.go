package graphql

import (
	"context"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// TypedResolver is a resolver with Go types, made by [Resolver] or
// [ResolverWithInfo] and set as [Field].Typed. [NewSchema] checks its
// types against the field, and decodes the arguments into its args type
// with a plan built once.
type TypedResolver interface {
	signature() typedSignature
	bind(coord string, dec *decoder) schema.Resolver
}

// typedSignature is the Go types of a typed resolver.
type typedSignature struct {
	parent, args, result reflect.Type
}

// NoArgs is the args type of a typed resolver whose field has no
// arguments, or that reads none of them.
type NoArgs = struct{}

// Resolver binds a typed resolver to a field: fn receives the parent value
// as P, the field's arguments decoded into A and returns the field's value
// as R.
//
// A is a struct (or [NoArgs], or [Args] for the untyped arguments). Each of
// its exported fields stands for the argument named by its `graphql` tag,
// else by its `json` tag, or, without a tag, by the field's name with its
// leading capitals in lower case (First → first, ID → id); a field tagged
// `graphql:"-"` (or `json:"-"` without a graphql name) is left alone. An Int argument
// decodes into an int, int32 or int64 (or a type defined on one), a Float
// into a float64, a String or ID into a string, a Boolean into a bool, an
// enum into the Go type of its values, a list into a slice, an input
// object into a struct whose fields follow the same rules (or a
// map[string]any, or Args), and a custom scalar into the type its
// ParseValue returns (or any). A pointer is nil when the argument is
// absent or null; [Opt] tells absent, null and given apart; any other type
// holds its zero value then.
//
// P is the Go type of the parent object's values: what the resolvers
// returning that object return (for Query and Mutation, the value of
// ExecParams.Root; its zero value when there is none). It may be an
// interface they implement. R is what fn returns for the field's type: a
// slice for a list; for a scalar, a Go type the executor can serialise as
// it (a string, number or bool type for String, a number for Int and
// Float, a bool or number for Boolean, a string or integer type for ID,
// or a fmt.Stringer); the Go type of an enum's values; a struct, a pointer
// to one or a map for an object; anything for a custom scalar. A pointer
// to any of these, or an interface, fits too.
//
// NewSchema checks all of this, for every typed field at once: arguments
// that no field of A names, Go types that do not fit the GraphQL types, a
// parent type that the object's values do not have (as far as typed
// resolvers and the struct fields they lead to tell it), and fields read
// from a Go type that has no such field or method. At run time, what
// cannot be checked before (a custom scalar's value) is an error at that
// field; nothing panics.
//
// The arguments fn receives are its own: slices and structs are decoded
// afresh for every call.
func Resolver[P, A, R any](fn func(ctx context.Context, parent P, args A) (R, error)) TypedResolver {
	return &typedFunc[P, A, R]{fn: fn}
}

// ResolverWithInfo is [Resolver] for a resolver that also needs the
// [ResolveInfo] of the field (to see what the client selected, say).
func ResolverWithInfo[P, A, R any](fn func(ctx context.Context, parent P, args A, info ResolveInfo) (R, error)) TypedResolver {
	return &typedFunc[P, A, R]{withInfo: fn}
}

type typedFunc[P, A, R any] struct {
	fn       func(context.Context, P, A) (R, error)
	withInfo func(context.Context, P, A, ResolveInfo) (R, error)
}

func (t *typedFunc[P, A, R]) signature() typedSignature {
	return typedSignature{parent: reflect.TypeFor[P](), args: reflect.TypeFor[A](), result: reflect.TypeFor[R]()}
}

// argsDecoder returns how a typed or batch resolver of the field coord
// gets its A from the field's arguments, as dec (nil: no arguments)
// describes them: the Args themselves, their fields decoded into a struct,
// or A's zero value (NoArgs).
func argsDecoder[A any](coord string, dec *decoder) func(Args) (A, error) {
	untyped := dec != nil && dec.kind == decArgs
	if dec != nil && (dec.kind != decStruct || len(dec.fields) == 0) {
		dec = nil // NoArgs, Args: nothing to decode
	}
	return func(args Args) (a A, err error) {
		switch {
		case untyped:
			a, _ = any(args).(A)
		case dec != nil:
			err = dec.decodeFields(unsafe.Pointer(&a), args.m, coord, "")
		}
		return a, err
	}
}

func (t *typedFunc[P, A, R]) bind(coord string, dec *decoder) schema.Resolver {
	fn, withInfo := t.fn, t.withInfo
	if fn == nil && withInfo == nil {
		return nil
	}
	decode := argsDecoder[A](coord, dec)
	return func(ctx context.Context, parent any, args map[string]any, info schema.Info) (any, error) {
		var p P
		if parent != nil {
			var ok bool
			if p, ok = parent.(P); !ok {
				return nil, fmt.Errorf("graphql: %s: the resolver takes a parent of type %s, but was given %T", coord, reflect.TypeFor[P](), parent)
			}
		}
		a, err := decode(Args{m: args})
		if err != nil {
			return nil, err
		}
		var r R
		if withInfo != nil {
			r, err = withInfo(ctx, p, a, ResolveInfo{info})
		} else {
			r, err = fn(ctx, p, a)
		}
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

// Opt is an argument or input field that may be absent, null or given, for
// the args type of a typed resolver: the three stay apart, which a pointer
// cannot do. A default counts as given (as in graphql-js: a resolver
// cannot tell a default from the same value written by the client), and
// an explicit null overrides the default.
type Opt[T any] struct {
	value T
	state optState
}

type optState uint8

const (
	optAbsent optState = iota
	optNull
	optSet
)

// Some returns an Opt holding v, for calling a typed resolver directly.
func Some[T any](v T) Opt[T] { return Opt[T]{value: v, state: optSet} }

// NullOpt returns an Opt that was given as null.
func NullOpt[T any]() Opt[T] { return Opt[T]{state: optNull} }

// Present reports whether the value was given (or defaulted), null
// included.
func (o Opt[T]) Present() bool { return o.state != optAbsent }

// IsNull reports whether the value was given as null.
func (o Opt[T]) IsNull() bool { return o.state == optNull }

// Get returns the value and true when it was given and is not null.
func (o Opt[T]) Get() (T, bool) { return o.value, o.state == optSet }

// Value returns the value, or T's zero value when it is absent or null.
func (o Opt[T]) Value() T { return o.value }

// String describes o for logs and test failures: "absent", "null" or the
// value as fmt's %v prints it.
func (o Opt[T]) String() string {
	switch o.state {
	case optAbsent:
		return "absent"
	case optNull:
		return "null"
	}
	return fmt.Sprint(o.value)
}
