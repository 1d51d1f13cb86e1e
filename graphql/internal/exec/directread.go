package exec

import (
	"math"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/gqlkit/gqlkit/graphql/internal/access"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// The direct leaf path: a field without a resolver whose value is a plain
// struct field of a string, signed integer, boolean or []string kind, and whose
// GraphQL type is a built-in scalar (or a list of String or ID) written
// the same way, is written straight from the struct's memory at an offset
// computed once per Go type, instead of through reflect.Value, deref and
// the completion switch. The output is byte for byte what the general path
// writes; whatever the direct path does not know (a method, an embedded
// pointer, another kind, an Int out of range, a nil parent) takes the
// general path.

// The direct reads of a selection plan's fields are kept in the field
// plans (plan.Field.Direct), for the Go type of the first parent met
// (plan.Selection.DirectTyp), and published by DirectState: the first
// execution to meet the plan with a pointer parent fills them in, while
// any other running at the same time takes the general path.
const (
	directUnset uint32 = iota
	directFilling
	directReady // DirectTyp and every plan.Field.Direct are set
	directNone  // no field of the plan is read directly
)

// directBase returns the struct pointer sp's direct reads read from, or
// nil when they do not apply to parent (a nil pointer, another Go type
// than the first met, reads not ready).
func directBase(sp *plan.Selection, parent reflect.Value) unsafe.Pointer {
	switch sp.DirectState.Load() {
	case directReady:
	case directUnset:
		if !sp.DirectState.CompareAndSwap(directUnset, directFilling) {
			return nil
		}
		state := fillDirect(sp, parent.Type())
		sp.DirectState.Store(state)
		if state != directReady {
			return nil
		}
	default:
		return nil
	}
	if sp.DirectTyp != parent.Type() {
		return nil
	}
	return parent.UnsafePointer()
}

// fillDirect finds which fields of sp are read directly from a t. A field
// qualifies when it has no resolver, no arguments and a direct read for t.
func fillDirect(sp *plan.Selection, t reflect.Type) uint32 {
	state := directNone
	for _, fp := range sp.Fields {
		fi := fp.Info
		if fp.Kind != plan.KindField || fi == nil || fi.Resolve != nil || fi.Read.Leaf == access.LeafNone || len(fi.Args) > 0 {
			continue
		}
		if a := fi.Read.Accessor(t); a.Direct.Leaf != access.LeafNone {
			fp.Direct, state = a.Direct, directReady
		}
	}
	sp.DirectTyp = t
	return state
}

// directLeaf writes fp's value from parent by the direct path, for a field
// the object-level reads did not cover. handled is false, with nothing
// written, when the path does not apply; otherwise ok is what complete
// would have returned.
func (e *executor) directLeaf(fp *plan.Field, parent reflect.Value) (handled, ok bool) {
	fi := fp.Info
	if fi.Read.Leaf == access.LeafNone || parent.Kind() != reflect.Pointer {
		return false, false
	}
	a := fi.Read.Last()
	if a == nil || a.Direct.Leaf == access.LeafNone || a.Type != parent.Type() {
		return false, false
	}
	p := parent.UnsafePointer()
	if p == nil {
		return false, false
	}
	return e.writeDirect(&a.Direct, p)
}

// writeDirect writes the field r reads from the struct at p. handled is
// false, with nothing written, for an Int out of range (the general path
// reports it); otherwise ok is what complete would have returned.
func (e *executor) writeDirect(r *access.DirectRead, p unsafe.Pointer) (handled, ok bool) {
	at := unsafe.Add(p, r.Off)
	switch r.Leaf {
	case access.LeafString:
		s := *(*string)(at)
		// Measured before it is copied (see completeBuiltin).
		if end := len(e.buf) + len(s) + 2; end > e.roomEnd && e.outgrown(end) {
			return true, false
		}
		e.buf = response.AppendString(e.buf, s)
	case access.LeafInt:
		var n int64
		switch r.Size {
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
			return false, false
		}
		e.buf = strconv.AppendInt(e.buf, n, 10)
	case access.LeafBoolean:
		e.buf = strconv.AppendBool(e.buf, *(*bool)(at))
	case access.LeafStrings:
		return true, e.directStrings(*(*[]string)(at), r.NonNull)
	default:
		return false, false
	}
	return true, true
}

// directStrings writes a list of strings as complete does, stopping where
// the response would outgrow its limit.
func (e *executor) directStrings(list []string, nonNull bool) bool {
	if list == nil && !nonNull {
		e.buf = append(e.buf, "null"...)
		return true
	}
	mark := len(e.buf)
	e.buf = append(e.buf, '[')
	for i, s := range list {
		// The string is measured before it is copied; the bound's check
		// of the data so far comes with it.
		if e.stopped || len(e.buf)+len(s)+3 > e.roomEnd && e.outgrown(len(e.buf)+len(s)+3) {
			if nonNull {
				return false
			}
			e.buf = append(e.buf[:mark], "null"...)
			return true
		}
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = response.AppendString(e.buf, s)
	}
	e.buf = append(e.buf, ']')
	return true
}

// DirectLeaf writes field f of parent by the direct leaf path and reports
// whether the path applied: the tests hold it to the general path.
func DirectLeaf(f *schema.Field, parent reflect.Value) (string, bool) {
	e := &executor{}
	handled, _ := e.directLeaf(&plan.Field{Info: f, Type: f.Type}, parent)
	return string(e.buf), handled
}
