package graphql

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Args holds the coerced arguments of a field, keyed by argument name. An
// argument that was omitted and has no default is absent; an explicit null
// is present with a nil value. Values have their internal Go types: int for
// Int, float64 for Float, string for String and ID, bool for Boolean, the
// internal value for enums, map[string]any for input objects, []any for
// lists, and what ParseValue returned for custom scalars.
type Args map[string]any

// Has reports whether the argument was given or has a default.
func (a Args) Has(name string) bool { _, ok := a[name]; return ok }

// Int returns an Int argument, or 0 when it is absent or null.
func (a Args) Int(name string) int { n, _ := a[name].(int); return n }

// Float returns a Float argument, or 0 when it is absent or null.
func (a Args) Float(name string) float64 { f, _ := a[name].(float64); return f }

// String returns a String or ID argument, or "" when it is absent or null.
func (a Args) String(name string) string { s, _ := a[name].(string); return s }

// Bool returns a Boolean argument, or false when it is absent or null.
func (a Args) Bool(name string) bool { b, _ := a[name].(bool); return b }

// Input returns an input-object argument, or nil when it is absent or null.
func (a Args) Input(name string) map[string]any { m, _ := a[name].(map[string]any); return m }

// ResolveInfo describes the field being resolved. It is valid only during
// the resolver call.
type ResolveInfo struct {
	// FieldName is the field's name in the schema (not its alias).
	FieldName string
	// ParentType is the object type the field belongs to.
	ParentType *Object
	// ReturnType is the field's declared type.
	ReturnType Type
	// Field is the field's node in the document (the first one, when the
	// client selected the same response key several times).
	Field *ast.Field
	// Operation is the operation being executed.
	Operation *ast.OperationDefinition
	// Variables are the operation's coerced variables.
	Variables map[string]any

	e  *executor
	fp *fieldPlan
}

// Path returns the response path of the field, for example
// ["posts", 3, "author"].
func (info *ResolveInfo) Path() ast.Path {
	if info.e == nil {
		return nil
	}
	return info.e.astPath()
}

// SelectedFields returns the names of the sub-fields the client selected on
// this field's value, after fragments, @skip and @include, in selection
// order and without duplicates (__typename is left out). It is empty for
// leaf fields. Resolvers use it to load related rows eagerly, for example
// to join authors only when "author" is selected.
func (info *ResolveInfo) SelectedFields() []string {
	p := info.childPlan()
	if p == nil {
		return nil
	}
	return p.selectedNames(info.e)
}

// IsSelected reports whether the client selected the sub-field at path,
// a dot-separated list of field names below this field such as "author" or
// "author.name".
func (info *ResolveInfo) IsSelected(path string) bool {
	p := info.childPlan()
	for p != nil && path != "" {
		name, rest, more := strings.Cut(path, ".")
		if name == "" || more && rest == "" {
			return false
		}
		fp := p.findField(info.e, name)
		if fp == nil {
			return false
		}
		if rest == "" {
			return true
		}
		p = info.e.childPlanOf(fp)
		path = rest
	}
	return false
}

func (info *ResolveInfo) childPlan() *selectionPlan {
	if info.e == nil || info.fp == nil {
		return nil
	}
	return info.e.childPlanOf(info.fp)
}
