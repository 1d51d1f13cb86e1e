// Package graphqlgo is the workload served by github.com/graphql-go/graphql
// (v0.8.1), code-first like gqlkit. The library has no HTTP transport in its
// core module, so Handler is the one its examples show: encoding/json in,
// graphql.Do, encoding/json out. Its result is a map, so the response has
// the same JSON value as the reference but with object keys sorted.
package graphqlgo

import (
	"encoding/json"
	"net/http"

	"github.com/graphql-go/graphql"

	"github.com/gqlkit/gqlkit/bench/sample"
)

// NewSchema returns the sample schema over store. Post and User fields are
// read from the struct fields (by json tag) by graphql-go's default resolver.
func NewSchema(store *sample.Store) (graphql.Schema, error) {
	nonNull := graphql.NewNonNull
	user := graphql.NewObject(graphql.ObjectConfig{Name: "User", Fields: graphql.Fields{
		"id":   {Type: nonNull(graphql.ID)},
		"name": {Type: nonNull(graphql.String)},
	}})
	post := graphql.NewObject(graphql.ObjectConfig{Name: "Post", Fields: graphql.Fields{
		"id":        {Type: nonNull(graphql.ID)},
		"title":     {Type: nonNull(graphql.String)},
		"body":      {Type: nonNull(graphql.String)},
		"tags":      {Type: graphql.NewList(nonNull(graphql.String))},
		"createdAt": {Type: graphql.String},
		"author": {Type: user, Resolve: func(p graphql.ResolveParams) (any, error) {
			if u := store.User(p.Source.(*sample.Post).AuthorID); u != nil {
				return u, nil
			}
			return nil, nil // not a typed nil: graphql-go would not see it as null
		}},
	}})
	query := graphql.NewObject(graphql.ObjectConfig{Name: "Query", Fields: graphql.Fields{
		"posts": {
			Type:        nonNull(graphql.NewList(nonNull(post))),
			Description: sample.PostsDescription,
			Args: graphql.FieldConfigArgument{
				"first": {Type: graphql.Int, DefaultValue: sample.DefaultFirst},
			},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				n, ok := p.Args["first"].(int)
				if !ok { // an explicit null: the default
					n = sample.DefaultFirst
				}
				return store.Posts(n), nil
			},
		},
		"post": {
			Type: post,
			Args: graphql.FieldConfigArgument{"id": {Type: nonNull(graphql.ID)}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				id, _ := p.Args["id"].(string)
				if found := store.Post(id); found != nil {
					return found, nil
				}
				return nil, nil
			},
		},
	}})
	return graphql.NewSchema(graphql.SchemaConfig{Query: query})
}

// NewHandler returns the JSON-over-HTTP endpoint for the sample schema over store.
func NewHandler(store *sample.Store) (http.Handler, error) {
	s, err := NewSchema(store)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "only POST is supported", http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			Query         string         `json:"query"`
			OperationName string         `json:"operationName"`
			Variables     map[string]any `json:"variables"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "the body is not a JSON request", http.StatusBadRequest)
			return
		}
		res := graphql.Do(graphql.Params{
			Schema:         s,
			RequestString:  req.Query,
			OperationName:  req.OperationName,
			VariableValues: req.Variables,
			Context:        r.Context(),
		})
		body, err := json.Marshal(res)
		if err != nil {
			http.Error(w, "the result could not be encoded", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}), nil
}
