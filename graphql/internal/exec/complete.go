package exec

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/gqlkit/gqlkit/graphql/internal/fault"
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/response"
	"github.com/gqlkit/gqlkit/graphql/internal/scalar"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file completes a resolved value as a value of the field's type:
// null and non-null, lists, leaves (built-in and custom scalars, enums)
// and objects, whose selection execute.go runs.

// deref unwraps interfaces and pointers to scalars, returning the value to
// complete and whether it is a GraphQL null. A chain of more than
// MaxDerefs pointers and interfaces (a pointer that leads back to itself)
// counts as null rather than being followed for ever.
func deref(v reflect.Value) (reflect.Value, bool) {
	for range MaxDerefs {
		switch v.Kind() {
		case reflect.Invalid:
			return v, true
		case reflect.Interface:
			if v.IsNil() {
				return v, true
			}
			v = v.Elem()
		case reflect.Pointer:
			if v.IsNil() {
				return v, true
			}
			if v.Elem().Kind() == reflect.Struct {
				return v, false // objects keep their pointer for methods and resolvers
			}
			v = v.Elem()
		case reflect.Map:
			return v, v.IsNil()
		default:
			// graphql.Null returned by a resolver means null too.
			return v, v.Kind() == reflect.Uint8 && v.Type() == nullType
		}
	}
	return reflect.Value{}, true
}

var nullType = reflect.TypeFor[schema.NullValue]()

// MaxDerefs bounds the pointers and interfaces followed to reach a value:
// a chain that leads back to itself counts as null.
const MaxDerefs = 64

// complete writes v as a value of type t. It returns false when a non-null
// position received null, so that the caller nulls its own value.
func (e *executor) complete(fp *plan.Field, t *schema.Type, v reflect.Value) bool {
	if e.s.PointerEnums && e.enumPointer(t, v) {
		return true
	}
	if t.Kind == schema.KindNonNull {
		dv, null := deref(v)
		if null {
			if t.Of.Kind == schema.KindList && v.Kind() == reflect.Slice {
				e.buf = append(e.buf, '[', ']') // a nil slice is an empty list in a non-null position
				return true
			}
			e.nullError(fp)
			return false
		}
		return e.completeValue(fp, t.Of, dv)
	}
	dv, null := deref(v)
	if null || dv.Kind() == reflect.Slice && dv.IsNil() {
		e.buf = append(e.buf, "null"...)
		return true
	}
	mark := len(e.buf)
	if !e.completeValue(fp, t, dv) {
		e.buf = append(e.buf[:mark], "null"...)
	}
	return true
}

// enumPointer writes v when t is an enum with pointer internal values and
// v is one of them, before deref follows the pointer.
func (e *executor) enumPointer(t *schema.Type, v reflect.Value) bool {
	t = t.Nullable()
	if t.Kind != schema.KindEnum || !t.Enum.Pointers {
		return false
	}
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Pointer || v.IsNil() || !v.CanInterface() {
		return false
	}
	name, ok := t.Enum.ByValue[v.Interface()]
	if ok {
		e.buf = response.AppendString(e.buf, name)
	}
	return ok
}

func (e *executor) completeValue(fp *plan.Field, t *schema.Type, v reflect.Value) bool {
	switch t.Kind {
	case schema.KindScalar:
		if t.Builtin != 0 {
			return e.completeBuiltin(fp, t.Builtin, v)
		}
		if err := e.serializeCustom(t, v); err != nil {
			if err != errStopped {
				e.fieldError(fp, err)
			}
			return false
		}
		return true
	case schema.KindObject:
		sp := fp.ChildPlan(&e.cond, &e.dynPlans)
		if sp == nil || sp.Obj != t.Object {
			// Prepare plans the sub-selection of every object field, or
			// keeps what planning it during executions needs (package plan, literalcopies.go),
			// for the field's own type: no other can come here. Planning
			// from the document now could read literals released since.
			e.fieldError(fp, errNoPlan)
			return false
		}
		return e.execSelection(fp, sp, v)
	case schema.KindInterface, schema.KindUnion:
		return e.completeAbstract(fp, v)
	case schema.KindList:
		if fp.BatchList && fp.Abs != nil {
			if e.resolved.fp == fp { // an inner list: its values are resolved
				return e.completeList(fp, t, v)
			}
			return e.completeAbstractList(fp, t, v)
		}
		if fp.BatchList {
			if ok, done := e.completeBatchedList(fp, t, v); done {
				return ok
			}
		}
		return e.completeList(fp, t, v)
	case schema.KindEnum:
		if !v.CanInterface() {
			e.fieldError(fp, fmt.Errorf("Enum %q cannot represent value of an unexported type.", t.Name))
			return false
		}
		iv := v.Interface()
		if !v.Comparable() {
			e.fieldError(fp, fmt.Errorf("Enum %q cannot represent value: %s", t.Name, response.Inspect(iv)))
			return false
		}
		name, ok := t.Enum.ByValue[iv]
		if !ok {
			e.fieldError(fp, fmt.Errorf("Enum %q cannot represent value: %s", t.Name, response.Inspect(iv)))
			return false
		}
		e.buf = response.AppendString(e.buf, name)
		return true
	}
	e.fieldError(fp, fmt.Errorf("field %s has an unsupported type", fp.Info.Coord))
	return false
}

// completeList writes v, a value of list type x.
func (e *executor) completeList(fp *plan.Field, x *schema.Type, v reflect.Value) bool {
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		e.fieldError(fp, fmt.Errorf("Expected Iterable, but did not find one for field %q.", fp.Info.Coord))
		return false
	}
	n := v.Len()
	e.buf = append(e.buf, '[')
	for i := 0; i < n; i++ {
		if e.overLimit() {
			return false
		}
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.path = append(e.path, response.PathSeg{Index: i})
		e.indexes++
		ok := e.complete(fp, x.Of, v.Index(i))
		e.path = e.path[:len(e.path)-1]
		e.indexes--
		if !ok {
			if fp.Abs != nil || plan.ObjectOf(fp.Type) != nil {
				e.skipItems(fp, x, v, i+1) // listskip.go
			}
			return false
		}
	}
	e.buf = append(e.buf, ']')
	return true
}

func (e *executor) completeBuiltin(fp *plan.Field, kind scalar.Kind, v reflect.Value) bool {
	// A string is measured before it is copied: the room (or the bound)
	// is asked for first.
	if v.Kind() == reflect.String {
		if end := len(e.buf) + v.Len() + 2; end > e.roomEnd && e.outgrown(end) {
			return false
		}
	}
	var err error
	var handled bool
	e.buf, handled, err = scalar.AppendValue(e.buf, kind, v)
	if !handled && err == nil {
		if !v.CanInterface() {
			err = fmt.Errorf("%s cannot represent a value of an unexported type", kind)
		} else {
			e.buf, err = scalar.Append(e.buf, kind, v.Interface())
		}
	}
	if err != nil {
		e.fieldError(fp, err)
		return false
	}
	return true
}

func (e *executor) serializeCustom(sc *schema.Type, v reflect.Value) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fault.Recovered(r)
		}
	}()
	if !v.CanInterface() {
		return fmt.Errorf("%s cannot represent a value of an unexported type", sc.Name)
	}
	in := v.Interface()
	out, err := sc.Scalar.Serialize(in)
	if err != nil {
		return fault.BoundedError(err)
	}
	if out == nil || out == schema.Null {
		// graphql-js: a serializer must give a value; null is the field's
		// to decide (a null result is never passed to Serialize).
		return fmt.Errorf("Expected `%s.serialize(%s)` to return non-nullable value, returned: null", sc.Name, response.Inspect(in))
	}
	if s, ok := out.(string); ok {
		if end := len(e.buf) + len(s) + 2; end > e.roomEnd && e.outgrown(end) {
			return errStopped
		}
	}
	mark := len(e.buf)
	e.buf, err = response.AppendValue(e.buf, out)
	if err != nil {
		e.buf = e.buf[:mark]
	}
	return err
}

// errStopped is serializeCustom's error when the execution stopped
// before the value was written (see outgrown): no field error.
var errStopped = errors.New("graphql: execution stopped")
