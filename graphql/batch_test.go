package graphql_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/validate"
)

// The library of these tests: books by authors, with reviews. Every
// batched field counts its calls and the parents each call got, as a
// store counts its statements.

type libAuthor struct {
	ID   string
	Name string
}

type libBook struct {
	ID       string
	Title    string
	AuthorID string
}

type libReview struct {
	ID     string
	BookID string
	Stars  int
}

type libEdge struct {
	Cursor *string
	Node   *libBook
}

type libPage struct{ Edges []*libEdge }

type library struct {
	authors map[string]*libAuthor
	books   []*libBook
	reviews []*libReview

	mu    sync.Mutex
	calls []string // "field:parents", in call order
	rules int      // runs of the rule on minStars
}

func newLibrary() *library {
	l := &library{authors: map[string]*libAuthor{
		"a1": {ID: "a1", Name: "Ada"},
		"a2": {ID: "a2", Name: "Brecht"},
	}}
	l.books = []*libBook{
		{ID: "b1", Title: "One", AuthorID: "a1"},
		{ID: "b2", Title: "Two", AuthorID: "a2"},
		{ID: "b3", Title: "Three", AuthorID: "a1"},
		{ID: "b4", Title: "Four", AuthorID: "gone"},
	}
	l.reviews = []*libReview{
		{ID: "r1", BookID: "b1", Stars: 5},
		{ID: "r2", BookID: "b1", Stars: 2},
		{ID: "r3", BookID: "b3", Stars: 4},
	}
	return l
}

// statement records one call of a batched field with its parents' ids.
func (l *library) statement(field string, ids []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, field+":"+strings.Join(ids, ","))
}

func (l *library) statements() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.calls...)
}

func bookIDs(bs []*libBook) []string {
	ids := make([]string, len(bs))
	for i, b := range bs {
		ids[i] = b.ID
	}
	return ids
}

type reviewArgs struct {
	MinStars int
}

func (l *library) schema(t testing.TB, cfg graphql.SchemaConfig) *graphql.Schema {
	t.Helper()
	review := &graphql.Object{Name: "Review", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "stars", Type: graphql.NewNonNull(graphql.Int)},
	}}
	var book, author *graphql.Object
	author = &graphql.Object{Name: "Author", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "name", Type: graphql.NewNonNull(graphql.String)},
			{Name: "books", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(book))),
				Batch: graphql.Batch(func(_ context.Context, as []*libAuthor, _ graphql.NoArgs) ([][]*libBook, error) {
					ids := make([]string, len(as))
					out := make([][]*libBook, len(as))
					for i, a := range as {
						ids[i] = a.ID
						for _, b := range l.books {
							if b.AuthorID == a.ID {
								out[i] = append(out[i], b)
							}
						}
					}
					l.statement("Author.books", ids)
					return out, nil
				})},
		}
	})}
	book = &graphql.Object{Name: "Book", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "title", Type: graphql.NewNonNull(graphql.String)},
			{Name: "author", Type: author,
				Batch: graphql.Batch(func(_ context.Context, bs []*libBook, _ graphql.NoArgs) ([]*libAuthor, error) {
					l.statement("Book.author", bookIDs(bs))
					out := make([]*libAuthor, len(bs))
					for i, b := range bs {
						out[i] = l.authors[b.AuthorID] // nil: null
					}
					return out, nil
				})},
			{Name: "reviews", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(review))),
				Args: []graphql.Argument{{Name: "minStars", Type: graphql.Int, Default: 0,
					Rules: []validate.Rule{validate.Between(0, 5), validate.Func(func(any) string {
						l.mu.Lock()
						defer l.mu.Unlock()
						l.rules++
						return ""
					})}}},
				Batch: graphql.Batch(func(_ context.Context, bs []*libBook, args reviewArgs) ([][]*libReview, error) {
					l.statement(fmt.Sprintf("Book.reviews(%d)", args.MinStars), bookIDs(bs))
					out := make([][]*libReview, len(bs))
					for i, b := range bs {
						for _, r := range l.reviews {
							if r.BookID == b.ID && r.Stars >= args.MinStars {
								out[i] = append(out[i], r)
							}
						}
					}
					return out, nil
				})},
			// checked fails for the books with an even number, each on its
			// own; strict does the same in a non-null position.
			{Name: "checked", Type: graphql.String, Batch: graphql.Batch(l.evenFails("Book.checked"))},
			{Name: "strict", Type: graphql.NewNonNull(graphql.String), Batch: graphql.Batch(l.evenFails("Book.strict"))},
			{Name: "short", Type: graphql.String,
				Batch: graphql.Batch(func(_ context.Context, bs []*libBook, _ graphql.NoArgs) ([]string, error) {
					return make([]string, len(bs)-1), nil
				})},
			{Name: "slow", Type: graphql.String,
				Batch: graphql.Batch(func(ctx context.Context, bs []*libBook, _ graphql.NoArgs) ([]string, error) {
					l.statement("Book.slow", bookIDs(bs))
					if _, ok := ctx.Deadline(); !ok {
						return nil, errors.New("slow needs a deadline")
					}
					<-ctx.Done() // until the deadline
					return nil, ctx.Err()
				})},
			{Name: "boom", Type: graphql.String,
				Batch: graphql.Batch(func(_ context.Context, bs []*libBook, _ graphql.NoArgs) ([]string, error) {
					panic("the store fell over")
				})},
		}
	})}
	// A page of edges, read from structs (no resolvers), as a Relay
	// connection is.
	edge := &graphql.Object{Name: "BookEdge", Fields: graphql.Fields{
		{Name: "cursor", Type: graphql.NewNonNull(graphql.String)},
		{Name: "node", Type: graphql.NewNonNull(book)},
	}}
	page := &graphql.Object{Name: "BookPage", Fields: graphql.Fields{
		{Name: "edges", Type: graphql.NewNonNull(graphql.NewList(edge))},
	}}
	cfg.Query = &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "page", Type: page,
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) (*libPage, error) {
				p := &libPage{}
				for _, b := range l.books {
					c := "c" + b.ID[1:]
					p.Edges = append(p.Edges, &libEdge{Cursor: &c, Node: b})
				}
				p.Edges[1].Cursor = nil // a broken edge: null, before its node is reached
				return p, nil
			})},
		{Name: "books", Type: graphql.NewNonNull(graphql.NewList(book)),
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return l.books, nil
			}},
		{Name: "book", Type: book, Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ ID string }) (*libBook, error) {
				for _, b := range l.books {
					if b.ID == args.ID {
						return b, nil
					}
				}
				return nil, nil
			})},
		{Name: "shelves", Type: graphql.NewList(graphql.NewList(book)),
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return [][]*libBook{{l.books[0], nil, l.books[1]}, nil, {l.books[2]}}, nil
			}},
	}}
	s, err := graphql.NewSchema(cfg)
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	return s
}

// evenFails is a batch resolver that fails the books with an even number
// through ItemErrors and gives the others their title.
func (l *library) evenFails(name string) func(context.Context, []*libBook, graphql.NoArgs) ([]string, error) {
	return func(_ context.Context, bs []*libBook, _ graphql.NoArgs) ([]string, error) {
		l.statement(name, bookIDs(bs))
		out := make([]string, len(bs))
		errs := make(graphql.ItemErrors, len(bs))
		for i, b := range bs {
			if (b.ID[1]-'0')%2 == 0 {
				errs[i] = fmt.Errorf("no check for %s", b.ID)
			} else {
				out[i] = b.Title
			}
		}
		return out, fmt.Errorf("some failed: %w", errs)
	}
}

func TestBatchOneCallPerLevel(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	got := response(t, s, `{ books { id author { name books { id reviews { id } } } } }`, "", "")
	want := `{"data":{"books":[` +
		`{"id":"b1","author":{"name":"Ada","books":[{"id":"b1","reviews":[{"id":"r1"},{"id":"r2"}]},{"id":"b3","reviews":[{"id":"r3"}]}]}},` +
		`{"id":"b2","author":{"name":"Brecht","books":[{"id":"b2","reviews":[]}]}},` +
		`{"id":"b3","author":{"name":"Ada","books":[{"id":"b1","reviews":[{"id":"r1"},{"id":"r2"}]},{"id":"b3","reviews":[{"id":"r3"}]}]}},` +
		`{"id":"b4","author":null}]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	calls := l.statements()
	wantCalls := []string{
		"Book.author:b1,b2,b3,b4",
		"Author.books:a1,a2,a1",
		"Book.reviews(0):b1,b3,b2,b1,b3",
	}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("statements: got %q, want %q", calls, wantCalls)
	}
}

func TestBatchAliases(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	got := response(t, s, `{ books { id a: author { id } b: author { name }
		all: reviews { id } good: reviews(minStars: 4) { id } again: reviews(minStars: 0) { stars } } }`, "", "")
	want := `{"data":{"books":[` +
		`{"id":"b1","a":{"id":"a1"},"b":{"name":"Ada"},"all":[{"id":"r1"},{"id":"r2"}],"good":[{"id":"r1"}],"again":[{"stars":5},{"stars":2}]},` +
		`{"id":"b2","a":{"id":"a2"},"b":{"name":"Brecht"},"all":[],"good":[],"again":[]},` +
		`{"id":"b3","a":{"id":"a1"},"b":{"name":"Ada"},"all":[{"id":"r3"}],"good":[{"id":"r3"}],"again":[{"stars":4}]},` +
		`{"id":"b4","a":null,"b":null,"all":[],"good":[],"again":[]}]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantCalls := []string{"Book.author:b1,b2,b3,b4", "Book.reviews(0):b1,b2,b3,b4", "Book.reviews(4):b1,b2,b3,b4"}
	if calls := l.statements(); !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("statements: got %q, want %q", calls, wantCalls)
	}
}

func TestBatchNestedListsAndSingleParent(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	got := response(t, s, `{ shelves { id author { id } } book(id: "b2") { author { name } } }`, "", "")
	want := `{"data":{"shelves":[[{"id":"b1","author":{"id":"a1"}},null,{"id":"b2","author":{"id":"a2"}}],null,[{"id":"b3","author":{"id":"a1"}}]],` +
		`"book":{"author":{"name":"Brecht"}}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantCalls := []string{"Book.author:b1,b2,b3", "Book.author:b2"}
	if calls := l.statements(); !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("statements: got %q, want %q", calls, wantCalls)
	}
}

func TestBatchErrorsPerItem(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	got := response(t, s, `{ books { id checked } }`, "", "")
	want := `{"data":{"books":[{"id":"b1","checked":"One"},{"id":"b2","checked":null},{"id":"b3","checked":"Three"},{"id":"b4","checked":null}]},` +
		`"errors":[{"message":"no check for b2","locations":[{"line":1,"column":14}],"path":["books",1,"checked"]},` +
		`{"message":"no check for b4","locations":[{"line":1,"column":14}],"path":["books",3,"checked"]}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// In a non-null position, the failure nulls its own book only.
	got = response(t, s, `{ books { id strict } }`, "", "")
	want = `{"data":{"books":[{"id":"b1","strict":"One"},null,{"id":"b3","strict":"Three"},null]},` +
		`"errors":[{"message":"no check for b2","locations":[{"line":1,"column":14}],"path":["books",1,"strict"]},` +
		`{"message":"no check for b4","locations":[{"line":1,"column":14}],"path":["books",3,"strict"]}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantCalls := []string{"Book.checked:b1,b2,b3,b4", "Book.strict:b1,b2,b3,b4"}
	if calls := l.statements(); !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("statements: got %q, want %q", calls, wantCalls)
	}
}

func TestBatchWrongLengthAndPanicMasked(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	for _, field := range []string{"short", "boom"} {
		res := s.Do(context.Background(), graphql.Request{Query: `{ book(id: "b1") { id } books { ` + field + ` } }`})
		data := `{"book":{"id":"b1"},"books":[{"` + field + `":null},{"` + field + `":null},{"` + field + `":null},{"` + field + `":null}]}`
		if string(res.Data) != data {
			t.Errorf("%s: data %s, want %s", field, res.Data, data)
		}
		if len(res.Errors) != 4 {
			t.Fatalf("%s: %d errors, want 4: %v", field, len(res.Errors), res.Errors)
		}
		for i, e := range res.Errors {
			if e.Message != "Internal server error." || e.Path.String() != fmt.Sprintf("books[%d].%s", i, field) {
				t.Errorf("%s: error %d: %q at %s", field, i, e.Message, e.Path)
			}
		}
		if field == "boom" {
			var pe *errcode.PanicError
			if !errors.As(res.Errors[0].Err, &pe) {
				t.Errorf("boom: error %v is not a *PanicError", res.Errors[0].Err)
			}
		}
	}
}

// FuzzExecuteBatch runs arbitrary documents against the library, whose
// batched fields nest, fail per item, return too few results and panic:
// the answer is well-formed JSON with data or errors, never a crash.
func FuzzExecuteBatch(f *testing.F) {
	for _, seed := range []struct{ query, vars string }{
		{`{ books { id author { name books { id reviews { id } } } } }`, ``},
		{`{ books { a: author { id } b: author { name } all: reviews { id } good: reviews(minStars: 4) { id } } }`, ``},
		{`{ shelves { id author { id books { strict } } } book(id: "b2") { author { name } } }`, ``},
		{`{ books { id checked strict short boom slow } }`, ``},
		{`query($w: Boolean!, $m: Int) { books { author @include(if: $w) { ...A } reviews(minStars: $m) @skip(if: $w) { id } } } fragment A on Author { books { author { id } } }`, `{"w": true, "m": 9}`},
	} {
		f.Add(seed.query, seed.vars)
	}
	s := newLibrary().schema(f, graphql.SchemaConfig{})
	f.Fuzz(func(t *testing.T, query, vars string) { checkAnswer(t, s, query, vars) })
}
