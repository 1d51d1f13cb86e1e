package graphqlhttp_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/limits"
	"github.com/gqlkit/gqlkit/reqlog"
)

// The benchmark queries A and B (bench/README.md).
const (
	costQueryA = `query Feed($n: Int) { posts(first: $n) { id title tags createdAt author { id name } } }`
	costQueryB = `{ post(id: "7") { id title author { name } } }`
)

// newCostServer serves the sample schema of sampleSchema, with Query.posts declared
// Cost{SizeArg: "first"} as in examples/server, under cfg (its Logger and
// Auth are set here): the cost of a selection under posts(first: n) is
// counted n times, every other field costs 1.
func newCostServer(t *testing.T, cfg graphqlhttp.Config) *testServer {
	t.Helper()
	ts := &testServer{logs: &logbuf.Buffer{}, mutations: new(atomic.Int64)}
	logger := logbuf.Logger(ts.logs)
	cfg.Presenter.Logger = logger
	verifier, err := auth.NewVerifier(auth.HMAC(testSecret), auth.Config{})
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	cfg.Auth = verifier
	ts.issuer = newIssuer(t, testSecret, auth.Config{})
	q, m := sampleTypes(newSampleData(), ts.mutations)
	declared := false
	for i := range q {
		if q[i].Name == "posts" {
			q[i].Cost = graphql.Cost{SizeArg: "first"}
			declared = true
		}
	}
	if !declared {
		t.Fatal("the sample schema has no Query.posts")
	}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{
		Query:    &graphql.Object{Name: "Query", Fields: q},
		Mutation: &graphql.Object{Name: "Mutation", Fields: m},
	})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	h, err := graphqlhttp.New(schema, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts.handler = h
	ts.Server = httptest.NewServer(reqlog.Handler(logger)(h))
	t.Cleanup(ts.Close)
	return ts
}

// postsData returns {"data":{key:[…]}} with the first n sample posts
// (at most the 50 there are), each written by item.
func postsData(key string, n int, item func(p *samplePost, author *sampleUser) string) string {
	d := newSampleData()
	items := make([]string, 0, n)
	for _, p := range d.posts[:min(n, len(d.posts))] {
		items = append(items, item(p, d.users[p.AuthorID]))
	}
	return `{"data":{"` + key + `":[` + strings.Join(items, ",") + `]}}`
}

func postID(p *samplePost, _ *sampleUser) string { return `{"id":` + quote(p.ID) + `}` }

func postAuthorName(_ *samplePost, u *sampleUser) string {
	return `{"author":{"name":` + quote(u.Name) + `}}`
}

func postQueryA(p *samplePost, u *sampleUser) string {
	return fmt.Sprintf(`{"id":%s,"title":%s,"tags":["graphql","go","http"],"createdAt":%s,"author":{"id":%s,"name":%s}}`,
		quote(p.ID), quote(p.Title), quote(p.CreatedAt), quote(u.ID), quote(u.Name))
}

// authorAliases returns "{a0:posts(first:50){author{name}} …}" with n
// aliases, each costing 1 + 50 × 2 = 101 and 3 nodes, and its data when
// it runs.
func authorAliases(n int) (query, data string) {
	var q strings.Builder
	q.WriteString("{")
	items := make([]string, n)
	for i := range n {
		fmt.Fprintf(&q, "a%d:posts(first:50){author{name}} ", i)
		list := postsData("x", 50, postAuthorName)
		items[i] = fmt.Sprintf(`"a%d":%s`, i, strings.TrimSuffix(strings.TrimPrefix(list, `{"data":{"x":`), "}}"))
	}
	q.WriteString("}")
	return q.String(), `{"data":{` + strings.Join(items, ",") + `}}`
}

// costBody is the answer to an operation over the cost limit: a 400
// QUERY_LIMIT_EXCEEDED, extensions.limit {name: "cost", max, found}, and
// no location (the cost belongs to the whole operation).
func costBody(max, found int) string {
	return limitBody(fmt.Sprintf("query cost %d exceeds the maximum of %d", found, max), "cost", max, found, 0, 0)
}

// TestCostLimit sends operations at the cost limit, which run, and just
// over it, which are refused before any resolver runs; with sizes given
// by literals, by variables after coercion, and by defaults; under the
// default limits and under limits set in Config.
func TestCostLimit(t *testing.T) {
	const appJSON = "application/json"
	aliases49, data49 := authorAliases(49)
	aliases50, _ := authorAliases(50)
	aliases500, _ := authorAliases(500)
	if len(aliases500) > limits.DefaultMaxLength {
		t.Fatalf("500 aliases take %d bytes, more than the default length", len(aliases500))
	}
	byVariable := `query($n: Int) { posts(first: $n) { id } }`
	create := `mutation { createPost(input: {title: "T", body: "B"}) { id author { name } } }` // cost 1 + (1 + 2) = 4

	tests := []struct {
		name      string
		limits    limits.Config
		req       request
		token     int64 // the user to authenticate as; 0: none
		want      want
		mutations int64 // mutation resolvers run by the request
	}{
		// literal sizes, under the default of 5000
		{name: "5000 of 5000", req: request{contentType: appJSON, body: jsonBody(`{ posts(first: 4999) { id } }`, "", "")},
			want: wantBody(200, postsData("posts", 4999, postID))},
		{name: "5001 of 5000", req: request{contentType: appJSON, body: jsonBody(`{ posts(first: 5000) { id } }`, "", "")},
			want: wantBody(400, costBody(5000, 5001))},
		{name: "5001 of 5000, GET", req: request{method: "GET", rawQuery: getQuery(`{ posts(first: 5000) { id } }`, "", "")},
			want: wantBody(400, costBody(5000, 5001))},
		{name: "first: MaxInt32 twice", req: request{contentType: appJSON,
			body: jsonBody(`{ a: posts(first: 2147483647) { id } b: posts(first: 2147483647) { id } }`, "", "")},
			want: wantBody(400, costBody(5000, 2*(1+2147483647)))},

		// sizes from variables, after coercion
		{name: "variable: 5000 of 5000", req: request{contentType: appJSON, body: jsonBody(byVariable, `{"n": 4999}`, "")},
			want: wantBody(200, postsData("posts", 4999, postID))},
		{name: "variable: 5001 of 5000", req: request{contentType: appJSON, body: jsonBody(byVariable, `{"n": 5000}`, "")},
			want: wantBody(400, costBody(5000, 5001))},
		{name: "variable: 5000.0 is coerced to 5000", req: request{contentType: appJSON, body: jsonBody(byVariable, `{"n": 5000.0}`, "")},
			want: wantBody(400, costBody(5000, 5001))},
		{name: "variable: GET", req: request{method: "GET", rawQuery: getQuery(byVariable, `{"n": 5000}`, "")},
			want: wantBody(400, costBody(5000, 5001))},
		{name: "variable absent: the argument's default", req: request{contentType: appJSON, body: jsonBody(byVariable, "", "")},
			want: wantBody(200, postsData("posts", 10, postID))},
		{name: "variable absent: the variable's default", req: request{contentType: appJSON,
			body: jsonBody(`query($n: Int = 5000) { posts(first: $n) { id } }`, "", "")},
			want: wantBody(400, costBody(5000, 5001))},
		{name: "variable null", req: request{contentType: appJSON, body: jsonBody(byVariable, `{"n": null}`, "")},
			want: wantBody(200, `{"data":{"posts":[]}}`)},
		{name: "variable negative", req: request{contentType: appJSON, body: jsonBody(byVariable, `{"n": -9999999}`, "")},
			want: wantBody(200, `{"data":{"posts":[]}}`)},
		{name: "an invalid variable is refused as such", req: request{contentType: appJSON, body: jsonBody(byVariable, `{"n": 2147483648}`, "")},
			want: wantBody(400, errorsBodyAt(`Variable "$n" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value: 2147483648`,
				"BAD_USER_INPUT", 1, 7))},
		{name: "cost 11 of 11 by the default", limits: limits.Config{MaxCost: 11}, req: request{contentType: appJSON, body: jsonBody(byVariable, `{}`, "")},
			want: wantBody(200, postsData("posts", 10, postID))},
		{name: "cost 11 of 10 by the default", limits: limits.Config{MaxCost: 10}, req: request{contentType: appJSON, body: jsonBody(byVariable, `{}`, "")},
			want: wantBody(400, costBody(10, 11))},
		{name: "cost 10 of 10 by a variable", limits: limits.Config{MaxCost: 10}, req: request{contentType: appJSON, body: jsonBody(byVariable, `{"n": 9}`, "")},
			want: wantBody(200, postsData("posts", 9, postID))},

		// the benchmark queries under the default
		{name: "query A", req: request{contentType: appJSON, body: jsonBody(costQueryA, `{"n": 20}`, "Feed")},
			want: wantBody(200, postsData("posts", 20, postQueryA))}, // cost 1 + 20 × 7 = 141
		{name: "query B", req: request{contentType: appJSON, body: jsonBody(costQueryB, "", "")},
			want: wantBody(200, `{"data":{"post":{"id":"7","title":"Post 7","author":{"name":"Grace Hopper"}}}}`)}, // cost 5
		{name: "query A at 141 of 141", limits: limits.Config{MaxCost: 141}, req: request{contentType: appJSON, body: jsonBody(costQueryA, `{"n": 20}`, "")},
			want: wantBody(200, postsData("posts", 20, postQueryA))},
		{name: "query A at 142 of 141", limits: limits.Config{MaxCost: 141}, req: request{contentType: appJSON, body: jsonBody(costQueryA, `{"n": 21}`, "")},
			want: wantBody(400, costBody(141, 1+21*7))},

		// aliases over a list
		{name: "49 aliases of posts(first: 50)", req: request{contentType: appJSON, body: jsonBody(aliases49, "", "")},
			want: wantBody(200, data49)}, // cost 4949
		{name: "50 aliases of posts(first: 50)", req: request{contentType: appJSON, body: jsonBody(aliases50, "", "")},
			want: wantBody(400, costBody(5000, 5050))},
		{name: "500 aliases of posts(first: 50), within 1500 nodes", limits: limits.Config{MaxNodes: 1500},
			req:  request{contentType: appJSON, body: jsonBody(aliases500, "", "")},
			want: wantBody(400, costBody(5000, 50500))},
		{name: "500 aliases of posts(first: 50), within 1500 nodes, GET", limits: limits.Config{MaxNodes: 1500},
			req:  request{method: "GET", rawQuery: getQuery(aliases500, "", "")},
			want: wantBody(400, costBody(5000, 50500))},

		// mutations: refused before their resolver runs
		{name: "mutation at 4 of 4", limits: limits.Config{MaxCost: 4}, token: 1,
			req:  request{contentType: appJSON, body: jsonBody(create, "", "")},
			want: wantBody(200, `{"data":{"createPost":{"id":"51","author":{"name":"Ada Lovelace"}}}}`), mutations: 1},
		{name: "mutation at 4 of 3", limits: limits.Config{MaxCost: 3}, token: 1,
			req:  request{contentType: appJSON, body: jsonBody(create, "", "")},
			want: wantBody(400, costBody(3, 4))},

		// the limit off
		{name: "no cost limit", limits: limits.Config{MaxCost: limits.NoLimit},
			req: request{contentType: appJSON, body: jsonBody(`{ a: posts(first: 2147483647) { id } b: posts(first: 2147483647) { id } }`, "", "")},
			want: wantBody(200, `{"data":{"a":`+strings.TrimSuffix(strings.TrimPrefix(postsData("x", 50, postID), `{"data":{"x":`), "}}")+
				`,"b":`+strings.TrimSuffix(strings.TrimPrefix(postsData("x", 50, postID), `{"data":{"x":`), "}}")+`}}`)},
	}
	servers := map[limits.Config]*testServer{}
	for i, tt := range tests {
		ts := servers[tt.limits]
		if ts == nil {
			ts = newCostServer(t, graphqlhttp.Config{Limits: tt.limits})
			servers[tt.limits] = ts
		}
		t.Run(tt.name, func(t *testing.T) {
			tt.req.requestID = fmt.Sprintf("cost-%d", i)
			if tt.token != 0 {
				tt.req.authorization = ts.token(t, tt.token)
			}
			before := ts.mutations.Load()
			check(t, tt.req, ts.send(t, tt.req), tt.want)
			if ran := ts.mutations.Load() - before; ran != tt.mutations {
				t.Errorf("%d mutation resolvers ran, want %d", ran, tt.mutations)
			}
		})
	}
}

// TestCostLimitFromEnv starts a server with the cost limit read from
// GRAPHQL_MAX_COST.
func TestCostLimitFromEnv(t *testing.T) {
	cfg, err := graphqlhttp.ConfigFromEnv(func(name string) string {
		if name == "GRAPHQL_MAX_COST" {
			return "101"
		}
		return ""
	})
	if err != nil {
		t.Fatalf("ConfigFromEnv: %v", err)
	}
	ts := newCostServer(t, cfg)
	for _, tt := range []struct {
		first int
		want  want
	}{
		{first: 100, want: wantBody(200, postsData("posts", 100, postID))},
		{first: 101, want: wantBody(400, costBody(101, 102))},
	} {
		req := request{contentType: "application/json", body: jsonBody(fmt.Sprintf("{ posts(first: %d) { id } }", tt.first), "", "")}
		check(t, req, ts.send(t, req), tt.want)
	}
}
