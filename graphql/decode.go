package graphql

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unsafe"

	"github.com/gqlkit/gqlkit/graphql/internal/access"
	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/exec"
)

// A decoder is the plan for writing coerced input values (see [Args]) into
// one Go type, built once per type and schema by [NewSchema]: the struct
// fields with their offsets and argument names, and how each kind is
// stored. Decoding stores through unsafe pointers at those offsets; reflect
// is used only to allocate slices and pointers, and for values that are
// not of the plan's own type (a custom scalar's, an enum value of another
// type).
type decoder struct {
	kind decKind
	typ  reflect.Type
	// fields of a struct, in declaration order (embedded structs
	// flattened).
	fields []decField
	// elem: the element of a slice, the target of a pointer, the value of
	// an Opt.
	elem *decoder
	// optValue and optState are the offsets of an Opt's fields.
	optValue, optState uintptr
	// problem is why the type cannot be decoded into at all (an embedded
	// pointer, say), for NewSchema to report.
	problem string
}

type decField struct {
	name   string // the argument or input field name
	goName string // the Go field, for messages
	offset uintptr
	dec    *decoder
}

type decKind uint8

const (
	decOther   decKind = iota // assigned with reflect: custom scalars, enum values of other kinds
	decInt                    // int, or a type defined on it
	decInt32                  // int32
	decInt64                  // int64
	decFloat64                // float64
	decString                 // string
	decBool                   // bool
	decStruct                 // an input object
	decPtr                    // *T
	decSlice                  // []T
	decOpt                    // Opt[T]
	decAny                    // any: the value itself, copied
	decMap                    // map[string]any: an input object, copied
	decArgs                   // Args: an input object, read-only
)

var (
	argsType   = reflect.TypeFor[Args]()
	anyType    = reflect.TypeFor[any]()
	stringType = reflect.TypeFor[string]()
)

// decoders builds and keeps the decoders of one schema.
type decoders map[reflect.Type]*decoder

func (ds decoders) of(t reflect.Type) *decoder {
	if d, ok := ds[t]; ok {
		return d
	}
	d := &decoder{typ: t}
	ds[t] = d // before the fields: a type may contain itself
	switch {
	case t == argsType:
		d.kind = decArgs
	case t == mapSAType:
		d.kind = decMap
	case t == anyType, t.Kind() == reflect.Interface && t.NumMethod() == 0:
		d.kind = decAny
	case isOpt(t):
		d.kind = decOpt
		v, _ := t.FieldByName("value")
		s, _ := t.FieldByName("state")
		d.optValue, d.optState = v.Offset, s.Offset
		d.elem = ds.of(v.Type)
	default:
		switch t.Kind() {
		case reflect.Int:
			d.kind = decInt
		case reflect.Int32:
			d.kind = decInt32
		case reflect.Int64:
			d.kind = decInt64
		case reflect.Float64:
			d.kind = decFloat64
		case reflect.String:
			d.kind = decString
		case reflect.Bool:
			d.kind = decBool
		case reflect.Pointer:
			d.kind = decPtr
			if selfPointer(t) {
				d.kind, d.problem = decOther, "the pointer type "+t.String()+" points to itself"
				break
			}
			d.elem = ds.of(t.Elem())
		case reflect.Slice:
			d.kind = decSlice
			d.elem = ds.of(t.Elem())
		case reflect.Struct:
			d.kind = decStruct
			ds.structFields(d, t, 0, "")
		}
	}
	return d
}

// structFields adds the fields of struct t, found at offset base, to d.
func (ds decoders) structFields(d *decoder, t reflect.Type, base uintptr, prefix string) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, hidden, hasTag := access.TagName(f)
		if hidden {
			continue
		}
		if f.Anonymous && (!hasTag || name == "") {
			switch {
			case isOpt(f.Type) || f.Type.Kind() == reflect.Pointer && isOpt(f.Type.Elem()):
				d.problem = fmt.Sprintf("the embedded %s%s cannot be decoded into; give it a field name", prefix, f.Name)
				continue
			case f.Type.Kind() == reflect.Struct:
				ds.structFields(d, f.Type, base+f.Offset, prefix+f.Name+".")
				continue
			case f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct:
				d.problem = fmt.Sprintf("the embedded pointer %s%s cannot be decoded into; embed the struct itself", prefix, f.Name)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = argName(f.Name)
		}
		d.fields = append(d.fields, decField{name: name, goName: prefix + f.Name, offset: base + f.Offset, dec: ds.of(f.Type)})
	}
}

// isOpt reports whether t is an instance of Opt (not merely a type that
// embeds one, which has its methods too).
func isOpt(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.PkgPath() == optPkg && strings.HasPrefix(t.Name(), "Opt[")
}

var optPkg = reflect.TypeFor[Opt[int]]().PkgPath()

// selfPointer reports whether following t's pointers leads back to a
// pointer type already seen (type P *P).
func selfPointer(t reflect.Type) bool {
	for range exec.MaxDerefs {
		t = t.Elem()
		if t.Kind() != reflect.Pointer {
			return false
		}
	}
	return true
}

// argName is the argument name an untagged Go field stands for: its
// leading capitals in lower case, as Go spells initialisms (First → first,
// ID → id, URL → url, HTMLBody → htmlBody, CreatedAt → createdAt).
func argName(goName string) string {
	rs := []rune(goName)
	n := 0
	for n < len(rs) && unicode.IsUpper(rs[n]) {
		n++
	}
	if n > 1 && n < len(rs) {
		n-- // the last capital begins the next word: HTMLBody
	}
	for i := range n {
		rs[i] = unicode.ToLower(rs[i])
	}
	return string(rs)
}

// sliceHeader is the layout of a Go slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// decodeFields writes the values of m (an argument set or an input
// object) into the struct at p. coord and path name the field and the
// value in errors.
func (d *decoder) decodeFields(p unsafe.Pointer, m map[string]any, coord, path string) error {
	for i := range d.fields {
		f := &d.fields[i]
		v, ok := m[f.name]
		if !ok {
			continue // absent: the zero value (an absent Opt)
		}
		if err := f.dec.decode(unsafe.Add(p, f.offset), v, coord, joinPath(path, f.name)); err != nil {
			return err
		}
	}
	return nil
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// decode writes v, a present value (nil for null), into the value of d's
// type at p, which holds its zero value.
func (d *decoder) decode(p unsafe.Pointer, v any, coord, path string) error {
	if d.kind == decOpt {
		if v == nil {
			*(*optState)(unsafe.Add(p, d.optState)) = optNull
			return nil
		}
		*(*optState)(unsafe.Add(p, d.optState)) = optSet
		return d.elem.decode(unsafe.Add(p, d.optValue), v, coord, path)
	}
	if v == nil {
		return nil // null: the zero value, a nil pointer or slice
	}
	switch d.kind {
	case decPtr, decStruct, decSlice, decOther:
		// A custom scalar's value, or an enum's, of the very type asked
		// for (a *big.Int, a time.Time) is stored as it is.
		if reflect.TypeOf(v) == d.typ {
			return d.assign(p, v, coord, path)
		}
	}
	switch d.kind {
	case decInt:
		if n, ok := v.(int); ok {
			*(*int)(p) = n
			return nil
		}
	case decInt32:
		if n, ok := v.(int); ok && n == int(int32(n)) {
			*(*int32)(p) = int32(n)
			return nil
		}
	case decInt64:
		if n, ok := v.(int); ok {
			*(*int64)(p) = int64(n)
			return nil
		}
	case decFloat64:
		switch x := v.(type) {
		case float64:
			*(*float64)(p) = x
			return nil
		case int:
			*(*float64)(p) = float64(x)
			return nil
		}
	case decString:
		if s, ok := v.(string); ok {
			*(*string)(p) = s
			return nil
		}
	case decBool:
		if b, ok := v.(bool); ok {
			*(*bool)(p) = b
			return nil
		}
	case decStruct:
		if m, ok := v.(map[string]any); ok {
			return d.decodeFields(p, m, coord, path)
		}
		// A custom scalar's value (a time.Time) is a struct too.
	case decPtr:
		target := reflect.New(d.elem.typ).UnsafePointer()
		if err := d.elem.decode(target, v, coord, path); err != nil {
			return err
		}
		*(*unsafe.Pointer)(p) = target
		return nil
	case decSlice:
		l, ok := v.([]any)
		if !ok {
			break // a custom scalar's value may be a slice
		}
		s := reflect.MakeSlice(d.typ, len(l), len(l))
		data, size := s.UnsafePointer(), d.elem.typ.Size()
		for i, e := range l {
			if err := d.elem.decode(unsafe.Add(data, uintptr(i)*size), e, coord, path+"."+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		*(*sliceHeader)(p) = sliceHeader{data: data, len: len(l), cap: len(l)}
		return nil
	case decAny:
		*(*any)(p) = coerce.Clone(v)
		return nil
	case decMap:
		if m, ok := v.(map[string]any); ok {
			*(*map[string]any)(p) = cloneMap(m)
			return nil
		}
	case decArgs:
		if m, ok := v.(map[string]any); ok {
			*(*Args)(p) = Args{m: m}
			return nil
		}
	}
	return d.assign(p, v, coord, path)
}

// assign stores a value that is not of the plan's fast types: an enum
// value or a custom scalar's, of d's own type or (for a string or integer
// kind) of another type of the same kind.
func (d *decoder) assign(p unsafe.Pointer, v any, coord, path string) error {
	rv := reflect.ValueOf(v)
	switch {
	case d.kind == decString && rv.Kind() == reflect.String:
		*(*string)(p) = rv.String() // an enum value of a type defined on string
		return nil
	case d.kind == decInt && rv.CanInt() && rv.Int() == int64(int(rv.Int())):
		*(*int)(p) = int(rv.Int())
		return nil
	case d.kind == decInt64 && rv.CanInt():
		*(*int64)(p) = rv.Int()
		return nil
	}
	dst := reflect.NewAt(d.typ, p).Elem()
	switch {
	case rv.Type().AssignableTo(d.typ):
		dst.Set(rv)
	case rv.Kind() == reflect.String && d.typ.Kind() == reflect.String:
		dst.SetString(rv.String())
	case rv.CanInt() && dst.CanInt() && !dst.OverflowInt(rv.Int()):
		dst.SetInt(rv.Int())
	default:
		return d.mismatch(v, coord, path)
	}
	return nil
}

func (d *decoder) mismatch(v any, coord, path string) error {
	return fmt.Errorf("graphql: %s: argument %s holds a %T, which cannot be stored in a %s", coord, path, v, d.typ)
}
