package validate_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/validate"
)

func TestMissingAndNil(t *testing.T) {
	// Every rule: what it says about Missing and about nil.
	for _, tc := range []struct {
		name        string
		rule        validate.Rule
		missing, nl string // the message, "" for none
	}{
		{name: "Required", rule: validate.Required(), missing: titleRequired, nl: titleRequired},
		{name: "String", rule: validate.String(), nl: titleString},
		{name: "Boolean", rule: validate.Boolean(), nl: titleBoolean},
		{name: "Min", rule: validate.Min(1)},
		{name: "Max", rule: validate.Max(1)},
		{name: "Between", rule: validate.Between(1, 2)},
		{name: "OneOf", rule: validate.OneOf("a")},
		{name: "OneOf with nil", rule: validate.OneOf("a", nil)},
		{name: "Pattern", rule: validate.Pattern(regexp.MustCompile(`.*`))},
		{name: "Email", rule: validate.Email()},
		{name: "NoNullCharacters", rule: validate.NoNullCharacters()},
		{name: "Func", rule: validate.Func(func(any) string { return "called" })},
		{name: "Each", rule: validate.Each(validate.Required())},
	} {
		for _, v := range []struct {
			value any
			want  string
		}{{validate.Missing, tc.missing}, {nil, tc.nl}} {
			var f validate.Failures
			f.Check("title", v.value, tc.rule)
			var want validate.Failures
			if v.want != "" {
				want.Add("title", v.want)
			}
			if got := f.Map(); !mapsEqual(got, want.Map()) {
				t.Errorf("%s on %#v: %v, want %v", tc.name, v.value, got, want.Map())
			}
		}
	}
}

func mapsEqual(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !slices.Equal(v, w) {
			return false
		}
	}
	return true
}

func TestEach(t *testing.T) {
	tags := validate.Each(validate.Required(), validate.String(), validate.Max(3))
	for _, tc := range []struct {
		name      string
		path      string
		attribute string // "" for Check
		value     any
		rules     []validate.Rule
		want      validate.Failures
	}{
		{name: "valid", path: "tags", value: []any{"a", "bc"}, rules: []validate.Rule{tags}},
		{
			name: "items", path: "tags", value: []any{"a", nil, 7, "abcd", ""},
			rules: []validate.Rule{tags},
			want: validate.Failures{
				{Path: "tags.1", Messages: []string{"The tags.1 field is required."}},
				{Path: "tags.2", Messages: []string{"The tags.2 field must be a string."}},
				{Path: "tags.3", Messages: []string{"The tags.3 field must not be greater than 3 characters."}},
				{Path: "tags.4", Messages: []string{"The tags.4 field is required."}},
			},
		},
		{
			name: "list and items", path: "tags", value: []string{"abcd", "a", "b", "c"},
			rules: []validate.Rule{validate.Max(3), tags},
			want: validate.Failures{
				{Path: "tags", Messages: []string{"The tags field must not have more than 3 items."}},
				{Path: "tags.0", Messages: []string{"The tags.0 field must not be greater than 3 characters."}},
			},
		},
		{
			name: "explicit attribute", path: "input.tags", attribute: "tags", value: labels{"abcd"},
			rules: []validate.Rule{tags},
			want:  validate.Failures{{Path: "input.tags.0", Messages: []string{"The tags.0 field must not be greater than 3 characters."}}},
		},
		{
			name: "derived attribute", path: "input.myTags", value: [2]any{"ok", 1},
			rules: []validate.Rule{tags},
			want:  validate.Failures{{Path: "input.myTags.1", Messages: []string{"The input.my tags.1 field must be a string."}}},
		},
		{
			name: "nested", path: "matrix", value: []any{[]any{1}, []any{1, "x"}, "r"},
			rules: []validate.Rule{validate.Each(validate.Min(2), validate.Each(validate.String()))},
			want: validate.Failures{
				{Path: "matrix.0", Messages: []string{"The matrix.0 field must have at least 2 items."}},
				{Path: "matrix.0.0", Messages: []string{"The matrix.0.0 field must be a string."}},
				{Path: "matrix.1.0", Messages: []string{"The matrix.1.0 field must be a string."}},
				{Path: "matrix.2", Messages: []string{"The matrix.2 field must be at least 2 characters."}},
			},
		},
		{name: "missing", path: "tags", value: validate.Missing, rules: []validate.Rule{tags}},
		{name: "nil", path: "tags", value: nil, rules: []validate.Rule{tags}},
		{name: "not a list", path: "tags", value: "abcd", rules: []validate.Rule{tags}},
		{name: "a map is not a list", path: "tags", value: map[string]any{"a": nil}, rules: []validate.Rule{tags}},
		{name: "no rules", path: "tags", value: []any{nil}, rules: []validate.Rule{validate.Each()}},
		{
			name: "WithMessage on Each does nothing", path: "tags", value: []any{nil},
			rules: []validate.Rule{validate.Each(validate.Required()).WithMessage("Never.")},
			want:  validate.Failures{{Path: "tags.0", Messages: []string{"The tags.0 field is required."}}},
		},
		{
			name: "WithMessage on the items' rules", path: "tags", value: []any{nil},
			rules: []validate.Rule{validate.Each(validate.Required().WithMessage("Tag :attribute is empty."))},
			want:  validate.Failures{{Path: "tags.0", Messages: []string{"Tag tags.0 is empty."}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f validate.Failures
			if tc.attribute != "" {
				f.CheckAs(tc.path, tc.attribute, tc.value, tc.rules...)
			} else {
				f.Check(tc.path, tc.value, tc.rules...)
			}
			if !failuresEqual(f, tc.want) {
				t.Errorf("Check(%q, %#v) = %+v, want %+v", tc.path, tc.value, f, tc.want)
			}
		})
	}
}

func failuresEqual(a, b validate.Failures) bool {
	return slices.EqualFunc(a, b, func(x, y validate.Failure) bool {
		return x.Path == y.Path && slices.Equal(x.Messages, y.Messages)
	})
}

func TestEachManyItemsMergesWithEarlierEntries(t *testing.T) {
	// Past indexFrom entries, Check finds paths through an index: items
	// must still join the entries a previous Check made for them.
	items := make([]any, 100)
	for i := range items {
		items[i] = i
	}
	var f validate.Failures
	f.Check("list", items, validate.Each(validate.String()))
	f.Check("list", items, validate.Each(validate.Boolean()))
	if len(f) != 100 {
		t.Fatalf("len = %d, want 100 entries", len(f))
	}
	for i, e := range f {
		want := 1
		if i > 1 {
			want = 2 // 0 and 1 are booleans
		}
		if len(e.Messages) != want {
			t.Errorf("entry %d = %+v, want %d messages", i, e, want)
		}
	}
}

func TestWithMessage(t *testing.T) {
	after := validate.Func(func(any) string { return "after" })
	for _, tc := range []struct {
		name  string
		rule  validate.Rule
		value any
		want  []string // with a rule after it that always fails
	}{
		{name: "attribute", rule: validate.String().WithMessage("Give the :attribute a :attribute."), value: 1, want: []string{"Give the title a title.", "after"}},
		{name: "min", rule: validate.Min(2).WithMessage(":attribute: :min or more (:max)"), value: "a", want: []string{"title: 2 or more (:max)", "after"}},
		{name: "max", rule: validate.Max(1).WithMessage(":max at most"), value: []any{1, 2}, want: []string{"1 at most", "after"}},
		{name: "between", rule: validate.Between(1, 2).WithMessage(":min-:max"), value: 5, want: []string{"1-2", "after"}},
		{name: "func", rule: validate.Func(func(any) string { return "mine" }).WithMessage("yours: :attribute"), value: 1, want: []string{"yours: title", "after"}},
		{name: "empty keeps the rule's", rule: validate.String().WithMessage(""), value: 1, want: []string{titleString, "after"}},
		{name: "passing rule", rule: validate.String().WithMessage("x"), value: "s", want: []string{"after"}},
		{name: "no :min on Required", rule: validate.Required().WithMessage(":min :max :attr"), value: "", want: []string{":min :max :attr"}},
		{name: "still implicit", rule: validate.Required().WithMessage("x"), value: validate.Missing, want: []string{"x"}},
	} {
		var f validate.Failures
		f.Check("title", tc.value, tc.rule, after)
		if len(f) != 1 || !slices.Equal(f[0].Messages, tc.want) {
			t.Errorf("%s: %+v, want %q", tc.name, f, tc.want)
		}
	}
}

func TestAttributeInMessageIsNotExpanded(t *testing.T) {
	var f validate.Failures
	f.CheckAs("x", ":min :attribute", "", validate.Min(3))
	if got, want := f[0].Messages[0], "The :min :attribute field must be at least 3 characters."; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
}

func TestTrimmed(t *testing.T) {
	long := " " + strings.Repeat("a", 200) + "\u200b"
	tests := []struct {
		name  string
		value any
		rules []validate.Rule
		want  []string
	}{
		{"white space is missing", " \t\u00a0\ufeff", []validate.Rule{validate.Required(), validate.Max(3)}, []string{titleRequired}},
		{"measured without its padding", long, []validate.Rule{validate.Required(), validate.Max(200)}, nil},
		{"a padded NUL still fails", " a\x00 ", []validate.Rule{validate.NoNullCharacters()}, []string{titleNUL}},
		{"not a string: checked as it is", []any{1, 2, 3}, []validate.Rule{validate.Max(2)}, []string{"The title field must not have more than 2 items."}},
		{"Missing stays missing", validate.Missing, []validate.Rule{validate.String()}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var f validate.Failures
			f.Check("title", tc.value, validate.Trimmed(tc.rules...))
			var got []string
			if len(f) > 0 {
				got = f[0].Messages
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q; want %q", got, tc.want)
			}
		})
	}
	if got := validate.Trim("\u200e\ufeff x \u00a0\u200b"); got != "x" {
		t.Errorf("Trim = %q; want %q", got, "x")
	}
}
