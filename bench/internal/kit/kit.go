// Package kit is the workload served by gqlkit: the sample schema defined in
// Go with package graphql, and the graphqlhttp endpoint that the benchmark
// server runs.
package kit

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/gqlkit/gqlkit/bench/sample"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// NewSchema returns the sample schema over store. Post and User fields are
// read from the struct fields by the default resolver; Post.author looks the
// author up in the store for each post.
func NewSchema(store *sample.Store) (*graphql.Schema, error) {
	user := &graphql.Object{Name: "User", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "name", Type: graphql.NewNonNull(graphql.String)},
	}}
	post := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "body", Type: graphql.NewNonNull(graphql.String)},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
		{Name: "createdAt", Type: graphql.String},
		{Name: "author", Type: user, Typed: graphql.Resolver(func(_ context.Context, p *sample.Post, _ graphql.NoArgs) (*sample.User, error) {
			return store.User(p.AuthorID), nil // a nil *User is null
		})},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{
			Name:        "posts",
			Description: sample.PostsDescription,
			Type:        graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post))),
			Args:        []graphql.Argument{{Name: "first", Type: graphql.Int, Default: sample.DefaultFirst}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ First graphql.Opt[int] }) ([]*sample.Post, error) {
				n, ok := args.First.Get()
				if !ok { // an explicit null: the default, as the anchors do
					n = sample.DefaultFirst
				}
				return store.Posts(n), nil
			}),
		},
		{
			Name: "post",
			Type: post,
			Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ ID string }) (*sample.Post, error) {
				return store.Post(args.ID), nil // a nil *Post is null
			}),
		},
	}}
	// Types lists User and Post first only so that Schema.SDL prints the
	// types in the order of sample/schema.graphql.
	return graphql.NewSchema(graphql.SchemaConfig{Query: query, Types: []graphql.NamedType{user, post}})
}

// Config is the endpoint configuration of the benchmark: the defaults
// (limits, introspection off, a document cache of
// graphqlhttp.DefaultCacheSize) with nothing logged, as a service behind its
// own access-log middleware would run it.
func Config() graphqlhttp.Config {
	nop := slog.New(slog.DiscardHandler)
	return graphqlhttp.Config{Presenter: apierror.Presenter{Logger: nop}}
}

// NewHandler returns the endpoint for the sample schema over store with cfg
// (usually Config, perhaps with CacheSize changed).
func NewHandler(store *sample.Store, cfg graphqlhttp.Config) (http.Handler, error) {
	schema, err := NewSchema(store)
	if err != nil {
		return nil, err
	}
	return graphqlhttp.New(schema, cfg)
}
