package introspection

import (
	"context"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// The resolvers of the introspection fields. Lists are never nil slices,
// which the executor would write as null: an empty list is [].

// resolvers resolve the fields of __Schema, which read the schema.
type resolvers struct{ s *schema.Schema }

func (r resolvers) schemaDescription(context.Context, any, map[string]any, schema.Info) (any, error) {
	return nullIfEmpty(r.s.Description), nil
}

func (r resolvers) types(context.Context, any, map[string]any, schema.Info) (any, error) {
	return r.s.Types, nil
}

func (r resolvers) queryType(context.Context, any, map[string]any, schema.Info) (any, error) {
	return r.s.Query.Type, nil
}

func (r resolvers) mutationType(context.Context, any, map[string]any, schema.Info) (any, error) {
	if r.s.Mutation == nil {
		return nil, nil
	}
	return r.s.Mutation.Type, nil
}

func (r resolvers) directives(context.Context, any, map[string]any, schema.Info) (any, error) {
	return r.s.Directives, nil
}

// on makes a resolver of f, which reads the parent value (of the type P
// the introspection object describes).
func on[P any](f func(parent P) any) schema.Resolver {
	return func(_ context.Context, p any, _ map[string]any, _ schema.Info) (any, error) { return f(p.(P)), nil }
}

// listOn is on for a list field that takes includeDeprecated.
func listOn[P any](f func(parent P, withDeprecated bool) any) schema.Resolver {
	return func(_ context.Context, p any, args map[string]any, _ schema.Info) (any, error) {
		withDeprecated, _ := args["includeDeprecated"].(bool)
		return f(p.(P), withDeprecated), nil
	}
}

// always makes a resolver that returns v, whatever the parent.
func always(v any) schema.Resolver {
	return func(context.Context, any, map[string]any, schema.Info) (any, error) { return v, nil }
}

// nullIfEmpty returns s, or nil (null) when it is empty: a description or
// a deprecation reason that was not given.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// current returns the items of xs that are not deprecated (by the reason
// depr gives), or all of them when withDeprecated; never nil, since the
// lists introspection returns are non-null.
func current[T any](xs []T, depr func(T) string, withDeprecated bool) []T {
	out := []T{}
	for _, x := range xs {
		if withDeprecated || depr(x) == "" {
			out = append(out, x)
		}
	}
	return out
}

func filterArgs(args []*schema.Arg, withDeprecated bool) []*schema.Arg {
	return current(args, func(a *schema.Arg) string { return a.Depr }, withDeprecated)
}

// The resolvers of __Type's fields, whose parent is a *schema.Type.

func typeKind(t *schema.Type) any {
	switch t.Kind {
	case schema.KindScalar:
		return "SCALAR"
	case schema.KindObject:
		return "OBJECT"
	case schema.KindInterface:
		return "INTERFACE"
	case schema.KindUnion:
		return "UNION"
	case schema.KindEnum:
		return "ENUM"
	case schema.KindInputObject:
		return "INPUT_OBJECT"
	case schema.KindList:
		return "LIST"
	}
	return "NON_NULL"
}

func typeName(t *schema.Type) any {
	if t.Wrapped() {
		return nil
	}
	return t.Name
}

// typeFields resolves __Type.fields: an object's or an interface's
// fields, null for other types.
func typeFields(t *schema.Type, withDeprecated bool) any {
	var fields []*schema.Field
	switch t.Kind {
	case schema.KindObject:
		fields = t.Object.Fields
	case schema.KindInterface:
		fields = t.Abstract.Fields
	default:
		return nil
	}
	return current(fields, func(f *schema.Field) string { return f.Depr }, withDeprecated)
}

// typeInterfaces resolves __Type.interfaces: the interfaces an object or
// an interface implements (an empty list for none), null for other types.
func typeInterfaces(t *schema.Type) any {
	if t.Kind != schema.KindObject && t.Kind != schema.KindInterface {
		return nil
	}
	return append([]*schema.Type{}, t.Interfaces...)
}

// possibleTypes resolves __Type.possibleTypes: the objects a value of an
// interface or union may be of, in graphql-js's order (see
// schema.Abstract.Possible), null for other types.
func possibleTypes(t *schema.Type) any {
	if !t.IsAbstract() {
		return nil
	}
	out := make([]*schema.Type, len(t.Abstract.Possible))
	for i, o := range t.Abstract.Possible {
		out[i] = o.Type
	}
	return out
}

func enumValues(t *schema.Type, withDeprecated bool) any {
	if t.Kind != schema.KindEnum {
		return nil
	}
	out := []*schema.EnumValue{}
	for i := range t.Enum.Values {
		if v := &t.Enum.Values[i]; v.Depr == "" || withDeprecated {
			out = append(out, v)
		}
	}
	return out
}

// inputFields resolves __Type.inputFields: an input object's fields, null
// for other types.
func inputFields(t *schema.Type, withDeprecated bool) any {
	if t.Kind != schema.KindInputObject {
		return nil
	}
	return filterArgs(t.Input.Fields, withDeprecated)
}

func ofType(t *schema.Type) any {
	if !t.Wrapped() {
		return nil
	}
	return t.Of
}

func isOneOf(t *schema.Type) any {
	if t.Kind == schema.KindInputObject {
		return false
	}
	return nil
}

// defaultValue resolves __InputValue.defaultValue: the default as a
// literal, null for none.
func defaultValue(a *schema.Arg) any {
	if a.DefaultAST == nil {
		return nil
	}
	return syntax.PrintValue(a.DefaultAST)
}
