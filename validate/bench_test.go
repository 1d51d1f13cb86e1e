package validate_test

import (
	"testing"

	"github.com/gqlkit/gqlkit/validate"
)

// BenchmarkCheck measures the common case: a valid value.
func BenchmarkCheck(b *testing.B) {
	title := []validate.Rule{validate.Required(), validate.String(), validate.Max(200), validate.NoNullCharacters()}
	tags := []validate.Rule{validate.Max(10), validate.Each(validate.Required(), validate.String(), validate.Max(20))}
	list := []any{"go", "graphql", "laravel"}
	b.ReportAllocs()
	for b.Loop() {
		var f validate.Failures
		f.CheckAs("input.title", "title", "A title of some length", title...)
		f.CheckAs("input.tags", "tags", list, tags...)
		if len(f) != 0 {
			b.Fatal(f)
		}
	}
}

// BenchmarkCheckFailingItems measures a list whose every item fails.
func BenchmarkCheckFailingItems(b *testing.B) {
	items := make([]any, 1000)
	for i := range items {
		items[i] = i
	}
	rules := []validate.Rule{validate.Each(validate.String())}
	b.ReportAllocs()
	for b.Loop() {
		var f validate.Failures
		f.Check("list", items, rules...)
		if len(f) != len(items) {
			b.Fatal(len(f))
		}
	}
}
