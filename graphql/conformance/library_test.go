package conformance_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
)

// This file holds the data of the conformance schema (schema_test.go) and
// the resolvers that read and change it.

// ---------------------------------------------------------------- data

type author struct {
	ID   string  `json:"id"`
	Name string  `json:"name"`
	Born *string `json:"born"`
}

type review struct {
	Stars    int     `json:"stars"`
	Text     *string `json:"text"`
	Reviewer *string `json:"reviewer"`
}

type book struct {
	ID         string    `json:"id"`
	Title      string    `json:"title"`
	AuthorID   string    `json:"authorId"`
	Genre      string    `json:"genre"`
	Year       *int      `json:"year"`
	Tags       []string  `json:"tags"`
	Published  *string   `json:"published"`
	Rating     *float64  `json:"rating"`
	SimilarIDs []string  `json:"similarIds"`
	Reviews    []*review `json:"reviews"`
}

type library struct {
	Authors []*author `json:"authors"`
	Books   []*book   `json:"books"`
}

func loadLibrary(path string) (*library, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lib library
	if err := json.Unmarshal(raw, &lib); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &lib, nil
}

func (l *library) author(id string) *author {
	for _, a := range l.Authors {
		if a.ID == id {
			return a
		}
	}
	return nil
}

// state is what one request may change; every corpus case gets a new one,
// carried in the context.
type state struct {
	counter int
	added   []*book
}

type stateKey struct{}

func withState(ctx context.Context) context.Context {
	return context.WithValue(ctx, stateKey{}, &state{})
}

func stateOf(ctx context.Context) *state {
	st, _ := ctx.Value(stateKey{}).(*state)
	return st
}

func (l *library) book(ctx context.Context, id string) *book {
	for _, b := range l.Books {
		if b.ID == id {
			return b
		}
	}
	for _, b := range stateOf(ctx).added {
		if b.ID == id {
			return b
		}
	}
	return nil
}

// ---------------------------------------------------------------- resolvers

func ptr[T any](v T) *T { return &v }

// argInt, argString and argInput read an argument whose type the schema
// fixes, so that the accessor's error cannot happen.
func argInt(args graphql.Args, name string) int { n, _ := args.Int(name); return n }

func argString(args graphql.Args, name string) string { s, _ := args.String(name); return s }

func argInput(args graphql.Args, name string) graphql.Args { in, _ := args.Input(name); return in }

// listBooks mirrors listBooks in node/schema.mjs.
func (l *library) listBooks(ctx context.Context, args graphql.Args) (any, error) {
	all := append(slices.Clone(l.Books), stateOf(ctx).added...)
	genre, _ := args.Value("genre").(string)
	f := argInput(args, "filter").Map()
	out := []*book{}
	for _, b := range all {
		if genre != "" && b.Genre != genre {
			continue
		}
		if f == nil || filterMatches(f, b) {
			out = append(out, b)
		}
	}
	byTitle := func(a, b *book) int { return strings.Compare(a.Title, b.Title) }
	byYear := func(a, b *book) int {
		switch {
		case a.Year == nil && b.Year == nil:
			return 0
		case a.Year == nil:
			return 1
		case b.Year == nil:
			return -1
		}
		return *a.Year - *b.Year
	}
	var order func(a, b *book) int
	switch args.Value("orderBy") {
	case "title-asc":
		order = byTitle
	case "title-desc":
		order = func(a, b *book) int { return byTitle(b, a) }
	case "year-asc":
		order = byYear
	case "year-desc":
		order = func(a, b *book) int {
			if a.Year == nil || b.Year == nil {
				return byYear(a, b)
			}
			return *b.Year - *a.Year
		}
	default:
		return nil, fmt.Errorf("conformance: orderBy is %#v", args.Value("orderBy"))
	}
	slices.SortStableFunc(out, order)
	if first, ok := args.Value("first").(int); ok {
		if first < 0 {
			return nil, errors.New("first must not be negative")
		}
		out = out[:min(first, len(out))]
	}
	if f != nil {
		if limit, ok := f["limit"].(int); ok {
			out = out[:min(max(limit, 0), len(out))]
		}
	}
	return out, nil
}

func filterMatches(f map[string]any, b *book) bool {
	if title, ok := f["title"].(string); ok && !strings.Contains(b.Title, title) {
		return false
	}
	if genres, ok := f["genres"].([]any); ok && !slices.Contains(genres, any(b.Genre)) {
		return false
	}
	if b.Year != nil {
		y := *b.Year
		if minYear, ok := f["minYear"].(int); ok && y < minYear {
			return false
		}
		if maxYear, ok := f["maxYear"].(int); ok && y > maxYear {
			return false
		}
		if r, ok := f["range"].(map[string]any); ok {
			if from, _ := r["from"].(int); y < from {
				return false
			}
			if to, ok := r["to"].(int); ok && y > to {
				return false
			}
		}
	}
	if published, ok := f["published"].(time.Time); ok && (b.Published == nil || *b.Published != formatDate(published)) {
		return false
	}
	if tags, ok := f["tags"].([]any); ok && len(tags) > 0 && !slices.Contains(tags, any("any")) {
		shared := slices.ContainsFunc(b.Tags, func(t string) bool { return slices.Contains(tags, any(t)) })
		if !shared {
			return false
		}
	}
	return true
}

// addBook mirrors addBook in node/schema.mjs.
func (l *library) addBook(ctx context.Context, in map[string]any) (any, error) {
	st := stateOf(ctx)
	authorID, _ := in["authorId"].(string)
	if l.author(authorID) == nil {
		return nil, fmt.Errorf("unknown author %s", authorID)
	}
	b := &book{
		ID:         strconv.Itoa(100 + len(st.added)),
		Tags:       []string{},
		SimilarIDs: []string{},
	}
	b.Title, _ = in["title"].(string)
	b.AuthorID = authorID
	b.Genre, _ = in["genre"].(string)
	if y, ok := in["year"].(int); ok {
		b.Year = &y
	}
	if tags, ok := in["tags"].([]any); ok {
		for _, t := range tags {
			b.Tags = append(b.Tags, t.(string))
		}
	}
	if p, ok := in["published"].(time.Time); ok {
		b.Published = ptr(formatDate(p))
	}
	if r, ok := in["rating"].(float64); ok {
		b.Rating = &r
	}
	st.added = append(st.added, b)
	return b, nil
}
