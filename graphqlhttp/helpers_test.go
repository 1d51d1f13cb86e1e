package graphqlhttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/internal/logbuf"
)

// testSecret signs the tokens of every test; otherSecret signs tokens that
// the test verifier must refuse.
var (
	testSecret  = []byte("graphqlhttp-test-secret-0123456789abcdef")
	otherSecret = []byte("graphqlhttp-other-secret-0123456789abcdef")
)

// Messages the resolvers of the test schema fail with.
const (
	secretCause     = "dial tcp 10.0.0.7:5432: password authentication failed for user \"app\""
	panicValue      = "resolver exploded"
	forbiddenMsg    = "You may not read this."
	conflictMsg     = "The post was changed by someone else."
	titleRequired   = "The title field is required."
	authenticateBug = "authenticate exploded"
)

// errUserGone is what a store answers for a user that no longer exists:
// log text wrapping a client view that is UNAUTHENTICATED.
var errUserGone = fmt.Errorf("user 3 does not exist: %w", errcode.Unauthenticated(""))

// conflictError is an HTTP-style error from outside the kit: any type with
// a StatusCode method.
type conflictError struct{}

func (conflictError) Error() string   { return conflictMsg }
func (conflictError) StatusCode() int { return http.StatusConflict }

// sampleUser and samplePost are the in-memory rows of the sample schema.
type sampleUser struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type samplePost struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Body      string   `json:"body"`
	Tags      []string `json:"tags"`
	CreatedAt string   `json:"createdAt"`
	AuthorID  string   `json:"-"`
}

// samplePostInput is CreatePostInput.
type samplePostInput struct {
	Title string
	Body  string
	Tags  []string
}

// sampleData is the benchmark workload (bench/README.md): 50 posts with 3
// tags each and one of 5 authors.
type sampleData struct {
	users map[string]*sampleUser
	posts []*samplePost
	byID  map[string]*samplePost
}

func newSampleData() *sampleData {
	d := &sampleData{users: map[string]*sampleUser{}, byID: map[string]*samplePost{}}
	for i, name := range []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov"} {
		id := strconv.Itoa(i + 1)
		d.users[id] = &sampleUser{ID: id, Name: name}
	}
	for i := 1; i <= 50; i++ {
		p := &samplePost{
			ID:        strconv.Itoa(i),
			Title:     fmt.Sprintf("Post %d", i),
			Body:      strings.Repeat("body ", 30),
			Tags:      []string{"graphql", "go", "http"},
			CreatedAt: fmt.Sprintf("2026-01-%02dT09:00:00Z", i%28+1),
			AuthorID:  strconv.Itoa(i%5 + 1),
		}
		d.posts = append(d.posts, p)
		d.byID[p.ID] = p
	}
	return d
}

// sampleTypes builds the sample schema's types over d: User, Post,
// CreatePostInput and the posts/post query fields and createPost mutation
// field. mutations counts the mutation resolver calls.
func sampleTypes(d *sampleData, mutations *atomic.Int64) (queryFields, mutationFields graphql.Fields) {
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
		{Name: "author", Type: user, Typed: graphql.Resolver(func(_ context.Context, p *samplePost, _ graphql.NoArgs) (*sampleUser, error) {
			return d.users[p.AuthorID], nil
		})},
	}}
	input := &graphql.InputObject{Name: "CreatePostInput", Fields: []graphql.InputField{
		{Name: "title", Type: graphql.NewNonNull(graphql.String)},
		{Name: "body", Type: graphql.NewNonNull(graphql.String)},
		{Name: "tags", Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
	}}
	queryFields = graphql.Fields{
		{Name: "posts", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(post))),
			Args: []graphql.Argument{{Name: "first", Type: graphql.Int, Default: 10}},
			Cost: graphql.Cost{SizeArg: "first"},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ First int }) ([]*samplePost, error) {
				return d.posts[:min(max(args.First, 0), 50)], nil
			})},
		{Name: "post", Type: post, Args: []graphql.Argument{{Name: "id", Type: graphql.NewNonNull(graphql.ID)}},
			Typed: graphql.Resolver(func(_ context.Context, _ any, args struct{ ID string }) (*samplePost, error) {
				return d.byID[args.ID], nil
			})},
	}
	mutationFields = graphql.Fields{
		{Name: "createPost", Type: graphql.NewNonNull(post),
			Args: []graphql.Argument{{Name: "input", Type: graphql.NewNonNull(input)}},
			Typed: graphql.Resolver(func(ctx context.Context, _ any, args struct{ Input samplePostInput }) (*samplePost, error) {
				mutations.Add(1)
				id, ok := auth.UserID(ctx)
				if !ok {
					return nil, errors.New("createPost ran without a user")
				}
				in := args.Input
				return &samplePost{ID: "51", Title: in.Title, Body: in.Body, Tags: in.Tags,
					CreatedAt: "2026-02-01T00:00:00Z", AuthorID: strconv.FormatInt(id, 10)}, nil
			})},
	}
	return queryFields, mutationFields
}

// sampleSchema is the sample schema the benchmarks serve (bench/README.md;
// the example server adds deletePost).
func sampleSchema(tb testing.TB) *graphql.Schema {
	tb.Helper()
	q, m := sampleTypes(newSampleData(), new(atomic.Int64))
	s, err := graphql.NewSchema(graphql.SchemaConfig{
		Query:    &graphql.Object{Name: "Query", Fields: q},
		Mutation: &graphql.Object{Name: "Mutation", Fields: m},
	})
	if err != nil {
		tb.Fatalf("NewSchema: %v", err)
	}
	return s
}

// testSchema is the sample schema plus fields that exercise the handler:
// echoes for literal and variable coercion, a recursive Node for depth,
// list arguments for tokens, a JSON scalar for nesting, and resolvers that
// fail in every way the presenter distinguishes.
func testSchema(tb testing.TB, mutations *atomic.Int64) *graphql.Schema {
	tb.Helper()
	return buildTestSchema(tb, mutations, true)
}

// buildTestSchema builds the test schema; without bugs, the custom scalar
// Loud never panics (the fuzz targets use it so, as a panic outside
// resolvers is a 500 by design).
func buildTestSchema(tb testing.TB, mutations *atomic.Int64, bugs bool) *graphql.Schema {
	tb.Helper()
	q, m := sampleTypes(newSampleData(), mutations)
	constant := func(v any) graphql.ResolveFunc {
		return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return v, nil }
	}
	fail := func(err error) graphql.ResolveFunc {
		return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return nil, err }
	}
	var node *graphql.Object
	node = &graphql.Object{Name: "Node", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "name", Type: graphql.String, Resolve: constant("n")},
			{Name: "child", Type: node, Resolve: constant(struct{}{})},
		}
	})}
	filter := &graphql.InputObject{Name: "Filter", Fields: []graphql.InputField{
		{Name: "name", Type: graphql.String},
		{Name: "limit", Type: graphql.Int, Default: 10},
	}}
	jsonScalar := &graphql.Scalar{Name: "JSON",
		Serialize:  func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) { return v, nil },
	}
	// Loud is a custom scalar whose parser panics on "boom", a bug in
	// application code outside any resolver.
	loud := &graphql.Scalar{Name: "Loud",
		Serialize: func(v any) (any, error) { return v, nil },
		ParseValue: func(v any) (any, error) {
			s, ok := v.(string)
			switch {
			case !ok:
				return nil, errors.New("Loud must be a string")
			case s == "boom" && bugs:
				panic("Loud parser exploded")
			}
			return strings.ToUpper(s), nil
		},
	}
	q = append(q, graphql.Fields{
		{Name: "shout", Type: graphql.String, Args: []graphql.Argument{{Name: "v", Type: loud}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				return args.Value("v"), nil
			}},
		{Name: "hello", Type: graphql.String, Resolve: constant("world")},
		{Name: "echoInt", Type: graphql.Int, Args: []graphql.Argument{{Name: "v", Type: graphql.Int}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				return args.Value("v"), nil
			}},
		{Name: "echoStr", Type: graphql.String, Args: []graphql.Argument{{Name: "v", Type: graphql.String}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				return args.Value("v"), nil
			}},
		{Name: "node", Type: node, Resolve: constant(struct{}{})},
		{Name: "search", Type: graphql.String, Args: []graphql.Argument{{Name: "filter", Type: filter}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				filter, err := args.Input("filter")
				if err != nil {
					return nil, err
				}
				b, err := json.Marshal(filter)
				return string(b), err
			}},
		{Name: "json", Type: graphql.Int, Args: []graphql.Argument{{Name: "v", Type: jsonScalar}}, Resolve: constant(1)},
		{Name: "l", Type: graphql.Int,
			Args: []graphql.Argument{{Name: "v", Type: graphql.NewList(graphql.NewList(graphql.Int))}, {Name: "w", Type: graphql.Int}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				v, _ := args.Value("v").([]any)
				return len(v), nil
			}},
		{Name: "strs", Type: graphql.Int, Args: []graphql.Argument{{Name: "v", Type: graphql.NewList(graphql.String)}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
				v, _ := args.Value("v").([]any)
				return len(v), nil
			}},
		{Name: "fail", Type: graphql.String, Resolve: fail(errors.New(secretCause))},
		{Name: "panic", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			panic(panicValue)
		}},
		{Name: "forbidden", Type: graphql.String, Resolve: fail(errcode.Forbidden(forbiddenMsg))},
		{Name: "invalid", Type: graphql.String, Resolve: fail(errcode.ValidationFailed("", map[string][]string{
			"input.title": {titleRequired},
		}))},
		{Name: "conflict", Type: graphql.String, Resolve: fail(fmt.Errorf("saving post 7: %w", conflictError{}))},
		// gone and goneOrNull fail as a store does for a token whose user
		// was deleted.
		{Name: "gone", Type: graphql.NewNonNull(graphql.Int), Resolve: fail(errUserGone)},
		{Name: "goneOrNull", Type: graphql.Int, Resolve: fail(errUserGone)},
		{Name: "me", Type: graphql.Int, Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			if id, ok := auth.UserID(ctx); ok {
				return id, nil
			}
			return nil, nil
		}},
		{Name: "userAgent", Type: graphql.String, Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			r, ok := graphqlhttp.Request(ctx)
			if !ok {
				return nil, errors.New("no request in the context")
			}
			return r.Header.Get("User-Agent"), nil
		}},
	}...)
	m = append(m, graphql.Field{Name: "leave", Type: graphql.NewNonNull(graphql.Int),
		Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			mutations.Add(1)
			return nil, errUserGone
		}})
	m = append(m, graphql.Field{Name: "whoami", Type: graphql.NewNonNull(graphql.Int),
		Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			mutations.Add(1)
			id, ok := auth.UserID(ctx)
			if !ok {
				return nil, errors.New("whoami ran without a user")
			}
			return id, nil
		}})
	s, err := graphql.NewSchema(graphql.SchemaConfig{
		Query:    &graphql.Object{Name: "Query", Fields: q},
		Mutation: &graphql.Object{Name: "Mutation", Fields: m},
	})
	if err != nil {
		tb.Fatalf("NewSchema: %v", err)
	}
	return s
}

// logLines returns the decoded JSON log lines that contain substr.
func logLines(t *testing.T, logs *logbuf.Buffer, substr string) []map[string]any {
	t.Helper()
	lines, err := logs.Lines(substr)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}
