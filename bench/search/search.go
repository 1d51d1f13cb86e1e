// Package search is the union workload of the in-process benchmarks: a
// search whose results are books, authors or reviews, the members of a
// SearchResult union, over in-memory data, with one query that selects
// each member's fields with a fragment.
//
// The package has no GraphQL library in it: each implementation under test
// binds the [Store] to its own schema, the one [SDL] prints.
package search

import "strconv"

// SDL is the workload's schema, as graphql-js prints it (gqlkit's
// Schema.SDL gives the same bytes).
const SDL = `type Author {
  id: ID!
  name: String!
  born: Int
}

type Book {
  id: ID!
  title: String!
  year: Int!
  author: Author!
}

type Review {
  id: ID!
  stars: Int!
  body: String!
  book: Book!
}

union SearchResult = Book | Author | Review

type Query {
  search(first: Int = 100): [SearchResult!]!
}`

// Query is the benchmark's request, run with the variables {"first": 100}:
// every result with __typename and its member's fields, two of which
// lead to another object.
const Query = `query Search($first: Int) {
  search(first: $first) {
    __typename
    ... on Book { id title year author { name } }
    ... on Author { id name born }
    ... on Review { id stars body book { title } }
  }
}`

// The workload's sizes.
const (
	// DefaultFirst is the schema default of search(first:), and the
	// number of results the data holds.
	DefaultFirst = 100
	// Authors, Books and Reviews are how many of each the data holds.
	Authors, Books, Reviews = 20, 40, 40
)

// Author is a writer; Born is nil for some.
type Author struct {
	ID   string
	Name string
	Born *int
}

// Book is a book by one author, resolved from AuthorID.
type Book struct {
	ID       string
	Title    string
	Year     int
	AuthorID string
}

// Review is a review of one book, resolved from BookID.
type Review struct {
	ID     string
	Stars  int
	Body   string
	BookID string
}

// Store is the read-only data set. It is safe for concurrent use.
type Store struct {
	results []any // *Book, *Author or *Review
	authors map[string]*Author
	books   map[string]*Book
}

// NewStore returns the data set: Authors authors, Books books and Reviews
// reviews, made by fixed rules (no randomness), with the results in the
// order book, author, review, book, review, … (every fifth an author).
func NewStore() *Store {
	s := &Store{authors: map[string]*Author{}, books: map[string]*Book{}}
	var authors, books, reviews []any
	for i := range Authors {
		a := &Author{ID: "a" + strconv.Itoa(i+1), Name: "Author " + strconv.Itoa(i+1)}
		if i%3 != 2 {
			born := 1900 + 3*i
			a.Born = &born
		}
		s.authors[a.ID] = a
		authors = append(authors, a)
	}
	for i := range Books {
		b := &Book{ID: "b" + strconv.Itoa(i+1), Title: "Book \"" + strconv.Itoa(i+1) + "\"", Year: 1950 + i, AuthorID: "a" + strconv.Itoa(i%Authors+1)}
		s.books[b.ID] = b
		books = append(books, b)
	}
	for i := range Reviews {
		reviews = append(reviews, &Review{ID: "r" + strconv.Itoa(i+1), Stars: 1 + i%5, Body: "Review " + strconv.Itoa(i+1) + ": worth a read", BookID: "b" + strconv.Itoa((7*i)%Books+1)})
	}
	// Each run of five: book, author, review, book, review.
	for len(s.results) < Authors+Books+Reviews {
		k := len(s.results) / 5
		s.results = append(s.results, books[2*k], authors[k], reviews[2*k], books[2*k+1], reviews[2*k+1])
	}
	return s
}

// Search returns the first first results (all when first is larger,
// none when it is not positive).
func (s *Store) Search(first int) []any {
	first = max(0, min(first, len(s.results)))
	return s.results[:first]
}

// Author returns the author of an ID, or nil.
func (s *Store) Author(id string) *Author { return s.authors[id] }

// Book returns the book of an ID, or nil.
func (s *Store) Book(id string) *Book { return s.books[id] }
