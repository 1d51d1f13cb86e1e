package graphql_test

import "testing"

// The overlap rule (OverlappingFieldsCanBeMerged) below fields of
// interfaces and unions, whose fragments on different objects make
// parents that exclude each other.

// TestTypenameAliasAcrossExclusiveObjects: a response key that is
// __typename under one member of a union and a nullable String field
// under another is valid, as in graphql-js 16.15, whose rule gives the
// meta-field no definition and so compares its type with none (before:
// refused with "they return conflicting types "String" and "String!"").
// Under one parent, __typename and another field still conflict by name.
func TestTypenameAliasAcrossExclusiveObjects(t *testing.T) {
	s := axCatalog(t, axOptions{})
	root := map[string]any{"maybe": axDune, "search": []any{axDune, axStars5}}
	axCheck(t, s, `{ maybe { ... on Book { n: name } ... on Review { n: __typename } } }`, root,
		`{"data":{"maybe":{"n":"Dune"}}}`)
	axCheck(t, s, `{ search { ... on Review { n: __typename } ... on Book { n: isbn } } }`, root,
		`{"data":{"search":[{"n":"978-0441"},{"n":"Review"}]}}`)
	axCheck(t, s, `{ maybe { ... on Book { n: name n: __typename } } }`, root,
		`{"errors":[{"message":"Fields \"n\" conflict because \"name\" and \"__typename\" are different fields. Use different aliases on the fields to fetch both if this was intentional.","locations":[{"line":1,"column":25},{"line":1,"column":33}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`)
}
