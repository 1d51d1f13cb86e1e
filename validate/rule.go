package validate

import (
	"encoding/json"
	"net/mail"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// missingValue is the type of [Missing].
type missingValue uint8

// Missing is the value of a field that was not given at all (null is nil).
// Only rules that run on missing values ([Required]) see it; every other
// rule passes.
const Missing missingValue = 0

// The message templates, Laravel's English ones (lang/en/validation.php)
// but for msgNoNull and msgInvalid, which are the kit's own.
const (
	msgRequired       = "The :attribute field is required."
	msgString         = "The :attribute field must be a string."
	msgBoolean        = "The :attribute field must be true or false."
	msgMinString      = "The :attribute field must be at least :min characters."
	msgMinNumeric     = "The :attribute field must be at least :min."
	msgMinArray       = "The :attribute field must have at least :min items."
	msgMaxString      = "The :attribute field must not be greater than :max characters."
	msgMaxNumeric     = "The :attribute field must not be greater than :max."
	msgMaxArray       = "The :attribute field must not have more than :max items."
	msgBetweenString  = "The :attribute field must be between :min and :max characters."
	msgBetweenNumeric = "The :attribute field must be between :min and :max."
	msgBetweenArray   = "The :attribute field must have between :min and :max items."
	msgIn             = "The selected :attribute is invalid."
	msgRegex          = "The :attribute field format is invalid."
	msgEmail          = "The :attribute field must be a valid email address."
	msgNoNull         = "The :attribute field must not contain null characters."
	msgInvalid        = "The :attribute field is invalid."
)

// Rule is one validation rule, such as [Required] or [Max](200). Rules are
// values: build them once and share them; they are safe for concurrent
// use. The zero Rule passes every value.
type Rule struct {
	// check returns the message template when v fails, "" when it
	// passes; nil passes everything.
	check func(v value) string
	// message replaces the template check returns (WithMessage).
	message string
	// min and max replace :min and :max, as flags say.
	min, max int
	flags    flags
	// each holds the rules of Each, run on every item.
	each []Rule
	// about describes the rule for a schema's reader (describe.go); nil
	// for the zero Rule.
	about func(m []Measure) string
}

// flags are the properties of a Rule.
type flags uint8

const (
	// implicit: the rule sees Missing, and when it fails the field's
	// remaining rules do not run (Required).
	implicit flags = 1 << iota
	// hasMin and hasMax: the message has :min or :max replaced.
	hasMin
	hasMax
	// isEach: the rule is Each; it reports nothing itself.
	isEach
	// isTrimmed: the rule is Trimmed; it runs each on the trimmed value.
	isTrimmed
	// isString: the rule is String; when it fails, the size rules of the
	// field are not run (a number or a list sent for a string is not
	// measured as one).
	isString
	// isSize: the rule is Min, Max or Between.
	isSize
)

// Required fails on [Missing], nil, a string (of any string kind) that is
// empty or only white space, and an empty slice, array or map, with "The
// :attribute field is required.". White space is what [unicode.IsSpace]
// reports plus U+FEFF, U+200B and U+200E, the characters Laravel's
// TrimStrings middleware trims.
//
// Required is implicit: when it fails, the field's remaining rules are not
// run, as Laravel stops validating an attribute after an implicit rule
// fails.
func Required() Rule {
	return Rule{flags: implicit, about: fixed("required"), check: func(v value) string {
		switch v.kind {
		case kindMissing, kindNull:
			return msgRequired
		case kindString:
			if isBlank(v.str) {
				return msgRequired
			}
		case kindList, kindMap:
			if v.n == 0 {
				return msgRequired
			}
		}
		if v.jsonNumber && isBlank(v.str) {
			return msgRequired
		}
		return ""
	}}
}

// String passes values of a string kind (string and named types such as
// type Genre string, but not [json.Number], which is a number) and fails on
// any other value, nil included (null is not a string), with "The
// :attribute field must be a string.".
func String() Rule {
	return Rule{flags: isString, about: fixed("a string"), check: func(v value) string {
		if v.kind == kindString || v.kind == kindMissing {
			return ""
		}
		return msgString
	}}
}

// Boolean is Laravel's boolean rule: true and false, the integers 0 and 1
// (of any int or uint kind, and the [json.Number] texts "0" and "1") and
// the strings "0" and "1" pass; anything else, nil and 1.0 included, fails
// with "The :attribute field must be true or false.".
func Boolean() Rule {
	return Rule{about: fixed("true or false"), check: func(v value) string {
		if v.jsonNumber {
			if v.str == "0" || v.str == "1" {
				return ""
			}
			return msgBoolean
		}
		switch v.kind {
		case kindMissing, kindBool:
			return ""
		case kindInt:
			if v.i == 0 || v.i == 1 {
				return ""
			}
		case kindUint:
			if v.u <= 1 {
				return ""
			}
		case kindString:
			if v.str == "0" || v.str == "1" {
				return ""
			}
		}
		return msgBoolean
	}}
}

// Min fails on a value smaller than n, measured by its kind: the
// characters (code points) of a string, the value of a number (int, uint
// and float kinds and [json.Number]), the items of a slice, array or map.
// Its messages:
//
//	string   The :attribute field must be at least :min characters.
//	number   The :attribute field must be at least :min.
//	list     The :attribute field must have at least :min items.
//
// A value of another kind, nil included, passes; NaN fails.
func Min(n int) Rule {
	return Rule{min: n, flags: hasMin | isSize, about: sized("at least %d", n), check: func(v value) string {
		c, m := v.compare(n)
		if c == less || c == unordered {
			return m.pick(msgMinString, msgMinNumeric, msgMinArray)
		}
		return ""
	}}
}

// Max fails on a value larger than n, measured as [Min] measures. Its
// messages:
//
//	string   The :attribute field must not be greater than :max characters.
//	number   The :attribute field must not be greater than :max.
//	list     The :attribute field must not have more than :max items.
//
// A value of another kind, nil included, passes; NaN fails.
func Max(n int) Rule {
	return Rule{max: n, flags: hasMax | isSize, about: sized("at most %d", n), check: func(v value) string {
		c, m := v.compare(n)
		if c == greater || c == unordered {
			return m.pick(msgMaxString, msgMaxNumeric, msgMaxArray)
		}
		return ""
	}}
}

// Between fails on a value smaller than min or larger than max, measured
// as [Min] measures (so every value that has a size fails when min >
// max). Its messages:
//
//	string   The :attribute field must be between :min and :max characters.
//	number   The :attribute field must be between :min and :max.
//	list     The :attribute field must have between :min and :max items.
//
// A value of another kind, nil included, passes; NaN fails.
func Between(min, max int) Rule {
	return Rule{min: min, max: max, flags: hasMin | hasMax | isSize, about: between(min, max), check: func(v value) string {
		lo, m := v.compare(min)
		hi, _ := v.compare(max)
		if lo == less || lo == unordered || hi == greater {
			return m.pick(msgBetweenString, msgBetweenNumeric, msgBetweenArray)
		}
		return ""
	}}
}

// OneOf is Laravel's in rule: the value must equal (==) one of values, or
// it fails with "The selected :attribute is invalid.". Equality is Go's,
// types included: the string "A" is not the enum value Genre("A"), nor is
// the int 1 the float64 1 or the json.Number "1". A value or candidate
// that cannot be compared (a slice, a map, a struct holding one) equals
// nothing, without a panic. values is copied. Null passes, as it does
// every rule that checks a value's content ([Required] refuses it).
func OneOf(values ...any) Rule {
	values = slices.Clone(values)
	return Rule{about: oneOf(values), check: func(v value) string {
		if v.kind == kindMissing || v.kind == kindNull {
			return ""
		}
		for _, c := range values {
			if equal(v.v, c) {
				return ""
			}
		}
		return msgIn
	}}
}

// Pattern fails, with "The :attribute field format is invalid.", on a
// string (of any string kind) that re does not match, and on every value
// that is not a string, numbers included. Null passes (a GraphQL client
// clears an optional field with null; [Required] refuses it). A nil re
// matches nothing.
func Pattern(re *regexp.Regexp) Rule {
	return Rule{about: pattern(re), check: func(v value) string {
		switch {
		case v.kind == kindMissing, v.kind == kindNull:
			return ""
		case v.kind == kindString && re != nil && re.MatchString(v.str):
			return ""
		}
		return msgRegex
	}}
}

// Email fails, with "The :attribute field must be a valid email address.",
// on every value but a string that [net/mail.ParseAddress] accepts as a
// bare address: its Address must equal the whole string, so that a display
// name, angle brackets, comments and quoted local parts are refused. Null
// passes, as for [Pattern].
func Email() Rule {
	return Rule{about: fixed("an email address"), check: func(v value) string {
		switch v.kind {
		case kindMissing, kindNull:
			return ""
		case kindString:
			if a, err := mail.ParseAddress(v.str); err == nil && a.Address == v.str {
				return ""
			}
		}
		return msgEmail
	}}
}

// NoNullCharacters fails, with "The :attribute field must not contain null
// characters.", on a string (of any string kind) that contains U+0000,
// which PostgreSQL cannot store in text. Other values pass.
func NoNullCharacters() Rule {
	return Rule{about: fixed("no null characters"), check: func(v value) string {
		if v.kind == kindString && strings.IndexByte(v.str, 0) >= 0 {
			return msgNoNull
		}
		return ""
	}}
}

// Func is a custom rule: check returns "" when value passes, and otherwise
// the message, in which ":attribute" is replaced. Like every rule but
// [Required], it passes [Missing]; it passes nil (a nil pointer too) as
// well, in both cases without calling check, so that check never has to
// handle an absent or null value (add Required for those).
//
// A panic in check does not escape: it is recovered and the field is
// reported with "The :attribute field is invalid.". A nil check is
// reported the same way, for every value it would be called for.
func Func(check func(value any) string) Rule {
	return Rule{about: fixed("a custom check"), check: func(v value) (msg string) {
		if v.kind == kindMissing || v.kind == kindNull {
			return ""
		}
		defer func() {
			if recover() != nil {
				msg = msgInvalid
			}
		}()
		return check(v.v)
	}}
}

// Trim removes leading and trailing white space as Laravel's TrimStrings
// middleware does: Unicode white space ([unicode.IsSpace]) plus the
// zero-width no-break space (U+FEFF), the zero-width space (U+200B) and
// the left-to-right mark (U+200E). The articles REST API trims every
// string field with it before its rules run.
func Trim(s string) string { return strings.TrimFunc(s, trimmable) }

// Trimmed runs rules on the value as Laravel sees it behind its
// TrimStrings and ConvertEmptyStringsToNull middlewares: a string (of any
// string kind) is trimmed with [Trim], and one left empty is null. Other
// values are checked as they are. It is for APIs without such a
// middleware (GraphQL), so that they judge a value as the articles REST
// API does; the resolver then stores Trim of what it was given. Trimmed
// reports nothing itself: its rules report under the field's own path,
// and a failing implicit rule among them stops only them (wrap all of a
// field's rules in one Trimmed).
func Trimmed(rules ...Rule) Rule {
	rules = slices.Clone(rules)
	return Rule{flags: isTrimmed, each: rules, about: trimmedAbout(rules)}
}

// Each runs rules on every item of a list value (a slice or an array), as
// Laravel's "field.*" rules do: item i is checked as its own field, under
// the path "<path>.<i>" and the attribute "<attribute>.<i>" (so the
// messages of Each(Required()) on "tags" read "The tags.0 field is
// required."). An implicit rule that fails stops that item's rules only.
//
// Each itself passes [Missing], nil and a value that is not a list (a
// map, a string); add [Required] or a rule of your own for those.
func Each(rules ...Rule) Rule {
	rules = slices.Clone(rules)
	return Rule{flags: isEach, each: rules, about: eachAbout(rules)}
}

// WithMessage returns the same rule with another message, in which
// ":attribute" (and ":min" and ":max", for the rules that have them) are
// replaced, as in the rule's own. It replaces every message the rule
// reports, a [Func]'s included. On [Each] it has no effect: Each reports
// nothing itself, and the items' messages are those of its rules (give
// them WithMessage). An empty msg keeps the rule's own messages.
func (r Rule) WithMessage(msg string) Rule {
	r.message = msg
	return r
}

// expand replaces the placeholders of template that r has: ":attribute"
// always, ":min" and ":max" as r's flags say. It reads the template once,
// left to right, so that an attribute holding ":min" is left alone.
func (r Rule) expand(template, attribute string) string {
	if !strings.Contains(template, ":") {
		return template
	}
	var b strings.Builder
	b.Grow(len(template) + len(attribute))
	for {
		i := strings.IndexByte(template, ':')
		if i < 0 {
			b.WriteString(template)
			return b.String()
		}
		b.WriteString(template[:i])
		rest := template[i:]
		switch {
		case strings.HasPrefix(rest, ":attribute"):
			b.WriteString(attribute)
			template = rest[len(":attribute"):]
		case r.flags&hasMin != 0 && strings.HasPrefix(rest, ":min"):
			b.WriteString(strconv.Itoa(r.min))
			template = rest[len(":min"):]
		case r.flags&hasMax != 0 && strings.HasPrefix(rest, ":max"):
			b.WriteString(strconv.Itoa(r.max))
			template = rest[len(":max"):]
		default:
			b.WriteByte(':')
			template = rest[1:]
		}
	}
}

// isBlank reports whether s is empty or only white space as Laravel's
// TrimStrings trims it.
func isBlank(s string) bool {
	for _, r := range s {
		if !trimmable(r) {
			return false
		}
	}
	return true
}

// isTrimmed reports whether TrimStrings trims r: Unicode white space plus
// the zero-width no-break space (BOM), the zero-width space and the
// left-to-right mark.
func trimmable(r rune) bool {
	return unicode.IsSpace(r) || r == '\uFEFF' || r == '\u200B' || r == '\u200E'
}

// equal reports whether a == b, false when the comparison would panic.
func equal(a, b any) bool {
	switch a.(type) {
	case nil, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64, json.Number, missingValue:
		return a == b // comparable: a different type is just unequal
	}
	// reflect.Value.Comparable: if it reports true, a == x does not panic
	// for any x.
	return reflect.ValueOf(a).Comparable() && a == b
}
