// Package gophers is the workload served by github.com/graph-gophers/graphql-go
// (v1.11.0): the sample SDL bound to resolver methods, served by the
// library's own relay.Handler.
package gophers

import (
	"net/http"

	graphql "github.com/graph-gophers/graphql-go"
	"github.com/graph-gophers/graphql-go/relay"

	"github.com/gqlkit/gqlkit/bench/sample"
)

// NewSchema parses the sample SDL and binds it to resolvers over store.
func NewSchema(store *sample.Store) (*graphql.Schema, error) {
	return graphql.ParseSchema(sample.SDL(), &root{store: store})
}

// NewHandler returns relay.Handler for the sample schema over store.
func NewHandler(store *sample.Store) (http.Handler, error) {
	s, err := NewSchema(store)
	if err != nil {
		return nil, err
	}
	return &relay.Handler{Schema: s}, nil
}

type root struct{ store *sample.Store }

// postsArgs binds First as int32, not *int32: graph-gophers fills in the
// schema default itself and does not accept a pointer for an argument that
// has one.
type postsArgs struct{ First int32 }

func (r *root) Posts(args postsArgs) []*post {
	ps := r.store.Posts(int(args.First))
	out := make([]*post, len(ps))
	for i, p := range ps {
		out[i] = &post{p: p, store: r.store}
	}
	return out
}

func (r *root) Post(args struct{ ID graphql.ID }) *post {
	p := r.store.Post(string(args.ID))
	if p == nil {
		return nil
	}
	return &post{p: p, store: r.store}
}

type post struct {
	p     *sample.Post
	store *sample.Store
}

func (p *post) ID() graphql.ID     { return graphql.ID(p.p.ID) }
func (p *post) Title() string      { return p.p.Title }
func (p *post) Body() string       { return p.p.Body }
func (p *post) Tags() *[]string    { return &p.p.Tags }
func (p *post) CreatedAt() *string { return &p.p.CreatedAt }

func (p *post) Author() *user {
	u := p.store.User(p.p.AuthorID)
	if u == nil {
		return nil
	}
	return &user{u: u}
}

type user struct{ u *sample.User }

func (u *user) ID() graphql.ID { return graphql.ID(u.u.ID) }
func (u *user) Name() string   { return u.u.Name }
