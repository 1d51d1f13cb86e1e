package graphql

import (
	"github.com/gqlkit/gqlkit/graphql/internal/plan"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

// ResolveInfo describes the field being resolved. A resolver receives its
// own copy, which holds nothing the engine reuses: it stays valid, and
// describes the same field, after the resolver has returned, so a batch
// loader may keep it. [ResolveInfo.ParentType] and [ResolveInfo.ReturnType]
// are the definitions given to [NewSchema], which must not be changed.
type ResolveInfo struct{ in schema.Info }

// plan returns the plan of the field, nil in a zero ResolveInfo.
func (info ResolveInfo) plan() *plan.Field {
	fp, _ := info.in.Field.(*plan.Field)
	return fp
}

// FieldName returns the field's name in the schema (not its alias).
func (info ResolveInfo) FieldName() string {
	if info.plan() == nil || info.plan().Info == nil {
		return ""
	}
	return info.plan().Info.Name
}

// ResponseKey returns the field's alias, or its name when it has none: the
// key of its value in the response.
func (info ResolveInfo) ResponseKey() string {
	if info.plan() == nil {
		return ""
	}
	return info.plan().Key
}

// ParentType returns the object type the field belongs to.
func (info ResolveInfo) ParentType() *Object {
	if info.plan() == nil || info.plan().Owner == nil {
		return nil
	}
	return objectDef(info.plan().Owner.Obj)
}

// ReturnType returns the field's declared type.
func (info ResolveInfo) ReturnType() Type {
	if info.plan() == nil {
		return nil
	}
	return defOf(info.plan().Type)
}

// Operation returns the operation being executed.
func (info ResolveInfo) Operation() *Operation { return operationOf(info.in) }

// Variables returns the operation's coerced variables, read-only.
func (info ResolveInfo) Variables() Args { return Args{m: info.in.Vars} }

// Path returns the response path of the field, for example
// ["posts", 3, "author"].
func (info ResolveInfo) Path() ast.Path {
	if info.plan() == nil {
		return nil
	}
	return info.plan().Path(info.in.Idx)
}

// SelectedFields returns the names of the sub-fields the client selected on
// this field's value, after fragments, @skip and @include, in selection
// order and without duplicates (__typename is left out). It is empty for
// leaf fields. Resolvers use it to load related rows eagerly, for example
// to join authors only when "author" is selected.
//
// On a field of an interface or union type, whose value's object is not
// known yet, they are the sub-fields selected for any of its possible
// objects, in the order of the objects and then of selection.
func (info ResolveInfo) SelectedFields() []string {
	if info.plan() == nil {
		return nil
	}
	return info.plan().SelectedFields(info.in.Vars)
}

// IsSelected reports whether the client selected the sub-field at path,
// a dot-separated list of field names below this field such as "author" or
// "author.name". Below a field of an interface or union type, a field
// selected for any of its possible objects counts.
func (info ResolveInfo) IsSelected(path string) bool {
	if info.plan() == nil {
		return false
	}
	return info.plan().IsSelected(info.in.Vars, path)
}

// operationOf returns the operation in, nil in a zero one.
func operationOf(in schema.Info) *Operation {
	op, _ := in.Op.(*Operation)
	return op
}
