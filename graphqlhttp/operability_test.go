package graphqlhttp_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/limits"
)

// tracer records what the endpoint tells it, one line per call.
type tracer struct {
	mu    sync.Mutex
	lines []string
}

type tracerKey struct{}

func (tr *tracer) add(line string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, line)
}

// take returns the lines so far and forgets them.
func (tr *tracer) take() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	out := strings.Join(tr.lines, "\n")
	tr.lines = nil
	return out
}

func (tr *tracer) StartRequest(ctx context.Context) context.Context {
	tr.add("request")
	return context.WithValue(ctx, tracerKey{}, "request span")
}

func (tr *tracer) Phase(ctx context.Context, p graphql.PhaseInfo) {
	line := "phase " + p.Phase.String()
	if p.Cached {
		line += " cached"
	}
	if ctx.Value(tracerKey{}) == nil {
		line += " (without StartRequest's context)"
	}
	tr.add(line)
}

func (tr *tracer) StartField(ctx context.Context, info graphql.ResolveInfo) context.Context {
	if ctx.Value(tracerKey{}) == nil {
		tr.add("field without StartRequest's context")
	}
	tr.add("field " + info.ParentType().Name + "." + info.FieldName())
	return ctx
}

func (tr *tracer) EndField(context.Context, graphql.ResolveInfo, error) {}

func (tr *tracer) EndRequest(_ context.Context, info graphql.RequestInfo) {
	tr.add(fmt.Sprintf("end %s %q cost=%d status=%d code=%q errors=%d document=%q",
		info.OperationType, info.OperationName, info.Cost, info.Status, info.ErrorCode, info.Errors, info.Document))
}

func TestTracerOverHTTP(t *testing.T) {
	var tr tracer
	ts := newTestServer(t, graphqlhttp.Config{Tracer: &tr})
	queryA := `query Feed($n: Int) { posts(first: $n) { id author { name } } }`
	miss := ts.send(t, request{contentType: "application/json", body: jsonBody(queryA, `{"n": 2}`, "")})
	if miss.status != http.StatusOK {
		t.Fatalf("status = %d, body %s", miss.status, miss.body)
	}
	// posts costs 1 + 2 × (1 + 1 + 1): the variable, after coercion.
	end := fmt.Sprintf(`end query "Feed" cost=7 status=200 code="" errors=0 document=%q`, queryA)
	want := strings.Join([]string{"request", "phase read", "phase scan", "phase parse", "phase validate", "phase coerce",
		"field Query.posts", "field Post.author", "field Post.author", "phase execute", "phase write", end}, "\n")
	if got := tr.take(); got != want {
		t.Errorf("first request:\n%s\nwant:\n%s", got, want)
	}
	// A document is cached from its second request: that one is checked
	// again, the third comes from the cache.
	if again := ts.send(t, request{contentType: "application/json", body: jsonBody(queryA, `{"n": 2}`, "")}); again.body != miss.body {
		t.Fatalf("second answer %s differs from the first %s", again.body, miss.body)
	}
	if got := tr.take(); got != want {
		t.Errorf("second request:\n%s\nwant:\n%s", got, want)
	}
	hit := ts.send(t, request{contentType: "application/json", body: jsonBody(queryA, `{"n": 2}`, "")})
	if hit.body != miss.body {
		t.Fatalf("third answer %s differs from the first %s", hit.body, miss.body)
	}
	want = strings.Join([]string{"request", "phase read", "phase validate cached", "phase coerce",
		"field Query.posts", "field Post.author", "field Post.author", "phase execute", "phase write", end}, "\n")
	if got := tr.take(); got != want {
		t.Errorf("third request (from the cache):\n%s\nwant:\n%s", got, want)
	}

	ts.send(t, request{contentType: "application/json", body: jsonBody("{ posts { id ", "", "")})
	want = strings.Join([]string{"request", "phase read", "phase scan", "phase parse", "phase write",
		`end  "" cost=-1 status=400 code="GRAPHQL_PARSE_FAILED" errors=1 document="{ posts { id "`}, "\n")
	if got := tr.take(); got != want {
		t.Errorf("a document that does not parse:\n%s\nwant:\n%s", got, want)
	}

	ts.send(t, request{contentType: "text/plain", body: "{ posts { id } }"})
	want = strings.Join([]string{"request", "phase read", "phase write", `end  "" cost=-1 status=415 code="BAD_USER_INPUT" errors=1 document=""`}, "\n")
	if got := tr.take(); got != want {
		t.Errorf("a refused body:\n%s\nwant:\n%s", got, want)
	}

	// A masked error is the most serious one of the answer, whatever
	// its place.
	ts.send(t, request{contentType: "application/json", body: jsonBody(`{ forbidden fail }`, "", "")})
	got := tr.take()
	if !strings.HasSuffix(got, `status=200 code="INTERNAL_SERVER_ERROR" errors=2 document="{ forbidden fail }"`) {
		t.Errorf("an answer with a 404-coded and a masked error:\n%s", got)
	}

	// Over the cost limit: the cost is reported, no field runs.
	ts2 := newTestServer(t, graphqlhttp.Config{Tracer: &tr, Limits: limits.Config{MaxCost: 10}})
	ts2.send(t, request{contentType: "application/json", body: jsonBody(`{ posts(first: 50) { id } }`, "", "")})
	want = strings.Join([]string{"request", "phase read", "phase scan", "phase parse", "phase validate", "phase coerce", "phase write",
		`end query "" cost=51 status=400 code="QUERY_LIMIT_EXCEEDED" errors=1 document="{ posts(first: 50) { id } }"`}, "\n")
	if got := tr.take(); got != want {
		t.Errorf("over the cost limit:\n%s\nwant:\n%s", got, want)
	}
}

func TestTimeoutOverHTTP(t *testing.T) {
	var ran []string
	var mu sync.Mutex
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		ran = append(ran, s)
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "quick", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			note("quick")
			return "done", nil
		}},
		{Name: "report", Type: graphql.String, Resolve: func(ctx context.Context, _ any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			note("report")
			select { // a database call that honours its context
			case <-ctx.Done():
				return nil, fmt.Errorf("query canceled: %w", ctx.Err())
			case <-time.After(5 * time.Second):
				return "late", nil
			}
		}},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	// 500ms, not less: quick and report must be called before it on a
	// loaded CI host (race detector, packages tested in parallel).
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: apierror.Presenter{Logger: nopLogger()}, Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, h)
	ts := &testServer{Server: srv}
	r := request{contentType: "application/json", body: jsonBody(`{ quick report again: quick }`, "", "")}
	start := time.Now()
	got := ts.send(t, r)
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("the answer took %v with a 500ms timeout", took)
	}
	check(t, r, got, want{status: http.StatusOK, body: `{"data":{"quick":"done","report":null,"again":null},"errors":[{"message":"` +
		graphql.MessageTimeout + `","locations":[{"line":1,"column":9}],"path":["report"],"extensions":{"code":"TIMEOUT"}}]}`})
	if strings.Join(ran, " ") != "quick report" {
		t.Errorf("resolvers run: %v, want quick report (none after the deadline)", ran)
	}
	// A negative Timeout means no bound, as 0 does (the zero-value rule).
	if _, err := graphqlhttp.New(schema, graphqlhttp.Config{Timeout: -time.Second}); err != nil {
		t.Errorf("New refused a negative Timeout: %v", err)
	}
}

func TestIntrospectionPerRequest(t *testing.T) {
	staff := func(ctx context.Context) bool {
		id, ok := auth.UserID(ctx)
		return ok && id == 1
	}
	ts := newTestServer(t, graphqlhttp.Config{AllowIntrospection: staff})
	refused := wantBody(400, errorsBodyAt("GraphQL introspection is not allowed, but the query contained __schema.", "GRAPHQL_VALIDATION_FAILED", 1, 3))
	allowed := want{status: 200, body: `{"data":{"__schema":{"queryType":{"name":"Query"}}}}`}
	schemaQuery := jsonBody(`{ __schema { queryType { name } } }`, "", "")
	typo := jsonBody(`{ post(id: "1") { titel } }`, "", "")
	suggestion := wantBody(400, errorsBodyAt(`Cannot query field "titel" on type "Post". Did you mean "title"?`, "GRAPHQL_VALIDATION_FAILED", 1, 19))
	plain := wantBody(400, errorsBodyAt(`Cannot query field "titel" on type "Post".`, "GRAPHQL_VALIDATION_FAILED", 1, 19))
	// Twice each, in turns, so that an answer from the cache is checked
	// too: the documents of the two kinds of request are kept apart.
	for range 2 {
		for _, tt := range []struct {
			name string
			r    request
			want want
		}{
			{"anonymous", request{contentType: "application/json", body: schemaQuery}, refused},
			{"staff", request{contentType: "application/json", body: schemaQuery, authorization: ts.token(t, 1)}, allowed},
			{"another user", request{contentType: "application/json", body: schemaQuery, authorization: ts.token(t, 2)}, refused},
			{"staff typo", request{contentType: "application/json", body: typo, authorization: ts.token(t, 1)}, suggestion},
			{"anonymous typo", request{contentType: "application/json", body: typo}, plain},
		} {
			t.Run(tt.name, func(t *testing.T) { check(t, tt.r, ts.send(t, tt.r), tt.want) })
		}
	}
}
