package coerce

import (
	"strconv"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/validate"
)

// This file runs the declarative rules of arguments and input fields
// (graphql's Argument.Rules, InputField.Rules) on coerced values, before a
// field's resolver.

// maxRuleDepth bounds the descent into nested input values: a coerced
// value is a finite tree, and this keeps even a pathological one from
// growing the stack. It is above the parser's own nesting bound (1000),
// so only a Go caller's value can reach it, and that value fails.
const maxRuleDepth = 1100

// msgTooDeep is the failure of a value nested deeper than maxRuleDepth,
// whose rules could not all run.
const msgTooDeep = "The input is nested too deeply to be validated."

// CheckArgs runs the rules of fi's arguments, whose coerced values are
// args, and of the input fields inside them, and returns one
// VALIDATION_FAILED error with every failure, or nil.
func CheckArgs(fi *schema.Field, args map[string]any) error {
	var failures validate.Failures
	for _, a := range fi.Args {
		if !a.Checked {
			continue
		}
		v, ok := args[a.Name]
		if !ok {
			v = validate.Missing
		}
		// The fields of an input-object argument are named without the
		// argument in messages: "input.title" reads "title".
		children := a.Name
		if a.Type.Nullable().Kind == schema.KindInputObject {
			children = ""
		}
		checkValue(&failures, a, a.Name, a.Name, children, v, 0)
	}
	if len(failures) == 0 {
		return nil
	}
	return errcode.ValidationFailed(failures.Summary(), failures.Map())
}

// checkValue runs a's rules on v (at path, shown as attribute), then the
// rules inside it; children is the attribute prefix of what is inside.
func checkValue(f *validate.Failures, a *schema.Arg, path, attribute, children string, v any, depth int) {
	if len(a.Rules) > 0 {
		// A copy: the value may be the plan's, shared by every execution
		// of the document, and a Func rule is user code.
		f.CheckAs(path, validate.Attribute(attribute), Clone(v), a.Rules...)
	}
	if InputChecked(a.Type) {
		checkInside(f, a.Type, path, children, v, depth+1)
	}
}

// checkInside runs the rules of the input fields inside v, of type t.
func checkInside(f *validate.Failures, t *schema.Type, path, attribute string, v any, depth int) {
	if depth > maxRuleDepth {
		f.Add(path, msgTooDeep)
		return
	}
	switch t = t.Nullable(); t.Kind {
	case schema.KindList:
		l, _ := v.([]any)
		for i, e := range l {
			is := strconv.Itoa(i)
			checkInside(f, t.Of, path+"."+is, joinPath(attribute, is), e, depth+1)
		}
	case schema.KindInputObject:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, field := range t.Input.Fields {
			if !field.Checked {
				continue
			}
			fv, ok := m[field.Name]
			if !ok {
				fv = validate.Missing
			}
			attr := joinPath(attribute, field.Name)
			checkValue(f, field, path+"."+field.Name, attr, attr, fv, depth)
		}
	}
}

// InputChecked reports whether values of t hold input fields with rules.
func InputChecked(t *schema.Type) bool {
	if t == nil {
		return false
	}
	n := t.Named()
	return n.Kind == schema.KindInputObject && n.Input.Checked
}

// joinPath names name inside path, "a.b" (name alone at the top).
func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
