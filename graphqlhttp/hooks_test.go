package graphqlhttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/internal/logbuf"
	"github.com/gqlkit/gqlkit/internal/testdb"
	"github.com/gqlkit/gqlkit/reqlog"
)

// hooksUniqueTitles is the application's own migration: one title per article,
// which the store knows nothing of.
const hooksUniqueTitles = "CREATE UNIQUE INDEX IF NOT EXISTS articles_title_unique ON articles (title)"

// hooksTitleTaken is what both APIs answer a duplicate title with, once mapped.
const hooksTitleTaken = "The title has already been taken."

// hooksRecorder is one set of error hooks for both APIs: Map turns SQLite's
// unique violation into a 422 on the title, Report records the reports.
type hooksRecorder struct {
	mu      sync.Mutex
	reports []apierror.Report
}

func (h *hooksRecorder) hooks() apierror.Hooks {
	return apierror.Hooks{
		Map: func(_ context.Context, err error) error {
			var e *sqlite.Error
			if !errors.As(err, &e) || e.Code() != sqlite3.SQLITE_CONSTRAINT_UNIQUE {
				return err
			}
			v := errcode.ValidationFailed("", map[string][]string{"title": {hooksTitleTaken}})
			v.Err = err
			return v
		},
		Report: func(_ context.Context, r apierror.Report) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.reports = append(h.reports, r)
		},
	}
}

// take returns the reports made so far and forgets them.
func (h *hooksRecorder) take() []apierror.Report {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.reports
	h.reports = nil
	return r
}

// hooksServer serves one SQLite store through both APIs, behind reqlog:
// GraphQL at /api/graphql (a createArticle mutation and fields that fail),
// REST at /api/articles. Both get the same Hooks.
func hooksServer(t *testing.T, hooks apierror.Hooks) (srv *httptest.Server, token string, logs *logbuf.Buffer) {
	t.Helper()
	store, _ := testdb.SQLite(t)
	ctx := context.Background()
	if err := store.Migrate(ctx, hooksUniqueTitles); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	userID, err := store.Users().CreateUser(ctx, "Ada", "ada@example.com", []byte("hash"))
	if err != nil {
		t.Fatalf("CreateUser: %v", err)
	}
	verifier, err := auth.NewVerifier(auth.HMAC(testSecret), auth.Config{})
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	token, err = newIssuer(t, testSecret, auth.Config{}).Issue(userID)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	logs = &logbuf.Buffer{}
	logger := logbuf.Logger(logs)

	schema, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
			{Name: "hello", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return "world", nil
			}},
			{Name: "broken", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return nil, errors.New(secretCause)
			}},
			{Name: "boom", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				panic(panicValue)
			}},
			{Name: "forbidden", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return nil, errcode.Forbidden(forbiddenMsg)
			}},
		}},
		Mutation: &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
			{Name: "createArticle", Type: graphql.Int,
				Args: []graphql.Argument{{Name: "title", Type: graphql.NewNonNull(graphql.String)}},
				Typed: graphql.Resolver(func(ctx context.Context, _ any, args struct{ Title string }) (int64, error) {
					id, _ := auth.UserID(ctx)
					a, err := store.Articles().CreateArticle(ctx, articles.NewArticle{UserID: id, Title: args.Title, Body: "Text", Published: true})
					return a.ID, err
				})},
		}},
	})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	gql, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: apierror.Presenter{Logger: logger, Hooks: hooks}, Auth: verifier})
	if err != nil {
		t.Fatalf("graphqlhttp.New: %v", err)
	}
	rest, err := articles.NewHandler(store.Articles(), articles.Config{Presenter: apierror.Presenter{Logger: logger, Hooks: hooks}})
	if err != nil {
		t.Fatalf("articles.NewHandler: %v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/graphql", gql)
	mux.Handle("/api/articles", verifier.Optional(rest))
	mux.Handle("/api/articles/", verifier.Optional(rest))
	srv = httptest.NewServer(reqlog.Handler(logger)(mux))
	t.Cleanup(srv.Close)
	return srv, token, logs
}

// hooksPost sends body as JSON to path with the bearer token, and returns the
// status, the X-Request-Id and the body.
func hooksPost(t *testing.T, srv *httptest.Server, path, token, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get(reqlog.Header), string(b)
}

// hooksQuery is the JSON body of a GraphQL request for query.
func hooksQuery(t *testing.T, query string) string {
	t.Helper()
	b, err := json.Marshal(map[string]string{"query": query})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// One Hooks value, given to graphqlhttp.Config and articles.Config, maps
// the same domain error (a real unique violation of the database) to the
// same code and message in both APIs.
func TestErrorHooksMapBothAPIs(t *testing.T) {
	var rec hooksRecorder
	srv, token, _ := hooksServer(t, rec.hooks())

	if status, _, body := hooksPost(t, srv, "/api/articles", token, `{"title":"Hello","body":"Text","published":true}`); status != http.StatusCreated {
		t.Fatalf("first create: %d %s", status, body)
	}

	status, _, body := hooksPost(t, srv, "/api/articles", token, `{"title":"Hello","body":"Again"}`)
	wantREST := `{"message":"The title has already been taken.","errors":{"title":["The title has already been taken."]}}`
	if status != http.StatusUnprocessableEntity || body != wantREST {
		t.Errorf("REST duplicate: %d %s, want 422 %s", status, body, wantREST)
	}

	status, _, body = hooksPost(t, srv, "/api/graphql", token, hooksQuery(t, `mutation { createArticle(title: "Hello") }`))
	wantGQL := `{"data":{"createArticle":null},"errors":[{"message":"The title has already been taken.","locations":[{"line":1,"column":12}],"path":["createArticle"],` +
		`"extensions":{"code":"VALIDATION_FAILED","validation":{"title":["The title has already been taken."]}}}]}`
	if status != http.StatusOK || body != wantGQL {
		t.Errorf("GraphQL duplicate: %d\n got %s\nwant %s", status, body, wantGQL)
	}
	if status := errcode.CodeValidationFailed.Status(); status != http.StatusUnprocessableEntity {
		t.Errorf("VALIDATION_FAILED is %d in REST, want 422", status)
	}
	if r := rec.take(); len(r) != 0 {
		t.Errorf("Report called for mapped errors: %+v", r)
	}
}

// Report is called once per masked field error, with its path, the
// request id, and the stack of a resolver's panic; not for known errors.
func TestErrorHooksReportFieldErrors(t *testing.T) {
	var rec hooksRecorder
	srv, _, logs := hooksServer(t, rec.hooks())

	status, id, body := hooksPost(t, srv, "/api/graphql", "", hooksQuery(t, `{ a: broken b: broken boom forbidden hello }`))
	if status != http.StatusOK || !strings.Contains(body, `"hello":"world"`) {
		t.Fatalf("answer = %d %s, want 200 with data", status, body)
	}
	if strings.Contains(body, secretCause) || strings.Contains(body, panicValue) {
		t.Errorf("a masked error leaked: %s", body)
	}
	if id == "" {
		t.Fatalf("no %s in the answer", reqlog.Header)
	}

	reports := rec.take()
	byPath := map[string]apierror.Report{}
	for _, r := range reports {
		byPath[r.Path.String()] = r
	}
	if len(reports) != 3 || len(byPath) != 3 {
		t.Fatalf("Report called %d times (%v), want once for each of a, b and boom", len(reports), reports)
	}
	for _, path := range []string{"a", "b", "boom"} {
		r, ok := byPath[path]
		if !ok {
			t.Errorf("no report for the field %s", path)
			continue
		}
		if r.Code != errcode.CodeInternal || r.Status != http.StatusInternalServerError || r.RequestID != id || r.Err == nil {
			t.Errorf("report for %s = %+v, want INTERNAL_SERVER_ERROR, 500, request id %s, an error", path, r, id)
		}
		if panicked := path == "boom"; panicked != (len(r.Stack) > 0) {
			t.Errorf("report for %s has a stack of %d bytes", path, len(r.Stack))
		}
	}
	if r := byPath["a"]; r.Err != nil && r.Err.Error() != secretCause {
		t.Errorf("report for a: Err = %q, want the resolver's error %q", r.Err, secretCause)
	}
	if r := byPath["boom"]; !strings.Contains(string(r.Stack), "hooks_test") {
		t.Errorf("report for boom: the stack does not show the resolver:\n%s", r.Stack)
	}

	// Each masked error was logged once too, with the same request id.
	lines := logLines(t, logs, `"message":"internal server error"`)
	if len(lines) != 3 {
		t.Errorf("logged %d internal errors, want 3: %v", len(lines), lines)
	}
	for _, l := range lines {
		if l["request_id"] != id {
			t.Errorf("log line %v, want request_id %s", l, id)
		}
	}
}
