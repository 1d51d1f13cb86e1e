package validation_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
	"github.com/gqlkit/gqlkit/internal/gqlmirror/validation"
)

const testSchema = `
scalar Date
type Query { post(id: ID!): Post  posts(first: Int, after: Date): [Post!]! }
type Post { id: ID!  title: String  author: Author }
type Author { name: String }
`

// newValidator returns a Validator for testSchema whose Date parser
// answers each literal after its text: "bad" a plain error, "gql" a
// *gqlerror.Error with an extension, "none" no value, "boom" a panic.
func newValidator(t *testing.T) *validation.Validator {
	t.Helper()
	sch, err := gqlparser.LoadSchema(&ast.Source{Input: testSchema})
	if err != nil {
		t.Fatal(err)
	}
	return validation.New(validation.Config{
		Schema:        sch,
		CustomScalars: map[string]bool{"Date": true},
		ParseLiteral: func(scalar string, v *ast.Value) error {
			if scalar != "Date" {
				t.Errorf("ParseLiteral of %s", scalar)
			}
			switch v.Raw {
			case "bad":
				return errors.New("not a date")
			case "gql":
				return &gqlerror.Error{Message: "Dates are written YYYY-MM-DD.", Extensions: map[string]any{"hint": "iso"}}
			case "none":
				return validation.ErrNoValue
			case "boom":
				return &validation.Fault{Err: errBoom}
			}
			return nil
		},
		MaxFragmentNesting: 3,
	})
}

// errBoom stands for a server bug in the Date parser.
var errBoom = errors.New("boom")

func validate(t *testing.T, v *validation.Validator, query string, opts validation.Options) (gqlerror.List, error) {
	t.Helper()
	doc, perr := syntax.Parse(query, 0, new(syntax.LiteralMemory))
	if perr != nil {
		t.Fatalf("%s: %v", query, perr)
	}
	return v.Validate(doc, opts)
}

func TestValidate(t *testing.T) {
	v := newValidator(t)
	for _, c := range []struct {
		query string
		want  string // the messages, joined by "|"
		fault bool
	}{
		{query: `{ post(id: 1) { id title author { name } } }`},
		{query: `{ posts(after: "2026-12-06") { id } }`},
		{query: `{ post(id: 1) { nope } }`, want: `Cannot query field "nope" on type "Post".`},
		{query: `{ posts(first: 3000000000) { id } }`, want: `Int cannot represent non 32-bit signed integer value: 3000000000`},
		{query: `{ posts(after: "bad") { id } }`, want: `Expected value of type "Date", found "bad"; not a date`},
		{query: `{ posts(after: "gql") { id } }`, want: `Dates are written YYYY-MM-DD.`},
		{query: `{ posts(after: "none") { id } }`, want: `Expected value of type "Date", found "none".`},
		{query: `{ posts(after: "boom") { id } }`, fault: true},
		{query: `{ post(id: 1) { ...A } } fragment A on Post { ...B } fragment B on Post { ...C }
			fragment C on Post { ...D } fragment D on Post { id }`,
			want: "Fragment spreads are nested more than 3 levels deep."},
		{query: `{ post(id: 1) { a: id a: title } }`,
			want: `Fields "a" conflict because "id" and "title" are different fields. Use different aliases on the fields to fetch both if this was intentional.`},
	} {
		errs, fault := validate(t, v, c.query, validation.Options{})
		if (fault == errBoom) != c.fault || !c.fault && fault != nil {
			t.Errorf("%s: fault %v", c.query, fault)
		}
		var msgs []string
		for _, e := range errs {
			msgs = append(msgs, e.Message)
		}
		if got := strings.Join(msgs, "|"); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.query, got, c.want)
		}
	}
}

func TestValidateOptions(t *testing.T) {
	v := newValidator(t)
	errs, _ := validate(t, v, `{ __schema { queryType { name } } }`, validation.Options{DisableIntrospection: true})
	if len(errs) != 1 || errs[0].Message != "GraphQL introspection is not allowed, but the query contained __schema." {
		t.Errorf("introspection disabled: %v", errs)
	}
	errs, _ = validate(t, v, `{ post(id: 1) { a b c d } }`, validation.Options{MaxErrors: 2})
	if len(errs) != 2 {
		t.Errorf("MaxErrors 2: %d errors: %v", len(errs), errs)
	}
}

func TestFragmentIndex(t *testing.T) {
	doc, err := syntax.Parse(`{ a } fragment F on T { b } fragment F on T { c } fragment G on T { d }`, 0, new(syntax.LiteralMemory))
	if err != nil {
		t.Fatal(err)
	}
	var ix validation.FragmentIndex
	if f := ix.Get(doc, "F"); f == nil || f != doc.Fragments[0] {
		t.Errorf("F: %v, want the first F", f)
	}
	if f := ix.Get(doc, "H"); f != nil {
		t.Errorf("H: %v", f)
	}
}
