package access

import "reflect"

// The direct leaf path: a field without a resolver whose value is a plain
// struct field of a string, signed integer, boolean or []string kind, and
// whose GraphQL type is a built-in scalar (or a list of String or ID)
// written the same way, is written straight from the struct's memory at an
// offset computed once per Go type, instead of through reflect.Value and
// the completion of its type. This file finds those reads; the executor
// (package exec) makes them, byte for byte as its general path writes.

// Leaf is the GraphQL side of a direct read: how the field's type is
// written.
type Leaf uint8

const (
	LeafNone    Leaf = iota
	LeafString       // String or ID
	LeafInt          // Int
	LeafBoolean      // Boolean
	LeafStrings      // a list of String or ID
)

// DirectRead is a leaf field read straight from a struct: how it is
// written (LeafNone: it is not read so) and where it lies.
type DirectRead struct {
	Leaf    Leaf
	NonNull bool    // LeafStrings: a nil slice is []
	Size    uint8   // LeafInt: the integer's size in bytes
	Off     uintptr // from the struct pointer
}

// directReadOf returns the direct read of field fi for a: none unless a
// reads a struct field through a pointer, with no embedded pointer on the
// way, of the Go kind fi's type is written from.
func directReadOf(fi *FieldReader, a *Accessor) DirectRead {
	if fi.Leaf == LeafNone || a.method >= 0 || a.index == nil || !a.derefPtr {
		return DirectRead{}
	}
	st, off := a.Type.Elem(), uintptr(0)
	for n, i := range a.index {
		f := st.Field(i)
		off += f.Offset
		st = f.Type
		if n < len(a.index)-1 && st.Kind() != reflect.Struct {
			return DirectRead{} // through an embedded pointer
		}
	}
	r := DirectRead{Leaf: fi.Leaf, NonNull: fi.NonNull, Off: off}
	switch k := st.Kind(); {
	case fi.Leaf == LeafString && k == reflect.String,
		fi.Leaf == LeafBoolean && k == reflect.Bool,
		fi.Leaf == LeafStrings && k == reflect.Slice && st.Elem().Kind() == reflect.String:
	case fi.Leaf == LeafInt && k >= reflect.Int && k <= reflect.Int64:
		r.Size = uint8(st.Size())
	default:
		return DirectRead{}
	}
	return r
}
