package graphql

import (
	"context"

	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/gqlkit/gqlkit/validate"
)

// This file runs the declarative rules of arguments and input fields
// (Argument.Rules, InputField.Rules) on coerced values, before a field's
// resolver.

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
				if !f.Checked && coerce.InputChecked(f.Type) {
					f.Checked, info.Checked, changed = true, true, true
				}
			}
		}
	}
}

// validating wraps next with the checks of fi's arguments.
func (s *Schema) validating(fi *schema.Field, next ResolveFunc) ResolveFunc {
	return func(ctx context.Context, parent any, args Args, info ResolveInfo) (any, error) {
		if err := coerce.CheckArgs(fi, args.m); err != nil {
			return nil, err
		}
		return next(ctx, parent, args, info)
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
