package graphql_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
)

// The batched fields of the library (batch_test.go) under @skip and
// @include, fragments, argument rules, middleware, a tracer, a deadline
// and NewSchema's type checks.

func TestBatchSkipIncludeAndFragments(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	query := `query($withAuthor: Boolean!, $noReviews: Boolean!) {
		books {
			id
			author @include(if: $withAuthor) { ...who }
			...on Book { reviews @skip(if: $noReviews) { id } }
			...more
		}
	}
	fragment who on Author { name }
	fragment more on Book { writer: author @include(if: $withAuthor) { id } }`
	for _, tc := range []struct {
		vars, want string
		calls      []string
	}{
		{
			vars: `{"withAuthor": true, "noReviews": true}`,
			want: `{"data":{"books":[{"id":"b1","author":{"name":"Ada"},"writer":{"id":"a1"}},{"id":"b2","author":{"name":"Brecht"},"writer":{"id":"a2"}},` +
				`{"id":"b3","author":{"name":"Ada"},"writer":{"id":"a1"}},{"id":"b4","author":null,"writer":null}]}}`,
			calls: []string{"Book.author:b1,b2,b3,b4"},
		},
		{
			vars:  `{"withAuthor": false, "noReviews": false}`,
			want:  `{"data":{"books":[{"id":"b1","reviews":[{"id":"r1"},{"id":"r2"}]},{"id":"b2","reviews":[]},{"id":"b3","reviews":[{"id":"r3"}]},{"id":"b4","reviews":[]}]}}`,
			calls: []string{"Book.reviews(0):b1,b2,b3,b4"},
		},
		{
			vars:  `{"withAuthor": false, "noReviews": true}`,
			want:  `{"data":{"books":[{"id":"b1"},{"id":"b2"},{"id":"b3"},{"id":"b4"}]}}`,
			calls: nil,
		},
	} {
		l.calls = nil
		if got := response(t, s, query, "", tc.vars); got != tc.want {
			t.Errorf("%s: got  %s\nwant %s", tc.vars, got, tc.want)
		}
		if calls := l.statements(); !reflect.DeepEqual(calls, tc.calls) {
			t.Errorf("%s: statements: got %q, want %q", tc.vars, calls, tc.calls)
		}
	}
}

func TestBatchArgumentRulesOncePerBatch(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	got := response(t, s, `query($m: Int) { books { a: reviews(minStars: $m) { id } b: reviews(minStars: 4) { id } } }`, "", `{"m": 4}`)
	want := `{"data":{"books":[{"a":[{"id":"r1"}],"b":[{"id":"r1"}]},{"a":[],"b":[]},{"a":[{"id":"r3"}],"b":[{"id":"r3"}]},{"a":[],"b":[]}]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if calls := l.statements(); !reflect.DeepEqual(calls, []string{"Book.reviews(4):b1,b2,b3,b4"}) {
		t.Errorf("statements: got %q", calls)
	}
	if l.rules != 1 {
		t.Errorf("the rule ran %d times, want 1", l.rules)
	}
	// A failure is the field's error at every parent's path.
	got = response(t, s, `{ books { id reviews(minStars: 9) { id } } }`, "", "")
	if n := strings.Count(got, `VALIDATION_FAILED`); n != 4 || !strings.Contains(got, `"path":["books",3,"reviews"]`) {
		t.Errorf("got %d validation errors, want 4 at their own paths: %s", n, got)
	}
	if calls := l.statements(); len(calls) != 1 {
		t.Errorf("a failed validation called the resolver: %q", calls)
	}
}

func TestBatchMiddlewareAndTracerSeeOneCall(t *testing.T) {
	l := newLibrary()
	var seen []string
	mw := func(next graphql.ResolveFunc) graphql.ResolveFunc {
		return func(ctx context.Context, parent any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			if ps, ok := parent.(graphql.BatchParents); ok {
				seen = append(seen, fmt.Sprintf("%s batch of %d at %s", info.FieldName(), len(ps), info.Path()))
				if info.FieldName() == "checked" {
					return nil, fmt.Errorf("forbidden")
				}
			} else {
				seen = append(seen, info.FieldName()+" at "+info.Path().String())
			}
			return next(ctx, parent, args, info)
		}
	}
	s := l.schema(t, graphql.SchemaConfig{FieldMiddleware: []graphql.FieldMiddleware{mw}})
	tr := &recordingTracer{}
	op := prepare(t, s, `{ books { author { books { id } } checked } }`)
	res := execute(op, context.Background(), graphql.ExecParams{Tracer: tr})
	wantSeen := []string{
		"books at books",
		"author batch of 4 at books.author",
		"books batch of 3 at books.author.books",
		"checked batch of 4 at books.checked",
	}
	if !reflect.DeepEqual(seen, wantSeen) {
		t.Errorf("middleware saw %q, want %q", seen, wantSeen)
	}
	var fields []string
	for _, line := range tr.c.list() {
		if strings.HasPrefix(line, "field ") {
			fields = append(fields, line)
		}
	}
	wantFields := []string{"field Query.books books", "field Book.author books.author",
		"field Author.books books.author.books", "field Book.checked books.checked"}
	if !reflect.DeepEqual(fields, wantFields) {
		t.Errorf("tracer saw %q, want %q", fields, wantFields)
	}
	if len(res.Errors) != 4 || res.Errors[3].Path.String() != "books[3].checked" {
		t.Errorf("errors %v, want the middleware's at each book's checked", res.Errors)
	}
}

func TestBatchDeadline(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	// 500ms, not less: books and the slow batch must start before it on a
	// loaded CI host (race detector, packages tested in parallel).
	res := execute(prepare(t, s, `{ books { id slow author { books { id } } } }`), context.Background(),
		graphql.ExecParams{Deadline: time.Now().Add(500 * time.Millisecond)})
	if len(res.Errors) != 1 || fmt.Sprint(res.Errors[0].Extensions["code"]) != "TIMEOUT" || res.Errors[0].Path.String() != "books[0].slow" {
		t.Errorf("errors %v, want one TIMEOUT at books[0].slow", res.Errors)
	}
	want := `{"books":[{"id":"b1","slow":null,"author":null},{"id":"b2","slow":null,"author":null},{"id":"b3","slow":null,"author":null},{"id":"b4","slow":null,"author":null}]}`
	if string(res.Data) != want {
		t.Errorf("data %s, want %s", res.Data, want)
	}
	if calls := l.statements(); !reflect.DeepEqual(calls, []string{"Book.slow:b1,b2,b3,b4"}) {
		t.Errorf("statements %q, want only the slow one's: none runs past the deadline", calls)
	}
}

func TestBatchTypeChecks(t *testing.T) {
	for _, tc := range []struct {
		field graphql.Field
		want  string
	}{
		{graphql.Field{Name: "n", Type: graphql.Int,
			Batch: graphql.Batch(func(context.Context, []*libBook, graphql.NoArgs) ([]string, error) { return nil, nil })},
			"Item.n"},
		{graphql.Field{Name: "n", Type: graphql.Int, Args: []graphql.Argument{{Name: "first", Type: graphql.Int}},
			Batch: graphql.Batch(func(context.Context, []any, struct{ Last int }) ([]int, error) { return nil, nil })},
			"Item.n"},
		{graphql.Field{Name: "n", Type: graphql.Int, Resolve: constant(1),
			Batch: graphql.Batch(func(context.Context, []any, graphql.NoArgs) ([]int, error) { return nil, nil })},
			"Batch and another resolver"},
		{graphql.Field{Name: "n", Type: graphql.Int,
			Batch: graphql.Batch[any, graphql.NoArgs, int](nil)},
			"function is nil"},
	} {
		fields := graphql.Fields{{Name: "id", Type: graphql.ID}, tc.field}
		obj := &graphql.Object{Name: "Item", Fields: fields}
		query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
			{Name: "items", Type: graphql.NewList(obj),
				Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]*libBook, error) { return nil, nil })}}}
		_, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewSchema: %v, want an error naming %q", err, tc.want)
		}
	}
	// Mutation fields run one after another: none is batched.
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{{Name: "touch", Type: graphql.Int,
		Batch: graphql.Batch(func(context.Context, []any, graphql.NoArgs) ([]int, error) { return nil, nil })}}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{{Name: "n", Type: graphql.Int}}}
	_, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
	if err == nil || !strings.Contains(err.Error(), "Mutation.touch has a batch resolver") {
		t.Errorf("NewSchema: %v, want Mutation.touch refused", err)
	}
}

func TestBatchCost(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	op := prepare(t, s, `{ books { author { name books { id } } } }`)
	// books 1 + 1 × (author 1 + 1 × (name 1 + books 1 + 1 × id 1)) = 5
	res := execute(op, context.Background(), graphql.ExecParams{MaxCost: 5})
	if res.Cost != 5 || len(res.Errors) != 0 {
		t.Errorf("cost %d, errors %v; want 5 and none", res.Cost, res.Errors)
	}
	l.calls = nil
	if _, err := op.Execute(context.Background(), graphql.ExecParams{MaxCost: 4}); err == nil {
		t.Error("an operation over MaxCost ran")
	}
	if calls := l.statements(); len(calls) != 0 {
		t.Errorf("an operation over MaxCost called %q", calls)
	}
}

// TestBatchThroughFieldsWithoutResolver: fields read from their parent
// (a connection's edges and node) carry the batch, so the authors of a
// page's nodes are one call, and a null edge does not shift the results
// of the edges after it.
func TestBatchThroughFieldsWithoutResolver(t *testing.T) {
	l := newLibrary()
	s := l.schema(t, graphql.SchemaConfig{})
	got := response(t, s, `{ page { edges { cursor node { id author { name books { id } } } } } }`, "", "")
	want := `{"data":{"page":{"edges":[{"cursor":"c1","node":{"id":"b1","author":{"name":"Ada","books":[{"id":"b1"},{"id":"b3"}]}}},null,` +
		`{"cursor":"c3","node":{"id":"b3","author":{"name":"Ada","books":[{"id":"b1"},{"id":"b3"}]}}},{"cursor":"c4","node":{"id":"b4","author":null}}]}},` +
		`"errors":[{"message":"Cannot return null for non-nullable field BookEdge.cursor.","locations":[{"line":1,"column":18}],"path":["page","edges",1,"cursor"]}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantCalls := []string{"Book.author:b1,b2,b3,b4", "Author.books:a1,a2,a1"}
	if calls := l.statements(); !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("statements: got %q, want %q", calls, wantCalls)
	}
}

// BenchmarkBatchLevels runs four levels over the library, three of them
// batched: the executor's own cost of batching (the batch functions scan
// a few rows in memory).
func BenchmarkBatchLevels(b *testing.B) {
	l := newLibrary()
	s := l.schema(b, graphql.SchemaConfig{})
	p := graphql.NewPreparer(s, graphql.PrepareConfig{})
	pr, errs, fault := p.Prepare(context.Background(), `{ books { id author { name books { id reviews { id } } } } }`, graphql.PrepareOptions{})
	if fault != nil || errs != nil {
		b.Fatal(fault, errs)
	}
	defer pr.Release()
	b.ReportAllocs()
	for b.Loop() {
		l.calls = l.calls[:0]
		res, err := pr.Operation.Execute(context.Background(), graphql.ExecParams{})
		if err != nil || len(res.Errors) != 0 {
			b.Fatal(err, res.Errors)
		}
	}
}
