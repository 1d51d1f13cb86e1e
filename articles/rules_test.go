package articles_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/validate"
)

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules func() []validate.Rule
		value any
		want  []string // the messages of "input.title" shown as "title"
	}{
		{name: "title", rules: articles.TitleRules, value: "Hello"},
		{name: "title missing", rules: articles.TitleRules, value: validate.Missing, want: []string{"The title field is required."}},
		{name: "title blank", rules: articles.TitleRules, value: " \t", want: []string{"The title field is required."}},
		{name: "title 200 characters", rules: articles.TitleRules, value: strings.Repeat("é", 200)},
		{name: "title 201 characters with NUL", rules: articles.TitleRules, value: strings.Repeat("é", 200) + "\x00",
			want: []string{"The title field must not be greater than 200 characters.", "The title field must not contain null characters."}},
		{name: "title not a string", rules: articles.TitleRules, value: true, want: []string{"The title field must be a string."}},
		{name: "body", rules: articles.BodyRules, value: strings.Repeat("b", 10000)},
		{name: "body null", rules: articles.BodyRules, value: nil, want: []string{"The title field is required."}},
		{name: "body NUL", rules: articles.BodyRules, value: "\x00", want: []string{"The title field must not contain null characters."}},
		{name: "published missing", rules: articles.PublishedRules, value: validate.Missing},
		{name: "published 1", rules: articles.PublishedRules, value: 1},
		{name: "published null", rules: articles.PublishedRules, value: nil, want: []string{"The title field must be true or false."}},
	} {
		var f validate.Failures
		f.CheckAs("input.title", "title", tc.value, tc.rules()...)
		var got []string
		if len(f) > 0 {
			got = f[0].Messages
		}
		if !slices.Equal(got, tc.want) || len(f) > 1 {
			t.Errorf("%s: %+v, want %q", tc.name, f, tc.want)
		}
	}
}

func TestRulesAreNewEachCall(t *testing.T) {
	for name, rules := range map[string]func() []validate.Rule{
		"TitleRules": articles.TitleRules, "BodyRules": articles.BodyRules, "PublishedRules": articles.PublishedRules,
	} {
		first := rules()
		for i := range first {
			first[i] = validate.Func(func(any) string { return "changed" })
		}
		var f validate.Failures
		f.Check("x", "1", rules()...) // valid for the three
		if len(f) != 0 {
			t.Errorf("%s: changing one slice changed the next: %v", name, f)
		}
	}
}

// ExampleTitleRules validates the arguments of a GraphQL mutation with the
// rules of the REST API: the same input is refused with the same messages.
func ExampleTitleRules() {
	args := map[string]any{"title": strings.Repeat("x", 201)} // no body
	member := func(name string) any {
		if v, ok := args[name]; ok {
			return v
		}
		return validate.Missing
	}
	var problems validate.Failures
	problems.CheckAs("input.title", "title", member("title"), articles.TitleRules()...)
	problems.CheckAs("input.body", "body", member("body"), articles.BodyRules()...)
	problems.CheckAs("input.published", "published", member("published"), articles.PublishedRules()...)
	fmt.Println(problems.Summary())
	fmt.Println(problems.Map())
	// Output:
	// The title field must not be greater than 200 characters. (and 1 more error)
	// map[input.body:[The body field is required.] input.title:[The title field must not be greater than 200 characters.]]
}
