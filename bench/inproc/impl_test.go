package inproc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	gophersgql "github.com/graph-gophers/graphql-go"
	"github.com/graphql-go/graphql"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/bench/internal/gophers"
	"github.com/gqlkit/gqlkit/bench/internal/graphqlgo"
	"github.com/gqlkit/gqlkit/bench/internal/kit"
	"github.com/gqlkit/gqlkit/bench/internal/limit"
	"github.com/gqlkit/gqlkit/bench/sample"
	kitgql "github.com/gqlkit/gqlkit/graphql"
)

// sink keeps results alive so that the compiler cannot drop the work.
var sink any

func loadStore(tb testing.TB) *sample.Store {
	tb.Helper()
	store, err := sample.Load()
	if err != nil {
		tb.Fatal(err)
	}
	return store
}

func loadRequests(tb testing.TB) []sample.Request {
	tb.Helper()
	reqs, err := sample.Requests()
	if err != nil {
		tb.Fatal(err)
	}
	return reqs
}

func request(tb testing.TB, name string) sample.Request {
	tb.Helper()
	for _, r := range loadRequests(tb) {
		if r.Name == name {
			return r
		}
	}
	tb.Fatalf("no request %q", name)
	return sample.Request{}
}

// prepare parses, validates and prepares query for schema, as graphqlhttp
// does once per cached document.
func prepare(tb testing.TB, schema *kitgql.Schema, query string) *kitgql.Operation {
	tb.Helper()
	doc, perr := kitgql.ParseQuery(query, 0)
	if perr != nil {
		tb.Fatal(perr)
	}
	if errs := validate(schema, doc, kitgql.ValidateOptions{DisableIntrospection: true}); len(errs) > 0 {
		tb.Fatal(errs)
	}
	op, errs := schema.Prepare(doc, "")
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	return op
}

// execImpl is one library's in-process entry point for one request.
type execImpl struct {
	name string
	// exact is false for graphql-go, whose responses have the reference's
	// JSON value and length but keys in sorted order.
	exact bool
	// setup readies the implementation for r and returns run, which executes
	// it once, and body, which turns what run returned into the response body.
	setup func(tb testing.TB, r sample.Request) (run func() any, body func(any) []byte)
}

func execImpls() []execImpl {
	ctx := context.Background()
	marshal := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			return []byte("marshal error: " + err.Error())
		}
		return b
	}
	asBytes := func(v any) []byte { return v.([]byte) }
	kitBody := func(v any) []byte {
		return v.(kitgql.Result).AppendJSON(nil, nil)
	}
	return []execImpl{
		{name: "gqlkit", exact: true, setup: func(tb testing.TB, r sample.Request) (func() any, func(any) []byte) {
			schema, err := kit.NewSchema(loadStore(tb))
			if err != nil {
				tb.Fatal(err)
			}
			op := prepare(tb, schema, r.Query)
			vars := r.Variables(true)
			buf := make([]byte, 0, 4096)
			return func() any {
				res := execute(op, ctx, kitgql.ExecParams{Dst: buf[:0], Variables: vars})
				buf = res.Data[:0]
				return res
			}, kitBody
		}},
		{name: "gqlkit-uncached", exact: true, setup: func(tb testing.TB, r sample.Request) (func() any, func(any) []byte) {
			schema, err := kit.NewSchema(loadStore(tb))
			if err != nil {
				tb.Fatal(err)
			}
			vars := r.Variables(true)
			return func() any {
				return schema.Do(ctx, kitgql.Request{Query: r.Query, Variables: vars, Present: kitgql.Unmasked})
			}, kitBody
		}},
		{name: "graph-gophers", exact: true, setup: func(tb testing.TB, r sample.Request) (func() any, func(any) []byte) {
			schema, err := gophers.NewSchema(loadStore(tb))
			if err != nil {
				tb.Fatal(err)
			}
			vars := r.Variables(false)
			return func() any { return schema.Exec(ctx, r.Query, "", vars) }, marshal
		}},
		{name: "graph-gophers+marshal", exact: true, setup: func(tb testing.TB, r sample.Request) (func() any, func(any) []byte) {
			schema, err := gophers.NewSchema(loadStore(tb))
			if err != nil {
				tb.Fatal(err)
			}
			vars := r.Variables(false)
			return func() any {
				var res *gophersgql.Response = schema.Exec(ctx, r.Query, "", vars)
				return marshal(res)
			}, asBytes
		}},
		{name: "graphql-go", exact: false, setup: func(tb testing.TB, r sample.Request) (func() any, func(any) []byte) {
			schema, err := graphqlgo.NewSchema(loadStore(tb))
			if err != nil {
				tb.Fatal(err)
			}
			vars := r.Variables(false)
			return func() any {
				return graphql.Do(graphql.Params{Schema: schema, RequestString: r.Query, VariableValues: vars, Context: ctx})
			}, marshal
		}},
		{name: "graphql-go+marshal", exact: false, setup: func(tb testing.TB, r sample.Request) (func() any, func(any) []byte) {
			schema, err := graphqlgo.NewSchema(loadStore(tb))
			if err != nil {
				tb.Fatal(err)
			}
			vars := r.Variables(false)
			return func() any {
				return marshal(graphql.Do(graphql.Params{Schema: schema, RequestString: r.Query, VariableValues: vars, Context: ctx}))
			}, asBytes
		}},
	}
}

// handlerImpl is one implementation's whole HTTP endpoint.
type handlerImpl struct {
	name        string
	exact       bool
	contentType string
	newHandler  func() (http.Handler, error)
}

func handlerImpls(tb testing.TB) []handlerImpl {
	store := loadStore(tb)
	noCache := kit.Config()
	noCache.CacheSize = -1
	return []handlerImpl{
		{name: "limit", exact: true, contentType: "application/json", newHandler: limit.NewHandler},
		{name: "gqlkit", exact: true, contentType: "application/json; charset=utf-8",
			newHandler: func() (http.Handler, error) { return kit.NewHandler(store, kit.Config()) }},
		{name: "gqlkit-nocache", exact: true, contentType: "application/json; charset=utf-8",
			newHandler: func() (http.Handler, error) { return kit.NewHandler(store, noCache) }},
		{name: "graph-gophers", exact: true, contentType: "application/json",
			newHandler: func() (http.Handler, error) { return gophers.NewHandler(store) }},
		{name: "graphql-go", exact: false, contentType: "application/json",
			newHandler: func() (http.Handler, error) { return graphqlgo.NewHandler(store) }},
	}
}

// TestExecMatchesReference runs every in-process entry point that the Exec
// benchmarks measure, twice (the second run reuses buffers and caches), and
// compares its response with the reference bytes.
func TestExecMatchesReference(t *testing.T) {
	for _, impl := range execImpls() {
		for _, r := range loadRequests(t) {
			t.Run(impl.name+"/"+r.Name, func(t *testing.T) {
				run, body := impl.setup(t, r)
				for range 2 {
					checkBody(t, impl.exact, body(run()), r.Expected)
				}
			})
		}
	}
}

// TestHandlersOverHTTP posts both benchmark requests to every endpoint on a
// loopback server, twice (a cache miss, then a hit), and checks the status,
// the content type and the body bytes.
func TestHandlersOverHTTP(t *testing.T) {
	for _, impl := range handlerImpls(t) {
		h, err := impl.newHandler()
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		for _, r := range loadRequests(t) {
			t.Run(impl.name+"/"+r.Name, func(t *testing.T) {
				for range 2 {
					resp, err := http.Post(srv.URL+"/graphql", "application/json", bytes.NewReader(r.Body))
					if err != nil {
						t.Fatal(err)
					}
					got, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil {
						t.Fatal(err)
					}
					if resp.StatusCode != http.StatusOK {
						t.Fatalf("status %d, want 200; body %s", resp.StatusCode, got)
					}
					if ct := resp.Header.Get("Content-Type"); ct != impl.contentType {
						t.Errorf("Content-Type %q, want %q", ct, impl.contentType)
					}
					checkBody(t, impl.exact, got, r.Expected)
				}
			})
		}
		srv.Close()
	}
}

// TestKitSchemaIsSampleSchema checks that the gqlkit schema is the sample
// schema, descriptions included: both SDL texts, loaded by gqlparser, format
// the same. (They differ as text only in quoting: gqlkit prints descriptions
// as block strings, as graphql-js does.)
func TestKitSchemaIsSampleSchema(t *testing.T) {
	schema, err := kit.NewSchema(loadStore(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := formatSDL(t, schema.SDL()), formatSDL(t, sample.SDL()); got != want {
		t.Errorf("schema:\n%s\nwant:\n%s", got, want)
	}
}

func formatSDL(t *testing.T, sdl string) string {
	t.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: sdl})
	if err != nil {
		t.Fatalf("%v in\n%s", err, sdl)
	}
	var out strings.Builder
	formatter.NewFormatter(&out).FormatSchema(s)
	return out.String()
}

// TestKitPostsArgument checks the clamp and the default of posts(first:),
// given as a literal, a variable and an explicit null.
func TestKitPostsArgument(t *testing.T) {
	schema, err := kit.NewSchema(loadStore(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		vars  map[string]any
		want  int
	}{
		{query: `{ posts { id } }`, want: sample.DefaultFirst},
		{query: `{ posts(first: 3) { id } }`, want: 3},
		{query: `{ posts(first: 0) { id } }`, want: 0},
		{query: `{ posts(first: -4) { id } }`, want: 0},
		{query: `{ posts(first: 51) { id } }`, want: sample.MaxFirst},
		{query: `{ posts(first: null) { id } }`, want: sample.DefaultFirst},
		{query: `query($n: Int) { posts(first: $n) { id } }`, vars: map[string]any{"n": json.Number("1000")}, want: sample.MaxFirst},
		{query: `query($n: Int) { posts(first: $n) { id } }`, vars: map[string]any{"n": nil}, want: sample.DefaultFirst},
		{query: `query($n: Int) { posts(first: $n) { id } }`, want: sample.DefaultFirst},
	}
	for _, tt := range tests {
		res := schema.Do(context.Background(), kitgql.Request{Query: tt.query, Variables: tt.vars, Present: kitgql.Unmasked})
		if len(res.Errors) > 0 {
			t.Errorf("%s %v: errors %v", tt.query, tt.vars, res.Errors)
			continue
		}
		var got struct{ Posts []struct{ ID string } }
		if err := json.Unmarshal(res.Data, &got); err != nil {
			t.Fatalf("%s: %v in %s", tt.query, err, res.Data)
		}
		if len(got.Posts) != tt.want {
			t.Errorf("%s %v: %d posts, want %d", tt.query, tt.vars, len(got.Posts), tt.want)
		}
	}
}

// TestKitUnknownPost checks that post(id:) is null for an unknown id.
func TestKitUnknownPost(t *testing.T) {
	schema, err := kit.NewSchema(loadStore(t))
	if err != nil {
		t.Fatal(err)
	}
	res := schema.Do(context.Background(), kitgql.Request{Query: `{ post(id: "999") { id } }`, Present: kitgql.Unmasked})
	if got, want := string(res.Data), `{"post":null}`; got != want || len(res.Errors) > 0 {
		t.Errorf("data %s, errors %v; want %s and no errors", got, res.Errors, want)
	}
}

// checkBody compares a response body with the reference: byte for byte when
// exact, else as the same JSON value of the same length.
func checkBody(t *testing.T, exact bool, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	if exact {
		t.Fatalf("body differs from the reference\n got: %s\nwant: %s", got, want)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("body is not JSON (%v): %s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) || len(got) != len(want) {
		t.Fatalf("body is not the reference JSON value\n got: %s\nwant: %s", got, want)
	}
}

// execute runs op; a fault (not a client's error) panics, which fails the
// benchmark or test.
func execute(op *kitgql.Operation, ctx context.Context, p kitgql.ExecParams) kitgql.Result {
	res, err := op.Execute(ctx, p)
	if err != nil {
		panic(fmt.Sprintf("Execute: %v", err))
	}
	return res
}

// validate validates doc; a fault panics.
func validate(s *kitgql.Schema, doc *ast.QueryDocument, opts kitgql.ValidateOptions) gqlerror.List {
	errs, fault := s.Validate(doc, opts)
	if fault != nil {
		panic(fmt.Sprintf("Validate: %v", fault))
	}
	return errs
}
