package graphql

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// accessor reads one field from values of one Go type: a struct field, a
// method or nothing. Accessors are computed once per (field, Go type).
type accessor struct {
	typ      reflect.Type // the parent's Go type as received
	index    []int        // struct field path (after dereferencing pointers)
	method   int          // method index on typ, or -1
	withCtx  bool         // the method takes a context.Context
	withErr  bool         // the method returns (value, error)
	derefPtr bool         // typ is a pointer to the struct
	// direct: the read the direct leaf path (directread.go) makes for the
	// accessor's field.
	direct directRead
}

type accessorCache struct {
	last atomic.Pointer[accessor]
	all  sync.Map // reflect.Type -> *accessor
}

var (
	ctxType   = reflect.TypeFor[context.Context]()
	errType   = reflect.TypeFor[error]()
	mapSAType = reflect.TypeFor[map[string]any]()
)

func (c *accessorCache) get(fi *fieldInfo, t reflect.Type) *accessor {
	if a := c.last.Load(); a != nil && a.typ == t {
		return a
	}
	if v, ok := c.all.Load(t); ok {
		a := v.(*accessor)
		c.last.Store(a)
		return a
	}
	a := newAccessor(fi.name, t)
	a.direct = directReadOf(fi, a)
	c.all.Store(t, a)
	c.last.Store(a)
	return a
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func newAccessor(name string, t reflect.Type) *accessor {
	a := &accessor{typ: t, method: -1}
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
			tagged, hidden, _ := tagName(f)
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

func (a *accessor) setMethod(t reflect.Type, name string) bool {
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
func callMethod(ctx *context.Context, a *accessor, m reflect.Value) (out reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = reflect.Value{}, recovered(r)
		}
	}()
	var res []reflect.Value
	if a.withCtx {
		res = m.Call([]reflect.Value{reflect.ValueOf(ctx).Elem()})
	} else {
		res = m.Call(nil)
	}
	if a.withErr && !res[1].IsNil() {
		return reflect.Value{}, boundedError(res[1].Interface().(error))
	}
	return res[0], nil
}

// resolveDefault reads the field called name from parent: a map key, an
// exported struct field (graphql, else json, tag names count) or a method, which is given
// *ctx when it takes a context (a pointer, so that the executor's own
// context reaches it without an allocation).
func resolveDefault(ctx *context.Context, fi *fieldInfo, parent reflect.Value) (reflect.Value, error) {
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
		v, ok := m[fi.name]
		if !ok || v == nil {
			return reflect.Value{}, nil
		}
		return reflect.ValueOf(v), nil
	}
	if t.Kind() == reflect.Map {
		if t.Key().Kind() != reflect.String || parent.IsNil() {
			return reflect.Value{}, nil
		}
		v := parent.MapIndex(reflect.ValueOf(fi.name).Convert(t.Key()))
		return v, nil
	}
	a := fi.accessor.get(fi, t)
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

// defaultResolver is the default resolution of fi as a ResolveFunc, for
// middleware to wrap (Field.Middleware on a field without Resolve).
func defaultResolver(fi *fieldInfo) ResolveFunc {
	return func(ctx context.Context, parent any, _ Args, _ ResolveInfo) (any, error) {
		v, err := resolveDefault(&ctx, fi, reflect.ValueOf(parent))
		if err != nil || !v.IsValid() || !v.CanInterface() {
			return nil, err
		}
		return v.Interface(), nil
	}
}
