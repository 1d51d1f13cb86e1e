package graphql

import "context"

// introspectionTypes are the __Schema, __Type, … objects of one schema. They
// are ordinary objects with resolvers over the schema's compiled types; each
// is made by its own constructor (introspection_types.go).
type introspectionTypes struct {
	schema, typ, field, inputValue, enumValue, directive *Object
	typeKind, directiveLocation                          *Enum
}

func (it *introspectionTypes) all() []NamedType {
	return []NamedType{it.schema, it.typ, it.field, it.inputValue, it.enumValue, it.directive, it.typeKind, it.directiveLocation}
}

func newIntrospectionTypes(s *Schema) *introspectionTypes {
	it := &introspectionTypes{typeKind: newTypeKindEnum(), directiveLocation: newDirectiveLocationEnum()}
	it.schema = it.newSchemaObject(s)
	it.typ = it.newTypeObject(s)
	it.field = it.newFieldObject()
	it.inputValue = it.newInputValueObject()
	it.enumValue = it.newEnumValueObject()
	it.directive = it.newDirectiveObject()
	return it
}

// resolveOn makes a resolver of f, which reads the parent value (of the
// type P the introspection object is made of).
func resolveOn[P any](f func(parent P) any) ResolveFunc {
	return func(_ context.Context, p any, _ Args, _ ResolveInfo) (any, error) { return f(p.(P)), nil }
}

// resolveListOn is resolveOn for a list field that takes includeDeprecated.
func resolveListOn[P any](f func(parent P, withDeprecated bool) any) ResolveFunc {
	return func(_ context.Context, p any, args Args, _ ResolveInfo) (any, error) {
		return f(p.(P), includeDeprecated(args)), nil
	}
}

// always makes a resolver that returns v, whatever the parent.
func always(v any) ResolveFunc {
	return func(context.Context, any, Args, ResolveInfo) (any, error) { return v, nil }
}

// nullIfEmpty returns s, or nil (null) when it is empty: a description or
// a deprecation reason that was not given.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func includeDeprecated(args Args) bool { b, _ := args.Bool("includeDeprecated"); return b }

// includeDeprecatedArgs returns the arguments of a list field that leaves
// deprecated items out unless asked.
func includeDeprecatedArgs() []Argument {
	return []Argument{{Name: "includeDeprecated", Type: Boolean, Default: false}}
}

func filterArgs(args []*argInfo, withDeprecated bool) []*argInfo {
	out := []*argInfo{}
	for _, a := range args {
		if a.Depr == "" || withDeprecated {
			out = append(out, a)
		}
	}
	return out
}

// typeRef is the parent value of __Type: a named type or a wrapper. Its
// methods resolve __Type's fields.
type typeRef struct{ t Type }

func (r typeRef) kind() any {
	switch r.t.(type) {
	case BuiltinScalar, *Scalar:
		return "SCALAR"
	case *Object:
		return "OBJECT"
	case *Interface:
		return "INTERFACE"
	case *Union:
		return "UNION"
	case *Enum:
		return "ENUM"
	case *InputObject:
		return "INPUT_OBJECT"
	case *List:
		return "LIST"
	}
	return "NON_NULL"
}

func (r typeRef) name() any {
	if nt, ok := r.t.(NamedType); ok {
		return nt.TypeName()
	}
	return nil
}

func (r typeRef) description() any {
	switch x := r.t.(type) {
	case BuiltinScalar:
		return nullIfEmpty(x.Description())
	case *Scalar:
		return nullIfEmpty(x.Description)
	case *Object:
		return nullIfEmpty(x.Description)
	case *Interface:
		return nullIfEmpty(x.Description)
	case *Union:
		return nullIfEmpty(x.Description)
	case *Enum:
		return nullIfEmpty(x.Description)
	case *InputObject:
		return nullIfEmpty(x.Description)
	}
	return nil
}

func (r typeRef) specifiedByURL() any {
	if sc, ok := r.t.(*Scalar); ok {
		return nullIfEmpty(sc.SpecifiedByURL)
	}
	return nil
}

// introFields resolves __Type.fields: an object's or an interface's
// fields, null for other types.
func (s *Schema) introFields(r typeRef, withDeprecated bool) any {
	var fields []*fieldInfo
	switch x := r.t.(type) {
	case *Object:
		fields = s.objects[x].Fields
	case *Interface:
		fields = s.abstracts[x].Fields
	default:
		return nil
	}
	out := []*fieldInfo{}
	for _, f := range fields {
		if f.Depr == "" || withDeprecated {
			out = append(out, f)
		}
	}
	return out
}

// interfaces resolves __Type.interfaces: the interfaces an object or an
// interface implements (an empty list for none), null for other types.
func (r typeRef) interfaces() any {
	var ifaces []*Interface
	switch x := r.t.(type) {
	case *Object:
		ifaces = x.Interfaces
	case *Interface:
		ifaces = x.Interfaces
	default:
		return nil
	}
	out := make([]typeRef, len(ifaces))
	for i, it := range ifaces {
		out[i] = typeRef{it}
	}
	return out
}

// introPossibleTypes resolves __Type.possibleTypes: the objects a value of
// an interface or union may be of, in graphql-js's order (see
// abstractInfo.possible), null for other types.
func (s *Schema) introPossibleTypes(r typeRef) any {
	nt, ok := r.t.(NamedType)
	if !ok {
		return nil
	}
	info := s.abstracts[nt]
	if info == nil {
		return nil
	}
	out := make([]typeRef, len(info.Possible))
	for i, o := range info.Possible {
		out[i] = typeRef{objectDef(o)}
	}
	return out
}

func (r typeRef) enumValues(withDeprecated bool) any {
	e, ok := r.t.(*Enum)
	if !ok {
		return nil
	}
	out := []*EnumValue{}
	for i := range e.Values {
		if e.Values[i].DeprecationReason == "" || withDeprecated {
			out = append(out, &e.Values[i])
		}
	}
	return out
}

// introInputFields resolves __Type.inputFields: an input object's fields,
// null for other types.
func (s *Schema) introInputFields(r typeRef, withDeprecated bool) any {
	o, ok := r.t.(*InputObject)
	if !ok {
		return nil
	}
	return filterArgs(s.inputs[o].Fields, withDeprecated)
}

func (r typeRef) ofType() any {
	switch x := r.t.(type) {
	case *List:
		return typeRef{x.OfType}
	case *NonNull:
		return typeRef{x.OfType}
	}
	return nil
}

func (r typeRef) isOneOf() any {
	if _, ok := r.t.(*InputObject); ok {
		return false
	}
	return nil
}
