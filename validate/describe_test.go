package validate_test

import (
	"regexp"
	"testing"

	"github.com/gqlkit/gqlkit/validate"
)

func TestDescribe(t *testing.T) {
	type genre string
	tests := []struct {
		name     string
		rules    []validate.Rule
		measures []validate.Measure
		want     string
	}{
		{name: "none", rules: nil, want: ""},
		{name: "zero rule", rules: []validate.Rule{{}}, want: ""},
		{name: "string sizes", rules: []validate.Rule{validate.Required(), validate.String(), validate.Max(200)},
			measures: []validate.Measure{validate.Characters}, want: "required; a string; at most 200 characters"},
		{name: "singular", rules: []validate.Rule{validate.Min(1)},
			measures: []validate.Measure{validate.Characters}, want: "at least 1 character"},
		{name: "number", rules: []validate.Rule{validate.Between(1, 100)}, want: "between 1 and 100"},
		{name: "items", rules: []validate.Rule{validate.Between(0, 1)},
			measures: []validate.Measure{validate.Items}, want: "between 0 and 1 item"},
		{name: "one of", rules: []validate.Rule{validate.OneOf("a\"b", genre("POETRY"), 3, 1.5, nil)},
			want: `one of "a\"b", "POETRY", 3, 1.5, <nil>`},
		{name: "pattern", rules: []validate.Rule{validate.Pattern(regexp.MustCompile(`^[a-z]+$`)), validate.Pattern(nil)},
			want: "matching `^[a-z]+$`; matching nothing"},
		{name: "others", rules: []validate.Rule{validate.Boolean(), validate.Email(), validate.NoNullCharacters(),
			validate.Func(func(any) string { return "" })},
			want: "true or false; an email address; no null characters; a custom check"},
		{name: "with message keeps the words", rules: []validate.Rule{validate.Max(3).WithMessage("Too long.")},
			measures: []validate.Measure{validate.Characters}, want: "at most 3 characters"},
		{name: "trimmed and each", rules: []validate.Rule{validate.Max(10),
			validate.Each(validate.Trimmed(validate.Required(), validate.Max(20)), validate.Each(validate.Min(2)))},
			measures: []validate.Measure{validate.Items, validate.Characters},
			want:     "at most 10 items; each item: trimmed (required, at most 20 characters), each item: at least 2"},
		{name: "empty wrappers", rules: []validate.Rule{validate.Trimmed(), validate.Each(validate.Rule{})}, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := validate.Describe(tt.rules, tt.measures...); got != tt.want {
				t.Errorf("Describe = %q, want %q", got, tt.want)
			}
		})
	}
}
