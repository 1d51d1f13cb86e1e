package graphql

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/gqlkit/gqlkit/graphql/internal/exec"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// This file holds NewSchema's checks of typed resolvers (see [Resolver]):
// that the args type's fields name arguments and fit their types, that
// the result type fits the field's type, and that the parent type is the
// type of the object's values. The Go types of an object's values are
// learnt from the typed resolvers that return it and, from there, from the
// struct fields and methods the fields without a resolver read, so the
// checks reach as far as the schema's Go types are known.

// typedField is a field with a typed resolver, checked once every object
// is compiled.
type typedField struct {
	obj   *Object
	field *schema.Field
	sig   typedSignature
	dec   *decoder
}

type typeChecker struct {
	b *builder
	// values holds the Go types known to be values of each object, each
	// with where it was learnt, in the order learnt.
	values map[*Object][]goValue
	known  map[objectGoType]bool
	queue  []objectGoType
	inputs map[inputGoType]bool // input objects already checked against a struct
	enums  map[*Enum]reflect.Type
	// abstractOuts are the Go types given for interfaces and unions,
	// checked once every Go type of the objects is learnt.
	abstractOuts []abstractOutput
}

type goValue struct {
	typ   reflect.Type
	where string
}

type objectGoType struct {
	obj *Object
	typ reflect.Type
}

type inputGoType struct {
	obj *InputObject
	dec *decoder
}

var (
	stringerType   = reflect.TypeFor[fmt.Stringer]()
	jsonNumberType = reflect.TypeFor[json.Number]()
)

// checkTyped runs the checks once every object is compiled.
func (b *builder) checkTyped() {
	if len(b.typed) == 0 {
		return
	}
	c := &typeChecker{b: b, values: map[*Object][]goValue{}, known: map[objectGoType]bool{},
		inputs: map[inputGoType]bool{}, enums: map[*Enum]reflect.Type{}}
	for _, tf := range b.typed {
		c.args(tf)
		c.output(tf.field.Coord, "the resolver returns "+tf.sig.result.String(), tf.sig.result, defOf(tf.field.Type))
	}
	// Follow the fields read from known Go types, learning the Go types
	// of the objects they lead to.
	for len(c.queue) > 0 {
		og := c.queue[0]
		c.queue = c.queue[1:]
		c.readFields(og)
	}
	for _, tf := range b.typed {
		c.parent(tf)
	}
	c.learnAbstracts()
	for _, out := range c.abstractOuts {
		c.checkAbstractOutput(out)
	}
}

func (c *typeChecker) errorf(format string, args ...any) { c.b.errorf(format, args...) }

// learn records that values of Go type t reach object o.
func (c *typeChecker) learn(o *Object, t reflect.Type, where string) {
	k := objectGoType{o, t}
	if c.known[k] {
		return
	}
	c.known[k] = true
	c.values[o] = append(c.values[o], goValue{t, where})
	c.queue = append(c.queue, k)
}

// parent checks a typed resolver's parent type against the Go types known
// for its object. The root objects' value is ExecParams.Root, which no
// schema knows.
func (c *typeChecker) parent(tf typedField) {
	if tf.obj == c.b.cfg.Query || tf.obj == c.b.cfg.Mutation {
		return
	}
	p := tf.sig.parent
	for _, v := range c.values[tf.obj] {
		switch {
		case p.Kind() == reflect.Interface && !v.typ.Implements(p):
			c.errorf("graphql: %s: the resolver takes a parent of type %s, which %s (the values of %s from %s) does not implement", tf.field.Coord, p, v.typ, tf.obj.Name, v.where)
		case p.Kind() != reflect.Interface && v.typ != p:
			c.errorf("graphql: %s: the resolver takes a parent of type %s, but the values of %s are %s (from %s)", tf.field.Coord, p, tf.obj.Name, v.typ, v.where)
		}
	}
}

// readFields checks the fields of og's object that have no resolver of
// their own against og's Go type, and learns what they lead to.
func (c *typeChecker) readFields(og objectGoType) {
	info := c.b.s.objects[og.obj]
	if info == nil {
		return
	}
	t := og.typ
	for _, fi := range info.Fields {
		if fi.Traced {
			continue // a resolver of its own
		}
		source, rt := c.fieldSource(t, fi.Name)
		if source == "" {
			if t.Kind() == reflect.Map {
				continue // a missing key is null, as for map[string]any
			}
			c.errorf("graphql: %s: %s (the values of %s from %s) has no field or method %q for it to read", fi.Coord, t, og.obj.Name, c.where(og), fi.Name)
			continue
		}
		c.output(fi.Coord, source, rt, defOf(fi.Type))
	}
}

func (c *typeChecker) where(og objectGoType) string {
	for _, v := range c.values[og.obj] {
		if v.typ == og.typ {
			return v.where
		}
	}
	return "?"
}

// fieldSource finds what the default resolver reads for field name from a
// value of Go type t: a description of it and its Go type ("" when there
// is nothing to read).
func (c *typeChecker) fieldSource(t reflect.Type, name string) (string, reflect.Type) {
	if t.Kind() == reflect.Map {
		if t.Key().Kind() != reflect.String {
			return "", nil
		}
		return "the map value of " + t.String(), t.Elem()
	}
	a := newAccessor(name, t)
	if a.method >= 0 {
		return "method " + t.Method(a.method).Name + " of " + t.String(), t.Method(a.method).Type.Out(0)
	}
	if a.index != nil {
		st := t
		if a.derefPtr {
			st = t.Elem()
		}
		f := st.FieldByIndex(a.index)
		return "field " + f.Name + " of " + t.String(), f.Type
	}
	return "", nil
}

// output checks that Go type r, produced by source, fits output type t of
// field coord, and learns the Go types of the objects it holds.
func (c *typeChecker) output(coord, source string, r reflect.Type, t Type) {
	for range maxTypeWrappers + 1 {
		if r.Kind() == reflect.Interface {
			return // anything may be inside: checked when it is written
		}
		if nn, ok := t.(*NonNull); ok {
			t = nn.OfType
		}
		if l, ok := t.(*List); ok {
			r = derefAll(r)
			if r.Kind() != reflect.Slice && r.Kind() != reflect.Array {
				c.mismatch(coord, source, t, r, "a list needs a slice or an array")
				return
			}
			r, t = r.Elem(), l.OfType
			continue
		}
		break
	}
	switch x := t.(type) {
	case BuiltinScalar:
		c.builtinOutput(coord, source, x, derefAll(r))
	case *Enum:
		want := c.enumType(x)
		if want == nil {
			return // values of different Go types: checked when written
		}
		if want.Kind() != reflect.Pointer {
			r = derefAll(r)
		}
		if r != want && r.Kind() != reflect.Interface {
			c.mismatch(coord, source, t, r, fmt.Sprintf("the values of enum %s are %s", x.Name, want))
		}
	case *Object:
		r = derefToStruct(r)
		switch {
		case r.Kind() == reflect.Interface:
		case r.Kind() == reflect.Struct, r.Kind() == reflect.Pointer && r.Elem().Kind() == reflect.Struct,
			r.Kind() == reflect.Map && r.Key().Kind() == reflect.String:
			c.learn(x, r, source+" for "+coord)
		default:
			c.mismatch(coord, source, t, r, "an object needs a struct, a pointer to one, a map or an interface")
		}
	case *Interface, *Union:
		c.noteAbstractOutput(coord, source, r, x.(NamedType))
	}
}

// derefToStruct follows pointer types to anything but a struct, as the
// executor follows pointers.
func derefToStruct(r reflect.Type) reflect.Type {
	for range exec.MaxDerefs {
		if r.Kind() != reflect.Pointer || r.Elem().Kind() == reflect.Struct {
			break
		}
		r = r.Elem()
	}
	return r
}

func (c *typeChecker) mismatch(coord, source string, t Type, r reflect.Type, why string) {
	c.errorf("graphql: %s: %s, which does not fit %s (%s is %s; %s)", coord, source, typeString(t), typeString(t), r, why)
}

func (c *typeChecker) builtinOutput(coord, source string, kind BuiltinScalar, r reflect.Type) {
	k := r.Kind()
	isInt := k >= reflect.Int && k <= reflect.Uint64
	var ok bool
	var why string
	isNumber := isInt || k == reflect.Float32 || k == reflect.Float64 || r == jsonNumberType
	// What the executor serialises, as graphql-js does (a number for a
	// String, 0 or 1 for a Boolean): a type that can never give a
	// valid value is refused; a value out of range is the field's error
	// at run time.
	switch kind {
	case Int:
		ok, why = isNumber, "Int needs an integer type"
	case Float:
		ok, why = isNumber, "Float needs a float or an integer type"
	case String:
		ok, why = k == reflect.String || isNumber || k == reflect.Bool || r.Implements(stringerType), "String needs a string, number or bool type, or a fmt.Stringer"
	case ID:
		ok, why = k == reflect.String || isInt || r.Implements(stringerType), "ID needs a string or an integer type, or a fmt.Stringer"
	case Boolean:
		ok, why = k == reflect.Bool || isNumber, "Boolean needs a bool or a number"
	}
	if !ok && k != reflect.Interface {
		c.mismatch(coord, source, kind, r, why)
	}
}

// derefAll follows pointer types, as the executor follows pointers to
// anything but structs.
func derefAll(r reflect.Type) reflect.Type {
	for range exec.MaxDerefs {
		if r.Kind() != reflect.Pointer {
			return r
		}
		r = r.Elem()
	}
	return r
}

// enumType returns the Go type of an enum's internal values, or nil when
// they have different types.
func (c *typeChecker) enumType(e *Enum) reflect.Type {
	if t, ok := c.enums[e]; ok {
		return t
	}
	if len(e.Values) == 0 {
		return nil
	}
	var t reflect.Type
	for i, v := range e.Values {
		vt := stringType
		if v.Value != nil {
			vt = reflect.TypeOf(v.Value)
		}
		if i == 0 {
			t = vt
		} else if vt != t {
			t = nil
			break
		}
	}
	c.enums[e] = t
	return t
}

// args checks a typed resolver's args type against the field's arguments.
func (c *typeChecker) args(tf typedField) {
	d, coord := tf.dec, tf.field.Coord
	switch {
	case d.kind == decArgs:
		return
	case d.kind != decStruct:
		c.errorf("graphql: %s: the resolver's args type %s is not a struct (graphql.NoArgs takes none, graphql.Args the untyped ones)", coord, d.typ)
		return
	case d.problem != "":
		c.errorf("graphql: %s: the resolver's args type %s: %s", coord, d.typ, d.problem)
	}
	byName := map[string]*schema.Arg{}
	names := make([]string, 0, len(tf.field.Args))
	for _, a := range tf.field.Args {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	for _, f := range d.fields {
		a := byName[f.name]
		if a == nil {
			c.errorf("graphql: %s: field %s of the resolver's args type %s stands for the argument %q, which the field does not have (%s)", coord, f.goName, d.typ, f.name, oneOf("arguments", names))
			continue
		}
		c.input(coord, fmt.Sprintf("argument %q", a.Name), fmt.Sprintf("field %s of %s", f.goName, d.typ), f.dec, defOf(a.Type))
	}
}

func oneOf(what string, names []string) string {
	if len(names) == 0 {
		return "it has no " + what
	}
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	return "its " + what + ": " + strings.Join(sorted, ", ")
}

// input checks that decoder d can hold values of input type t (the type
// of what, decoded into goField).
func (c *typeChecker) input(coord, what, goField string, d *decoder, t Type) {
	if d.problem != "" && d.kind != decStruct {
		c.errorf("graphql: %s: %s: %s (%s) cannot be decoded into: %s", coord, what, goField, d.typ, d.problem)
		return
	}
	for range maxTypeWrappers + 1 {
		if e, ok := namedOf(t).(*Enum); ok && d.typ == c.enumType(e) && unwrapNonNull(t) == Type(e) {
			return // an enum's values are pointers, and so is the field
		}
		for range exec.MaxDerefs {
			if d.kind != decPtr && d.kind != decOpt {
				break
			}
			d = d.elem
		}
		if d.kind == decAny {
			return
		}
		if nn, ok := t.(*NonNull); ok {
			t = nn.OfType
		}
		l, ok := t.(*List)
		if !ok {
			break
		}
		if d.kind != decSlice {
			c.inputMismatch(coord, what, goField, t, d, "a list needs a slice")
			return
		}
		d, t = d.elem, l.OfType
	}
	switch x := t.(type) {
	case BuiltinScalar:
		var ok bool
		var why string
		switch x {
		case Int:
			ok, why = d.kind == decInt || d.kind == decInt32 || d.kind == decInt64, "Int needs an int, int32 or int64"
		case Float:
			ok, why = d.kind == decFloat64, "Float needs a float64"
		case String, ID:
			ok, why = d.kind == decString, x.String()+" needs a string"
		case Boolean:
			ok, why = d.kind == decBool, "Boolean needs a bool"
		}
		if !ok {
			c.inputMismatch(coord, what, goField, t, d, why)
		}
	case *Enum:
		want := c.enumType(x)
		switch {
		case want == nil && len(x.Values) == 0:
			// NewSchema reports the enum without values.
		case want == nil:
			c.inputMismatch(coord, what, goField, t, d, fmt.Sprintf("the values of enum %s have different Go types, which only any can hold", x.Name))
		case d.typ == want,
			want.Kind() == reflect.String && d.typ.Kind() == reflect.String,
			want.Kind() >= reflect.Int && want.Kind() <= reflect.Int64 && d.typ.Kind() >= reflect.Int && d.typ.Kind() <= reflect.Int64:
		default:
			c.inputMismatch(coord, what, goField, t, d, fmt.Sprintf("the values of enum %s are %s", x.Name, want))
		}
	case *InputObject:
		switch {
		case d.kind == decMap, d.kind == decArgs,
			d.typ.Kind() == reflect.Map && d.typ.Key().Kind() == reflect.String && d.typ.Elem() == anyType && mapSAType.AssignableTo(d.typ):
		case d.kind == decStruct:
			c.inputObject(coord, x, d)
		default:
			c.inputMismatch(coord, what, goField, t, d, "an input object needs a struct, a map[string]any or graphql.Args")
		}
	case *Scalar:
		// Whatever ParseValue returns: checked when it is decoded.
	}
}

func (c *typeChecker) inputMismatch(coord, what, goField string, t Type, d *decoder, why string) {
	c.errorf("graphql: %s: %s is %s, which %s (%s) cannot hold: %s", coord, what, typeString(t), goField, d.typ, why)
}

// inputObject checks a struct against an input object, once per pair (an
// input object may contain itself).
func (c *typeChecker) inputObject(coord string, o *InputObject, d *decoder) {
	k := inputGoType{o, d}
	if c.inputs[k] {
		return
	}
	c.inputs[k] = true
	if d.problem != "" {
		c.errorf("graphql: %s: %s for input object %s: %s", coord, d.typ, o.Name, d.problem)
	}
	info := c.b.s.inputs[o]
	names := make([]string, 0, len(info.Fields))
	for _, f := range info.Fields {
		names = append(names, f.Name)
	}
	for _, f := range d.fields {
		in := info.ByName[f.name]
		if in == nil {
			c.errorf("graphql: %s: field %s of %s stands for the input field %q, which input object %s does not have (%s)", coord, f.goName, d.typ, f.name, o.Name, oneOf("fields", names))
			continue
		}
		c.input(coord, fmt.Sprintf("input field %s.%s", o.Name, f.name), fmt.Sprintf("field %s of %s", f.goName, d.typ), f.dec, defOf(in.Type))
	}
}
