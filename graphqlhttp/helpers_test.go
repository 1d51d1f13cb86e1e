package graphqlhttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/reqlog"
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

// nobody is an Authenticator that finds no user in any request.
type nobody struct{}

func (nobody) AuthenticateContext(r *http.Request) (context.Context, error) { return r.Context(), nil }
func (nobody) UserID(context.Context) (int64, bool)                         { return 0, false }

// testServer is a graphqlhttp.Handler over the test schema on a loopback
// server, with the log captured.
type testServer struct {
	*httptest.Server
	handler   *graphqlhttp.Handler
	logs      *logbuf.Buffer
	mutations *atomic.Int64
	issuer    *auth.Issuer
}

// newTestServer serves the test schema with cfg, completed with a logger
// writing to the server's logs and, unless cfg sets its own, the
// authentication of a real auth.Verifier, behind reqlog with that logger.
func newTestServer(t *testing.T, cfg graphqlhttp.Config) *testServer {
	t.Helper()
	ts := &testServer{logs: &logbuf.Buffer{}, mutations: new(atomic.Int64)}
	if cfg.Presenter.Logger == nil {
		logger := zerolog.New(ts.logs)
		cfg.Presenter.Logger = &logger
	}
	verifier, err := auth.NewVerifier(auth.Config{Secret: testSecret})
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	if cfg.Auth == nil {
		cfg.Auth = verifier
	}
	ts.issuer = newIssuer(t, auth.Config{Secret: testSecret})
	h, err := graphqlhttp.New(testSchema(t, ts.mutations), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts.handler = h
	ts.Server = httptest.NewServer(reqlog.Handler(*cfg.Presenter.Logger)(h))
	t.Cleanup(ts.Close)
	return ts
}

func newIssuer(t *testing.T, cfg auth.Config) *auth.Issuer {
	t.Helper()
	iss, err := auth.NewIssuer(cfg)
	if err != nil {
		t.Fatalf("NewIssuer: %v", err)
	}
	return iss
}

// token returns "Bearer <a valid token for userID>".
func (ts *testServer) token(t *testing.T, userID int64) string {
	t.Helper()
	tok, err := ts.issuer.Issue(userID)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	return "Bearer " + tok
}

// expiredToken returns a bearer token signed with the right key that
// expired an hour ago.
func expiredToken(t *testing.T) string {
	t.Helper()
	iss := newIssuer(t, auth.Config{Secret: testSecret, TTL: time.Hour,
		Now: func() time.Time { return time.Now().Add(-2 * time.Hour) }})
	tok, err := iss.Issue(7)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	return "Bearer " + tok
}

// forgedToken returns a bearer token for user 7 signed with another key.
func forgedToken(t *testing.T) string {
	t.Helper()
	tok, err := newIssuer(t, auth.Config{Secret: otherSecret}).Issue(7)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	return "Bearer " + tok
}

// request describes one HTTP request to the endpoint.
type request struct {
	method        string // default POST
	rawQuery      string // the URL's query string, already encoded
	contentType   string // no Content-Type header when empty
	body          string
	chunked       bool // send the body without a Content-Length
	accept        string
	authorization string
	// emptyAuthorization sends an Authorization header even when
	// authorization is empty.
	emptyAuthorization bool
	requestID          string
}

// response is what came back.
type response struct {
	status int
	header http.Header
	body   string
}

// send sends r to the server with the standard client.
func (ts *testServer) send(t *testing.T, r request) response {
	t.Helper()
	method := r.method
	if method == "" {
		method = http.MethodPost
	}
	target := ts.URL + "/api/graphql"
	if r.rawQuery != "" {
		target += "?" + r.rawQuery
	}
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
		if r.chunked {
			body = io.MultiReader(body) // hides the length
		}
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatalf("NewRequest: %v", err)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.accept != "" {
		req.Header.Set("Accept", r.accept)
	}
	if r.authorization != "" || r.emptyAuthorization {
		req.Header.Set("Authorization", r.authorization)
	}
	if r.requestID != "" {
		req.Header.Set("X-Request-Id", r.requestID)
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %.200s: %v", method, target, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading the response: %v", err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

// want is the expected response. Headers left empty must be absent, except
// contentType, whose empty value means "application/json; charset=utf-8".
type want struct {
	status      int
	body        string
	contentType string
	allow       string
	wwwAuth     string
}

const jsonType = "application/json; charset=utf-8"

// check compares got with w, and checks what every response carries:
// Cache-Control: no-store, a Content-Length matching the body, and the
// echo of the request id when one was sent.
func check(t *testing.T, r request, got response, w want) {
	t.Helper()
	if got.status != w.status {
		t.Errorf("status = %d, want %d (body %s)", got.status, w.status, got.body)
	}
	ct := w.contentType
	if ct == "" {
		ct = jsonType
	}
	headers := []struct{ name, want string }{
		{"Content-Type", ct},
		{"Cache-Control", "no-store"},
		{"Allow", w.allow},
		{"WWW-Authenticate", w.wwwAuth},
	}
	if r.requestID != "" {
		headers = append(headers, struct{ name, want string }{"X-Request-Id", r.requestID})
	}
	for _, h := range headers {
		if g := got.header.Values(h.name); strings.Join(g, "|") != h.want {
			t.Errorf("%s = %q, want %q", h.name, g, h.want)
		}
	}
	if r.method != http.MethodHead {
		if cl := got.header.Get("Content-Length"); cl != strconv.Itoa(len(got.body)) {
			t.Errorf("Content-Length = %q, body has %d bytes", cl, len(got.body))
		}
		if got.body != w.body {
			t.Errorf("body =\n%s\nwant\n%s", got.body, w.body)
		}
		checkErrorObjects(t, got.body)
	}
}

// checkErrorObjects checks that a response body is a JSON object with only
// "data" and "errors", and that each error object carries only message,
// locations, path and extensions, with a code.
func checkErrorObjects(t *testing.T, body string) {
	t.Helper()
	var resp map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		t.Errorf("body is not a JSON object: %v", err)
		return
	}
	for k := range resp {
		if k != "data" && k != "errors" {
			t.Errorf("response has the member %q", k)
		}
	}
	if _, ok := resp["errors"]; !ok {
		return
	}
	var errs []map[string]json.RawMessage
	if err := json.Unmarshal(resp["errors"], &errs); err != nil {
		t.Errorf("errors is not a list of objects: %v", err)
		return
	}
	if len(errs) == 0 || len(errs) > graphqlhttp.MaxErrors {
		t.Errorf("errors has %d entries, want 1..%d", len(errs), graphqlhttp.MaxErrors)
	}
	for i, e := range errs {
		for k := range e {
			switch k {
			case "message", "locations", "path", "extensions":
			default:
				t.Errorf("errors[%d] has the member %q", i, k)
			}
		}
		var ext struct {
			Code string `json:"code"`
		}
		if err := json.Unmarshal(e["extensions"], &ext); err != nil || ext.Code == "" {
			t.Errorf("errors[%d] has no extensions.code: %s", i, e["extensions"])
		}
	}
}

// jsonBody returns a POST JSON body for query, with variables given as JSON
// text ("" leaves them out) and an operation name ("" leaves it out).
func jsonBody(query, variables, operationName string) string {
	var b strings.Builder
	b.WriteString(`{"query":`)
	q, _ := json.Marshal(query)
	b.Write(q)
	if variables != "" {
		b.WriteString(`,"variables":`)
		b.WriteString(variables)
	}
	if operationName != "" {
		n, _ := json.Marshal(operationName)
		b.WriteString(`,"operationName":`)
		b.Write(n)
	}
	b.WriteString("}")
	return b.String()
}

// getQuery returns the URL query string for a GET request.
func getQuery(query, variables, operationName string) string {
	v := url.Values{}
	v.Set("query", query)
	if variables != "" {
		v.Set("variables", variables)
	}
	if operationName != "" {
		v.Set("operationName", operationName)
	}
	return v.Encode()
}

// errorsBody is the body of a response with one request error.
func errorsBody(message, code string) string {
	return `{"errors":[{"message":` + quote(message) + `,"extensions":{"code":"` + code + `"}}]}`
}

// errorsBodyAt is errorsBody with a location.
func errorsBodyAt(message, code string, line, column int) string {
	return fmt.Sprintf(`{"errors":[{"message":%s,"locations":[{"line":%d,"column":%d}],"extensions":{"code":"%s"}}]}`,
		quote(message), line, column, code)
}

// quote returns s as a JSON string, with <, > and & as they are, as the
// handler writes them.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// nopLogger returns a logger that writes nothing.
func nopLogger() *zerolog.Logger {
	l := zerolog.Nop()
	return &l
}

// newServer serves h on a loopback server closed with the test.
func newServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// httptestRequest returns a request to the endpoint for a recorder.
func httptestRequest(method, contentType, body string) *http.Request {
	req := httptest.NewRequest(method, "/api/graphql", strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req
}

// record serves req with h and returns what was written.
func record(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
