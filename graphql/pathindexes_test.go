package graphql_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// TestResolveInfoPathThroughNestedLists: a resolver's Path has the index
// of every list on the way, whether there are up to three of them (held
// in the Info's indexes) or more (collected from its path).
func TestResolveInfoPathThroughNestedLists(t *testing.T) {
	cell := &graphql.Object{Name: "Cell", Fields: graphql.Fields{
		{Name: "path", Type: graphql.String, Resolve: func(_ context.Context, _ any, _ graphql.Args, info graphql.ResolveInfo) (any, error) {
			return fmt.Sprint(info.Path()), nil
		}},
	}}
	type c struct{}
	two := [][]c{{{}}, {{}, {}}}
	four := [][][][]c{{{{{}}, {{}, {}}}}, {{{{}}}}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "two", Type: graphql.NewList(graphql.NewList(cell)), Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return two, nil }},
		{Name: "four", Type: graphql.NewList(graphql.NewList(graphql.NewList(graphql.NewList(cell)))), Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return four, nil }},
	}}
	s := graphql.MustSchema(graphql.SchemaConfig{Query: query})
	for _, tt := range []struct{ query, want string }{
		{`{ two { path } }`, `{"two":[[{"path":"two[0][0].path"}],[{"path":"two[1][0].path"},{"path":"two[1][1].path"}]]}`},
		{`{ four { path } two { path } }`, `{"four":[[[[{"path":"four[0][0][0][0].path"}],[{"path":"four[0][0][1][0].path"},{"path":"four[0][0][1][1].path"}]]],[[[{"path":"four[1][0][0][0].path"}]]]],` +
			`"two":[[{"path":"two[0][0].path"}],[{"path":"two[1][0].path"},{"path":"two[1][1].path"}]]}`},
	} {
		op := prepare(t, s, tt.query)
		res := execute(op, context.Background(), graphql.ExecParams{})
		if got := string(res.Data); got != tt.want || len(res.Errors) > 0 {
			t.Errorf("%s\n got %s %v\nwant %s", tt.query, got, res.Errors, tt.want)
		}
	}
}
