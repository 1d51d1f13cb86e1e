package graphql

import (
	"context"
	"strconv"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/validate"
)

// This file runs the declarative rules of arguments and input fields
// (Argument.Rules, InputField.Rules) on coerced values, before a field's
// resolver.

// maxRuleDepth bounds the descent into nested input values: a coerced
// value is a finite tree, and this keeps even a pathological one from
// growing the stack. It is above the parser's own nesting bound (1000),
// so only a Go caller's value can reach it, and that value fails.
const maxRuleDepth = 1100

// msgTooDeep is the failure of a value nested deeper than maxRuleDepth,
// whose rules could not all run.
const msgTooDeep = "The input is nested too deeply to be validated."

// markChecked marks the input objects that have rules on some field, there
// or in an input object inside: the fields with rules first, then whatever
// holds a marked input object, until nothing changes (each pass only adds
// marks, so cycles of input objects end).
func (b *builder) markChecked() {
	for _, info := range b.s.inputs {
		for _, f := range info.Fields {
			f.Checked = len(f.Rules) > 0
			info.Checked = info.Checked || f.Checked
		}
	}
	for changed := true; changed; {
		changed = false
		for _, info := range b.s.inputs {
			for _, f := range info.Fields {
				if !f.Checked && b.s.inputChecked(f.Type) {
					f.Checked, info.Checked, changed = true, true, true
				}
			}
		}
	}
}

// inputChecked reports whether values of t hold input fields with rules.
func (s *Schema) inputChecked(t *schema.Type) bool {
	if t == nil {
		return false
	}
	n := t.Named()
	return n.Kind == schema.KindInputObject && n.Input.Checked
}

// validating wraps next with the checks of fi's arguments.
func (s *Schema) validating(fi *fieldInfo, next ResolveFunc) ResolveFunc {
	return func(ctx context.Context, parent any, args Args, info ResolveInfo) (any, error) {
		if err := s.checkArgs(fi, args); err != nil {
			return nil, err
		}
		return next(ctx, parent, args, info)
	}
}

// checkArgs runs the rules of fi's arguments, and of the input fields
// inside them, and returns one VALIDATION_FAILED error with every failure,
// or nil.
func (s *Schema) checkArgs(fi *fieldInfo, args Args) error {
	var failures validate.Failures
	for _, a := range fi.Args {
		if !a.Checked {
			continue
		}
		v, ok := args.m[a.Name]
		if !ok {
			v = validate.Missing
		}
		// The fields of an input-object argument are named without the
		// argument in messages: "input.title" reads "title".
		children := a.Name
		if a.Type.Nullable().Kind == schema.KindInputObject {
			children = ""
		}
		s.checkValue(&failures, a, a.Name, a.Name, children, v, 0)
	}
	if len(failures) == 0 {
		return nil
	}
	return errcode.ValidationFailed(failures.Summary(), failures.Map())
}

// checkValue runs a's rules on v (at path, shown as attribute), then the
// rules inside it; children is the attribute prefix of what is inside.
func (s *Schema) checkValue(f *validate.Failures, a *argInfo, path, attribute, children string, v any, depth int) {
	if len(a.Rules) > 0 {
		// A copy: the value may be the plan's, shared by every execution
		// of the document, and a Func rule is user code.
		f.CheckAs(path, validate.Attribute(attribute), cloneValue(v), a.Rules...)
	}
	if s.inputChecked(a.Type) {
		s.checkInside(f, a.Type, path, children, v, depth+1)
	}
}

// checkInside runs the rules of the input fields inside v, of type t.
func (s *Schema) checkInside(f *validate.Failures, t *schema.Type, path, attribute string, v any, depth int) {
	if depth > maxRuleDepth {
		f.Add(path, msgTooDeep)
		return
	}
	switch t = t.Nullable(); t.Kind {
	case schema.KindList:
		l, _ := v.([]any)
		for i, e := range l {
			is := strconv.Itoa(i)
			s.checkInside(f, t.Of, path+"."+is, joinPath(attribute, is), e, depth+1)
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
			s.checkValue(f, field, path+"."+field.Name, attr, attr, fv, depth)
		}
	}
}

// describeRules returns the description of an argument or input field of
// type t: desc, then its rules in words (validate.Describe), in a paragraph
// of their own: "Rules: required; at most 200 characters.". Introspection
// and the SDL both show it, so that clients see what the server checks.
func describeRules(desc string, t Type, rules []validate.Rule) string {
	words := validate.Describe(rules, measures(t)...)
	if words == "" {
		return desc
	}
	words = "Rules: " + words + "."
	if desc == "" {
		return words
	}
	return desc + "\n\n" + words
}

// measures returns what the size rules of a value of type t count, level
// by level into its lists, for validate.Describe: the items of a list,
// the characters of a String or an ID, and no unit for anything else (an
// Int, a Float; an enum or a custom scalar, whose Go values may be of any
// kind).
func measures(t Type) []validate.Measure {
	var out []validate.Measure
	for len(out) < maxMeasures {
		switch x := unwrapNonNull(t).(type) {
		case *List:
			out = append(out, validate.Items)
			t = x.OfType
			continue
		case BuiltinScalar:
			if x == String || x == ID {
				return append(out, validate.Characters)
			}
		}
		return append(out, validate.Amount)
	}
	return out
}

// maxMeasures bounds the levels measures looks into: rules nest no deeper
// in practice, and a list type that holds itself (which NewSchema
// refuses) ends the walk.
const maxMeasures = 8

func unwrapNonNull(t Type) Type {
	if nn, ok := t.(*NonNull); ok {
		return nn.OfType
	}
	return t
}
