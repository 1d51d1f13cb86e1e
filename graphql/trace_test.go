package graphql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

// recordingTracer writes down what it is told, one line per call.
type recordingTracer struct{ c calls }

type spanKey struct{}

func (r *recordingTracer) StartRequest(ctx context.Context) context.Context {
	r.c.add("request")
	return ctx
}

func (r *recordingTracer) Phase(_ context.Context, p graphql.PhaseInfo) {
	line := "phase " + p.Phase.String()
	if p.Cached {
		line += " cached"
	}
	if p.Start.IsZero() || p.Duration < 0 {
		line += " (bad times)"
	}
	r.c.add(line)
}

func (r *recordingTracer) StartField(ctx context.Context, info graphql.ResolveInfo) context.Context {
	r.c.add("field " + info.ParentType().Name + "." + info.FieldName() + " " + info.Path().String())
	return context.WithValue(ctx, spanKey{}, info.Path().String())
}

func (r *recordingTracer) EndField(ctx context.Context, info graphql.ResolveInfo, err error) {
	line := "end " + info.Path().String()
	if ctx.Value(spanKey{}) != info.Path().String() {
		line += " (not StartField's context)"
	}
	var pe *errcode.PanicError
	switch {
	case errors.As(err, &pe):
		line += " panic"
	case err != nil:
		line += " error " + err.Error()
	}
	r.c.add(line)
}

func (r *recordingTracer) EndRequest(_ context.Context, info graphql.RequestInfo) {
	r.c.add(fmt.Sprintf("end request %+v", info))
}

func traceSchema(t *testing.T) *graphql.Schema {
	type tag struct{ Name string }
	type post struct {
		Title string
		Tags  []tag
	}
	tagType := &graphql.Object{Name: "Tag", Fields: graphql.Fields{{Name: "name", Type: graphql.String}}}
	postType := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "title", Type: graphql.String},
		{Name: "tags", Type: graphql.NewList(tagType)},
		{Name: "upper", Type: graphql.String, Resolve: func(ctx context.Context, p any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			if ctx.Value(spanKey{}) == nil {
				return nil, errors.New("the resolver did not get the tracer's context")
			}
			return strings.ToUpper(p.(post).Title), nil
		}},
		{Name: "broken", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			panic("broken")
		}},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewList(postType), Args: []graphql.Argument{{Name: "first", Type: graphql.Int}},
			Resolve: constant([]post{{Title: "a", Tags: []tag{{"x"}}}, {Title: "b"}})},
	}}
	return newSchema(t, graphql.SchemaConfig{Query: query})
}

func TestTracerSeesResolverFieldsOnly(t *testing.T) {
	s := traceSchema(t)
	op := prepare(t, s, `query Q($n: Int) { posts(first: $n) { title upper tags { name } } }`)
	var tr recordingTracer
	res := execute(op, context.Background(), graphql.ExecParams{Tracer: &tr, Variables: map[string]any{"n": 2}})
	if got, want := string(res.Data), `{"posts":[{"title":"a","upper":"A","tags":[{"name":"x"}]},{"title":"b","upper":"B","tags":null}]}`; got != want {
		t.Fatalf("data = %s, want %s (errors %v)", got, want, res.Errors)
	}
	want := []string{
		"phase coerce",
		"field Query.posts posts", "end posts",
		"field Post.upper posts[0].upper", "end posts[0].upper",
		"field Post.upper posts[1].upper", "end posts[1].upper",
		"phase execute",
	}
	if got := tr.c.list(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tracer calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTracerDefaultFieldsAndPanics(t *testing.T) {
	s := traceSchema(t)
	op := prepare(t, s, `{ posts { title broken } }`)
	var tr recordingTracer
	res := execute(op, context.Background(), graphql.ExecParams{Tracer: &tr, TraceDefaultFields: true})
	if len(res.Errors) != 2 {
		t.Fatalf("errors = %v, want one per broken field", res.Errors)
	}
	want := []string{
		"phase coerce",
		"field Query.posts posts", "end posts",
		"field Post.title posts[0].title", "end posts[0].title",
		"field Post.broken posts[0].broken", "end posts[0].broken panic",
		"field Post.title posts[1].title", "end posts[1].title",
		"field Post.broken posts[1].broken", "end posts[1].broken panic",
		"phase execute",
	}
	if got := tr.c.list(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tracer calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The tracer learns the cost, computed after coercion, even when no
// limit asks for it.
func TestTracerGetsTheCost(t *testing.T) {
	s := traceSchema(t)
	op := prepare(t, s, `{ posts { title } }`)
	var tr recordingTracer
	res := execute(op, context.Background(), graphql.ExecParams{Tracer: &tr})
	if res.Cost != 2 {
		t.Errorf("Cost = %d, want 2", res.Cost)
	}
	if res := execute(op, context.Background(), graphql.ExecParams{MaxCost: -1}); res.Cost != 0 {
		t.Errorf("Cost without a tracer or a limit = %d, want 0 (not computed)", res.Cost)
	}
}

// slow is a resolver that waits for its context to end (or 10 s, far past
// the tests' deadlines), recording that it ran.
func slow(c *calls, name string) graphql.ResolveFunc {
	return func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
		c.add(name)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Second):
			return name, nil
		}
	}
}

func recorded(c *calls, name string, v any) graphql.ResolveFunc {
	return func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
		c.add(name)
		return v, nil
	}
}

func TestDeadlineQuery(t *testing.T) {
	var c calls
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "fast", Type: graphql.String, Resolve: recorded(&c, "fast", "ok")},
		{Name: "slow", Type: graphql.String, Resolve: slow(&c, "slow")},
		{Name: "slower", Type: graphql.String, Resolve: slow(&c, "slower")},
		{Name: "required", Type: graphql.NewNonNull(graphql.String), Resolve: recorded(&c, "required", "r")},
		// A resolver that fails its own way once out of time still
		// counts as timed out.
		{Name: "failing", Type: graphql.String, Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			<-ctx.Done()
			return nil, errors.New("driver: interrupted")
		}},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: query})
	// 500ms, not less: fast and slow must both be called before it on a
	// loaded CI host (race detector, packages tested in parallel).
	deadline := func() time.Time { return time.Now().Add(500 * time.Millisecond) }

	res := execute(prepare(t, s, `{ fast slow slower }`), context.Background(), graphql.ExecParams{Deadline: deadline()})
	got, _ := res.MarshalJSON()
	want := `{"data":{"fast":"ok","slow":null,"slower":null},"errors":[{"message":"` + graphql.MessageTimeout +
		`","locations":[{"line":1,"column":8}],"path":["slow"],"extensions":{"code":"TIMEOUT"}}]}`
	if string(got) != want {
		t.Errorf("response = %s\nwant       %s", got, want)
	}
	if calls := strings.Join(c.list(), " "); calls != "fast slow" {
		t.Errorf("resolvers called: %s, want fast slow (none after the deadline)", calls)
	}

	// A non-null field not resolved in time nulls its parent.
	res = execute(prepare(t, s, `{ slow required }`), context.Background(), graphql.ExecParams{Deadline: deadline()})
	if got, _ := res.MarshalJSON(); string(got) != `{"data":null,"errors":[{"message":"`+graphql.MessageTimeout+
		`","locations":[{"line":1,"column":3}],"path":["slow"],"extensions":{"code":"TIMEOUT"}}]}` {
		t.Errorf("with a non-null field after the deadline: %s", got)
	}

	res = execute(prepare(t, s, `{ failing fast }`), context.Background(), graphql.ExecParams{Deadline: deadline()})
	if got, _ := res.MarshalJSON(); string(got) != `{"data":{"failing":null,"fast":null},"errors":[{"message":"`+graphql.MessageTimeout+
		`","locations":[{"line":1,"column":3}],"path":["failing"],"extensions":{"code":"TIMEOUT"}}]}` {
		t.Errorf("a resolver failing after the deadline: %s", got)
	}

	// A deadline that does not pass changes nothing.
	res = execute(prepare(t, s, `{ fast required }`), context.Background(), graphql.ExecParams{Deadline: time.Now().Add(time.Minute)})
	if got, _ := res.MarshalJSON(); string(got) != `{"data":{"fast":"ok","required":"r"}}` {
		t.Errorf("within the deadline: %s", got)
	}
}

func TestDeadlineMutationRootFieldsAllRun(t *testing.T) {
	var c calls
	type result struct{ ID string }
	resultType := &graphql.Object{Name: "Result", Fields: graphql.Fields{
		{Name: "id", Type: graphql.String},
		{Name: "detail", Type: graphql.String, Resolve: recorded(&c, "detail", "d")},
	}}
	write := func(name string) graphql.ResolveFunc {
		return func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			c.add(name)
			if _, ok := ctx.Deadline(); ok {
				return nil, errors.New(name + " got a deadline")
			}
			time.Sleep(40 * time.Millisecond) // past the deadline
			return result{ID: name}, nil
		}
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{{Name: "a", Type: graphql.String}}}
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "first", Type: resultType, Resolve: write("first")},
		{Name: "second", Type: resultType, Resolve: write("second")},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: query, Mutation: mutation})
	op := prepare(t, s, `mutation { first { id detail } second { id detail } }`)
	res := execute(op, context.Background(), graphql.ExecParams{Deadline: time.Now().Add(20 * time.Millisecond)})
	got, _ := res.MarshalJSON()
	want := `{"data":{"first":{"id":"first","detail":null},"second":{"id":"second","detail":null}},"errors":[{"message":"` +
		graphql.MessageTimeout + `","locations":[{"line":1,"column":23}],"path":["first","detail"],"extensions":{"code":"TIMEOUT"}}]}`
	if string(got) != want {
		t.Errorf("response = %s\nwant       %s", got, want)
	}
	if calls := strings.Join(c.list(), " "); calls != "first second" {
		t.Errorf("resolvers called: %s, want both root fields and nothing below them", calls)
	}
}

// A client that goes away is not a timeout: the error is the context's,
// as before.
func TestDeadlineAndCancellationDiffer(t *testing.T) {
	var c calls
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "slow", Type: graphql.String, Resolve: slow(&c, "slow")},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: query})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	res := execute(prepare(t, s, `{ slow }`), ctx, graphql.ExecParams{Deadline: time.Now().Add(time.Minute)})
	if len(res.Errors) != 1 || res.Errors[0].Extensions["code"] == errcode.CodeTimeout || !errors.Is(res.Errors[0], context.Canceled) {
		t.Errorf("errors = %v, want the one cancellation error", res.Errors)
	}
}

// TestTracerAllocatesNothing: a tracer of the resolver fields costs an
// execution no allocation of the engine's: the executor holds it as
// given, not wrapped. (TraceDefaultFields costs the context of each field
// read from its parent, which the read may hand a method.)
func TestTracerAllocatesNothing(t *testing.T) {
	s := traceSchema(t)
	op := prepare(t, s, `{ posts(first: 2) { title upper } }`)
	buf := make([]byte, 0, 4096)
	run := func(p graphql.ExecParams) float64 {
		return testing.AllocsPerRun(50, func() {
			p.Dst = buf[:0]
			if _, err := op.Execute(context.Background(), p); err != nil {
				t.Fatal(err)
			}
		})
	}
	base := run(graphql.ExecParams{})
	if got := run(graphql.ExecParams{Tracer: passTracer{}}); got != base {
		t.Errorf("%v allocations with a tracer, want %v as without one", got, base)
	}
}
