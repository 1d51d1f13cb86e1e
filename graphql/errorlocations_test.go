package graphql_test

import (
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// TestErrorLocationsCountedNodes: the locations of a field error are
// those of the field's nodes that count under the variables, as
// graphql-js's field nodes (collected after @skip and @include): a node
// excluded by @skip or @include, directly or through a fragment on an
// interface, is not listed. (Before: every node of the field was.) The
// four answers are graphql-js 16.15's (checked with node).
func TestErrorLocationsCountedNodes(t *testing.T) {
	node := &graphql.Interface{Name: "Node", Fields: graphql.Fields{{Name: "x", Type: graphql.NewNonNull(graphql.Int)}}}
	obj := &graphql.Object{Name: "Obj", Interfaces: []*graphql.Interface{node}, Fields: graphql.Fields{{Name: "x", Type: graphql.NewNonNull(graphql.Int)}}}
	s := newSchema(t, graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "obj", Type: obj, Resolve: constant(map[string]any{"x": nil})},
		{Name: "node", Type: node, Resolve: constant(map[string]any{"__typename": "Obj", "x": nil})},
	}}})
	for _, tc := range []struct{ query, vars, want string }{
		{"query($v: Boolean!) {\n obj {\n  x @skip(if: $v)\n  x\n }\n}", `{"v": true}`,
			`{"data":{"obj":null},"errors":[{"message":"Cannot return null for non-nullable field Obj.x.","locations":[{"line":4,"column":3}],"path":["obj","x"]}]}`},
		{"query($v: Boolean!) {\n obj {\n  x @skip(if: $v)\n  x\n }\n}", `{"v": false}`,
			`{"data":{"obj":null},"errors":[{"message":"Cannot return null for non-nullable field Obj.x.","locations":[{"line":3,"column":3},{"line":4,"column":3}],"path":["obj","x"]}]}`},
		{"query($v: Boolean!) {\n node {\n  ... on Node @include(if: $v) { x }\n  ... on Obj { x }\n }\n}", `{"v": false}`,
			`{"data":{"node":null},"errors":[{"message":"Cannot return null for non-nullable field Obj.x.","locations":[{"line":4,"column":16}],"path":["node","x"]}]}`},
		{"query($v: Boolean!) {\n node {\n  ... on Node @include(if: $v) { x }\n  ... on Obj { x }\n }\n}", `{"v": true}`,
			`{"data":{"node":null},"errors":[{"message":"Cannot return null for non-nullable field Obj.x.","locations":[{"line":3,"column":34},{"line":4,"column":16}],"path":["node","x"]}]}`},
	} {
		if got := response(t, s, tc.query, "", tc.vars); got != tc.want {
			t.Errorf("%s %s\n got %s\nwant %s", tc.query, tc.vars, got, tc.want)
		}
	}
}
