package graphql

import "testing"

// TestCostNullSizeAsAbsent checks Cost.NullSizeAsAbsent: a null size
// argument, literal or variable, counts as an absent one (its default, or
// Size), where without it null counts as 0 items; a value or an absent
// variable count as always.
func TestCostNullSizeAsAbsent(t *testing.T) {
	item := &Object{Name: "Item", Fields: Fields{{Name: "id", Type: ID}}}
	args := []Argument{{Name: "first", Type: Int}, {Name: "last", Type: Int}}
	s, err := NewSchema(SchemaConfig{Query: &Object{Name: "Query", Fields: Fields{
		{Name: "page", Type: NewList(item), Args: args, Cost: Cost{SizeArg: "first", Size: 50, MaxSize: 50, NullSizeAsAbsent: true}},
		{Name: "plain", Type: NewList(item), Args: args, Cost: Cost{SizeArg: "first", Size: 50, MaxSize: 50}},
		{Name: "defaulted", Type: NewList(item), Args: []Argument{{Name: "first", Type: Int, Default: 7}},
			Cost: Cost{SizeArg: "first", NullSizeAsAbsent: true}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		query, variables string
		want             int
	}{
		{`{ page(first: null, last: 3) { id } }`, "", 1 + 50},
		{`{ plain(first: null, last: 3) { id } }`, "", 1},
		{`{ page(first: 2) { id } }`, "", 1 + 2},
		{`{ page { id } }`, "", 1 + 50},
		{`{ page(first: 2147483647) { id } }`, "", 1 + 50},
		{`{ defaulted(first: null) { id } }`, "", 1 + 7},
		{`query($n: Int) { page(first: $n) { id } }`, `{"n": null}`, 1 + 50},
		{`query($n: Int) { page(first: $n) { id } }`, `{}`, 1 + 50},
		{`query($n: Int) { page(first: $n) { id } }`, `{"n": 4}`, 1 + 4},
		{`query($n: Int) { plain(first: $n) { id } }`, `{"n": null}`, 1},
		{`query($n: Int) { defaulted(first: $n) { id } }`, `{"n": null}`, 1 + 7},
		{`query($n: Int = 3) { page(first: $n) { id } }`, `{"n": null}`, 1 + 50},
	} {
		op := prepareCost(t, s, tt.query)
		if got := op.p.Cost(coercedVars(t, op, tt.variables)); got != tt.want {
			t.Errorf("%s with %s: cost %d, want %d", tt.query, tt.variables, got, tt.want)
		}
	}
}
