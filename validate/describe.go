package validate

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// Measure names what the size rules ([Min], [Max], [Between]) of a
// described value count, for [Describe]. A rule measures by the value's
// kind when it runs; a schema knows that kind from the type, and says it
// in words.
type Measure uint8

const (
	// Amount is a number's value ("at most 5"), and the measure of a
	// value whose kind the schema does not tell (a custom scalar): the
	// words name no unit.
	Amount Measure = iota
	// Characters are a string's characters ("at most 200 characters").
	Characters
	// Items are a list's items ("at most 10 items").
	Items
)

// Describe returns rules in words, for the readers of a schema (a GraphQL
// schema appends it to the description of an argument or input field).
// The rules are listed in their order, separated by "; ", each in the
// fixed wording below; "" when no rule has one (nil and zero Rules have
// none). A rule's message (WithMessage) does not change its words.
//
//	Required          required
//	String            a string
//	Boolean           true or false
//	Min(n)            at least n [characters|items]
//	Max(n)            at most n [characters|items]
//	Between(a, b)     between a and b [characters|items]
//	OneOf(v...)       one of v, ... (strings quoted, as Go quotes them)
//	Pattern(re)       matching `re` (a nil re: matching nothing)
//	Email             an email address
//	NoNullCharacters  no null characters
//	Func              a custom check
//	Trimmed(r...)     trimmed (r, ...)
//	Each(r...)        each item: r, ...
//
// measures say what the size rules count: measures[0] for the value
// itself, measures[1] for the items of an [Each], measures[2] for the
// items of an Each inside it, and so on; a level without one is [Amount].
// The unit is singular for 1 ("at least 1 character").
func Describe(rules []Rule, measures ...Measure) string {
	return describeAll(rules, measures, "; ")
}

func describeAll(rules []Rule, m []Measure, sep string) string {
	var parts []string
	for _, r := range rules {
		if r.about == nil {
			continue
		}
		if s := r.about(m); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, sep)
}

// fixed describes a rule whose words do not depend on the measure.
func fixed(words string) func([]Measure) string {
	return func([]Measure) string { return words }
}

// unit returns the unit of n at the first level of m, with its leading
// space, or "".
func unit(m []Measure, n int) string {
	if len(m) == 0 {
		return ""
	}
	var u string
	switch m[0] {
	case Characters:
		u = " character"
	case Items:
		u = " item"
	default:
		return ""
	}
	if n != 1 {
		u += "s"
	}
	return u
}

// sized describes Min or Max: format holds one %d, for n.
func sized(format string, n int) func([]Measure) string {
	return func(m []Measure) string { return fmt.Sprintf(format, n) + unit(m, n) }
}

func between(lo, hi int) func([]Measure) string {
	return func(m []Measure) string {
		return "between " + strconv.Itoa(lo) + " and " + strconv.Itoa(hi) + unit(m, hi)
	}
}

func oneOf(values []any) func([]Measure) string {
	return func([]Measure) string {
		words := make([]string, len(values))
		for i, v := range values {
			if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
				words[i] = strconv.Quote(rv.String())
			} else {
				words[i] = fmt.Sprint(v)
			}
		}
		return "one of " + strings.Join(words, ", ")
	}
}

func pattern(re *regexp.Regexp) func([]Measure) string {
	return func([]Measure) string {
		if re == nil {
			return "matching nothing"
		}
		return "matching `" + re.String() + "`"
	}
}

func trimmedAbout(rules []Rule) func([]Measure) string {
	return func(m []Measure) string {
		if inner := describeAll(rules, m, ", "); inner != "" {
			return "trimmed (" + inner + ")"
		}
		return ""
	}
}

func eachAbout(rules []Rule) func([]Measure) string {
	return func(m []Measure) string {
		var next []Measure
		if len(m) > 1 {
			next = m[1:]
		}
		if inner := describeAll(rules, next, ", "); inner != "" {
			return "each item: " + inner
		}
		return ""
	}
}
