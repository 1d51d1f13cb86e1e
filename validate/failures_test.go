package validate_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/validate"
)

func TestAdd(t *testing.T) {
	var f validate.Failures
	f.Add("title", "a")
	f.Add("body", "b")
	f.Add("title", "c")
	f.Add("tags.0", "d")
	want := validate.Failures{
		{Path: "title", Messages: []string{"a", "c"}},
		{Path: "body", Messages: []string{"b"}},
		{Path: "tags.0", Messages: []string{"d"}},
	}
	if !failuresEqual(f, want) {
		t.Errorf("Add = %+v, want %+v", f, want)
	}
}

func TestAddJoinsTheFirstOfDuplicates(t *testing.T) {
	f := validate.Failures{{Path: "a", Messages: []string{"1"}}, {Path: "a", Messages: []string{"2"}}}
	f.Add("a", "3")
	want := validate.Failures{{Path: "a", Messages: []string{"1", "3"}}, {Path: "a", Messages: []string{"2"}}}
	if !failuresEqual(f, want) {
		t.Errorf("Add = %+v, want %+v", f, want)
	}
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    validate.Failures
		want string
	}{
		{name: "nil", f: nil, want: "The given data was invalid."},
		{name: "entries without messages", f: validate.Failures{{Path: "a"}}, want: "The given data was invalid."},
		{name: "one", f: validate.Failures{{Path: "a", Messages: []string{"A."}}}, want: "A."},
		{name: "two in one field", f: validate.Failures{{Path: "a", Messages: []string{"A.", "B."}}}, want: "A. (and 1 more error)"},
		{name: "first field empty", f: validate.Failures{{Path: "a"}, {Path: "b", Messages: []string{"B.", "C."}}}, want: "B. (and 1 more error)"},
		{
			name: "four in three fields",
			f:    validate.Failures{{Path: "a", Messages: []string{"A."}}, {Path: "b", Messages: []string{"B."}}, {Path: "c", Messages: []string{"C.", "D."}}},
			want: "A. (and 3 more errors)",
		},
	} {
		if got := tc.f.Summary(); got != tc.want {
			t.Errorf("%s: Summary() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestMap(t *testing.T) {
	if got := (validate.Failures{}).Map(); got != nil {
		t.Errorf("empty Map() = %v, want nil", got)
	}
	f := validate.Failures{
		{Path: "title", Messages: []string{"a"}},
		{Path: "body", Messages: []string{"b", "c"}},
		{Path: "title", Messages: []string{"d"}},
	}
	got := f.Map()
	want := map[string][]string{"title": {"a", "d"}, "body": {"b", "c"}}
	if !mapsEqual(got, want) {
		t.Errorf("Map() = %v, want %v", got, want)
	}
	got["body"][0] = "changed"
	got["title"] = append(got["title"], "more")
	if f[1].Messages[0] != "b" || len(f[0].Messages) != 1 {
		t.Errorf("changing the map changed the failures: %+v", f)
	}
}

func TestMarshalJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    validate.Failures
		want string
	}{
		{name: "nil", f: nil, want: `{}`},
		{name: "empty", f: validate.Failures{}, want: `{}`},
		{
			name: "order kept",
			f:    validate.Failures{{Path: "z", Messages: []string{"1"}}, {Path: "a", Messages: []string{"2", "3"}}, {Path: "m", Messages: []string{"4"}}},
			want: `{"z":["1"],"a":["2","3"],"m":["4"]}`,
		},
		{
			name: "escaping, no HTML escaping",
			f:    validate.Failures{{Path: "a\"b<", Messages: []string{"<b>&</b>\n\u2028"}}},
			want: `{"a\"b<":["<b>&</b>\n\u2028"]}`,
		},
		{name: "no messages", f: validate.Failures{{Path: "a"}}, want: `{"a":null}`},
	} {
		got, err := tc.f.MarshalJSON()
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: MarshalJSON() = %s, %v; want %s", tc.name, got, err, tc.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s: MarshalJSON() = %s: not JSON", tc.name, got)
		}
	}
}

func TestMarshalJSONInABody(t *testing.T) {
	f := validate.Failures{{Path: "title", Messages: []string{"<b>"}}}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Message string            `json:"message"`
		Errors  validate.Failures `json:"errors"`
	}{f.Summary(), f}); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), `{"message":"<b>","errors":{"title":["<b>"]}}`+"\n"; got != want {
		t.Errorf("body = %s, want %s", got, want)
	}
}

func TestCheckAndCheckAs(t *testing.T) {
	var f validate.Failures
	f.Check("per_page", 500, validate.Max(100))
	f.CheckAs("input.createdAt", "created", nil, validate.Required())
	f.Check("input.createdAt", "", validate.Required())
	want := validate.Failures{
		{Path: "per_page", Messages: []string{"The per page field must not be greater than 100."}},
		{Path: "input.createdAt", Messages: []string{"The created field is required.", "The input.created at field is required."}},
	}
	if !failuresEqual(f, want) {
		t.Errorf("got %+v, want %+v", f, want)
	}
	if got, want := f.Summary(), "The per page field must not be greater than 100. (and 2 more errors)"; got != want {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
}

func TestCheckNoRules(t *testing.T) {
	var f validate.Failures
	f.Check("a", validate.Missing)
	f.CheckAs("a", "b", nil)
	if len(f) != 0 {
		t.Errorf("no rules gave %+v", f)
	}
}

func TestCheckKeepsEarlierFailures(t *testing.T) {
	f := validate.Failures{{Path: "x", Messages: []string{"earlier"}}}
	for i := range 20 {
		f.Add("p"+string(rune('a'+i)), "m")
	}
	f.Check("x", nil, validate.Required())
	if got := f[0].Messages; !slices.Equal(got, []string{"earlier", "The x field is required."}) || len(f) != 21 {
		t.Errorf("got %+v", f)
	}
}
