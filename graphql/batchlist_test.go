package graphql_test

import "testing"

// TestListOfReadAheadObjectsBatched: a list of objects without batched
// fields of their own, whose fields read from the value (no resolver)
// lead to batched ones (Shop.grid → Wrapper.seller → Seller.rating), is
// resolved as one level like a list of objects with batched fields: one
// Seller.rating call for the sellers of every shop, here with a null item
// passed over in the first shop's rows. (Before: one level per shop, so
// one call per shop.)
func TestListOfReadAheadObjectsBatched(t *testing.T) {
	var calls []string
	w := func(s *gridSeller) *gridWrapper { return &gridWrapper{Seller: s} }
	shops := []*gridShop{
		{ID: "a", Grid: [][]*gridWrapper{{w(gridS1), nil, w(gridS2)}, {w(gridS3)}}},
		{ID: "b", Grid: [][]*gridWrapper{{w(gridS4)}}},
	}
	s := gridSchema(t, &calls, nil, nil, shops)
	gridCheck(t, s, &calls, `{ shops { id grid { seller { id rating } } } }`,
		`{"data":{"shops":[{"id":"a","grid":[null,[{"seller":{"id":"s3","rating":3}}]]},{"id":"b","grid":[[{"seller":{"id":"s4","rating":4}}]]}]},"errors":[{"message":"Cannot return null for non-nullable field Shop.grid.","locations":[{"line":1,"column":14}],"path":["shops",0,"grid",0,1]}]}`,
		[]string{"rating:s1,s2,s3,s4"})
}
