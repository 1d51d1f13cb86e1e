package graphqlhttp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/internal/testdb"
)

var _ graphqlhttp.Rechecker = (*auth.Verifier)(nil)

// announcing is the Verifier as the endpoint's Authenticator and
// Rechecker, telling the test each time it authenticated a request with
// a token.
type announcing struct {
	*auth.Verifier
	authenticated chan struct{}
}

func (a announcing) AuthenticateContext(r *http.Request) (context.Context, error) {
	ctx, err := a.Verifier.AuthenticateContext(r)
	if r.Header.Get("Authorization") != "" {
		a.authenticated <- struct{}{}
	}
	return ctx, err
}

// recheckSchema has the query pause, which answers once release is
// closed (holding receives when it starts), and the mutation write, which
// counts its calls.
type recheckSchema struct {
	writes           atomic.Int64
	holding, release chan struct{}
}

func (s *recheckSchema) schema(t *testing.T) *graphql.Schema {
	t.Helper()
	schema, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{{Name: "pause", Type: graphql.String,
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				s.holding <- struct{}{}
				<-s.release
				return "p", nil
			}}}},
		Mutation: &graphql.Object{Name: "Mutation", Fields: graphql.Fields{{Name: "write", Type: graphql.Int,
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return s.writes.Add(1), nil
			}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// TestMutationGateRechecks: the mutation gate asks the Verifier again
// whether the token was revoked, after the body is read and after the
// request waited for its share of the response budget: a token logged out
// meanwhile writes nothing and gets the 401 of the door, a token store
// that cannot answer the door's 503. Queries are not checked again. The
// re-check must stay after the budget's wait: a request could otherwise
// wait there for up to ResponseBudgetWait and write after the logout.
func TestMutationGateRechecks(t *testing.T) {
	const (
		mutation      = `{"query":"mutation { write }"}`
		gqlRefused    = `{"errors":[{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}]}`
		gqlNoTokenSvc = `{"errors":[{"message":"Service unavailable.","extensions":{"code":"SERVICE_UNAVAILABLE"}}]}`
	)
	store, db, counter := testdb.SQLiteDB(t)
	user, err := store.Users().CreateUser(context.Background(), "Ada", "ada@example.com", []byte("hash"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := auth.Config{Tokens: store.Tokens()}
	verifier, err := auth.NewVerifier(auth.HMAC(testSecret), cfg)
	if err != nil {
		t.Fatal(err)
	}
	issuer, err := auth.NewIssuer(testSecret, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &recheckSchema{holding: make(chan struct{}), release: make(chan struct{})}
	a := announcing{Verifier: verifier, authenticated: make(chan struct{}, 1)}
	logs := new(logbuf.Buffer)
	logger := logbuf.Logger(logs)
	// One first share per client, and waits long enough to be released.
	h, err := graphqlhttp.New(s.schema(t), graphqlhttp.Config{Auth: a, Presenter: apierror.Presenter{Logger: logger},
		MaxResponseBytes: 1 << 20, ResponseBudget: 4 << 20, ResponseBudgetWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	token := func() (string, auth.Token) {
		t.Helper()
		raw, err := issuer.Issue(user)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := verifier.Verify(context.Background(), raw)
		if err != nil {
			t.Fatal(err)
		}
		return raw, tok
	}
	logOut := func(tok auth.Token) {
		t.Helper()
		if err := store.Tokens().RevokeToken(context.Background(), tok.ID, tok.ExpiresAt); err != nil {
			t.Fatal(err)
		}
	}
	// send posts body with the token raw from clientA, calling between
	// once the request is authenticated and, when trickle is set, before
	// the rest of its body is sent.
	send := func(raw, body string, trickle bool, between func()) *httptestResult {
		t.Helper()
		first, rest := body, ""
		if trickle {
			first, rest = body[:10], body[10:]
		}
		pr, pw := io.Pipe()
		req := httptest.NewRequest(http.MethodPost, "/api/graphql", pr)
		req.RemoteAddr = clientA
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+raw)
		done := make(chan *httptestResult, 1)
		go func() {
			rec := record(h, req)
			done <- &httptestResult{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
		}()
		// One writer, so that the two parts reach the handler in order:
		// the rest only once between has run.
		resume := make(chan struct{})
		go func() {
			_, _ = io.WriteString(pw, first)
			if trickle {
				<-resume
				_, _ = io.WriteString(pw, rest)
			}
			pw.Close()
		}()
		<-a.authenticated
		between()
		close(resume)
		got := <-done
		pw.CloseWithError(io.ErrUnexpectedEOF) // whatever the handler left unread
		return got
	}
	checkRefused := func(what string, got *httptestResult, status int, body string) {
		t.Helper()
		if got.status != status || got.body != body {
			t.Errorf("%s: %d %s; want %d %s", what, got.status, got.body, status, body)
		}
		if status == http.StatusUnauthorized && got.header.Get("WWW-Authenticate") != "Bearer" {
			t.Errorf("%s: WWW-Authenticate %q; want Bearer", what, got.header.Get("WWW-Authenticate"))
		}
	}

	// A live token: the door and the gate, one lookup each.
	raw, _ := token()
	before := counter.Queries()
	if got := send(raw, mutation, true, func() {}); got.status != http.StatusOK || got.body != `{"data":{"write":1}}` {
		t.Errorf("a mutation with a live token: %d %s", got.status, got.body)
	}
	if n := counter.Queries() - before; n != 2 {
		t.Errorf("a mutation with a live token ran %d statements; want 2 (the door's check and the gate's)", n)
	}

	// Logged out while the body was on its way.
	raw, tok := token()
	checkRefused("a mutation whose token was logged out while it sent the body",
		send(raw, mutation, true, func() { logOut(tok) }), http.StatusUnauthorized, gqlRefused)

	// Logged out while the mutation waited for its share of the budget,
	// which a paused query of the same client holds.
	paused := goPost(h, clientA, "{ pause }")
	<-s.holding
	raw, tok = token()
	checkRefused("a mutation whose token was logged out while it waited for the budget",
		send(raw, mutation, false, func() {
			time.Sleep(20 * time.Millisecond) // the mutation is waiting, or about to
			logOut(tok)
			close(s.release)
		}), http.StatusUnauthorized, gqlRefused)
	if got := <-paused; got.status != http.StatusOK {
		t.Errorf("the paused query: %d %s", got.status, got.body)
	}
	if n := s.writes.Load(); n != 1 {
		t.Errorf("write ran %d times; want once, for the live token", n)
	}
	if n := len(logLines(t, logs, "graphql: credentials no longer valid at the mutation")); n != 2 {
		t.Errorf("%d refusals at the gate logged; want 2:\n%s", n, logs)
	}

	// Queries are not checked again: a token logged out after the door
	// still reads.
	raw, tok = token()
	before = counter.Queries()
	if got := send(raw, `{"query":"{ __typename }"}`, true, func() { logOut(tok) }); got.status != http.StatusOK || got.body != `{"data":{"__typename":"Query"}}` {
		t.Errorf("a query whose token was logged out after the door: %d %s", got.status, got.body)
	}
	if n := counter.Queries() - before; n != 2 {
		t.Errorf("the query and its logout ran %d statements; want 2 (the door's check and the logout)", n)
	}

	// A token store that cannot answer at the gate: 503, as at the door.
	raw, _ = token()
	checkRefused("a mutation whose token cannot be checked again",
		send(raw, mutation, true, func() { _ = db.Close() }), http.StatusServiceUnavailable, gqlNoTokenSvc)
	if lines := logLines(t, logs, "graphql: credentials could not be checked again before the mutation"); len(lines) != 1 || lines[0]["level"] != "error" {
		t.Errorf("log lines of the unavailable store: %v; want one at error level", lines)
	}
	if n := s.writes.Load(); n != 1 {
		t.Errorf("write ran %d times; want once, for the live token", n)
	}
	if !strings.Contains(logs.String(), `"error":"auth: the token store is unavailable`) {
		t.Errorf("log = %s; want the cause", logs)
	}
}
