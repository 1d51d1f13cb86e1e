package conformance_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/validate"
)

// This file defines the conformance schema with gqlkit. node/schema.mjs
// defines the same schema with graphql-js: same types, fields, arguments,
// defaults, descriptions and deprecations, declared in the same order (the
// order decides the type collection order, so __schema.types and the SDL).
// Keep the two files in step. The data and the resolvers are in
// library_test.go.

// ---------------------------------------------------------------- scalars

var dateRE = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})$`)

// parseDate returns the internal form of a date, a time.Time, so that the
// internal and the serialized forms differ.
func parseDate(v any) (time.Time, error) {
	if s, ok := v.(string); ok {
		if m := dateRE.FindStringSubmatch(s); m != nil {
			y, _ := strconv.Atoi(m[1])
			mo, _ := strconv.Atoi(m[2])
			d, _ := strconv.Atoi(m[3])
			t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
			if mo >= 1 && mo <= 12 && t.Day() == d && t.Month() == time.Month(mo) {
				return t, nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("Date cannot represent %v: want YYYY-MM-DD.", v)
}

func formatDate(t time.Time) string {
	return fmt.Sprintf("%04d-%02d-%02d", t.Year(), int(t.Month()), t.Day())
}

var dateScalar = &graphql.Scalar{
	Name:           "Date",
	Description:    "A calendar date, written `YYYY-MM-DD`.",
	SpecifiedByURL: "https://www.rfc-editor.org/rfc/rfc3339#section-5.6",
	Serialize: func(v any) (any, error) {
		switch x := v.(type) {
		case string:
			t, err := parseDate(x)
			if err != nil {
				return nil, err
			}
			return formatDate(t), nil
		case *string:
			if x == nil {
				return nil, nil
			}
			t, err := parseDate(*x)
			if err != nil {
				return nil, err
			}
			return formatDate(t), nil
		case time.Time:
			return formatDate(x), nil
		}
		return nil, fmt.Errorf("Date cannot represent %v.", v)
	},
	ParseValue: func(v any) (any, error) { return parseDate(v) },
	ParseLiteral: func(v *ast.Value) (any, error) {
		if v.Kind != ast.StringValue && v.Kind != ast.BlockValue {
			return nil, fmt.Errorf("Date must be a string, got %s.", v.String())
		}
		return parseDate(v.Raw)
	},
}

// oddOf accepts the numbers that graphql-js's Number.isInteger accepts and
// that are odd 32-bit integers.
func oddOf(v any) (int, bool) {
	var f float64
	switch x := v.(type) {
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case float64:
		f = x
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(x), 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	if f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 || int(f)%2 == 0 {
		return 0, false
	}
	return int(f), true
}

// oddScalar has no ParseLiteral, like its graphql-js twin: both then turn a
// literal into a plain value and call ParseValue.
var oddScalar = &graphql.Scalar{
	Name:        "Odd",
	Description: "An odd 32-bit integer.",
	Serialize: func(v any) (any, error) {
		if n, ok := oddOf(v); ok {
			return n, nil
		}
		return nil, fmt.Errorf("Odd cannot represent %v.", v)
	},
	ParseValue: func(v any) (any, error) {
		if n, ok := oddOf(v); ok {
			return n, nil
		}
		return nil, fmt.Errorf("Odd cannot represent %v.", v)
	},
}

// ---------------------------------------------------------------- enums

var genreEnum = &graphql.Enum{
	Name:        "Genre",
	Description: "What a book is about.",
	Values: []graphql.EnumValue{
		{Name: "FICTION", Value: "fic", Description: "Made up."},
		{Name: "SCIENCE", Value: "sci"},
		{Name: "HISTORY", Value: "hist", Description: "It happened."},
		{Name: "POETRY", Value: "poe", DeprecationReason: "Prose only from now on."},
	},
}

var bookOrderEnum = &graphql.Enum{
	Name: "BookOrder",
	Values: []graphql.EnumValue{
		{Name: "TITLE_ASC", Value: "title-asc"},
		{Name: "TITLE_DESC", Value: "title-desc"},
		{Name: "YEAR_ASC", Value: "year-asc"},
		{Name: "YEAR_DESC", Value: "year-desc", DeprecationReason: "Sort by `YEAR_ASC` and reverse."},
	},
}

var colorEnum = &graphql.Enum{
	Name:        "Color",
	Description: "Primary colours; the internal values are the integers 0, 1 and 2.",
	Values: []graphql.EnumValue{
		{Name: "RED", Value: 0},
		{Name: "GREEN", Value: 1, Description: `The colour of "go".`},
		{Name: "BLUE", Value: 2},
	},
}

// ---------------------------------------------------------------- helpers

var (
	list    = func(t graphql.Type) graphql.Type { return graphql.NewList(t) }
	nonNull = func(t graphql.Type) graphql.Type { return graphql.NewNonNull(t) }
)

// get returns a resolver that reads one value from the parent with f.
func get[P any](f func(P) any) graphql.ResolveFunc {
	return func(_ context.Context, parent any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
		p, ok := parent.(P)
		if !ok {
			return nil, fmt.Errorf("conformance: parent is %T", parent)
		}
		return f(p), nil
	}
}

func fail(msg string) graphql.ResolveFunc {
	return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
		return nil, errors.New(msg)
	}
}

func constant(v any) graphql.ResolveFunc {
	return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return v, nil }
}

func argument(name string) graphql.ResolveFunc {
	return func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
		return args.Value(name), nil
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type nest struct{}

type item struct{ id int }

func items() []item { return []item{{1}, {2}, {3}} }

// ---------------------------------------------------------------- schema

func newSchema(lib *library) (*graphql.Schema, error) {
	yearRange := &graphql.InputObject{
		Name: "YearRange",
		Fields: []graphql.InputField{
			{Name: "from", Type: nonNull(graphql.Int)},
			{Name: "to", Type: graphql.Int, Default: 2100, Description: "Inclusive."},
		},
	}
	bookFilter := &graphql.InputObject{
		Name:        "BookFilter",
		Description: "Which books to list.\n\nEvery field narrows the list.",
		Fields: []graphql.InputField{
			{Name: "title", Type: graphql.String, Description: "A substring of the title.",
				Rules: []validate.Rule{validate.Max(200)}},
			{Name: "genres", Type: list(nonNull(genreEnum))},
			{Name: "minYear", Type: graphql.Int},
			{Name: "maxYear", Type: graphql.Int, Default: 3000},
			{Name: "published", Type: dateScalar},
			{Name: "limit", Type: graphql.Int, Default: 10},
			{Name: "range", Type: yearRange},
			{Name: "tags", Type: list(nonNull(graphql.String)), Default: []any{"any"}},
			{Name: "legacy", Type: graphql.String, DeprecationReason: "Ignored."},
		},
	}
	bookInput := &graphql.InputObject{
		Name: "BookInput",
		Fields: []graphql.InputField{
			{Name: "title", Type: nonNull(graphql.String), Rules: []validate.Rule{validate.Trimmed(validate.Max(200))}},
			{Name: "authorId", Type: nonNull(graphql.ID)},
			{Name: "genre", Type: genreEnum, Default: "fic"},
			{Name: "year", Type: graphql.Int},
			{Name: "tags", Type: list(nonNull(graphql.String)), Default: []any{},
				Rules: []validate.Rule{validate.Max(20), validate.Each(validate.Max(40))}},
			{Name: "published", Type: dateScalar},
			{Name: "rating", Type: graphql.Float},
		},
	}

	var bookT, authorT, reviewT *graphql.Object
	reviewT = &graphql.Object{
		Name:        "Review",
		Description: "A reader's review.\n",
		Fields: graphql.Fields{
			{Name: "stars", Type: nonNull(graphql.Int), Resolve: get(func(r *review) any { return r.Stars })},
			{Name: "text", Type: graphql.String, Resolve: get(func(r *review) any { return r.Text })},
			{Name: "reviewer", Type: nonNull(graphql.String), Resolve: get(func(r *review) any { return r.Reviewer })},
		},
	}
	bookT = &graphql.Object{
		Name:        "Book",
		Description: "A book in the \"static\" library.\n\nIt may hold \"\"\"triple quotes\"\"\" and a backslash: \\",
		Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{
				{Name: "id", Type: nonNull(graphql.ID), Resolve: get(func(b *book) any { return b.ID })},
				{Name: "title", Type: nonNull(graphql.String), Resolve: get(func(b *book) any { return b.Title })},
				{Name: "oldTitle", Type: graphql.String, DeprecationReason: "Use `title`.",
					Resolve: get(func(b *book) any { return b.Title })},
				{Name: "author", Type: nonNull(authorT), Resolve: get(func(b *book) any { return lib.author(b.AuthorID) })},
				{Name: "genre", Type: nonNull(genreEnum), Resolve: get(func(b *book) any { return b.Genre })},
				{Name: "year", Type: graphql.Int, Resolve: get(func(b *book) any { return b.Year })},
				{Name: "tags", Type: nonNull(list(nonNull(graphql.String))), Resolve: get(func(b *book) any { return b.Tags })},
				{Name: "published", Type: dateScalar, Resolve: get(func(b *book) any { return b.Published })},
				{Name: "rating", Type: graphql.Float, Resolve: get(func(b *book) any { return b.Rating })},
				{Name: "similar", Type: nonNull(list(nonNull(bookT))),
					Resolve: func(ctx context.Context, parent any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
						b := parent.(*book)
						out := make([]*book, len(b.SimilarIDs))
						for i, id := range b.SimilarIDs {
							out[i] = lib.book(ctx, id) // nil when missing: a null in [Book!]!
						}
						return out, nil
					}},
				{Name: "reviews", Type: list(reviewT), Resolve: get(func(b *book) any {
					if b.Reviews == nil {
						return nil
					}
					return b.Reviews
				})},
			}
		}),
	}
	authorT = &graphql.Object{
		Name: "Author",
		Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{
				{Name: "id", Type: nonNull(graphql.ID), Resolve: get(func(a *author) any { return a.ID })},
				{Name: "name", Type: nonNull(graphql.String), Resolve: get(func(a *author) any { return a.Name })},
				{Name: "born", Type: dateScalar, Resolve: get(func(a *author) any { return a.Born })},
				{Name: "books", Type: nonNull(list(nonNull(bookT))),
					Args: []graphql.Argument{{Name: "genre", Type: genreEnum}},
					Resolve: func(_ context.Context, parent any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
						a := parent.(*author)
						genre, _ := args.Value("genre").(string)
						out := []*book{}
						for _, b := range lib.Books {
							if b.AuthorID == a.ID && (genre == "" || b.Genre == genre) {
								out = append(out, b)
							}
						}
						return out, nil
					}},
				{Name: "secret", Type: graphql.String, Resolve: fail("secret is classified")},
			}
		}),
	}
	rangeEcho := &graphql.Object{
		Name: "RangeEcho",
		Fields: graphql.Fields{
			{Name: "keys", Type: nonNull(list(nonNull(graphql.String))),
				Resolve: get(func(r map[string]any) any { return sortedKeys(r) })},
			{Name: "from", Type: graphql.Int, Resolve: get(func(r map[string]any) any { return r["from"] })},
			{Name: "to", Type: graphql.Int, Resolve: get(func(r map[string]any) any { return r["to"] })},
		},
	}
	field := func(name string) graphql.ResolveFunc {
		return get(func(f map[string]any) any { return f[name] })
	}
	filterEcho := &graphql.Object{
		Name:        "FilterEcho",
		Description: "The coerced value of a BookFilter argument.",
		Fields: graphql.Fields{
			{Name: "keys", Type: nonNull(list(nonNull(graphql.String))),
				Description: "The names of the fields present after coercion, sorted.",
				Resolve:     get(func(f map[string]any) any { return sortedKeys(f) })},
			{Name: "title", Type: graphql.String, Resolve: field("title")},
			{Name: "genres", Type: list(nonNull(genreEnum)), Resolve: field("genres")},
			{Name: "minYear", Type: graphql.Int, Resolve: field("minYear")},
			{Name: "maxYear", Type: graphql.Int, Resolve: field("maxYear")},
			{Name: "published", Type: dateScalar, Resolve: field("published")},
			{Name: "limit", Type: graphql.Int, Resolve: field("limit")},
			{Name: "range", Type: rangeEcho, Resolve: field("range")},
			{Name: "tags", Type: list(nonNull(graphql.String)), Resolve: field("tags")},
			{Name: "legacy", Type: graphql.String, Resolve: field("legacy")},
		},
	}
	itemT := &graphql.Object{
		Name: "Item",
		Fields: graphql.Fields{
			{Name: "id", Type: nonNull(graphql.Int), Resolve: get(func(i item) any { return i.id })},
			{Name: "name", Type: nonNull(graphql.String), Description: "Fails for item 2.",
				Resolve: func(_ context.Context, parent any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
					if i := parent.(item); i.id != 2 {
						return fmt.Sprintf("item-%d", i.id), nil
					}
					return nil, errors.New("item 2 has no name")
				}},
			{Name: "label", Type: graphql.String, Description: "Fails for item 3.",
				Resolve: func(_ context.Context, parent any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
					if i := parent.(item); i.id != 3 {
						return fmt.Sprintf("label-%d", i.id), nil
					}
					return nil, errors.New("item 3 has no label")
				}},
		},
	}
	var nestT *graphql.Object
	nestT = &graphql.Object{
		Name:        "Nest",
		Description: "Fields that fail in every way a field can.",
		Fields: graphql.FieldsFunc(func() graphql.Fields {
			return graphql.Fields{
				{Name: "ok", Type: graphql.String, Resolve: constant("ok")},
				{Name: "fail", Type: graphql.String, Resolve: fail("nest.fail")},
				{Name: "failNonNull", Type: nonNull(graphql.String), Resolve: fail("nest.failNonNull")},
				{Name: "nullNonNull", Type: nonNull(graphql.String), Resolve: constant(nil)},
				{Name: "listWithNull", Type: list(graphql.String), Resolve: constant([]any{"a", nil, "c"})},
				{Name: "listOfNonNullWithNull", Type: list(nonNull(graphql.String)), Resolve: constant([]*string{ptr("a"), nil, ptr("c")})},
				{Name: "nonNullListOfNonNullWithNull", Type: nonNull(list(nonNull(graphql.String))), Resolve: constant([]any{"a", nil})},
				{Name: "nestedLists", Type: list(list(nonNull(graphql.Int))), Resolve: constant([][]any{{1, 2}, {3, nil}, {4}})},
				{Name: "failList", Type: list(graphql.String), Resolve: fail("nest.failList")},
				{Name: "items", Type: list(itemT), Resolve: constant(items())},
				{Name: "nonNullItems", Type: list(nonNull(itemT)), Resolve: constant(items())},
				{Name: "strictItems", Type: nonNull(list(nonNull(itemT))), Resolve: constant(items())},
				{Name: "child", Type: nestT, Resolve: constant(nest{})},
				{Name: "nonNullChild", Type: nonNull(nestT), Resolve: constant(nest{})},
			}
		}),
	}

	query := &graphql.Object{
		Name:        "Query",
		Description: "Reads.\n\n  Indented \"line\" kept.",
		Fields: graphql.Fields{
			{Name: "hello", Type: graphql.String, Resolve: constant("world")},
			{Name: "greet", Type: nonNull(graphql.String),
				Args: []graphql.Argument{
					{Name: "name", Type: graphql.String, Default: "world", Description: "Who to greet.",
						Rules: []validate.Rule{validate.Max(100)}},
					{Name: "times", Type: graphql.Int, Default: 1},
				},
				Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					times := argInt(args, "times")
					if times < 0 {
						return nil, errors.New("times must not be negative")
					}
					name := "null"
					if s, ok := args.Value("name").(string); ok {
						name = s
					}
					return "hello " + name + strings.Repeat("!", min(times, 5)), nil
				}},
			{Name: "book", Type: bookT,
				Args: []graphql.Argument{{Name: "id", Type: nonNull(graphql.ID)}},
				Resolve: func(ctx context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					if b := lib.book(ctx, argString(args, "id")); b != nil {
						return b, nil
					}
					return nil, nil
				}},
			{Name: "books", Type: nonNull(list(nonNull(bookT))), Description: "Books, filtered and ordered.",
				Args: []graphql.Argument{
					{Name: "filter", Type: bookFilter},
					{Name: "first", Type: graphql.Int, Default: 10},
					{Name: "orderBy", Type: bookOrderEnum, Default: "title-asc"},
					{Name: "genre", Type: genreEnum, DeprecationReason: "Use `filter.genres`."},
				},
				Resolve: func(ctx context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					return lib.listBooks(ctx, args)
				}},
			{Name: "authors", Type: nonNull(list(nonNull(authorT))), Resolve: constant(lib.Authors)},
			{Name: "author", Type: authorT,
				Args: []graphql.Argument{{Name: "id", Type: nonNull(graphql.ID)}},
				Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					return lib.author(argString(args, "id")), nil // a nil *author is null
				}},
			{Name: "echoInt", Type: graphql.Int, Args: []graphql.Argument{{Name: "v", Type: graphql.Int}}, Resolve: argument("v")},
			{Name: "echoFloat", Type: graphql.Float, Args: []graphql.Argument{{Name: "v", Type: graphql.Float}}, Resolve: argument("v")},
			{Name: "echoString", Type: graphql.String, Args: []graphql.Argument{{Name: "v", Type: graphql.String}}, Resolve: argument("v")},
			{Name: "echoBoolean", Type: graphql.Boolean, Args: []graphql.Argument{{Name: "v", Type: graphql.Boolean}}, Resolve: argument("v")},
			{Name: "echoID", Type: graphql.ID, Args: []graphql.Argument{{Name: "v", Type: graphql.ID}}, Resolve: argument("v")},
			{Name: "echoInts", Type: list(nonNull(graphql.Int)),
				Args: []graphql.Argument{{Name: "v", Type: list(nonNull(graphql.Int))}}, Resolve: argument("v")},
			{Name: "echoNested", Type: list(list(graphql.Int)),
				Args: []graphql.Argument{{Name: "v", Type: list(list(graphql.Int))}}, Resolve: argument("v")},
			{Name: "echoColor", Type: colorEnum, Args: []graphql.Argument{{Name: "c", Type: colorEnum}}, Resolve: argument("c")},
			{Name: "colorValue", Type: graphql.Int, Description: "The internal value of `c`.",
				Args: []graphql.Argument{{Name: "c", Type: nonNull(colorEnum)}}, Resolve: argument("c")},
			{Name: "echoColors", Type: nonNull(list(nonNull(colorEnum))),
				Args: []graphql.Argument{{Name: "cs", Type: nonNull(list(nonNull(colorEnum))), Default: []any{0}}}, Resolve: argument("cs")},
			{Name: "echoDate", Type: dateScalar, Args: []graphql.Argument{{Name: "d", Type: dateScalar}}, Resolve: argument("d")},
			{Name: "echoOdd", Type: oddScalar, Args: []graphql.Argument{{Name: "o", Type: oddScalar}}, Resolve: argument("o")},
			{Name: "echoFilter", Type: filterEcho,
				Args: []graphql.Argument{{Name: "f", Type: bookFilter,
					Default: map[string]any{"title": "Dune", "maxYear": 3000, "limit": 10, "tags": []any{"any"}}}},
				Resolve: argument("f")},
			{Name: "echoRequired", Type: nonNull(graphql.String),
				Args: []graphql.Argument{
					{Name: "n", Type: nonNull(graphql.Int)},
					{Name: "s", Type: nonNull(graphql.String), Default: "dflt"},
				},
				Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					return fmt.Sprintf("%d:%s", argInt(args, "n"), argString(args, "s")), nil
				}},
			{Name: "nest", Type: nestT, Resolve: constant(nest{})},
			{Name: "nonNullNest", Type: nonNull(nestT), Resolve: constant(nest{})},
			{Name: "failNullable", Type: graphql.String, Resolve: fail("failNullable")},
			{Name: "failNonNull", Type: nonNull(graphql.String), Resolve: fail("failNonNull")},
			{Name: "counter", Type: nonNull(graphql.Int),
				Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
					return stateOf(ctx).counter, nil
				}},
			{Name: "badColor", Type: colorEnum, Resolve: constant(42)},
			{Name: "badDate", Type: dateScalar, Resolve: constant("2021-02-29")},
			{Name: "badInt", Type: graphql.Int, Resolve: constant(int64(2147483648))},
			{Name: "badIntFloat", Type: graphql.Int, Resolve: constant(1.5)},
			{Name: "intFromFloat", Type: graphql.Int, Resolve: constant(3.0)},
			{Name: "stringFromInt", Type: graphql.String, Resolve: constant(42)},
			{Name: "idFromInt", Type: graphql.ID, Resolve: constant(7)},
			{Name: "nowDeprecated", Type: graphql.String, DeprecationReason: "No longer supported", Resolve: constant("still here")},
		},
	}

	increment := func(fails bool) graphql.ResolveFunc {
		return func(ctx context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
			st := stateOf(ctx)
			st.counter += argInt(args, "by")
			if fails {
				return nil, fmt.Errorf("failed after incrementing to %d", st.counter)
			}
			return st.counter, nil
		}
	}
	mutation := &graphql.Object{
		Name:        "Mutation",
		Description: "Writes. Root fields run one after another.",
		Fields: graphql.Fields{
			{Name: "increment", Type: nonNull(graphql.Int),
				Args: []graphql.Argument{{Name: "by", Type: graphql.Int, Default: 1}}, Resolve: increment(false)},
			{Name: "failingIncrement", Type: graphql.Int, Description: "Increments, then fails.",
				Args: []graphql.Argument{{Name: "by", Type: graphql.Int, Default: 1}}, Resolve: increment(true)},
			{Name: "failNonNull", Type: nonNull(graphql.Int), Resolve: fail("mutation failNonNull")},
			{Name: "counter", Type: nonNull(graphql.Int),
				Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
					return stateOf(ctx).counter, nil
				}},
			{Name: "addBook", Type: nonNull(bookT),
				Args: []graphql.Argument{{Name: "input", Type: nonNull(bookInput)}},
				Resolve: func(ctx context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					return lib.addBook(ctx, argInput(args, "input").Map())
				}},
		},
	}

	return graphql.NewSchema(graphql.SchemaConfig{
		Description: "The gqlkit conformance schema: a small library.",
		Query:       query,
		Mutation:    mutation,
	})
}
