// Package sample is the benchmark workload, the same one every peer server in
// /work/shared/bench-anchors is measured on: the schema (schema.graphql), 50
// in-memory posts with 3 tags each written by one of 5 authors (data.json),
// the two benchmark requests (request-a.json, request-b.json) and the
// reference responses that graphql-js gives to them (expected-a.json,
// expected-b.json). The data files are copies of the anchors' files; keep
// them identical so that figures stay comparable.
//
// The package has no GraphQL library in it: each implementation under test
// binds the [Store] to its own schema.
package sample

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
)

// The workload's constants, as the schema and the anchors define them.
const (
	// DefaultFirst is the schema default of posts(first:).
	DefaultFirst = 10
	// MaxFirst is the largest number of posts that posts(first:) returns;
	// first is clamped to 0..MaxFirst.
	MaxFirst = 50
	// PostsDescription is the description of the Query.posts field.
	PostsDescription = "The first `first` posts in id order; first is clamped to 0..50."
)

var (
	//go:embed schema.graphql
	schemaSDL string
	//go:embed data.json
	dataJSON []byte
	//go:embed request-a.json
	requestA []byte
	//go:embed request-b.json
	requestB []byte
	//go:embed expected-a.json
	expectedA []byte
	//go:embed expected-b.json
	expectedB []byte
)

// SDL returns the workload's schema in the Schema Definition Language, as
// graphql-js prints it.
func SDL() string { return schemaSDL }

// User is an author.
type User struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Post is a blog post. Its author is not embedded: implementations resolve
// it with [Store.User] from AuthorID, the in-memory stand-in for a join.
type Post struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Body      string   `json:"body"`
	Tags      []string `json:"tags"`
	CreatedAt string   `json:"createdAt"`
	AuthorID  string   `json:"authorId"`
}

// Store is the read-only data set. It is safe for concurrent use.
type Store struct {
	posts []*Post
	post  map[string]*Post
	user  map[string]*User
}

// Load decodes the embedded data set. Every call returns a new Store.
func Load() (*Store, error) {
	var raw struct {
		Users []*User `json:"users"`
		Posts []*Post `json:"posts"`
	}
	if err := json.Unmarshal(dataJSON, &raw); err != nil {
		return nil, fmt.Errorf("sample: decoding data.json: %w", err)
	}
	s := &Store{
		posts: raw.Posts,
		post:  make(map[string]*Post, len(raw.Posts)),
		user:  make(map[string]*User, len(raw.Users)),
	}
	for _, u := range raw.Users {
		s.user[u.ID] = u
	}
	for _, p := range raw.Posts {
		if s.user[p.AuthorID] == nil {
			return nil, fmt.Errorf("sample: post %s has an unknown author %q", p.ID, p.AuthorID)
		}
		s.post[p.ID] = p
	}
	return s, nil
}

// Posts returns the first n posts in id order, n clamped to 0..MaxFirst.
// The slice is shared: callers must not modify it.
func (s *Store) Posts(n int) []*Post {
	n = min(max(n, 0), MaxFirst, len(s.posts))
	return s.posts[:n:n]
}

// Post returns the post with the given id, or nil.
func (s *Store) Post(id string) *Post { return s.post[id] }

// User returns the user with the given id, or nil.
func (s *Store) User(id string) *User { return s.user[id] }

// Request is one of the two benchmark requests.
type Request struct {
	// Name is "A" (the feed of 20 posts, about 3.3 KB of response) or "B"
	// (one post, 92 bytes).
	Name string
	// Body is the exact POST body (application/json) that the harness sends.
	Body []byte
	// Query is the GraphQL document of the body.
	Query string
	// Expected is the reference response body, byte for byte.
	Expected []byte

	variables json.RawMessage
}

// Requests returns request A and request B, decoded from their POST bodies.
func Requests() ([]Request, error) {
	out := make([]Request, 0, 2)
	for _, r := range []struct {
		name           string
		body, expected []byte
	}{{"A", requestA, expectedA}, {"B", requestB, expectedB}} {
		var p struct {
			Query     string          `json:"query"`
			Variables json.RawMessage `json:"variables"`
		}
		if err := json.Unmarshal(r.body, &p); err != nil {
			return nil, fmt.Errorf("sample: decoding request %s: %w", r.name, err)
		}
		out = append(out, Request{Name: r.name, Body: r.body, Query: p.Query, Expected: r.expected, variables: p.Variables})
	}
	return out, nil
}

// Variables returns a new copy of the request's variables as encoding/json
// decodes them into map[string]any (numbers as float64), or nil when the
// request has none. useNumber decodes numbers as json.Number instead, as
// gqlkit's HTTP handler does.
func (r Request) Variables(useNumber bool) map[string]any {
	if len(r.variables) == 0 || string(r.variables) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(r.variables))
	if useNumber {
		dec.UseNumber()
	}
	var vars map[string]any
	if err := dec.Decode(&vars); err != nil {
		return nil // Requests has decoded the whole body already
	}
	return vars
}
