package validate_test

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/validate"
)

// Named types, as the GraphQL engine hands enum and custom scalar values.
type (
	genre  string
	level  int
	code   uint8
	flag   bool
	score  float32
	labels []string
	counts map[string]int
	point  struct{ X, Y int }
	holder struct{ V any }
)

// The messages of the field "title".
const (
	titleRequired = "The title field is required."
	titleString   = "The title field must be a string."
	titleBoolean  = "The title field must be true or false."
	titleIn       = "The selected title is invalid."
	titleFormat   = "The title field format is invalid."
	titleEmail    = "The title field must be a valid email address."
	titleNUL      = "The title field must not contain null characters."
	titleInvalid  = "The title field is invalid."
)

// ruleCase is a value and the messages one rule gives it as "title".
type ruleCase struct {
	name  string
	value any
	want  []string // nil when the value passes
}

// checkRule runs each case through rule as the field "title".
func checkRule(t *testing.T, rule validate.Rule, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var f validate.Failures
			f.Check("title", tc.value, rule)
			var got []string
			if len(f) > 0 {
				got = f[0].Messages
			}
			if !slices.Equal(got, tc.want) || len(f) > 1 || len(f) == 1 && f[0].Path != "title" {
				t.Errorf("Check(title, %#v) = %+v, want %q", tc.value, f, tc.want)
			}
		})
	}
}

func one(msg string) []string { return []string{msg} }

func TestRequired(t *testing.T) {
	var nilPointer *int
	checkRule(t, validate.Required(), []ruleCase{
		{name: "missing", value: validate.Missing, want: one(titleRequired)},
		{name: "nil", value: nil, want: one(titleRequired)},
		{name: "nil pointer", value: nilPointer, want: one(titleRequired)},
		{name: "empty string", value: "", want: one(titleRequired)},
		{name: "white space", value: " \t\r\n\u00a0\u3000", want: one(titleRequired)},
		{name: "TrimStrings extras", value: "\ufeff\u200b\u200e", want: one(titleRequired)},
		{name: "blank enum", value: genre(" "), want: one(titleRequired)},
		{name: "empty []any", value: []any{}, want: one(titleRequired)},
		{name: "nil []any", value: []any(nil), want: one(titleRequired)},
		{name: "empty named slice", value: labels{}, want: one(titleRequired)},
		{name: "empty array", value: [0]int{}, want: one(titleRequired)},
		{name: "empty map", value: map[string]any{}, want: one(titleRequired)},
		{name: "empty named map", value: counts{}, want: one(titleRequired)},
		{name: "empty json.Number", value: json.Number(""), want: one(titleRequired)},
		{name: "string", value: " a "},
		{name: "NUL is not white space", value: "\x00"},
		{name: "zero", value: 0},
		{name: "false", value: false},
		{name: "json.Number", value: json.Number("0")},
		{name: "list", value: []any{nil}},
		{name: "map", value: map[string]any{"a": nil}},
		{name: "struct", value: point{}},
		{name: "pointer", value: new(int)},
		{name: "invalid UTF-8", value: "\xff"},
	})
}

func TestString(t *testing.T) {
	checkRule(t, validate.String(), []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "string", value: "a"},
		{name: "empty string", value: ""},
		{name: "enum", value: genre("DRAMA")},
		{name: "nil", value: nil, want: one(titleString)},
		{name: "int", value: 1, want: one(titleString)},
		{name: "json.Number", value: json.Number("1"), want: one(titleString)},
		{name: "bool", value: true, want: one(titleString)},
		{name: "list", value: []any{"a"}, want: one(titleString)},
		{name: "[]byte", value: []byte("a"), want: one(titleString)},
		{name: "map", value: map[string]any{}, want: one(titleString)},
		{name: "pointer to string", value: new(string), want: one(titleString)},
	})
}

func TestBoolean(t *testing.T) {
	checkRule(t, validate.Boolean(), []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "true", value: true},
		{name: "false", value: false},
		{name: "named bool", value: flag(true)},
		{name: "int 0", value: 0},
		{name: "int 1", value: 1},
		{name: "int64 1", value: int64(1)},
		{name: "uint8 0", value: uint8(0)},
		{name: "named int", value: level(1)},
		{name: "named uint", value: code(0)},
		{name: "json.Number 0", value: json.Number("0")},
		{name: "json.Number 1", value: json.Number("1")},
		{name: "string 0", value: "0"},
		{name: "string 1", value: "1"},
		{name: "named string 1", value: genre("1")},
		{name: "nil", value: nil, want: one(titleBoolean)},
		{name: "int 2", value: 2, want: one(titleBoolean)},
		{name: "int -1", value: -1, want: one(titleBoolean)},
		{name: "uint 2", value: uint(2), want: one(titleBoolean)},
		{name: "float 1", value: 1.0, want: one(titleBoolean)},
		{name: "json.Number 1.0", value: json.Number("1.0"), want: one(titleBoolean)},
		{name: "json.Number -0", value: json.Number("-0"), want: one(titleBoolean)},
		{name: "json.Number 1e0", value: json.Number("1e0"), want: one(titleBoolean)},
		{name: "string true", value: "true", want: one(titleBoolean)},
		{name: "string with spaces", value: " 1 ", want: one(titleBoolean)},
		{name: "empty string", value: "", want: one(titleBoolean)},
		{name: "list", value: []any{true}, want: one(titleBoolean)},
	})
}

func TestMin(t *testing.T) {
	const (
		chars = "The title field must be at least 2 characters."
		num   = "The title field must be at least 2."
		items = "The title field must have at least 2 items."
	)
	checkRule(t, validate.Min(2), []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "nil", value: nil},
		{name: "bool", value: true},
		{name: "struct", value: point{}},
		{name: "two characters", value: "ab"},
		{name: "two code points", value: "é😀"},
		{name: "one character", value: "é", want: one(chars)},
		{name: "enum", value: genre("a"), want: one(chars)},
		{name: "int 2", value: 2},
		{name: "int 1", value: 1, want: one(num)},
		{name: "int -5", value: -5, want: one(num)},
		{name: "named int", value: level(1), want: one(num)},
		{name: "uint 1", value: uint64(1), want: one(num)},
		{name: "uint max", value: uint64(math.MaxUint64)},
		{name: "float 1.5", value: 1.5, want: one(num)},
		{name: "float 2", value: 2.0},
		{name: "float32", value: score(1.99), want: one(num)},
		{name: "NaN", value: math.NaN(), want: one(num)},
		{name: "+Inf", value: math.Inf(1)},
		{name: "-Inf", value: math.Inf(-1), want: one(num)},
		{name: "json.Number 10", value: json.Number("10")},
		{name: "json.Number 1.9", value: json.Number("1.9"), want: one(num)},
		{name: "json.Number -1e400", value: json.Number("-1e400"), want: one(num)},
		{name: "json.Number not a number", value: json.Number("x")},
		{name: "two items", value: []any{1, 2}},
		{name: "one item", value: []any{"abc"}, want: one(items)},
		{name: "named slice", value: labels{"a"}, want: one(items)},
		{name: "array", value: [1]int{}, want: one(items)},
		{name: "map", value: map[string]any{"a": 1}, want: one(items)},
	})
}

func TestMax(t *testing.T) {
	const (
		chars = "The title field must not be greater than 3 characters."
		num   = "The title field must not be greater than 3."
		items = "The title field must not have more than 3 items."
	)
	checkRule(t, validate.Max(3), []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "nil", value: nil},
		{name: "bool", value: false},
		{name: "three characters", value: "😀😀😀"},
		{name: "four characters", value: "abcd", want: one(chars)},
		{name: "int 3", value: 3},
		{name: "int 4", value: int32(4), want: one(num)},
		{name: "uint max", value: uint64(math.MaxUint64), want: one(num)},
		{name: "float 3.0001", value: 3.0001, want: one(num)},
		{name: "NaN", value: math.NaN(), want: one(num)},
		{name: "json.Number 3", value: json.Number("3")},
		{name: "json.Number 1e400", value: json.Number("1e400"), want: one(num)},
		{name: "json.Number beyond int64", value: json.Number("99999999999999999999"), want: one(num)},
		{name: "three items", value: []any{1, 2, 3}},
		{name: "four items", value: []string{"a", "b", "c", "d"}, want: one(items)},
		{name: "map of four", value: counts{"a": 1, "b": 2, "c": 3, "d": 4}, want: one(items)},
	})
}

func TestMaxLargeBounds(t *testing.T) {
	// float64(math.MaxInt64) rounds up to 2^63: the comparison stays exact.
	for _, tc := range []struct {
		name  string
		value any
		max   int
		want  bool // passes
	}{
		{name: "2^63 over MaxInt64", value: float64(1 << 63), max: math.MaxInt64, want: false},
		{name: "MaxInt64 at MaxInt64", value: int64(math.MaxInt64), max: math.MaxInt64, want: true},
		{name: "2^53+1 over 2^53", value: json.Number("9007199254740993"), max: 1 << 53, want: false},
		{name: "2^53 as a float at 2^53+1", value: float64(1 << 53), max: 1<<53 + 1, want: true},
		{name: "uint over MaxInt64", value: uint64(1 << 63), max: math.MaxInt64, want: false},
		{name: "uint under a negative bound", value: uint(0), max: -1, want: false},
	} {
		var f validate.Failures
		f.Check("n", tc.value, validate.Max(tc.max))
		if got := len(f) == 0; got != tc.want {
			t.Errorf("%s: Max(%d) on %#v passes = %v, want %v (%v)", tc.name, tc.max, tc.value, got, tc.want, f)
		}
	}
}

func TestBetween(t *testing.T) {
	const (
		chars = "The title field must be between 2 and 3 characters."
		num   = "The title field must be between 2 and 3."
		items = "The title field must have between 2 and 3 items."
	)
	checkRule(t, validate.Between(2, 3), []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "nil", value: nil},
		{name: "one character", value: "a", want: one(chars)},
		{name: "two characters", value: "ab"},
		{name: "three characters", value: "abc"},
		{name: "four characters", value: "abcd", want: one(chars)},
		{name: "int 1", value: 1, want: one(num)},
		{name: "int 2", value: 2},
		{name: "float 3.5", value: 3.5, want: one(num)},
		{name: "NaN", value: math.NaN(), want: one(num)},
		{name: "one item", value: []any{1}, want: one(items)},
		{name: "three items", value: []any{1, 2, 3}},
	})
	checkRule(t, validate.Between(3, 2), []ruleCase{
		{name: "empty bounds", value: "ab", want: one("The title field must be between 3 and 2 characters.")},
		{name: "empty bounds, no size", value: true},
	})
}

func TestOneOf(t *testing.T) {
	checkRule(t, validate.OneOf("a", 1, genre("DRAMA"), nil, []int{1}, holder{V: []int{1}}), []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "string", value: "a"},
		{name: "int", value: 1},
		{name: "enum", value: genre("DRAMA")},
		{name: "nil listed", value: nil},
		{name: "string for the enum", value: "DRAMA", want: one(titleIn)},
		{name: "enum for the string", value: genre("a"), want: one(titleIn)},
		{name: "float for the int", value: 1.0, want: one(titleIn)},
		{name: "json.Number for the int", value: json.Number("1"), want: one(titleIn)},
		{name: "slice", value: []int{1}, want: one(titleIn)},
		{name: "struct holding a slice", value: holder{V: []int{1}}, want: one(titleIn)},
		{name: "comparable struct", value: holder{V: 1}, want: one(titleIn)},
		{name: "map", value: map[string]any{}, want: one(titleIn)},
	})
	checkRule(t, validate.OneOf(), []ruleCase{
		{name: "nothing listed", value: "a", want: one(titleIn)},
		{name: "nil, nothing listed", value: nil},
	})
}

func TestOneOfCopiesValues(t *testing.T) {
	values := []any{"a"}
	rule := validate.OneOf(values...)
	values[0] = "b"
	var f validate.Failures
	f.Check("title", "a", rule)
	if len(f) != 0 {
		t.Errorf("OneOf changed with its caller's slice: %v", f)
	}
}

func TestPattern(t *testing.T) {
	checkRule(t, validate.Pattern(regexp.MustCompile(`^[a-z]+$`)), []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "match", value: "abc"},
		{name: "enum match", value: genre("abc")},
		{name: "no match", value: "ABC", want: one(titleFormat)},
		{name: "empty", value: "", want: one(titleFormat)},
		{name: "nil", value: nil},
		{name: "int", value: 1, want: one(titleFormat)},
		{name: "json.Number", value: json.Number("1"), want: one(titleFormat)},
		{name: "list", value: []any{"abc"}, want: one(titleFormat)},
	})
	checkRule(t, validate.Pattern(nil), []ruleCase{
		{name: "nil pattern, missing", value: validate.Missing},
		{name: "nil pattern", value: "abc", want: one(titleFormat)},
	})
}

func TestEmail(t *testing.T) {
	checkRule(t, validate.Email(), []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "address", value: "ada@example.com"},
		{name: "no dot in the domain", value: "ada@localhost"},
		{name: "plus", value: "ada+news@example.co.uk"},
		{name: "display name", value: "Ada <ada@example.com>", want: one(titleEmail)},
		{name: "angle brackets", value: "<ada@example.com>", want: one(titleEmail)},
		{name: "quoted local part", value: `"ada lovelace"@example.com`, want: one(titleEmail)},
		{name: "surrounding space", value: " ada@example.com", want: one(titleEmail)},
		{name: "no at", value: "ada.example.com", want: one(titleEmail)},
		{name: "two addresses", value: "a@b.c, d@e.f", want: one(titleEmail)},
		{name: "empty", value: "", want: one(titleEmail)},
		{name: "nil", value: nil},
		{name: "int", value: 1, want: one(titleEmail)},
	})
}

func TestNoNullCharacters(t *testing.T) {
	checkRule(t, validate.NoNullCharacters(), []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "nil", value: nil},
		{name: "clean", value: "abc"},
		{name: "NUL", value: "a\x00b", want: one(titleNUL)},
		{name: "NUL alone", value: "\x00", want: one(titleNUL)},
		{name: "enum with NUL", value: genre("\x00"), want: one(titleNUL)},
		{name: "list holding NUL", value: []any{"\x00"}},
		{name: "int", value: 0},
	})
}

func TestFunc(t *testing.T) {
	called := 0
	even := validate.Func(func(v any) string {
		called++
		if n, ok := v.(int); ok && n%2 == 0 {
			return ""
		}
		return "The :attribute field must be even (not :min)."
	})
	checkRule(t, even, []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "nil", value: nil},
		{name: "nil pointer", value: (*int)(nil)},
		{name: "even", value: 2},
		{name: "odd", value: 3, want: one("The title field must be even (not :min).")},
		{name: "string", value: "2", want: one("The title field must be even (not :min).")},
	})
	if called != 3 {
		t.Errorf("check called %d times, want 3 (never for Missing or nil)", called)
	}
	panicking := validate.Func(func(v any) string { panic(v) })
	checkRule(t, panicking, []ruleCase{
		{name: "panic", value: "x", want: one(titleInvalid)},
		{name: "panic with a list", value: []any{nil}, want: one(titleInvalid)},
		{name: "panic, missing", value: validate.Missing},
	})
	checkRule(t, validate.Func(func(any) string { panic(nil) }), []ruleCase{
		{name: "panic(nil)", value: 1, want: one(titleInvalid)},
	})
	checkRule(t, validate.Func(nil), []ruleCase{
		{name: "nil check", value: "x", want: one(titleInvalid)},
		{name: "nil check, nil", value: nil},
	})
	checkRule(t, validate.Func(func(any) string { panic("boom") }).WithMessage("No :attribute."), []ruleCase{
		{name: "panic with a message", value: 1, want: one("No title.")},
	})
}

func TestZeroRulePasses(t *testing.T) {
	checkRule(t, validate.Rule{}, []ruleCase{
		{name: "missing", value: validate.Missing},
		{name: "nil", value: nil},
		{name: "string", value: ""},
	})
}

func TestEveryFailingRuleReports(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value any
		rules []validate.Rule
		want  []string
	}{
		{
			name:  "long title with NUL",
			value: strings.Repeat("a", 200) + "\x00",
			rules: []validate.Rule{validate.Required(), validate.String(), validate.Max(200), validate.NoNullCharacters()},
			want:  []string{"The title field must not be greater than 200 characters.", titleNUL},
		},
		{
			name:  "a list is not measured once String fails",
			value: []any{1, 2, 3},
			rules: []validate.Rule{validate.Required(), validate.String(), validate.Max(2), validate.NoNullCharacters()},
			want:  []string{titleString},
		},
		{
			name:  "required stops the rest",
			value: validate.Missing,
			rules: []validate.Rule{validate.Required(), validate.String(), validate.Func(func(any) string { return "never" })},
			want:  []string{titleRequired},
		},
		{
			name:  "required stops the rest on nil",
			value: nil,
			rules: []validate.Rule{validate.Required(), validate.String(), validate.Boolean()},
			want:  []string{titleRequired},
		},
		{
			name:  "rules before required run",
			value: nil,
			rules: []validate.Rule{validate.String(), validate.Required(), validate.Boolean()},
			want:  []string{titleString, titleRequired},
		},
		{
			name:  "nil without required",
			value: nil,
			rules: []validate.Rule{validate.String(), validate.Max(1), validate.Boolean(), validate.NoNullCharacters()},
			want:  []string{titleString, titleBoolean},
		},
		{
			name:  "missing without required",
			value: validate.Missing,
			rules: []validate.Rule{validate.String(), validate.Min(1), validate.Boolean(), validate.OneOf("a"), validate.Email(), validate.Pattern(nil)},
		},
	} {
		var f validate.Failures
		f.Check("title", tc.value, tc.rules...)
		var got []string
		if len(f) > 0 {
			got = f[0].Messages
		}
		if !slices.Equal(got, tc.want) || len(f) > 1 {
			t.Errorf("%s: %+v, want %q", tc.name, f, tc.want)
		}
	}
}
