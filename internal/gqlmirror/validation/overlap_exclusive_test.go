package validation_test

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/validation"
)

// boxSchema is the schema of graphql-js's OverlappingFieldsCanBeMerged
// cases "return types must be unambiguous", with one more String field,
// otherField.
const boxSchema = `
interface SomeBox { deepBox: SomeBox  unrelatedField: String  otherField: String }
type StringBox implements SomeBox {
  scalar: String  deepBox: StringBox  unrelatedField: String  otherField: String
  listStringBox: [StringBox]  stringBox: StringBox  intBox: IntBox
}
type IntBox implements SomeBox {
  scalar: Int  deepBox: IntBox  unrelatedField: String  otherField: String
  listStringBox: [StringBox]  stringBox: StringBox  intBox: IntBox
}
type Query { someBox: SomeBox }
`

// TestOverlapExclusiveParents checks that two fields under parents of
// different object types stay mutually exclusive all the way down (only
// their return types must agree), as in graphql-js, and that a pair first
// compared under exclusive parents is compared again, in full, where the
// parents are not exclusive.
func TestOverlapExclusiveParents(t *testing.T) {
	sch, err := gqlparser.LoadSchema(&ast.Source{Input: boxSchema})
	if err != nil {
		t.Fatal(err)
	}
	v := validation.New(validation.Config{Schema: sch, MaxFragmentNesting: 10})
	for _, c := range []struct {
		name, query, want string
	}{
		{name: "different fields below exclusive parents",
			query: `{ someBox {
				... on IntBox { box: stringBox { val: scalar val: unrelatedField } }
				... on StringBox { box: stringBox { val: scalar } } } }`,
			want: `Fields "val" conflict because "scalar" and "unrelatedField" are different fields. Use different aliases on the fields to fetch both if this was intentional.`},
		{name: "different types below exclusive parents",
			query: `{ someBox {
				... on IntBox { box: stringBox { scalar } }
				... on StringBox { box: intBox { scalar } } } }`,
			want: `Fields "box" conflict because subfields "scalar" conflict because they return conflicting types "String" and "Int". Use different aliases on the fields to fetch both if this was intentional.`},
		{name: "a non-exclusive comparison after an exclusive one",
			query: `{
				someBox { ... on IntBox { deepBox { ...X } } }
				someBox { ... on StringBox { deepBox { ...Y } } }
				other: someBox { ...X }
				other: someBox { ...Y } }
				fragment X on SomeBox { scalar: unrelatedField }
				fragment Y on SomeBox { scalar: otherField }`,
			want: `Fields "other" conflict because subfields "scalar" conflict because "unrelatedField" and "otherField" are different fields. Use different aliases on the fields to fetch both if this was intentional.`},
	} {
		errs, fault := validate(t, v, c.query, validation.Options{})
		if fault != nil {
			t.Fatalf("%s: %v", c.name, fault)
		}
		var msgs []string
		for _, e := range errs {
			msgs = append(msgs, e.Message)
		}
		if got := strings.Join(msgs, "|"); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
