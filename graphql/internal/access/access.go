package access

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/gqlkit/gqlkit/graphql/internal/fault"
)

// An Accessor reads one field from values of one Go type: a struct field,
// a method or nothing. Accessors are computed once per (field, Go type).
type Accessor struct {
	Type     reflect.Type // the parent's Go type as received
	index    []int        // struct field path (after dereferencing pointers)
	method   int          // method index on typ, or -1
	withCtx  bool         // the method takes a context.Context
	withErr  bool         // the method returns (value, error)
	derefPtr bool         // typ is a pointer to the struct
	// Direct is the read the direct leaf path (directread.go) makes for
	// the accessor's field.
	Direct DirectRead
}

// FieldReader reads one field, Name, from its parents' Go values, with
// the accessors found so far for their types. Leaf and NonNull say how
// the field's type is written by a direct read (LeafNone: never). The
// zero value, with Name set, is ready to use; it is safe for concurrent
// use, and must not be copied once used.
type FieldReader struct {
	Name    string
	Leaf    Leaf
	NonNull bool // LeafStrings: the list is non-null, so a nil slice is []

	last atomic.Pointer[Accessor]
	all  sync.Map // reflect.Type -> *Accessor
}

var (
	ctxType   = reflect.TypeFor[context.Context]()
	errType   = reflect.TypeFor[error]()
	mapSAType = reflect.TypeFor[map[string]any]()
)

// Accessor returns the accessor of the field for parents of Go type t.
func (c *FieldReader) Accessor(t reflect.Type) *Accessor {
	if a := c.last.Load(); a != nil && a.Type == t {
		return a
	}
	if v, ok := c.all.Load(t); ok {
		a := v.(*Accessor)
		c.last.Store(a)
		return a
	}
	a := newAccessor(c.Name, t)
	a.Direct = directReadOf(c, a)
	c.all.Store(t, a)
	c.last.Store(a)
	return a
}

// Last returns the accessor used last, nil before the first.
func (c *FieldReader) Last() *Accessor { return c.last.Load() }

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func newAccessor(name string, t reflect.Type) *Accessor {
	a := &Accessor{Type: t, method: -1}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
		a.derefPtr = true
	}
	exported := upperFirst(name)
	if st.Kind() == reflect.Struct {
		var byTag, byName, byFold []int
		for _, f := range reflect.VisibleFields(st) {
			if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct {
				continue
			}
			tagged, hidden, _ := TagName(f)
			if hidden {
				continue
			}
			switch {
			case tagged == name && byTag == nil:
				byTag = f.Index
			case tagged == "" && f.Name == exported && byName == nil:
				byName = f.Index
			case tagged == "" && strings.EqualFold(f.Name, name) && byFold == nil:
				byFold = f.Index
			}
		}
		switch {
		case byTag != nil:
			a.index = byTag
			return a
		case byName != nil:
			a.index = byName
			return a
		}
		if a.setMethod(t, exported) {
			return a
		}
		if byFold != nil {
			a.index = byFold
			return a
		}
		return a
	}
	a.setMethod(t, exported)
	return a
}

func (a *Accessor) setMethod(t reflect.Type, name string) bool {
	m, ok := t.MethodByName(name)
	if !ok {
		return false
	}
	mt := m.Type // includes the receiver
	switch mt.NumIn() {
	case 1:
	case 2:
		if mt.In(1) != ctxType {
			return false
		}
		a.withCtx = true
	default:
		return false
	}
	switch mt.NumOut() {
	case 1:
	case 2:
		if mt.Out(1) != errType {
			return false
		}
		a.withErr = true
	default:
		return false
	}
	a.method = m.Index
	return true
}

// callMethod calls a resolving method, turning its panic into a field
// error: of the default resolver's ways to read a value, only a method runs
// user code, so only it pays for a deferred recover.
func callMethod(ctx *context.Context, a *Accessor, m reflect.Value) (out reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = reflect.Value{}, fault.Recovered(r)
		}
	}()
	var res []reflect.Value
	if a.withCtx {
		res = m.Call([]reflect.Value{reflect.ValueOf(ctx).Elem()})
	} else {
		res = m.Call(nil)
	}
	if a.withErr && !res[1].IsNil() {
		return reflect.Value{}, fault.BoundedError(res[1].Interface().(error))
	}
	return res[0], nil
}

// Read reads the field from parent: a map key, an exported struct field
// (graphql, else json, tag names count) or a method, which is given *ctx when it takes a
// context (a pointer, so that the executor's own context reaches it
// without an allocation). This is the default resolver of a field without
// one of its own.
func (fi *FieldReader) Read(ctx *context.Context, parent reflect.Value) (reflect.Value, error) {
	for parent.Kind() == reflect.Interface {
		if parent.IsNil() {
			return reflect.Value{}, nil
		}
		parent = parent.Elem()
	}
	if !parent.IsValid() {
		return reflect.Value{}, nil
	}
	t := parent.Type()
	if t == mapSAType {
		m := parent.Interface().(map[string]any)
		v, ok := m[fi.Name]
		if !ok || v == nil {
			return reflect.Value{}, nil
		}
		return reflect.ValueOf(v), nil
	}
	if t.Kind() == reflect.Map {
		if t.Key().Kind() != reflect.String || parent.IsNil() {
			return reflect.Value{}, nil
		}
		v := parent.MapIndex(reflect.ValueOf(fi.Name).Convert(t.Key()))
		return v, nil
	}
	a := fi.Accessor(t)
	if a.method >= 0 {
		if a.derefPtr && parent.IsNil() {
			return reflect.Value{}, nil
		}
		return callMethod(ctx, a, parent.Method(a.method))
	}
	if a.index == nil {
		return reflect.Value{}, nil
	}
	if a.derefPtr {
		if parent.IsNil() {
			return reflect.Value{}, nil
		}
		parent = parent.Elem()
	}
	if len(a.index) == 1 {
		return parent.Field(a.index[0]), nil
	}
	v, err := parent.FieldByIndexErr(a.index)
	if err != nil {
		return reflect.Value{}, nil // through a nil embedded pointer
	}
	return v, nil
}

// Lookup tells what the default resolver reads for the field called name
// of values of Go type t: method (an index on t, or -1), or the struct
// field at index (after a pointer when derefPtr), or nothing.
func Lookup(name string, t reflect.Type) (method int, index []int, derefPtr bool) {
	a := newAccessor(name, t)
	return a.method, a.index, a.derefPtr
}
