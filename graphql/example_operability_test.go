package graphql_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlkit/gqlkit/graphql"
)

type userKey struct{}

// Middleware is composed once, when the schema is built: a schema-wide
// timer around every resolver, and a check on one field.
func ExampleFieldMiddleware() {
	timed := func(next graphql.ResolveFunc) graphql.ResolveFunc {
		return func(ctx context.Context, parent any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			start := time.Now()
			v, err := next(ctx, parent, args, info)
			_ = time.Since(start) // record it in a histogram
			fmt.Println("resolved", info.Path())
			return v, err
		}
	}
	signedIn := func(next graphql.ResolveFunc) graphql.ResolveFunc {
		return func(ctx context.Context, parent any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			if ctx.Value(userKey{}) == nil {
				return nil, errors.New("sign in first")
			}
			return next(ctx, parent, args, info)
		}
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "news", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return "all quiet", nil
		}},
		{Name: "inbox", Type: graphql.Int, Middleware: []graphql.FieldMiddleware{signedIn},
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return 3, nil }},
	}}
	schema := graphql.MustSchema(graphql.SchemaConfig{Query: query, FieldMiddleware: []graphql.FieldMiddleware{timed}})

	res := schema.Do(context.Background(), graphql.Request{Query: "{ news inbox }", Present: graphql.Unmasked})
	out, _ := res.MarshalJSON()
	fmt.Println(string(out))
	// Output:
	// resolved news
	// resolved inbox
	// {"data":{"news":"all quiet","inbox":null},"errors":[{"message":"sign in first","locations":[{"line":1,"column":8}],"path":["inbox"]}]}
}

// A list field declares the argument that sizes it; the cost of its
// sub-selection is multiplied by the argument's value, after variables
// are coerced.
func ExampleCost() {
	post := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "title", Type: graphql.String},
		{Name: "author", Type: &graphql.Object{Name: "User", Fields: graphql.Fields{{Name: "name", Type: graphql.String}}}},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewList(post),
			Args:    []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 10}},
			Cost:    graphql.Cost{SizeArg: "first"},
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return nil, nil }},
	}}
	schema := graphql.MustSchema(graphql.SchemaConfig{Query: query})
	for _, q := range []struct {
		query string
		vars  map[string]any
	}{
		{`{ posts { title } }`, nil}, // 1 + 10 × 1
		{`query($n: Int) { posts(first: $n) { title author { name } } }`, map[string]any{"n": 50}}, // 1 + 50 × 3
	} {
		doc, perr := parser.ParseQuery(&ast.Source{Input: q.query})
		if perr != nil {
			panic(perr)
		}
		if errs, _ := schema.Validate(doc, graphql.ValidateOptions{}); len(errs) > 0 {
			panic(errs)
		}
		op, errs := schema.Prepare(doc, "")
		if errs != nil {
			panic(errs)
		}
		_, err := op.Execute(context.Background(), graphql.ExecParams{Variables: q.vars, MaxCost: 100})
		fmt.Println(err)
	}
	// Output:
	// <nil>
	// query cost 151 exceeds the maximum of 100
}
