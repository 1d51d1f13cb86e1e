package graphql_test

import (
	"context"
	"fmt"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/limits"
)

// A transport of its own (a queue consumer, say) prepares each request's
// text with one Preparer, under the limits and with the document cache,
// and executes what it returns.
func ExamplePreparer() {
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "hello", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			return "world", nil
		}},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		panic(err)
	}
	prep := graphql.NewPreparer(schema, graphql.PrepareConfig{Limits: limits.Config{MaxNodes: 2}})

	for _, text := range []string{"{ hello }", "{ a: hello b: hello c: hello }", "{ nope }"} {
		ctx := context.Background()
		pr, errs, fault := prep.Prepare(ctx, text, graphql.PrepareOptions{})
		var res graphql.Result
		switch {
		case fault != nil:
			panic(fault) // a server fault: answer with an internal error
		case errs != nil:
			res = graphql.Result{Errors: errs} // the client's mistake, as the client sees it
		default:
			res, err = pr.Operation.Execute(ctx, graphql.ExecParams{MaxCost: prep.MaxCost()})
			if err != nil {
				panic(err)
			}
		}
		pr.Release() // once the answer is written
		out, _ := res.MarshalJSON()
		fmt.Println(string(out))
	}
	// Output:
	// {"data":{"hello":"world"}}
	// {"errors":[{"message":"query node count 3 exceeds the maximum of 2","locations":[{"line":1,"column":21}],"extensions":{"code":"QUERY_LIMIT_EXCEEDED","limit":{"name":"nodes","max":2,"found":3}}}]}
	// {"errors":[{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}
}
