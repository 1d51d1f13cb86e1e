package validation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
)

// This file is the kit's ValuesOfCorrectType. It reports what gqlparser's
// rule of that name reports, message for message and in the same order,
// as the kit used it: its reports at a variable dropped (gqlparser checks
// the variable's default there again, where graphql-js checks it once,
// where it is written), and those at an Int literal beyond 64 bits where a
// Float or an ID is expected, which graphql-js accepts. It differs in cost
// only:
//
//   - gqlparser's rule calls ast.Value.Value on every value it visits, to
//     learn whether some number inside does not read: a list of n items
//     nested d deep costs n·d steps and as many allocations. This rule
//     reads numbers without building values, and only those still in the
//     literal during the walk (see trim.go: the items set aside are
//     clean, so they read).
//   - gqlparser's rule prints the value before it reports, even when the
//     report is then dropped: each rule reports at most maxErrorsPerRule
//     errors, and a fragment walked at every spread reports its errors
//     again. This rule prints and formats a message only for the reports
//     within its cap, and prints the literal whole, with the list items
//     set aside.

// valuesRule returns ValuesOfCorrectType, with "Did you mean" suggestions
// or without.
func valuesRule(suggest bool) func(run ruleRun) core.RuleFunc {
	return func(run ruleRun) core.RuleFunc {
		return func(observers *core.Events, addError core.AddErrFunc) {
			r := &valueRule{tr: run.trimmed, left: run.left, suggest: suggest, addError: addError}
			observers.OnValue(r.check)
		}
	}
}

// valueRule is ValuesOfCorrectType for one walk.
type valueRule struct {
	tr       *trimmed
	left     *int // reports still kept (ruleRun.left)
	suggest  bool
	addError core.AddErrFunc
	// passed holds the places (line and column) whose reports are dropped:
	// those of the variables and the long Int literals met so far.
	passed map[[2]int]bool
	// defaults memoises whether a variable's default reads (see reads).
	defaults map[*ast.VariableDefinition]bool
	texts    map[*ast.Value]string // see text
}

// pass drops the reports at p from now on.
func (r *valueRule) pass(p *ast.Position) {
	if p == nil {
		return
	}
	if r.passed == nil {
		r.passed = map[[2]int]bool{}
	}
	r.passed[[2]int{p.Line, p.Column}] = true
}

// report reports an error at p (no location when p is nil), unless reports
// there are dropped.
func (r *valueRule) report(p *ast.Position, options ...core.ErrorOption) {
	if p != nil && r.passed[[2]int{p.Line, p.Column}] {
		return
	}
	r.addError(append(options, core.At(p))...)
}

// message is core.Message, formatted only when the error is kept; the
// arguments that are values or types are printed then too.
func (r *valueRule) message(format string, args ...any) core.ErrorOption {
	return func(e *gqlerror.Error) {
		printed := make([]any, len(args))
		for i, a := range args {
			switch x := a.(type) {
			case *ast.Value:
				printed[i] = r.text(x)
			case *ast.Type:
				printed[i] = x.String()
			default:
				printed[i] = a
			}
		}
		e.Message += fmt.Sprintf(format, printed...)
	}
}

func (r *valueRule) check(_ *core.Walker, v *ast.Value) {
	if *r.left == 0 {
		return // nothing it reports is kept any more
	}
	def, expected := v.Definition, v.ExpectedType
	switch {
	case v.Kind == ast.Variable:
		r.pass(v.Position)
	case v.Kind == ast.IntValue && def != nil && def.Kind == ast.Scalar && (def.Name == "Float" || def.Name == "ID"):
		if _, err := strconv.ParseInt(v.Raw, 10, 64); err != nil {
			r.pass(v.Position)
		}
	}
	if def == nil || expected == nil {
		return
	}
	if v.Kind == ast.NullValue && expected.NonNull {
		r.report(v.Position, r.message(`Expected value of type "%s", found %s.`, expected, v))
	}
	if def.Kind == ast.Scalar && !isBuiltinScalar(def.Name) {
		return // a custom scalar's literal: GqlkitLiteralValues
	}
	if !r.reads(v, 0) {
		r.unexpected(v)
	}
	switch v.Kind {
	case ast.ListValue:
		if expected.Elem == nil {
			r.unexpected(v)
		}
	case ast.IntValue:
		if def.Name != "Int" && def.Name != "Float" && def.Name != "ID" {
			r.unexpected(v)
		}
	case ast.FloatValue:
		if def.Name != "Float" {
			r.unexpected(v)
		}
	case ast.StringValue, ast.BlockValue:
		switch {
		case def.Kind == ast.Enum:
			r.report(v.Position, r.message(`Enum "%s" cannot represent non-enum value: %s.`, expected, v), r.suggestEnum(v.Raw, def))
		case def.Name != "String" && def.Name != "ID":
			r.unexpected(v)
		}
	case ast.EnumValue:
		switch {
		case def.Kind != ast.Enum:
			r.unexpected(v) // gqlparser adds the suggestions of no enum: none
		case def.EnumValues.ForName(v.Raw) == nil:
			r.report(v.Position, r.message(`Value "%s" does not exist in "%s" enum.`, v, expected), r.suggestEnum(v.Raw, def))
		}
	case ast.BooleanValue:
		if def.Name != "Boolean" {
			r.unexpected(v)
		}
	case ast.ObjectValue:
		r.object(v, def)
	}
}

// object reports the faults of the object literal v of the named type def.
// (gqlparser's rule also checks @oneOf input objects: the kit's input
// objects carry no directives.)
func (r *valueRule) object(v *ast.Value, def *ast.Definition) {
	for _, f := range def.Fields {
		if f.Type.NonNull && v.Children.ForName(f.Name) == nil && f.DefaultValue == nil {
			r.report(v.Position, r.message(`Field "%s.%s" of required type "%s" was not provided.`, def.Name, f.Name, f.Type))
		}
	}
	for _, ch := range v.Children {
		if def.Fields.ForName(ch.Name) != nil {
			continue
		}
		msg := r.message(`Field "%s" is not defined by type "%s".`, ch.Name, def.Name)
		if !r.suggest {
			r.report(ch.Position, msg)
			continue
		}
		r.report(ch.Position, msg, func(e *gqlerror.Error) {
			names := make([]string, len(def.Fields))
			for i, f := range def.Fields {
				names[i] = f.Name
			}
			core.SuggestListQuoted("Did you mean", ch.Name, names)(e)
		})
	}
}

// suggestEnum is the "Did you mean the enum value" of gqlparser's rule:
// the values of the enum def close to typed.
func (r *valueRule) suggestEnum(typed string, def *ast.Definition) core.ErrorOption {
	return func(e *gqlerror.Error) {
		if !r.suggest {
			return
		}
		names := make([]string, len(def.EnumValues))
		for i, ev := range def.EnumValues {
			names[i] = ev.Name
		}
		core.SuggestListQuoted("Did you mean the enum value", typed, names)(e)
	}
}

// unexpected reports v as gqlparser's rule does when v is not of its
// type, with the message of the expected type.
func (r *valueRule) unexpected(v *ast.Value) {
	r.report(v.Position, func(e *gqlerror.Error) {
		var format string
		switch v.ExpectedType.String() {
		case "Int", "Int!":
			format = `Int cannot represent non-integer value: %s`
			if _, err := strconv.ParseInt(v.Raw, 10, 32); err != nil && errors.Is(err, strconv.ErrRange) {
				format = `Int cannot represent non 32-bit signed integer value: %s`
			}
		case "String", "String!", "[String]":
			format = `String cannot represent a non string value: %s`
		case "Boolean", "Boolean!":
			format = `Boolean cannot represent a non boolean value: %s`
		case "Float", "Float!":
			format = `Float cannot represent non numeric value: %s`
		case "ID", "ID!":
			format = `ID cannot represent a non-string and non-integer value: %s`
		default:
			if v.Definition.Kind == ast.Enum {
				r.message(`Enum "%s" cannot represent non-enum value: %s.`, v.ExpectedType, v)(e)
			} else {
				r.message(`Expected value of type "%s", found %s.`, v.ExpectedType, v)(e)
			}
			return
		}
		r.message(format, v)(e)
	})
}

// reads reports whether ast.Value.Value reads v without error: every
// number and boolean in it reads, and so does the default of every
// variable in it that has one. The items set aside for the walk are clean
// and read, so those left decide.
func (r *valueRule) reads(v *ast.Value, depth int) bool {
	if v == nil {
		return true
	}
	if depth > maxWalkDepth {
		return false
	}
	var err error
	switch v.Kind {
	case ast.Variable:
		d := v.VariableDefinition
		if d == nil || d.DefaultValue == nil {
			return true
		}
		ok, seen := r.defaults[d]
		if !seen {
			if r.defaults == nil {
				r.defaults = map[*ast.VariableDefinition]bool{}
			}
			r.defaults[d] = false // a default that refers to its own variable: never in a parsed document
			ok = r.reads(d.DefaultValue, depth+1)
			r.defaults[d] = ok
		}
		return ok
	case ast.IntValue:
		_, err = strconv.ParseInt(v.Raw, 10, 64)
	case ast.FloatValue:
		_, err = strconv.ParseFloat(v.Raw, 64)
	case ast.BooleanValue:
		_, err = strconv.ParseBool(v.Raw)
	case ast.ListValue, ast.ObjectValue:
		// Value leaves out the fields of an object that are variables
		// without a value; those read anyway.
		for _, ch := range v.Children {
			if !r.reads(ch.Value, depth+1) {
				return false
			}
		}
	}
	return err == nil
}

// text is v.String() for the literal as written, with the items set aside.
// A literal in a fragment is reported again at every spread, so the text
// of a list or an object is kept.
func (r *valueRule) text(v *ast.Value) string {
	if v == nil || v.Kind != ast.ListValue && v.Kind != ast.ObjectValue {
		return v.String()
	}
	if s, ok := r.texts[v]; ok {
		return s
	}
	var b strings.Builder
	r.writeText(&b, v, 0)
	if r.texts == nil {
		r.texts = map[*ast.Value]string{}
	}
	r.texts[v] = b.String()
	return r.texts[v]
}

func (r *valueRule) writeText(b *strings.Builder, v *ast.Value, depth int) {
	switch {
	case v == nil:
		b.WriteString("<nil>")
	case depth > maxWalkDepth:
		b.WriteString("…")
	case v.Kind == ast.ListValue:
		b.WriteByte('[')
		for i, ch := range r.tr.original(v) {
			if i > 0 {
				b.WriteByte(',')
			}
			r.writeText(b, ch.Value, depth+1)
		}
		b.WriteByte(']')
	case v.Kind == ast.ObjectValue:
		b.WriteByte('{')
		for i, ch := range v.Children {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(ch.Name + ":")
			r.writeText(b, ch.Value, depth+1)
		}
		b.WriteByte('}')
	default:
		b.WriteString(v.String())
	}
}

// isBuiltinScalar reports whether name is one of the five scalars every
// schema has.
func isBuiltinScalar(name string) bool {
	switch name {
	case "Int", "Float", "String", "Boolean", "ID":
		return true
	}
	return false
}
