package graphql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// tagBook is a DTO of a REST API (snake_case json tags) that serves the
// schema through graphql tags.
type tagBook struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	PublishedAt string `json:"published_at" graphql:"publishedAt"`
	AuthorID    int    `json:"author_id" graphql:"authorId"`
	Notes       string `json:"notes" graphql:"-"`
	Shelf       string `json:"-" graphql:"shelf"`
	LegacyCode  string `json:"legacy_code"`
}

// tagFilter is an input DTO: graphql tags name its fields, json tags
// serve where there is none.
type tagFilter struct {
	AuthorID *int   `json:"author_id" graphql:"authorId"`
	MinYear  int    `json:"min_year" graphql:"minYear,omitempty"`
	Internal string `json:"internal" graphql:"-"`
	Lang     string `json:"language"`
}

type tagArgs struct {
	Filter  tagFilter `graphql:"where"`
	OrderBy string    `json:"order_by" graphql:"orderBy"`
}

// tagSchema serves tagBook with graphql names; fields adds to Book's.
func tagSchema(books []tagBook, got *tagArgs, fields ...graphql.Field) (*graphql.Schema, error) {
	filter := &graphql.InputObject{Name: "BookFilter", Fields: []graphql.InputField{
		{Name: "authorId", Type: graphql.Int},
		{Name: "minYear", Type: graphql.Int},
		{Name: "language", Type: graphql.String},
	}}
	book := &graphql.Object{Name: "Book", Fields: append(graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "title", Type: graphql.String},
		{Name: "publishedAt", Type: graphql.String},
		{Name: "authorId", Type: graphql.Int},
		{Name: "shelf", Type: graphql.String},
		{Name: "legacy_code", Type: graphql.String},
	}, fields...)}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "books", Type: graphql.NewList(book),
			Args: []graphql.Argument{{Name: "where", Type: filter}, {Name: "orderBy", Type: graphql.String}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args tagArgs) ([]tagBook, error) {
				*got = args
				return books, nil
			})},
	}}
	return graphql.NewSchema(graphql.SchemaConfig{Query: query})
}

func TestGraphQLTagNames(t *testing.T) {
	books := []tagBook{{ID: "1", Title: "Dune", PublishedAt: "1965-08-01", AuthorID: 7, Notes: "private", Shelf: "B2", LegacyCode: "D-1"}}
	var got tagArgs
	s, err := tagSchema(books, &got)
	if err != nil {
		t.Fatal(err)
	}
	res := s.Do(context.Background(), graphql.Request{Query: `{ books(where: {authorId: 7, minYear: 1960, language: "en"}, orderBy: "title") { id title publishedAt authorId shelf legacy_code } }`})
	out, _ := json.Marshal(res)
	const want = `{"data":{"books":[{"id":"1","title":"Dune","publishedAt":"1965-08-01","authorId":7,"shelf":"B2","legacy_code":"D-1"}]}}`
	if string(out) != want {
		t.Errorf("result = %s, want %s", out, want)
	}
	if got.Filter.AuthorID == nil || *got.Filter.AuthorID != 7 || got.Filter.MinYear != 1960 || got.Filter.Lang != "en" || got.OrderBy != "title" || got.Filter.Internal != "" {
		t.Errorf("args = %+v (filter %+v), want authorId 7, minYear 1960, language en, orderBy title", got, got.Filter)
	}
	// The REST side keeps its json names.
	rest, _ := json.Marshal(books[0])
	const wantREST = `{"id":"1","title":"Dune","published_at":"1965-08-01","author_id":7,"notes":"private","legacy_code":"D-1"}`
	if string(rest) != wantREST {
		t.Errorf("json = %s, want %s", rest, wantREST)
	}
}

func TestGraphQLTagChecks(t *testing.T) {
	tests := []struct {
		name  string
		field graphql.Field
		want  string
	}{
		{name: "a field hidden by graphql:\"-\"", field: graphql.Field{Name: "notes", Type: graphql.String},
			want: `graphql: Book.notes: graphql_test.tagBook (the values of Book from the resolver returns []graphql_test.tagBook for Query.books) has no field or method "notes" for it to read`},
		{name: "a field named by its json tag when a graphql tag renames it", field: graphql.Field{Name: "published_at", Type: graphql.String},
			want: `graphql: Book.published_at: graphql_test.tagBook (the values of Book from the resolver returns []graphql_test.tagBook for Query.books) has no field or method "published_at" for it to read`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got tagArgs
			_, err := tagSchema(nil, &got, tt.field)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewSchema = %v, want an error containing %s", err, tt.want)
			}
		})
	}
}

// TestGraphQLTagInputCheck checks that NewSchema names an argument's Go
// field by its graphql tag when it matches no input field.
func TestGraphQLTagInputCheck(t *testing.T) {
	type filter struct {
		Year int `json:"year" graphql:"publishedIn"`
	}
	in := &graphql.InputObject{Name: "Filter", Fields: []graphql.InputField{{Name: "year", Type: graphql.Int}}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "n", Type: graphql.Int, Args: []graphql.Argument{{Name: "filter", Type: in}},
			Typed: graphql.Resolver(func(context.Context, any, struct{ Filter filter }) (int, error) { return 0, nil })},
	}}
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	const want = `stands for the input field "publishedIn"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("NewSchema = %v, want an error containing %s", err, want)
	}
}

// A DTO with snake_case json tags, for a REST API, serves the schema in
// camelCase through graphql tags; `graphql:"-"` keeps a field out.
func ExampleNewSchema_graphqlTags() {
	type Book struct {
		Title       string `json:"title"`
		PublishedAt string `json:"published_at" graphql:"publishedAt"`
		Notes       string `json:"notes" graphql:"-"`
	}
	type Args struct {
		MinYear int `json:"min_year" graphql:"minYear"`
	}
	book := &graphql.Object{Name: "Book", Fields: graphql.Fields{
		{Name: "title", Type: graphql.String},
		{Name: "publishedAt", Type: graphql.String},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "books", Type: graphql.NewList(book), Args: []graphql.Argument{{Name: "minYear", Type: graphql.Int}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, a Args) ([]Book, error) {
				return []Book{{Title: fmt.Sprint("Dune, after ", a.MinYear), PublishedAt: "1965-08-01", Notes: "private"}}, nil
			})},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		panic(err)
	}
	res := schema.Do(context.Background(), graphql.Request{Query: `{ books(minYear: 1960) { title publishedAt } }`})
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	rest, _ := json.Marshal(Book{Title: "Dune", PublishedAt: "1965-08-01"})
	fmt.Println(string(rest))
	// Output:
	// {"data":{"books":[{"title":"Dune, after 1960","publishedAt":"1965-08-01"}]}}
	// {"title":"Dune","published_at":"1965-08-01","notes":""}
}
