package graphql

import (
	"reflect"

	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/validate"
)

// This file builds the input side of a schema: scalars, enums, input
// objects, arguments and their default values.

func (b *builder) checkScalar(sc *Scalar) {
	if sc.Serialize == nil {
		b.errorf("graphql: scalar %s needs a Serialize function", sc.Name)
	}
	if sc.ParseValue == nil {
		b.errorf("graphql: scalar %s needs a ParseValue function", sc.Name)
	}
}

func (b *builder) compileEnum(e *Enum) *schema.Enum {
	info := &schema.Enum{ByName: map[string]any{}, ByValue: map[any]string{}}
	if len(e.Values) == 0 {
		b.errorf("graphql: enum %s has no values", e.Name)
	}
	for _, v := range e.Values {
		if !validName(v.Name) || isIntrospectionName(v.Name) && !isIntrospectionName(e.Name) {
			b.errorf("graphql: enum %s: %q is not a valid value name", e.Name, v.Name)
			continue
		}
		switch v.Name {
		case "true", "false", "null":
			b.errorf("graphql: enum %s: %q cannot be an enum value name", e.Name, v.Name)
			continue
		}
		if _, dup := info.ByName[v.Name]; dup {
			b.errorf("graphql: enum %s: value %s is defined twice", e.Name, v.Name)
			continue
		}
		val := v.Value
		if val == nil {
			val = v.Name
		}
		// The value, not just its type: an interface inside may hold a
		// slice, which would make the map panic.
		if !reflect.ValueOf(val).Comparable() {
			b.errorf("graphql: enum %s: the value of %s (%T) is not comparable", e.Name, v.Name, val)
			continue
		}
		if reflect.TypeOf(val).Kind() == reflect.Pointer {
			info.Pointers = true
		}
		if prev, dup := info.ByValue[val]; dup {
			b.errorf("graphql: enum %s: %s and %s have the same internal value", e.Name, prev, v.Name)
			continue
		}
		info.ByName[v.Name] = val
		info.ByValue[val] = v.Name
		info.Values = append(info.Values, schema.EnumValue{Name: v.Name, Desc: v.Description, Depr: v.DeprecationReason})
	}
	return info
}

// isInputType reports whether t may be used for arguments and input fields.
func isInputType(t Type) bool {
	switch namedOf(t).(type) {
	case BuiltinScalar, *Scalar, *Enum, *InputObject:
		return true
	}
	return false
}

func isOutputType(t Type) bool {
	switch namedOf(t).(type) {
	case BuiltinScalar, *Scalar, *Enum, *Object, *Interface, *Union:
		return true
	}
	return false
}

func (b *builder) compileInputValue(owner, name string, t Type, def any, desc, depr string, rules []validate.Rule) *schema.Arg {
	a := &schema.Arg{Name: name, Type: b.s.ref(t), Desc: describeRules(desc, t, rules), Depr: depr, Rules: rules}
	if namedOf(t) == nil || a.Type == nil {
		return nil // reported when the types were collected
	}
	if !validName(name) || isIntrospectionName(name) {
		b.errorf("graphql: %s: %q is not a valid name", owner, name)
		return nil
	}
	if !isInputType(t) {
		b.errorf("graphql: %s: %s is of output type %s; arguments and input fields need an input type (scalar, enum or input object)", owner, name, typeString(t))
		return nil
	}
	if depr != "" {
		if _, nonNull := t.(*NonNull); nonNull && def == nil {
			b.errorf("graphql: %s: the required %s cannot be deprecated", owner, name)
		}
	}
	if def != nil {
		b.pending[a] = def
		a.Owner = owner
	}
	return a
}

// inputDefaults coerces the field defaults of o, after those of the input
// objects its fields hold (a cycle is cut where it closes).
func (b *builder) inputDefaults(o *InputObject) {
	if b.state[o] != defaultsPending {
		return
	}
	b.state[o] = defaultsCoercing
	info := b.s.inputs[o]
	for _, f := range info.Fields {
		if inner, ok := namedOf(defOf(f.Type)).(*InputObject); ok {
			b.inputDefaults(inner)
		}
	}
	for _, f := range info.Fields {
		b.coerceDefault(f)
	}
	b.state[o] = defaultsCoerced
}

// coerceDefault checks a pending default against its type and keeps it in
// its coerced and literal forms.
func (b *builder) coerceDefault(a *schema.Arg) {
	def, ok := b.pending[a]
	if !ok {
		return
	}
	delete(b.pending, a)
	if inner, ok := namedOf(defOf(a.Type)).(*InputObject); ok {
		b.inputDefaults(inner)
	}
	owner, name, t := a.Owner, a.Name, defOf(a.Type)
	{
		lit, err := b.s.astFromValue(def, t)
		if err != nil {
			b.errorf("graphql: %s: the default of %s is not a valid %s: %v", owner, name, typeString(t), err)
			return
		}
		coerced, err := coerce.Literal(lit, a.Type, nil)
		if err != nil {
			b.errorf("graphql: %s: the default of %s is not a valid %s: %v", owner, name, typeString(t), err)
			return
		}
		// Keep the default in its canonical form (nested input defaults
		// filled in), so that introspection, SDL and a client schema
		// rebuilt from introspection all print the same literal.
		if canonical, err := b.s.astFromValue(coerced, t); err == nil {
			lit = canonical
		}
		a.HasDefault, a.Default, a.DefaultAST = true, coerced, lit
		a.Fresh = b.s.holdsCustomScalar(a.Type)
	}
}

// holdsCustomScalar reports whether a value of input type t can hold a
// custom scalar value, through lists and input objects (each visited once).
func (s *Schema) holdsCustomScalar(t *schema.Type) bool {
	seen := map[*schema.Input]bool{}
	var holds func(t *schema.Type) bool
	holds = func(t *schema.Type) bool {
		switch n := t.Named(); n.Kind {
		case schema.KindScalar:
			return n.Builtin == 0
		case schema.KindInputObject:
			if seen[n.Input] {
				return false
			}
			seen[n.Input] = true
			for _, f := range n.Input.Fields {
				if holds(f.Type) {
					return true
				}
			}
		}
		return false
	}
	return holds(t)
}

func (b *builder) compileInput(o *InputObject) {
	info := b.s.inputs[o]
	if len(o.Fields) == 0 {
		b.errorf("graphql: input object %s has no fields", o.Name)
	}
	for _, f := range o.Fields {
		if _, dup := info.ByName[f.Name]; dup {
			b.errorf("graphql: input object %s: field %s is defined twice", o.Name, f.Name)
			continue
		}
		a := b.compileInputValue("input object "+o.Name, f.Name, f.Type, f.Default, f.Description, f.DeprecationReason, f.Rules)
		if a == nil {
			continue
		}
		info.Fields = append(info.Fields, a)
		info.ByName[f.Name] = a
	}
}
