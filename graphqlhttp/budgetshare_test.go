package graphqlhttp_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// tinyBudget: one first share of 256 KiB in all, and 768 KiB for large
// answers of up to 512 KiB; short waits.
var tinyBudget = graphqlhttp.Config{ResponseBudget: 1 << 20, MaxResponseBytes: 512 << 10, ResponseBudgetWait: 300 * time.Millisecond}

// panickyAuth is an Authenticator whose Subject panics: the mutation gate
// calls it once the operation is coerced.
type panickyAuth struct{ everybody }

func (panickyAuth) Subject(context.Context) (string, bool) { panic("auth bug") }

// panickyTracer panics when it is told that the execute phase of a
// request from client A ended: the execution's share is taken by then,
// and its data built.
type panickyTracer struct{}

func (panickyTracer) StartRequest(ctx context.Context) context.Context { return ctx }
func (panickyTracer) EndRequest(context.Context, graphql.RequestInfo)  {}
func (panickyTracer) StartField(ctx context.Context, _ graphql.ResolveInfo) context.Context {
	return ctx
}
func (panickyTracer) EndField(context.Context, graphql.ResolveInfo, error) {}
func (panickyTracer) Phase(ctx context.Context, p graphql.PhaseInfo) {
	if r, _ := graphqlhttp.Request(ctx); p.Phase == graphql.PhaseExecute && r != nil && r.RemoteAddr == clientA {
		panic("tracer bug")
	}
}

// TestBudgetShareBackAfterPanic: a panic outside the resolvers, once an
// execution holds its share of the budget or on its way there, is a 500,
// and the share is given back: the one first share of the budget serves
// the next requests. Before, the share was given back only once the
// execution had returned, and a few such panics took the whole budget for
// good.
func TestBudgetShareBackAfterPanic(t *testing.T) {
	for name, c := range map[string]struct {
		auth   graphqlhttp.Authenticator
		tracer graphql.Tracer
		query  string
	}{
		"in the mutation gate":         {auth: panickyAuth{}, query: "mutation { put(size: 1) }"},
		"once the data is built":       {tracer: panickyTracer{}, query: "{ blob(size: 10) }"},
		"once the large data is built": {tracer: panickyTracer{}, query: "{ blob(size: 300000) }"},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := tinyBudget
			cfg.Auth, cfg.Tracer = c.auth, c.tracer
			s := newBudgetSchema()
			h := s.handler(t, cfg)
			for i := range 3 {
				if got := postFrom(h, clientA, c.query); got.status != http.StatusInternalServerError {
					t.Fatalf("the panicking request %d: %d %.100s; want 500", i, got.status, got.body)
				}
			}
			checkAnswer(t, "another client's query after the panics", postFrom(h, clientB, "{ blob(size: 10) }"), `{"data":{"blob":"xxxxxxxxxx"}}`)
		})
	}
}

// held waits until a paused resolver of s has started, failing the test
// after a few seconds.
func (s *budgetSchema) held(t *testing.T, what string) {
	t.Helper()
	select {
	case <-s.holding:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s never started", what)
	}
}

// TestBudgetMutationsOfOneClient: a mutation that outgrew its first share
// overdraws the budget rather than be refused after its writes; while its
// client holds its part of the large answers' room so, the client's next
// mutation waits for its first share, before any resolver, and is refused
// with a 503 once the wait is over. Its queries and other clients'
// mutations are served meanwhile. Before, every mutation of one client
// could overdraw MaxResponseBytes, however many it sent at once.
func TestBudgetMutationsOfOneClient(t *testing.T) {
	s := newBudgetSchema()
	s.pauses = true
	h := s.handler(t, smallBudget)
	big := strings.Repeat("x", 600000)
	// a writes 600 KB (its overdraft: MaxResponseBytes, the client's
	// part), then b pauses.
	paused := goPost(h, clientA, "mutation { a: hold(size: 600000) b: hold(size: 1) }")
	s.held(t, "the mutation's first field")
	s.release <- struct{}{}
	s.held(t, "the mutation's second field")

	checkBusy(t, "client A's next mutation while its overdraft is held", post(h, "mutation { put(size: 10) }"))
	if n := s.puts.Load(); n != 0 {
		t.Errorf("put ran %d times for a refused mutation, want 0", n)
	}
	checkAnswer(t, "client A's query meanwhile", post(h, "{ blob(size: 10) }"), `{"data":{"blob":"xxxxxxxxxx"}}`)
	checkAnswer(t, "client B's mutation meanwhile", postFrom(h, clientB, "mutation { put(size: 10) }"), `{"data":{"put":"xxxxxxxxxx"}}`)
	s.release <- struct{}{}
	checkAnswer(t, "the paused mutation", <-paused, `{"data":{"a":"`+big+`","b":"x"}}`)
	checkAnswer(t, "client A's mutation once its overdraft is back", post(h, "mutation { put(size: 10) }"), `{"data":{"put":"xxxxxxxxxx"}}`)
}

// TestBudgetUnreadableAddress: requests whose RemoteAddr cannot be read
// (a Unix socket's listener gives "" or "@") have no client part: they
// are bounded by the budget alone, not taken for one client with a part
// of one first share.
func TestBudgetUnreadableAddress(t *testing.T) {
	s := newBudgetSchema()
	h := s.handler(t, smallBudget) // a client's part: one first share of four
	var paused []<-chan *httptestResult
	for i, addr := range []string{"@", "", "@"} {
		paused = append(paused, goPost(h, addr, "{ pause }"))
		select {
		case <-s.holding:
		case got := <-paused[i]:
			t.Fatalf("query %d from RemoteAddr %q, while %d others run: %d %.100s; want it running", i, addr, i, got.status, got.body)
		}
	}
	for range paused {
		s.release <- struct{}{}
	}
	for _, p := range paused {
		checkAnswer(t, "a paused query", <-p, `{"data":{"pause":"p"}}`)
	}
}

// timeoutBody is the answer to a query whose deadline passed before it
// had room for its data.
const timeoutBody = `{"data":null,"errors":[{"message":"` + graphql.MessageTimeout + `","extensions":{"code":"TIMEOUT"}}]}`

// TestBudgetDeadlineWins: when Config.Timeout passes while a query waits
// for the budget, for its first share or for its growth, the answer is the
// deadline's, 200 with data null and the TIMEOUT error, and it comes at the
// deadline, not once the budget's wait is over. Before, the growth's wait
// was answered 503, and the first share's waited past the deadline.
func TestBudgetDeadlineWins(t *testing.T) {
	cfg := smallBudget
	cfg.ResponseBudgetWait, cfg.Timeout = 10*time.Second, 200*time.Millisecond
	s := newBudgetSchema()
	h := s.handler(t, cfg)

	// Client A's one first share is taken by a paused query.
	paused := goPost(h, clientA, "{ pause }")
	s.held(t, "the paused query")
	start := time.Now()
	got := post(h, "{ blob(size: 10) }")
	checkAnswer(t, "client A's query waiting for its first share", got, timeoutBody)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("answered after %v, not at the 200ms deadline", took)
	}
	s.release <- struct{}{}
	<-paused

	// Client A's one large share is taken by a paused query.
	paused = goPost(h, clientA, "{ a: blob(size: 300000) p: pause }")
	s.held(t, "the paused large query")
	start = time.Now()
	got = post(h, "{ blob(size: 300000) }")
	want := `{"data":null,"errors":[{"message":"` + graphql.MessageTimeout + `","path":["blob"],"extensions":{"code":"TIMEOUT"}}]}`
	checkAnswer(t, "client A's large query waiting for its growth", got, want)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("answered after %v, not at the 200ms deadline", took)
	}
	s.release <- struct{}{}
	<-paused
}
