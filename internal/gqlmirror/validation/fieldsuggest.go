package validation

import (
	"fmt"
	"sort"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"
)

// This file is the rule FieldsOnCorrectType with its suggestions in
// graphql-js's order. gqlparser's rule lists the interfaces first, by
// how many possible types use them, then the rest by name; graphql-js's
// getSuggestedTypeNames counts every suggested type (an object once, an
// interface once per possible type that has it), and orders by that
// count, then a super interface before its subtypes, then by name in
// natural order. The order differs once interfaces implement interfaces
// (Named before Entry when Entry implements Named), or when an interface
// is used by one possible type only. (The private rule set, which makes
// no suggestion, keeps gqlparser's rule.)

// fieldsOnCorrectTypeRule reports a field that its parent type does not
// have, suggesting inline fragments on the types that have it, or else
// similarly named fields.
func fieldsOnCorrectTypeRule(ruleRun) core.RuleFunc {
	return func(observers *core.Events, addError core.AddErrFunc) {
		observers.OnField(func(w *core.Walker, field *ast.Field) {
			if field.ObjectDefinition == nil || field.Definition != nil {
				return
			}
			message := fmt.Sprintf(`Cannot query field "%s" on type "%s".`, field.Name, field.ObjectDefinition.Name)
			if types := suggestedTypeNames(w.Schema, field.ObjectDefinition, field.Name); len(types) > 0 {
				message += " Did you mean to use an inline fragment on " + core.QuotedOrList(types...) + "?"
			} else if fields := suggestedFieldNames(field.ObjectDefinition, field.Name); len(fields) > 0 {
				message += " Did you mean " + core.QuotedOrList(fields...) + "?"
			}
			addError(core.Message("%s", message), core.At(field.Position))
		})
	}
}

// suggestedTypeNames returns the possible types of parent, an abstract
// type, and the interfaces they implement, that have a field called name,
// in graphql-js's order (see the top of the file); nil for other types.
func suggestedTypeNames(schema *ast.Schema, parent *ast.Definition, name string) []string {
	if !parent.IsAbstractType() {
		return nil
	}
	var types []*ast.Definition
	usage := map[string]int{}
	for _, possible := range schema.GetPossibleTypes(parent) {
		if possible.Fields.ForName(name) == nil {
			continue
		}
		if usage[possible.Name] == 0 {
			types = append(types, possible)
		}
		usage[possible.Name] = 1
		for _, iname := range possible.Interfaces {
			iface := schema.Types[iname]
			if iface == nil || iface.Fields.ForName(name) == nil {
				continue
			}
			if usage[iname] == 0 {
				types = append(types, iface)
			}
			usage[iname]++
		}
	}
	sort.SliceStable(types, func(i, j int) bool {
		a, b := types[i], types[j]
		if d := usage[b.Name] - usage[a.Name]; d != 0 {
			return d < 0
		}
		if a.Kind == ast.Interface && implements(b, a.Name) {
			return true // a super type before its subtypes
		}
		if b.Kind == ast.Interface && implements(a, b.Name) {
			return false
		}
		return naturalCompare(a.Name, b.Name) < 0
	})
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.Name
	}
	return names
}

// implements reports whether t declares the interface called iface.
func implements(t *ast.Definition, iface string) bool {
	for _, n := range t.Interfaces {
		if n == iface {
			return true
		}
	}
	return false
}

// suggestedFieldNames returns the fields of parent, an object or an
// interface, whose names are close to name.
func suggestedFieldNames(parent *ast.Definition, name string) []string {
	if parent.Kind != ast.Object && parent.Kind != ast.Interface {
		return nil
	}
	names := make([]string, 0, len(parent.Fields))
	for _, f := range parent.Fields {
		names = append(names, f.Name)
	}
	return core.SuggestionList(name, names)
}

// naturalCompare compares a and b as graphql-js's naturalCompare does:
// byte by byte, except that runs of digits compare as numbers (a run
// starting with 0 is the number 0, its other digits compared after it).
func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			var na, nb uint64
			na, i = digitRun(a, i)
			nb, j = digitRun(b, j)
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			continue
		}
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
		i++
		j++
	}
	return len(a) - len(b) // as graphql-js: the whole lengths
}

// digitRun reads the number of the digits of s from i, s[i] being one,
// as naturalCompare does: a run starting with 0 is that 0 alone. It
// returns the number and the index past it.
func digitRun(s string, i int) (uint64, int) {
	var n uint64
	for {
		n = n*10 + uint64(s[i]-'0')
		i++
		if i >= len(s) || !isDigit(s[i]) || n == 0 {
			return n, i
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
