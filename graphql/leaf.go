package graphql

import (
	"math"
	"reflect"
	"strconv"
	"unsafe"
)

// The direct leaf path: a field without a resolver whose value is a plain
// struct field of a string, integer, boolean or []string kind, and whose
// GraphQL type is a built-in scalar (or a list of String or ID) written
// the same way, is written straight from the struct's memory at an offset
// computed once per Go type, instead of through reflect.Value, deref and
// the completion switch. The output is byte for byte what the general path
// writes; whatever the direct path does not know (a method, an embedded
// pointer, another kind, an Int out of range, a nil parent) takes the
// general path.

// leafKind is the GraphQL side: how a field's type is written.
type leafKind uint8

const (
	leafNone    leafKind = iota
	leafString           // String or ID
	leafInt              // Int
	leafBoolean          // Boolean
	leafStrings          // a list of String or ID
)

// goLeaf is the Go side: the kind of the struct field an accessor reads.
type goLeaf uint8

const (
	goNone    goLeaf = iota
	goString         // a string kind
	goInt            // a signed integer kind, of accessor.size bytes
	goBool           // a bool kind
	goStrings        // a slice of a string kind
)

// leafOf returns how t is written by the direct path, and whether a list
// type is non-null (a nil slice is then [], not null).
func leafOf(t Type) (leafKind, bool) {
	nonNull := false
	if nn, ok := t.(*NonNull); ok {
		t, nonNull = nn.OfType, true
	}
	if l, ok := t.(*List); ok {
		of := l.OfType
		if nn, ok := of.(*NonNull); ok {
			of = nn.OfType
		}
		if k, _ := of.(BuiltinScalar); k == String || k == ID {
			return leafStrings, nonNull
		}
		return leafNone, false
	}
	switch k, _ := t.(BuiltinScalar); k {
	case String, ID:
		return leafString, false
	case Int:
		return leafInt, false
	case Boolean:
		return leafBoolean, false
	}
	return leafNone, false
}

// setDirect records, for an accessor of a pointer-to-struct type reading
// the struct field at index, the field's offset from the pointer and its
// kind, when no embedded pointer lies on the way.
func (a *accessor) setDirect(st reflect.Type) {
	off := uintptr(0)
	for n, i := range a.index {
		f := st.Field(i)
		off += f.Offset
		st = f.Type
		if n < len(a.index)-1 && st.Kind() != reflect.Struct {
			return // through an embedded pointer
		}
	}
	switch st.Kind() {
	case reflect.String:
		a.leaf = goString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		a.leaf, a.size = goInt, uint8(st.Size())
	case reflect.Bool:
		a.leaf = goBool
	case reflect.Slice:
		if st.Elem().Kind() == reflect.String {
			a.leaf = goStrings
		}
	}
	a.off = off
}

// directLeaf writes fp's value from parent by the direct path. handled is
// false, with nothing written, when the path does not apply; otherwise ok
// is what complete would have returned.
func (e *executor) directLeaf(fp *fieldPlan, parent reflect.Value) (handled, ok bool) {
	fi := fp.info
	if fi.leaf == leafNone || parent.Kind() != reflect.Pointer {
		return false, false
	}
	a := fi.accessor.last.Load()
	if a == nil || a.leaf == goNone || a.typ != parent.Type() {
		return false, false
	}
	p := parent.UnsafePointer()
	if p == nil {
		return false, false
	}
	at := unsafe.Add(p, a.off)
	switch {
	case fi.leaf == leafString && a.leaf == goString:
		e.buf = appendString(e.buf, *(*string)(at))
	case fi.leaf == leafInt && a.leaf == goInt:
		var n int64
		switch a.size {
		case 1:
			n = int64(*(*int8)(at))
		case 2:
			n = int64(*(*int16)(at))
		case 4:
			n = int64(*(*int32)(at))
		default:
			n = *(*int64)(at)
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return false, false // the general path reports it
		}
		e.buf = strconv.AppendInt(e.buf, n, 10)
	case fi.leaf == leafBoolean && a.leaf == goBool:
		e.buf = strconv.AppendBool(e.buf, *(*bool)(at))
	case fi.leaf == leafStrings && a.leaf == goStrings:
		return true, e.directStrings(*(*[]string)(at), fi.leafNonNull)
	default:
		return false, false
	}
	return true, true
}

// directStrings writes a list of strings as complete does, stopping where
// the response outgrows its limit.
func (e *executor) directStrings(list []string, nonNull bool) bool {
	if list == nil && !nonNull {
		e.buf = append(e.buf, "null"...)
		return true
	}
	mark := len(e.buf)
	e.buf = append(e.buf, '[')
	for i, s := range list {
		if e.overLimit() {
			if nonNull {
				return false
			}
			e.buf = append(e.buf[:mark], "null"...)
			return true
		}
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendString(e.buf, s)
	}
	e.buf = append(e.buf, ']')
	return true
}
