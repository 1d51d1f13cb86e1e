package graphqlhttp_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// everybody is user 1 on every request: mutations pass the gate.
type everybody struct{}

// sizeArgs are the arguments of blob and hold.
type sizeArgs struct{ Size int }

func (everybody) AuthenticateContext(r *http.Request) (context.Context, error) {
	return r.Context(), nil
}
func (everybody) UserID(context.Context) (int64, bool) { return 1, true }

// budgetSchema has blob(size), a string of size bytes, and the mutation
// hold(size), which answers such a string once release is closed (at once
// when it is nil). Both count their calls.
type budgetSchema struct {
	blobs, holds atomic.Int64
	holding      chan struct{} // receives when hold starts
	release      chan struct{}
}

func (s *budgetSchema) handler(t *testing.T, cfg graphqlhttp.Config) *graphqlhttp.Handler {
	t.Helper()
	sizeArg := []graphql.Argument{{Name: "size", Type: graphql.NewNonNull(graphql.Int)}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "fail", Type: graphql.String,
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return nil, errors.New("disk on fire")
			}},
		{Name: "blob", Type: graphql.String, Args: sizeArg,
			Typed: graphql.Resolver(func(_ context.Context, _ any, args sizeArgs) (string, error) {
				s.blobs.Add(1)
				return strings.Repeat("x", args.Size), nil
			})},
	}}
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "hold", Type: graphql.String, Args: sizeArg,
			Typed: graphql.Resolver(func(_ context.Context, _ any, args sizeArgs) (string, error) {
				s.holds.Add(1)
				if s.release != nil {
					s.holding <- struct{}{}
					<-s.release
				}
				return strings.Repeat("x", args.Size), nil
			})},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Auth, cfg.Logger = everybody{}, nopLogger()
	h, err := graphqlhttp.New(schema, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return h
}

// post sends a query to h.
func post(h http.Handler, query string) *httptestResult {
	rec := record(h, httptestRequest(http.MethodPost, "application/json", jsonBody(query, "", "")))
	return &httptestResult{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

type httptestResult struct {
	status int
	header http.Header
	body   string
}

// TestBudgetRunsLargeQueryAgain: a query executes first with FirstShare;
// one whose data outgrows it executes once more with a share of
// MaxResponseBytes and is answered whole; past MaxResponseBytes it is
// RESPONSE_TOO_LARGE as ever. A mutation executes once, with the full
// share.
func TestBudgetRunsLargeQueryAgain(t *testing.T) {
	s := &budgetSchema{}
	h := s.handler(t, graphqlhttp.Config{MaxResponseBytes: 1 << 20})
	for _, c := range []struct {
		query     string
		data      string // "" for RESPONSE_TOO_LARGE
		blobs     int64
		mutations int64
	}{
		// The engine checks the bound before each field and list item: a
		// field after the large one finds it outgrown.
		{query: "{ a: blob(size: 1000) b: blob(size: 1) }", data: strings.Repeat("x", 1000), blobs: 2},
		{query: "{ a: blob(size: 300000) b: blob(size: 1) }", data: strings.Repeat("x", 300000), blobs: 3},
		{query: "{ a: blob(size: 2000000) b: blob(size: 1) }", blobs: 2},
		{query: "mutation { a: hold(size: 300000) b: hold(size: 1) }", data: strings.Repeat("x", 300000), mutations: 2},
	} {
		s.blobs.Store(0)
		s.holds.Store(0)
		got := post(h, c.query)
		want := `{"data":{"a":"` + c.data + `","b":"x"}}`
		if c.data == "" {
			want = `{"data":null,"errors":[{"message":"The response is larger than the limit of 1048576 bytes.","extensions":{"code":"RESPONSE_TOO_LARGE"}}]}`
		}
		if got.status != http.StatusOK || got.body != want || got.header.Get("Content-Length") != strconv.Itoa(len(want)) {
			t.Errorf("%s: %d, Content-Length %s, %.100s…; want 200 and %.100s…", c.query, got.status, got.header.Get("Content-Length"), got.body, want)
		}
		if s.blobs.Load() != c.blobs || s.holds.Load() != c.mutations {
			t.Errorf("%s: blob ran %d times, hold %d; want %d and %d", c.query, s.blobs.Load(), s.holds.Load(), c.blobs, c.mutations)
		}
	}
}

// TestBudgetBusy: while a mutation holds the whole budget, a query waits
// for its share, is answered 503 SERVICE_UNAVAILABLE with Retry-After when
// the wait is over, and runs no resolver; once the mutation is answered
// its share is back. With a longer wait, the query is served once the
// share is free.
func TestBudgetBusy(t *testing.T) {
	s := &budgetSchema{holding: make(chan struct{}), release: make(chan struct{})}
	h := s.handler(t, graphqlhttp.Config{MaxResponseBytes: 1 << 20, ResponseBudget: 1 << 20, ResponseBudgetWait: 50 * time.Millisecond})
	held := make(chan *httptestResult)
	go func() { held <- post(h, "mutation { hold(size: 10) }") }()
	<-s.holding

	got := post(h, "{ blob(size: 10) }")
	const busy = `{"errors":[{"message":"The server is busy; try again shortly.","extensions":{"code":"SERVICE_UNAVAILABLE"}}]}`
	if got.status != http.StatusServiceUnavailable || got.body != busy || got.header.Get("Retry-After") != "1" ||
		got.header.Get("Cache-Control") != "no-store" || got.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("a query while the budget is spent: %d %s %v; want 503 %s with Retry-After 1", got.status, got.body, got.header, busy)
	}
	if n := s.blobs.Load(); n != 0 {
		t.Errorf("blob ran %d times for a refused query, want 0", n)
	}
	close(s.release)
	if got := <-held; got.status != http.StatusOK || got.body != `{"data":{"hold":"xxxxxxxxxx"}}` {
		t.Errorf("the mutation: %d %s, want 200", got.status, got.body)
	}
	if got := post(h, "{ blob(size: 10) }"); got.status != http.StatusOK || got.body != `{"data":{"blob":"xxxxxxxxxx"}}` {
		t.Errorf("a query once the budget is free: %d %s, want 200", got.status, got.body)
	}

	s = &budgetSchema{holding: make(chan struct{}), release: make(chan struct{})}
	h = s.handler(t, graphqlhttp.Config{MaxResponseBytes: 1 << 20, ResponseBudget: 1 << 20, ResponseBudgetWait: time.Minute})
	go func() { held <- post(h, "mutation { hold(size: 10) }") }()
	<-s.holding
	waited := make(chan *httptestResult)
	go func() { waited <- post(h, "{ blob(size: 10) }") }()
	time.Sleep(20 * time.Millisecond) // the query is waiting, or about to
	close(s.release)
	<-held
	if got := <-waited; got.status != http.StatusOK || got.body != `{"data":{"blob":"xxxxxxxxxx"}}` {
		t.Errorf("a query that waited for the budget: %d %s, want 200", got.status, got.body)
	}
}

// TestBudgetConfig: New refuses budgets that cannot work.
func TestBudgetConfig(t *testing.T) {
	for _, c := range []struct {
		cfg  graphqlhttp.Config
		want string
	}{
		{cfg: graphqlhttp.Config{ResponseBudget: 1 << 20, MaxResponseBytes: 2 << 20},
			want: "graphqlhttp: Config.MaxResponseBytes 2097152 is larger than the response budget 1048576, which could never hold such a response"},
		{cfg: graphqlhttp.Config{MaxResponseBytes: 65 << 20},
			want: "graphqlhttp: Config.MaxResponseBytes 68157440 is larger than the response budget 67108864, which could never hold such a response"},
		{cfg: graphqlhttp.Config{MaxResponseBytes: -1},
			want: "graphqlhttp: a response budget needs a bound on each response: set Config.MaxResponseBytes, or turn the budget off with a negative Config.ResponseBudget"},
		{cfg: graphqlhttp.Config{ResponseBudgetWait: -time.Second},
			want: "graphqlhttp: Config.ResponseBudgetWait -1s is negative"},
	} {
		c.cfg.Auth = nobody{}
		_, err := graphqlhttp.New(sampleSchema(t), c.cfg)
		if err == nil || err.Error() != c.want {
			t.Errorf("New(MaxResponseBytes %d, ResponseBudget %d, ResponseBudgetWait %v) error = %v, want %q",
				c.cfg.MaxResponseBytes, c.cfg.ResponseBudget, c.cfg.ResponseBudgetWait, err, c.want)
		}
	}
	for _, cfg := range []graphqlhttp.Config{
		{},
		{MaxResponseBytes: -1, ResponseBudget: -1},
		{MaxResponseBytes: 64 << 20},
		{ResponseBudget: -1, ResponseBudgetWait: -1},
	} {
		cfg.Auth = nobody{}
		if _, err := graphqlhttp.New(sampleSchema(t), cfg); err != nil {
			t.Errorf("New(MaxResponseBytes %d, ResponseBudget %d, ResponseBudgetWait %v) error = %v, want nil",
				cfg.MaxResponseBytes, cfg.ResponseBudget, cfg.ResponseBudgetWait, err)
		}
	}
}

// TestLargeAnswerWrittenInPlace: data of 64 KiB or more is written where
// the executor left it, around the envelope the presenter wrote, errors
// included: the bytes are those of a copied answer.
func TestLargeAnswerWrittenInPlace(t *testing.T) {
	s := &budgetSchema{}
	h := s.handler(t, graphqlhttp.Config{})
	query := "{ a: blob(size: 100000) b: fail }"
	got := post(h, query)
	col := strconv.Itoa(strings.Index(query, "b:") + 1)
	want := `{"data":{"a":"` + strings.Repeat("x", 100000) + `","b":null},"errors":[{"message":"Internal server error.",` +
		`"locations":[{"line":1,"column":` + col + `}],"path":["b"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`
	if got.status != http.StatusOK || got.body != want || got.header.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Errorf("%s: %d, Content-Length %s, …%.200s; want 200 and …%.200s", query, got.status, got.header.Get("Content-Length"),
			got.body[max(len(got.body)-200, 0):], want[len(want)-200:])
	}
}
