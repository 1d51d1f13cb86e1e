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
func (everybody) Subject(context.Context) (string, bool) { return "1", true }

// budgetSchema has blob(size), a string of size bytes; pause, which
// answers once release is closed; and the mutations hold(size), a string
// of size bytes, which waits for release too when pauses is set, and
// put(size), which never waits. blob, hold and put count their calls.
type budgetSchema struct {
	blobs, holds, puts atomic.Int64
	holding            chan struct{} // receives when pause or a pausing hold starts
	release            chan struct{}
	pauses             bool // hold waits for release
}

func newBudgetSchema() *budgetSchema {
	return &budgetSchema{holding: make(chan struct{}), release: make(chan struct{})}
}

func (s *budgetSchema) pause() {
	s.holding <- struct{}{}
	<-s.release
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
		{Name: "pause", Type: graphql.String,
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				s.pause()
				return "p", nil
			}},
	}}
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "hold", Type: graphql.String, Args: sizeArg,
			Typed: graphql.Resolver(func(_ context.Context, _ any, args sizeArgs) (string, error) {
				s.holds.Add(1)
				if s.pauses {
					s.pause()
				}
				return strings.Repeat("x", args.Size), nil
			})},
		{Name: "put", Type: graphql.String, Args: sizeArg,
			Typed: graphql.Resolver(func(_ context.Context, _ any, args sizeArgs) (string, error) {
				s.puts.Add(1)
				return strings.Repeat("x", args.Size), nil
			})},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Auth == nil {
		cfg.Auth = everybody{}
	}
	if cfg.Presenter.Logger == nil {
		cfg.Presenter.Logger = nopLogger()
	}
	h, err := graphqlhttp.New(schema, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return h
}

// Two clients, as the budget tells them apart (httptest.NewRequest's
// RemoteAddr is the first).
const (
	clientA = "192.0.2.1:1234"
	clientB = "198.51.100.7:4321"
)

// post sends a query to h from client A.
func post(h http.Handler, query string) *httptestResult { return postFrom(h, clientA, query) }

// postFrom sends a query to h from the client at addr.
func postFrom(h http.Handler, addr, query string) *httptestResult {
	req := httptestRequest(http.MethodPost, "application/json", jsonBody(query, "", ""))
	req.RemoteAddr = addr
	rec := record(h, req)
	return &httptestResult{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

// goPost sends a query to h from addr in its own goroutine.
func goPost(h http.Handler, addr, query string) <-chan *httptestResult {
	done := make(chan *httptestResult, 1)
	go func() { done <- postFrom(h, addr, query) }()
	return done
}

type httptestResult struct {
	status int
	header http.Header
	body   string
}

// The answers the budget gives.
const (
	busyBody      = `{"errors":[{"message":"The server is busy; try again shortly.","extensions":{"code":"SERVICE_UNAVAILABLE"}}]}`
	tooLargeBody1 = `{"data":null,"errors":[{"message":"The response is larger than the limit of 1048576 bytes.","extensions":{"code":"RESPONSE_TOO_LARGE"}}]}`
)

// checkBusy fails the test unless got is the 503 of a request that got no
// room in the budget.
func checkBusy(t *testing.T, what string, got *httptestResult) {
	t.Helper()
	if got.status != http.StatusServiceUnavailable || got.body != busyBody || got.header.Get("Retry-After") != "1" ||
		got.header.Get("Cache-Control") != "no-store" || got.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("%s: %d %.100s %v; want 503 %s with Retry-After 1", what, got.status, got.body, got.header, busyBody)
	}
}

// checkAnswer fails the test unless got is 200 with the body want.
func checkAnswer(t *testing.T, what string, got *httptestResult, want string) {
	t.Helper()
	if got.status != http.StatusOK || got.body != want || got.header.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Errorf("%s: %d, Content-Length %s, %.100s…; want 200 and %.100s…", what, got.status, got.header.Get("Content-Length"), got.body, want)
	}
}

// TestBudgetRunsEachResolverOnce: a query executes with its first share
// of the budget; one whose data outgrows it pauses while the budget lends
// it MaxResponseBytes, and goes on: each resolver runs once, the tracer
// sees each field once, and the answer is whole. Past MaxResponseBytes it
// is RESPONSE_TOO_LARGE, the resolvers after the bound not run. A mutation
// runs once too.
func TestBudgetRunsEachResolverOnce(t *testing.T) {
	s := newBudgetSchema()
	tr := &tracer{}
	h := s.handler(t, graphqlhttp.Config{MaxResponseBytes: 1 << 20, Tracer: tr})
	for _, c := range []struct {
		query      string
		data       string // "" for RESPONSE_TOO_LARGE
		resolvers  int64
		field      string
		isMutation bool
	}{
		// The engine checks the bound before each field and list item: a
		// field after the large one finds it outgrown.
		{query: "{ a: blob(size: 1000) b: blob(size: 1) }", data: strings.Repeat("x", 1000), resolvers: 2, field: "Query.blob"},
		{query: "{ a: blob(size: 300000) b: blob(size: 1) }", data: strings.Repeat("x", 300000), resolvers: 2, field: "Query.blob"},
		{query: "{ a: blob(size: 900000) b: blob(size: 1) }", data: strings.Repeat("x", 900000), resolvers: 2, field: "Query.blob"},
		{query: "{ a: blob(size: 2000000) b: blob(size: 1) }", resolvers: 1, field: "Query.blob"},
		{query: "mutation { a: hold(size: 300000) b: hold(size: 1) }", data: strings.Repeat("x", 300000), resolvers: 2,
			field: "Mutation.hold", isMutation: true},
	} {
		s.blobs.Store(0)
		s.holds.Store(0)
		tr.take()
		got := post(h, c.query)
		want := `{"data":{"a":"` + c.data + `","b":"x"}}`
		if c.data == "" {
			want = tooLargeBody1
		}
		checkAnswer(t, c.query, got, want)
		ran := s.blobs.Load()
		if c.isMutation {
			ran = s.holds.Load()
		}
		if ran != c.resolvers {
			t.Errorf("%s: the resolvers ran %d times, want %d", c.query, ran, c.resolvers)
		}
		lines := tr.take()
		if spans := strings.Count(lines, "field "+c.field+"\n"); spans != int(c.resolvers) {
			t.Errorf("%s: the tracer saw %d fields, want %d:\n%s", c.query, spans, c.resolvers, lines)
		}
		if n := strings.Count(lines, "phase execute"); n != 1 {
			t.Errorf("%s: %d execute phases, want 1:\n%s", c.query, n, lines)
		}
	}
}

// smallBudget: 1 MiB of first shares, one per client; 3 MiB for large
// answers, one per client; waits of 50 ms.
var smallBudget = graphqlhttp.Config{MaxResponseBytes: 1 << 20, ResponseBudget: 4 << 20, ResponseBudgetWait: 50 * time.Millisecond}

// TestBudgetBusy: a client whose part of the budget is taken waits for
// its own shares and is answered 503 SERVICE_UNAVAILABLE with Retry-After
// and no data when the wait is over, while another client is served at
// once: for the first share (no resolver runs), and for the growth of a
// query's share (its answer is refused whole). Once the held answer is
// written its share is back.
func TestBudgetBusy(t *testing.T) {
	s := newBudgetSchema()
	h := s.handler(t, smallBudget)

	// Client A's one first share is taken by a paused query.
	paused := goPost(h, clientA, "{ pause }")
	<-s.holding
	checkBusy(t, "client A's query while its first share is taken", post(h, "{ blob(size: 10) }"))
	if n := s.blobs.Load(); n != 0 {
		t.Errorf("blob ran %d times for a refused query, want 0", n)
	}
	checkAnswer(t, "client B's query meanwhile", postFrom(h, clientB, "{ blob(size: 10) }"), `{"data":{"blob":"xxxxxxxxxx"}}`)
	s.release <- struct{}{}
	checkAnswer(t, "the paused query", <-paused, `{"data":{"pause":"p"}}`)
	checkAnswer(t, "client A's query once its share is back", post(h, "{ blob(size: 10) }"), `{"data":{"blob":"xxxxxxxxxx"}}`)

	// Client A's one large share is taken by a query paused past its
	// first share: A's next large query gets its first share, runs, and
	// is refused when it outgrows it; B's is served.
	big := strings.Repeat("x", 300000)
	paused = goPost(h, clientA, "{ a: blob(size: 300000) p: pause }")
	<-s.holding
	s.blobs.Store(0)
	checkBusy(t, "client A's large query while its large share is taken", post(h, "{ blob(size: 300000) }"))
	if n := s.blobs.Load(); n != 1 {
		t.Errorf("blob ran %d times for the refused large query, want 1", n)
	}
	checkAnswer(t, "client B's large query meanwhile", postFrom(h, clientB, "{ blob(size: 300000) }"), `{"data":{"blob":"`+big+`"}}`)
	checkAnswer(t, "client A's small query meanwhile", post(h, "{ blob(size: 10) }"), `{"data":{"blob":"xxxxxxxxxx"}}`)
	s.release <- struct{}{}
	checkAnswer(t, "the paused large query", <-paused, `{"data":{"a":"`+big+`","p":"p"}}`)
	checkAnswer(t, "client A's large query once its share is back", post(h, "{ blob(size: 300000) }"), `{"data":{"blob":"`+big+`"}}`)

	// With a longer wait, A's query waits and is served once the first
	// answer is written.
	cfg := smallBudget
	cfg.ResponseBudgetWait = time.Minute
	s = newBudgetSchema()
	h = s.handler(t, cfg)
	paused = goPost(h, clientA, "{ a: blob(size: 300000) p: pause }")
	<-s.holding
	waited := goPost(h, clientA, "{ blob(size: 300000) }")
	time.Sleep(20 * time.Millisecond) // the query is waiting, or about to
	s.release <- struct{}{}
	<-paused
	checkAnswer(t, "a query that waited for its share", <-waited, `{"data":{"blob":"`+big+`"}}`)
}

// budgetSettings begins New's errors about the budget's settings.
const budgetSettings = "graphqlhttp: Config.ResponseBudget, ResponseBudgetWait, FirstShare and MaxResponseBytes: respbudget: "

// TestBudgetConfig: New refuses budgets that cannot work.
func TestBudgetConfig(t *testing.T) {
	for _, c := range []struct {
		cfg  graphqlhttp.Config
		want string
	}{
		{cfg: graphqlhttp.Config{ResponseBudget: 1 << 20, MaxResponseBytes: 1 << 20},
			want: budgetSettings + "an answer of up to 1048576 bytes is larger than the three quarters of the 1048576-byte budget that large answers share, which could never hold it"},
		{cfg: graphqlhttp.Config{MaxResponseBytes: 49 << 20},
			want: budgetSettings + "an answer of up to 51380224 bytes is larger than the three quarters of the 67108864-byte budget that large answers share, which could never hold it"},
		{cfg: graphqlhttp.Config{ResponseBudget: 1 << 20, FirstShare: 300 << 10, MaxResponseBytes: 512 << 10},
			want: budgetSettings + "a first share of 307200 bytes is larger than the quarter of the 1048576-byte budget kept for first shares"},
		{cfg: graphqlhttp.Config{MaxResponseBytes: -1},
			want: "graphqlhttp: a response budget needs a bound on each response: set Config.MaxResponseBytes, or turn the budget off with a negative Config.ResponseBudget"},
		{cfg: graphqlhttp.Config{ResponseBudgetWait: -time.Second},
			want: budgetSettings + "a size of 0 bytes, a first share of 0 and a wait of -1s: none may be negative"},
		{cfg: graphqlhttp.Config{FirstShare: -1},
			want: budgetSettings + "a size of 0 bytes, a first share of -1 and a wait of 0s: none may be negative"},
	} {
		c.cfg.Auth = nobody{}
		_, err := graphqlhttp.New(sampleSchema(t), c.cfg)
		if err == nil || err.Error() != c.want {
			t.Errorf("New(MaxResponseBytes %d, ResponseBudget %d, ResponseBudgetWait %v, FirstShare %d) error = %v, want %q",
				c.cfg.MaxResponseBytes, c.cfg.ResponseBudget, c.cfg.ResponseBudgetWait, c.cfg.FirstShare, err, c.want)
		}
	}
	for _, cfg := range []graphqlhttp.Config{
		{},
		{MaxResponseBytes: -1, ResponseBudget: -1},
		{MaxResponseBytes: 48 << 20},
		{MaxResponseBytes: 100 << 10}, // FirstShare is at most MaxResponseBytes
		{ResponseBudget: -1, ResponseBudgetWait: -1},
		{StallTimeout: -1},
	} {
		cfg.Auth = nobody{}
		if _, err := graphqlhttp.New(sampleSchema(t), cfg); err != nil {
			t.Errorf("New(%+v) error = %v, want nil", cfg, err)
		}
	}
}

// TestLargeAnswerWrittenInPlace: data of 64 KiB or more is written where
// the executor left it, around the envelope the presenter wrote, errors
// included: the bytes are those of a copied answer.
func TestLargeAnswerWrittenInPlace(t *testing.T) {
	s := newBudgetSchema()
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
