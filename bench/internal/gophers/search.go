package gophers

import (
	graphql "github.com/graph-gophers/graphql-go"

	"github.com/gqlkit/gqlkit/bench/search"
)

// NewSearchSchema parses the union workload's SDL and binds it to
// resolvers over store: each result is a searchResult whose ToBook,
// ToAuthor and ToReview methods tell its member, as the library's
// starwars example does.
func NewSearchSchema(store *search.Store) (*graphql.Schema, error) {
	return graphql.ParseSchema(search.SDL, &searchRoot{store: store})
}

type searchRoot struct{ store *search.Store }

// searchArgs binds First as int32, not *int32: graph-gophers fills in the
// schema default itself.
type searchArgs struct{ First int32 }

func (r *searchRoot) Search(args searchArgs) []*searchResult {
	rs := r.store.Search(int(args.First))
	out := make([]*searchResult, len(rs))
	for i, v := range rs {
		out[i] = &searchResult{v: v, store: r.store}
	}
	return out
}

type searchResult struct {
	v     any
	store *search.Store
}

func (r *searchResult) ToBook() (*bookResolver, bool) {
	b, ok := r.v.(*search.Book)
	return &bookResolver{b: b, store: r.store}, ok
}

func (r *searchResult) ToAuthor() (*authorResolver, bool) {
	a, ok := r.v.(*search.Author)
	return &authorResolver{a: a}, ok
}

func (r *searchResult) ToReview() (*reviewResolver, bool) {
	v, ok := r.v.(*search.Review)
	return &reviewResolver{r: v, store: r.store}, ok
}

type bookResolver struct {
	b     *search.Book
	store *search.Store
}

func (b *bookResolver) ID() graphql.ID { return graphql.ID(b.b.ID) }
func (b *bookResolver) Title() string  { return b.b.Title }
func (b *bookResolver) Year() int32    { return int32(b.b.Year) }
func (b *bookResolver) Author() *authorResolver {
	return &authorResolver{a: b.store.Author(b.b.AuthorID)}
}

type authorResolver struct{ a *search.Author }

func (a *authorResolver) ID() graphql.ID { return graphql.ID(a.a.ID) }
func (a *authorResolver) Name() string   { return a.a.Name }
func (a *authorResolver) Born() *int32 {
	if a.a.Born == nil {
		return nil
	}
	born := int32(*a.a.Born)
	return &born
}

type reviewResolver struct {
	r     *search.Review
	store *search.Store
}

func (r *reviewResolver) ID() graphql.ID { return graphql.ID(r.r.ID) }
func (r *reviewResolver) Stars() int32   { return int32(r.r.Stars) }
func (r *reviewResolver) Body() string   { return r.r.Body }
func (r *reviewResolver) Book() *bookResolver {
	return &bookResolver{b: r.store.Book(r.r.BookID), store: r.store}
}
