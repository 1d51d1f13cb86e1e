package errors_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gqlkit/gqlkit/internal/logbuf"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/reqlog"
)

// uniqueViolation is a store's domain error that knows nothing of package
// errors: an insert broke a unique index.
type uniqueViolation struct {
	table, column string
}

func (e *uniqueViolation) Error() string {
	return fmt.Sprintf("UNIQUE constraint failed: %s.%s", e.table, e.column)
}

// mapUnique is the Map hook of these tests: a unique violation becomes a
// 422 on its column, keeping the original as the cause.
func mapUnique(_ context.Context, err error) error {
	var uv *uniqueViolation
	if !errors.As(err, &uv) {
		return err
	}
	e := errcode.ValidationFailed("", map[string][]string{uv.column: {"The " + uv.column + " has already been taken."}})
	e.Err = err
	return e
}

var (
	errTaken  = fmt.Errorf("creating user: %w", &uniqueViolation{table: "users", column: "email"})
	pathEmail = ast.Path{ast.PathName("register"), ast.PathName("email")}
	locEmail  = []gqlerror.Location{{Line: 2, Column: 3}}
)

// fieldError wraps err as the engine does for a resolver's error.
func fieldError(path ast.Path, err error) *gqlerror.Error {
	e := gqlerror.WrapPath(path, err)
	e.Locations = locEmail
	return e
}

// bufLogger returns a logger writing JSON lines into the returned buffer.
func bufLogger() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	l := logbuf.Logger(&buf)
	return l, &buf
}

// nopLogger returns a pointer to a logger that writes nothing.
func nopLogger() *slog.Logger {
	l := slog.New(slog.DiscardHandler)
	return l
}

// reports records the calls of a Report hook.
type reports struct {
	mu  sync.Mutex
	got []apierror.Report
}

func (r *reports) hook(_ context.Context, rep apierror.Report) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, rep)
}

func (r *reports) all() []apierror.Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]apierror.Report(nil), r.got...)
}

// one returns the one report made, failing the test otherwise.
func (r *reports) one(t *testing.T) apierror.Report {
	t.Helper()
	got := r.all()
	if len(got) != 1 {
		t.Fatalf("Report called %d times, want once: %+v", len(got), got)
	}
	return got[0]
}

// requestContext returns the context reqlog.Handler gives a request that
// came with the request id id.
func requestContext(t *testing.T, id string) context.Context {
	t.Helper()
	return loggingContext(t, id, slog.New(slog.DiscardHandler))
}

// loggingContext returns the context reqlog.Handler(logger) gives a
// request that came with the request id id: logger is the request's.
func loggingContext(t *testing.T, id string, logger *slog.Logger) context.Context {
	t.Helper()
	var ctx context.Context
	h := reqlog.Handler(logger)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		ctx = r.Context()
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set(reqlog.Header, id)
	h.ServeHTTP(httptest.NewRecorder(), req)
	if got, _ := reqlog.ID(ctx); got != id {
		t.Fatalf("reqlog gave the request id %q, want %q", got, id)
	}
	return ctx
}

func TestHooksMapGraphQL(t *testing.T) {
	logger, logs := bufLogger()
	var given []error
	p := apierror.Presenter{Logger: logger, Hooks: apierror.Hooks{Map: func(ctx context.Context, err error) error {
		given = append(given, err)
		return mapUnique(ctx, err)
	}}}

	got := p.GraphQL(context.Background(), fieldError(pathEmail, errTaken))
	want := `{"message":"The email has already been taken.","path":["register","email"],"locations":[{"line":2,"column":3}],` +
		`"extensions":{"code":"VALIDATION_FAILED","validation":{"email":["The email has already been taken."]}}}`
	if g := mustJSON(t, got); g != want {
		t.Errorf("GraphQL JSON:\n got %s\nwant %s", g, want)
	}
	if got.Err != nil {
		t.Errorf("GraphQL result Err = %v, want nil", got.Err)
	}
	if len(given) != 1 || given[0] != errTaken {
		t.Errorf("Map was given %v, want only the resolver's error %v", given, errTaken)
	}

	// The original is the cause of a known error: logged at info level.
	logged := lines(t, logs)
	if len(logged) != 1 {
		t.Fatalf("logged %d lines, want 1: %s", len(logged), logs)
	}
	wantErr := `VALIDATION_FAILED "The email has already been taken.": creating user: UNIQUE constraint failed: users.email`
	if l := logged[0]; l["level"] != "info" || l["error"] != wantErr || l["code"] != "VALIDATION_FAILED" || l["graphql_path"] != "register.email" {
		t.Errorf("log line = %v, want info, error %q, code VALIDATION_FAILED, graphql_path register.email", l, wantErr)
	}

	// Presenting the result again maps nothing: it has no cause.
	given = nil
	again := p.GraphQL(context.Background(), got)
	if again.Message != got.Message || again.Extensions["code"] != errcode.CodeValidationFailed {
		t.Errorf("presented again: %s, want the same message and code", mustJSON(t, again))
	}
	if len(given) != 0 {
		t.Errorf("Map was given the presented error again: %v", given)
	}
}

func TestHooksMapREST(t *testing.T) {
	p := apierror.Presenter{Logger: nopLogger(), Hooks: apierror.Hooks{Map: mapUnique}}
	wantBody := `{"message":"The email has already been taken.","errors":{"email":["The email has already been taken."]}}`

	status, body := p.REST(context.Background(), errTaken)
	if g := mustJSON(t, body); status != http.StatusUnprocessableEntity || g != wantBody {
		t.Errorf("REST = %d %s, want 422 %s", status, g, wantBody)
	}

	rec := httptest.NewRecorder()
	p.WriteREST(rec, httptest.NewRequest(http.MethodPost, "/api/users", nil), errTaken)
	if rec.Code != http.StatusUnprocessableEntity || rec.Body.String() != wantBody {
		t.Errorf("WriteREST = %d %s, want 422 %s", rec.Code, rec.Body, wantBody)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("WriteREST Content-Type = %q, want application/json", ct)
	}

	// Errors Map leaves alone are answered as without it.
	if status, _ := p.REST(context.Background(), errcode.Forbidden("")); status != http.StatusForbidden {
		t.Errorf("REST of a FORBIDDEN error Map leaves alone = %d, want 403", status)
	}
}

// A mapped error keeps the engine wrapper's position, and Map may turn a
// known error into an unknown one (or the other way round).
func TestHooksMapChangesTheVerdict(t *testing.T) {
	logger, logs := bufLogger()
	secret := errors.New("row lock timeout")
	p := apierror.Presenter{Logger: logger, Hooks: apierror.Hooks{Map: func(_ context.Context, err error) error {
		if errors.Is(err, errcode.ErrNotFound) {
			return fmt.Errorf("%w (%w)", secret, err) // still NOT_FOUND: first decisive error wins
		}
		return &errcode.Error{Code: "CONFLICT", Message: "Try again.", Status: http.StatusConflict, Err: err}
	}}}

	got := p.GraphQL(context.Background(), fieldError(pathEmail, secret))
	want := `{"message":"Try again.","path":["register","email"],"locations":[{"line":2,"column":3}],"extensions":{"code":"CONFLICT","status":409}}`
	if g := mustJSON(t, got); g != want {
		t.Errorf("GraphQL JSON:\n got %s\nwant %s", g, want)
	}
	if status, _ := p.REST(context.Background(), errcode.ErrNotFound); status != http.StatusNotFound {
		t.Errorf("REST status = %d, want 404", status)
	}
	for _, l := range lines(t, logs) {
		if l["level"] != "info" {
			t.Errorf("log line %v, want info level only", l)
		}
	}
}

func TestHooksMapNil(t *testing.T) {
	logger, logs := bufLogger()
	calls := 0
	p := apierror.Presenter{Logger: logger, Hooks: apierror.Hooks{Map: func(context.Context, error) error {
		calls++
		return nil
	}}}

	got := p.GraphQL(context.Background(), fieldError(pathEmail, errTaken))
	want := `{"message":"Internal server error.","path":["register","email"],"locations":[{"line":2,"column":3}],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}`
	if g := mustJSON(t, got); g != want {
		t.Errorf("GraphQL JSON:\n got %s\nwant %s", g, want)
	}
	status, body := p.REST(context.Background(), errcode.Forbidden(""))
	if g := mustJSON(t, body); status != http.StatusForbidden || g != `{"message":"This action is unauthorized."}` {
		t.Errorf("REST = %d %s, want the original 403", status, g)
	}
	if calls != 2 {
		t.Errorf("Map called %d times, want 2", calls)
	}
	logged := lines(t, logs)
	if len(logged) != 1 || logged[0]["error"] != errTaken.Error() || logged[0]["level"] != "error" {
		t.Errorf("log = %v, want one error line for %q", logged, errTaken)
	}
}

func TestHooksMapNotGivenEngineErrors(t *testing.T) {
	p := apierror.Presenter{Logger: nopLogger(), Hooks: apierror.Hooks{Map: func(_ context.Context, err error) error {
		t.Errorf("Map was given the engine's error %v", err)
		return err
	}}}
	engine := &gqlerror.Error{
		Message:    `Cannot query field "nope" on type "Query".`,
		Locations:  []gqlerror.Location{{Line: 1, Column: 3}},
		Extensions: map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"},
	}
	want := `{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}`
	if g := mustJSON(t, p.GraphQL(context.Background(), engine)); g != want {
		t.Errorf("GraphQL JSON:\n got %s\nwant %s", g, want)
	}
	withSources := gqlerror.NewErrorWithSources(engine, nil)
	if g := mustJSON(t, p.GraphQL(context.Background(), withSources)); g != want {
		t.Errorf("GraphQL JSON of an ErrorWithSources:\n got %s\nwant %s", g, want)
	}
}

func TestHooksMapPanic(t *testing.T) {
	logger, logs := bufLogger()
	var reported reports
	p := apierror.Presenter{Logger: logger, Hooks: apierror.Hooks{
		Map:    func(context.Context, error) error { panic("map is broken") },
		Report: reported.hook,
	}}

	got := p.GraphQL(context.Background(), fieldError(pathEmail, errcode.Forbidden("")))
	want := `{"message":"This action is unauthorized.","path":["register","email"],"locations":[{"line":2,"column":3}],"extensions":{"code":"FORBIDDEN"}}`
	if g := mustJSON(t, got); g != want {
		t.Errorf("GraphQL JSON:\n got %s\nwant %s", g, want)
	}
	logged := lines(t, logs)
	if len(logged) != 1 {
		t.Fatalf("logged %d lines, want 1 (the hook's panic): %s", len(logged), logs)
	}
	l := logged[0]
	if l["level"] != "error" || l["hook"] != "Map" || l["panic"] != "map is broken" || l["message"] != "error hook panicked" {
		t.Errorf("log line = %v, want error level, hook Map, panic %q", l, "map is broken")
	}
	if stack, _ := l["stack"].(string); !strings.Contains(stack, "TestHooksMapPanic") {
		t.Errorf("logged stack does not show the hook:\n%s", stack)
	}
	if n := len(reported.all()); n != 0 {
		t.Errorf("Report called %d times for a known error", n)
	}

	// An unknown error is still masked, logged and reported, as the original.
	logs.Reset()
	status, _ := p.REST(context.Background(), errTaken)
	if status != http.StatusInternalServerError {
		t.Errorf("REST status = %d, want 500", status)
	}
	if n := len(lines(t, logs)); n != 2 {
		t.Errorf("logged %d lines, want 2 (the hook's panic, the error): %s", n, logs)
	}
	if r := reported.one(t); r.Err != errTaken {
		t.Errorf("Report.Err = %v, want the original %v", r.Err, errTaken)
	}
}

func TestHooksReport(t *testing.T) {
	ctx := requestContext(t, "req-7")
	errDown := errors.New("pq: connection refused")
	tests := []struct {
		name    string
		present func(p apierror.Presenter) string // JSON of the answer
		answer  string
		want    apierror.Report
	}{
		{
			name: "GraphQL field error",
			present: func(p apierror.Presenter) string {
				return mustJSON(t, p.GraphQL(ctx, fieldError(pathEmail, errDown)))
			},
			answer: `{"message":"Internal server error.","path":["register","email"],"locations":[{"line":2,"column":3}],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			want:   apierror.Report{Code: errcode.CodeInternal, Status: 500, Path: pathEmail, RequestID: "req-7", Err: errDown},
		},
		{
			name: "REST",
			present: func(p apierror.Presenter) string {
				status, body := p.REST(ctx, errDown)
				return fmt.Sprint(status, " ", mustJSON(t, body))
			},
			answer: `500 {"message":"Internal server error."}`,
			want:   apierror.Report{Code: errcode.CodeInternal, Status: 500, RequestID: "req-7", Err: errDown},
		},
		{
			name: "Error with status 503",
			present: func(p apierror.Presenter) string {
				status, body := p.REST(ctx, unavailable)
				return fmt.Sprint(status, " ", mustJSON(t, body))
			},
			answer: `500 {"message":"Internal server error."}`,
			want:   apierror.Report{Code: "UNAVAILABLE", Status: 503, RequestID: "req-7", Err: unavailable},
		},
		{
			name: "without reqlog",
			present: func(p apierror.Presenter) string {
				return mustJSON(t, p.GraphQL(context.Background(), errDown))
			},
			answer: `{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			want:   apierror.Report{Code: errcode.CodeInternal, Status: 500, Err: errDown},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Reporting does not depend on logging.
			for _, logger := range []*slog.Logger{nil, nopLogger()} {
				var reported reports
				p := apierror.Presenter{Logger: logger, Hooks: apierror.Hooks{Report: reported.hook}}
				if logger == nil {
					l, _ := bufLogger()
					p.Logger = l
				}
				if got := tc.present(p); got != tc.answer {
					t.Errorf("answer = %s, want %s", got, tc.answer)
				}
				r := reported.one(t)
				if r.Code != tc.want.Code || r.Status != tc.want.Status || r.RequestID != tc.want.RequestID || r.Err != tc.want.Err || r.Stack != nil {
					t.Errorf("Report = %+v, want %+v", r, tc.want)
				}
				if r.Path.String() != tc.want.Path.String() || (tc.want.Path == nil) != (r.Path == nil) {
					t.Errorf("Report.Path = %v, want %v", r.Path, tc.want.Path)
				}
			}
		})
	}
}

var unavailable = &errcode.Error{Code: "UNAVAILABLE", Message: "The search index is rebuilding.", Status: 503}

func TestHooksReportPanic(t *testing.T) {
	err := func() (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = errcode.Recovered(v)
			}
		}()
		explode()
		return nil
	}()
	var reported reports
	p := apierror.Presenter{Logger: nopLogger(), Hooks: apierror.Hooks{Report: reported.hook}}
	path := ast.Path{ast.PathName("posts"), ast.PathIndex(0)}
	p.GraphQL(requestContext(t, "req-9"), gqlerror.WrapPath(path, err))

	r := reported.one(t)
	if r.Code != errcode.CodeInternal || r.Status != 500 || r.RequestID != "req-9" || r.Path.String() != "posts[0]" {
		t.Errorf("Report = %+v, want INTERNAL_SERVER_ERROR, 500, req-9, posts[0]", r)
	}
	if r.Err != err {
		t.Errorf("Report.Err = %v, want the panic error %v", r.Err, err)
	}
	if !strings.Contains(string(r.Stack), "errors_test.explode") {
		t.Errorf("Report.Stack does not show the panicking function:\n%s", r.Stack)
	}
}

// Recover's panics reach Report too, with their stack.
func TestHooksReportRecover(t *testing.T) {
	var reported reports
	p := apierror.Presenter{Logger: nopLogger(), Hooks: apierror.Hooks{Report: reported.hook}}
	h := p.Recover(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { explode() }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != 500 {
		t.Errorf("status = %d, want 500", rec.Code)
	}
	r := reported.one(t)
	if r.Path != nil || r.Status != 500 || !strings.Contains(string(r.Stack), "errors_test.explode") {
		t.Errorf("Report = %+v, want no path, status 500, the panic's stack", r)
	}
}

func TestHooksReportNotCalled(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		err  error
	}{
		{"not found", context.Background(), fmt.Errorf("post 7: %w", errcode.ErrNotFound)},
		{"validation failed", context.Background(), errcode.ValidationFailed("", map[string][]string{"title": {"The title field is required."}})},
		{"forbidden with a cause", context.Background(), &errcode.Error{Code: errcode.CodeForbidden, Err: errors.New("not the author")}},
		{"HTTP-style 409", context.Background(), httpError{409, "Already published."}},
		{"client went away", cancelled, fmt.Errorf("listing: %w", context.Canceled)},
		{"mapped to a 422", context.Background(), errTaken},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var reported reports
			p := apierror.Presenter{Logger: nopLogger(), Hooks: apierror.Hooks{Report: reported.hook, Map: mapUnique}}
			p.GraphQL(tc.ctx, gqlerror.WrapPath(pathPost, tc.err))
			p.REST(tc.ctx, tc.err)
			if got := reported.all(); len(got) != 0 {
				t.Errorf("Report called %d times: %+v", len(got), got)
			}
		})
	}
}

// Report gets the error Map returned, which keeps the original in its chain.
func TestHooksReportAfterMap(t *testing.T) {
	var reported reports
	wrapped := func(_ context.Context, err error) error { return fmt.Errorf("tenant 3: %w", err) }
	p := apierror.Presenter{Logger: nopLogger(), Hooks: apierror.Hooks{Report: reported.hook, Map: wrapped}}
	p.GraphQL(context.Background(), fieldError(pathEmail, errTaken))
	r := reported.one(t)
	if r.Err == nil || r.Err.Error() != "tenant 3: "+errTaken.Error() || !errors.Is(r.Err, errTaken) {
		t.Errorf("Report.Err = %v, want Map's error wrapping %v", r.Err, errTaken)
	}
	if r.Path.String() != "register.email" {
		t.Errorf("Report.Path = %v, want register.email", r.Path)
	}
}

func TestHooksReportPanicRecovered(t *testing.T) {
	logger, logs := bufLogger()
	p := apierror.Presenter{Logger: logger, Hooks: apierror.Hooks{
		Report: func(context.Context, apierror.Report) { panic(errors.New("tracker is down")) },
	}}

	rec := httptest.NewRecorder()
	p.WriteREST(rec, httptest.NewRequest(http.MethodGet, "/", nil), errors.New("disk full"))
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != 500 || string(body) != `{"message":"Internal server error."}` {
		t.Errorf("answer = %d %s, want the usual 500", rec.Code, body)
	}
	logged := lines(t, logs)
	if len(logged) != 2 {
		t.Fatalf("logged %d lines, want 2 (the error, the hook's panic): %s", len(logged), logs)
	}
	if logged[0]["error"] != "disk full" {
		t.Errorf("first line = %v, want the error", logged[0])
	}
	if l := logged[1]; l["level"] != "error" || l["hook"] != "Report" || l["panic"] != "tracker is down" || l["stack"] == nil {
		t.Errorf("second line = %v, want the hook's panic with its stack", l)
	}
}

// A presenter without hooks and one with hooks that do nothing answer alike.
func TestHooksZeroValue(t *testing.T) {
	for _, tc := range presentCases() {
		plain := apierror.Presenter{Logger: nopLogger()}
		hooked := apierror.Presenter{Logger: nopLogger(), Hooks: apierror.Hooks{
			Map:    func(_ context.Context, err error) error { return err },
			Report: func(context.Context, apierror.Report) {},
		}}
		ctx := context.Background()
		if a, b := mustJSON(t, plain.GraphQL(ctx, tc.err)), mustJSON(t, hooked.GraphQL(ctx, tc.err)); a != b {
			t.Errorf("%s: GraphQL with identity hooks:\n got %s\nwant %s", tc.name, b, a)
		}
		s1, b1 := plain.REST(ctx, tc.err)
		s2, b2 := hooked.REST(ctx, tc.err)
		if s1 != s2 || mustJSON(t, b1) != mustJSON(t, b2) {
			t.Errorf("%s: REST with identity hooks = %d %s, want %d %s", tc.name, s2, mustJSON(t, b2), s1, mustJSON(t, b1))
		}
	}
}

// The presenter without hooks costs what it did: no allocation is added.
func TestHooksNoAllocWithoutHooks(t *testing.T) {
	p := apierror.Presenter{Logger: nopLogger()}
	plain := testing.AllocsPerRun(100, func() { p.REST(context.Background(), errcode.ErrNotFound) })
	if plain > 1 { // the Body boxed into any
		t.Errorf("REST of a known error allocates %v times, want at most 1", plain)
	}
}
