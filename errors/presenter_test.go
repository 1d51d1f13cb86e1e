package errors_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/internal/logbuf"

	"github.com/jackc/pgx/v5"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
)

// httpError is an HTTP-style error from some other library.
type httpError struct {
	status int
	msg    string
}

func (e httpError) Error() string   { return e.msg }
func (e httpError) StatusCode() int { return e.status }

// badUnwrap is a foreign error whose Unwrap panics.
type badUnwrap struct{}

func (badUnwrap) Error() string { return "bad unwrap" }
func (badUnwrap) Unwrap() error { panic("unwrap") }

// logged returns a context whose logger writes JSON lines, with request_id
// "req-1", into the returned buffer.
func logged(t *testing.T) (context.Context, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	ctx := loggingContext(t, "req-1", logbuf.Logger(&buf))
	buf.Reset() // the access line
	return ctx, &buf
}

// lines decodes the JSON log lines in buf.
func lines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%#v): %v", v, err)
	}
	return string(data)
}

var (
	errDB    = errors.New("pq: connection refused")
	fields2  = map[string][]string{"input.title": {"The title field is required."}, "input.body": {"The body field is required."}}
	pathPost = ast.Path{ast.PathName("posts"), ast.PathIndex(0), ast.PathName("author")}
)

// presentCase is one error and what clients and logs see of it.
type presentCase struct {
	name string
	err  error
	// graphql is the JSON of Presenter.GraphQL's result.
	graphql string
	// status and rest are the status and JSON body of Presenter.REST.
	status int
	rest   string
	// logLevel is the level of the one line logged, "" for none.
	logLevel string
	// logError is the "error" field of that line.
	logError string
}

func presentCases() []presentCase {
	wrap := func(err error) error { return fmt.Errorf("deletePost: %w", err) }
	return []presentCase{
		{
			name:    "forbidden",
			err:     errcode.Forbidden("You can only delete your own articles."),
			graphql: `{"message":"You can only delete your own articles.","extensions":{"code":"FORBIDDEN"}}`,
			status:  403, rest: `{"message":"You can only delete your own articles."}`,
		},
		{
			name:    "forbidden default message",
			err:     errcode.Forbidden(""),
			graphql: `{"message":"This action is unauthorized.","extensions":{"code":"FORBIDDEN"}}`,
			status:  403, rest: `{"message":"This action is unauthorized."}`,
		},
		{
			name:    "wrapped not found",
			err:     wrap(errcode.NotFound("Post not found.")),
			graphql: `{"message":"Post not found.","extensions":{"code":"NOT_FOUND"}}`,
			status:  404, rest: `{"message":"Post not found."}`,
		},
		{
			name:    "unauthenticated default message",
			err:     errcode.Unauthenticated(""),
			graphql: `{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}`,
			status:  401, rest: `{"message":"Unauthenticated."}`,
		},
		{
			name:    "bad user input from New",
			err:     errcode.New(errcode.CodeBadUserInput, ""),
			graphql: `{"message":"The variables are not valid.","extensions":{"code":"BAD_USER_INPUT"}}`,
			status:  400, rest: `{"message":"The variables are not valid."}`,
		},
		{
			name:    "custom code",
			err:     &errcode.Error{Code: "TITLE_TAKEN", Message: "That title is taken."},
			graphql: `{"message":"That title is taken.","extensions":{"code":"TITLE_TAKEN"}}`,
			status:  400, rest: `{"message":"That title is taken."}`,
		},
		{
			name:    "explicit status is shown",
			err:     &errcode.Error{Code: "TITLE_TAKEN", Message: "That title is taken.", Status: 409},
			graphql: `{"message":"That title is taken.","extensions":{"code":"TITLE_TAKEN","status":409}}`,
			status:  409, rest: `{"message":"That title is taken."}`,
		},
		{
			name:    "nonsense status falls back to the code's",
			err:     &errcode.Error{Code: errcode.CodeForbidden, Status: 42},
			graphql: `{"message":"This action is unauthorized.","extensions":{"code":"FORBIDDEN"}}`,
			status:  403, rest: `{"message":"This action is unauthorized."}`,
		},
		{
			name: "extra extensions, reserved keys win",
			err: &errcode.Error{Code: errcode.CodeQueryLimitExceeded, Message: "Too deep.",
				Extensions: map[string]any{"limit": map[string]any{"name": "depth", "max": 10, "found": 11}, "code": "NOPE"}},
			graphql: `{"message":"Too deep.","extensions":{"code":"QUERY_LIMIT_EXCEEDED","limit":{"found":11,"max":10,"name":"depth"}}}`,
			status:  400, rest: `{"message":"Too deep."}`,
		},
		{
			name:    "no code: the status's",
			err:     &errcode.Error{Message: "Try again with a smaller page."},
			graphql: `{"message":"Try again with a smaller page.","extensions":{"code":"BAD_REQUEST"}}`,
			status:  400, rest: `{"message":"Try again with a smaller page."}`,
		},
		{
			name:    "no code, an explicit status",
			err:     &errcode.Error{Message: "Gone fishing.", Status: http.StatusNotFound},
			graphql: `{"message":"Gone fishing.","extensions":{"code":"NOT_FOUND","status":404}}`,
			status:  404, rest: `{"message":"Gone fishing."}`,
		},
		{
			name: "reserved keys the presenter does not set are dropped",
			err: &errcode.Error{Code: errcode.CodeForbidden,
				Extensions: map[string]any{"status": 999, "validation": "fake", "hint": "kept"}},
			graphql: `{"message":"This action is unauthorized.","extensions":{"code":"FORBIDDEN","hint":"kept"}}`,
			status:  403, rest: `{"message":"This action is unauthorized."}`,
		},
		{
			name:    "known error with a cause is logged at info",
			err:     &errcode.Error{Code: errcode.CodeUnauthenticated, Err: errors.New("token is expired")},
			graphql: `{"message":"Unauthenticated.","extensions":{"code":"UNAUTHENTICATED"}}`,
			status:  401, rest: `{"message":"Unauthenticated."}`,
			logLevel: "info", logError: `UNAUTHENTICATED "Unauthenticated.": token is expired`,
		},
		{
			name:    "validation failed",
			err:     errcode.ValidationFailed("", fields2),
			graphql: `{"message":"The body field is required. (and 1 more error)","extensions":{"code":"VALIDATION_FAILED","validation":{"input.body":["The body field is required."],"input.title":["The title field is required."]}}}`,
			status:  422, rest: `{"message":"The body field is required. (and 1 more error)","errors":{"input.body":["The body field is required."],"input.title":["The title field is required."]}}`,
		},
		{
			name:    "validation failed with its own message",
			err:     errcode.ValidationFailed("Check the title.", map[string][]string{"title": {"The title field must not be greater than 200 characters."}}),
			graphql: `{"message":"Check the title.","extensions":{"code":"VALIDATION_FAILED","validation":{"title":["The title field must not be greater than 200 characters."]}}}`,
			status:  422, rest: `{"message":"Check the title.","errors":{"title":["The title field must not be greater than 200 characters."]}}`,
		},
		{
			name:    "HTTP-style 404",
			err:     httpError{404, "No such post."},
			graphql: `{"message":"No such post.","extensions":{"code":"NOT_FOUND","status":404}}`,
			status:  404, rest: `{"message":"No such post."}`,
		},
		{
			name:    "HTTP-style 409, wrapped",
			err:     wrap(httpError{409, "The post was changed meanwhile."}),
			graphql: `{"message":"The post was changed meanwhile.","extensions":{"code":"CONFLICT","status":409}}`,
			status:  409, rest: `{"message":"The post was changed meanwhile."}`,
		},
		{
			name:    "HTTP-style 418",
			err:     httpError{418, "I'm a teapot."},
			graphql: `{"message":"I'm a teapot.","extensions":{"code":"IM_A_TEAPOT","status":418}}`,
			status:  418, rest: `{"message":"I'm a teapot."}`,
		},
		{
			name:    "HTTP-style 503 is masked",
			err:     httpError{503, "database pool exhausted"},
			graphql: `{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Internal server error."}`,
			logLevel: "error", logError: "database pool exhausted",
		},
		{
			name:    "HTTP-style 302 is masked",
			err:     httpError{302, "go elsewhere"},
			graphql: `{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Internal server error."}`,
			logLevel: "error", logError: "go elsewhere",
		},
		{
			name:    "max bytes error",
			err:     fmt.Errorf("reading body: %w", &http.MaxBytesError{Limit: 1 << 20}),
			graphql: `{"message":"The request body is too large.","extensions":{"code":"REQUEST_ENTITY_TOO_LARGE","status":413}}`,
			status:  413, rest: `{"message":"The request body is too large."}`,
		},
		{
			name:    "sql.ErrNoRows wrapped",
			err:     fmt.Errorf("post 7: %w", sql.ErrNoRows),
			graphql: `{"message":"Not found.","extensions":{"code":"NOT_FOUND"}}`,
			status:  404, rest: `{"message":"Not found."}`,
		},
		{
			name:    "pgx.ErrNoRows wrapped",
			err:     fmt.Errorf("post 7: %w", pgx.ErrNoRows),
			graphql: `{"message":"Not found.","extensions":{"code":"NOT_FOUND"}}`,
			status:  404, rest: `{"message":"Not found."}`,
		},
		{
			name:    "ErrNotFound wrapped twice",
			err:     wrap(fmt.Errorf("store: %w", errcode.ErrNotFound)),
			graphql: `{"message":"Not found.","extensions":{"code":"NOT_FOUND"}}`,
			status:  404, rest: `{"message":"Not found."}`,
		},
		{
			name:    "not found inside errors.Join",
			err:     errors.Join(errors.New("first"), sql.ErrNoRows),
			graphql: `{"message":"Not found.","extensions":{"code":"NOT_FOUND"}}`,
			status:  404, rest: `{"message":"Not found."}`,
		},
		{
			name:    "unknown error is masked and logged",
			err:     wrap(errDB),
			graphql: `{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Internal server error."}`,
			logLevel: "error", logError: "deletePost: pq: connection refused",
		},
		{
			name:    "internal Error is masked and logged",
			err:     &errcode.Error{Code: errcode.CodeInternal, Message: "secret detail", Err: errDB},
			graphql: `{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Internal server error."}`,
			logLevel: "error", logError: `INTERNAL_SERVER_ERROR "secret detail": pq: connection refused`,
		},
		{
			name:    "Error with status 503 is masked",
			err:     &errcode.Error{Code: "UNAVAILABLE", Message: "secret detail", Status: 503},
			graphql: `{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Internal server error."}`,
			logLevel: "error", logError: `UNAVAILABLE "secret detail"`,
		},
		{
			name:    "typed nil Error is masked, not a panic",
			err:     fmt.Errorf("odd: %w", (*errcode.Error)(nil)),
			graphql: `{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Internal server error."}`,
			logLevel: "error", logError: "odd: <nil>",
		},
		{
			name:    "error whose Unwrap panics is masked, not a panic",
			err:     wrap(badUnwrap{}),
			graphql: `{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Internal server error."}`,
			logLevel: "error", logError: "deletePost: bad unwrap",
		},
		{
			name:    "panic of a known error is still masked",
			err:     &errcode.PanicError{Value: errcode.Forbidden("x"), Stack: []byte("stack")},
			graphql: `{"message":"Internal server error.","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Internal server error."}`,
			logLevel: "error", logError: `panic: FORBIDDEN "x"`,
		},
		{
			name: "resolver error wrapped by the engine keeps path and locations",
			err: &gqlerror.Error{Err: errcode.Forbidden("Not yours."), Message: `FORBIDDEN "Not yours."`,
				Path: ast.Path{ast.PathName("deletePost")}, Locations: []gqlerror.Location{{Line: 2, Column: 3}}},
			graphql: `{"message":"Not yours.","path":["deletePost"],"locations":[{"line":2,"column":3}],"extensions":{"code":"FORBIDDEN"}}`,
			status:  403, rest: `{"message":"Not yours."}`,
		},
		{
			name:    "unknown resolver error wrapped by the engine",
			err:     gqlerror.WrapPath(pathPost, errDB),
			graphql: `{"message":"Internal server error.","path":["posts",0,"author"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Internal server error."}`,
			logLevel: "error", logError: "pq: connection refused",
		},
		{
			name:    "not found wrapped by the engine",
			err:     gqlerror.WrapPath(ast.Path{ast.PathName("post")}, fmt.Errorf("q: %w", sql.ErrNoRows)),
			graphql: `{"message":"Not found.","path":["post"],"extensions":{"code":"NOT_FOUND"}}`,
			status:  404, rest: `{"message":"Not found."}`,
		},
		{
			name: "engine error keeps message and extensions, drops file",
			err: &gqlerror.Error{Message: `Cannot query field "nope" on type "Query".`, Rule: "FieldsOnCorrectType",
				Locations:  []gqlerror.Location{{Line: 1, Column: 3}},
				Extensions: map[string]any{"code": "GRAPHQL_VALIDATION_FAILED", "file": "query.graphql"}},
			graphql: `{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}`,
			status:  400, rest: `{"message":"Cannot query field \"nope\" on type \"Query\"."}`,
		},
		{
			name:    "engine error with a Code-typed code",
			err:     &gqlerror.Error{Message: "Syntax Error: Unexpected <EOF>.", Extensions: map[string]any{"code": errcode.CodeParseFailed}},
			graphql: `{"message":"Syntax Error: Unexpected \u003cEOF\u003e.","extensions":{"code":"GRAPHQL_PARSE_FAILED"}}`,
			status:  400, rest: `{"message":"Syntax Error: Unexpected \u003cEOF\u003e."}`,
		},
		{
			name:    "engine request error without a code",
			err:     gqlerror.ErrorPosf(nil, "Unknown operation named %q.", "Nope"),
			graphql: `{"message":"Unknown operation named \"Nope\".","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}`,
			status:  400, rest: `{"message":"Unknown operation named \"Nope\"."}`,
		},
		{
			name:    "engine execution error without a code",
			err:     gqlerror.ErrorPathf(ast.Path{ast.PathName("post"), ast.PathName("title")}, "Cannot return null for non-nullable field Post.title."),
			graphql: `{"message":"Cannot return null for non-nullable field Post.title.","path":["post","title"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}`,
			status:  500, rest: `{"message":"Cannot return null for non-nullable field Post.title."}`,
		},
		{
			name: "validation failed from a resolver keeps its path",
			err: gqlerror.WrapPath(ast.Path{ast.PathName("createPost")},
				errcode.ValidationFailed("", map[string][]string{"input.title": {"The title field is required."}})),
			graphql: `{"message":"The title field is required.","path":["createPost"],"extensions":{"code":"VALIDATION_FAILED","validation":{"input.title":["The title field is required."]}}}`,
			status:  422, rest: `{"message":"The title field is required.","errors":{"input.title":["The title field is required."]}}`,
		},
	}
}

func TestPresenterGraphQL(t *testing.T) {
	for _, tc := range presentCases() {
		t.Run(tc.name, func(t *testing.T) {
			ctx, buf := logged(t)
			got := apierror.Presenter{}.GraphQL(ctx, tc.err)
			if got := mustJSON(t, got); got != tc.graphql {
				t.Errorf("GraphQL JSON:\n got %s\nwant %s", got, tc.graphql)
			}
			if got.Err != nil {
				t.Errorf("GraphQL result Err = %v, want nil", got.Err)
			}
			checkLog(t, buf, tc)
		})
	}
}

func TestPresenterREST(t *testing.T) {
	for _, tc := range presentCases() {
		t.Run(tc.name, func(t *testing.T) {
			ctx, buf := logged(t)
			status, body := apierror.Presenter{}.REST(ctx, tc.err)
			if status != tc.status {
				t.Errorf("REST status = %d, want %d", status, tc.status)
			}
			if _, ok := body.(apierror.Body); !ok {
				t.Errorf("REST body is a %T, want apierror.Body", body)
			}
			if got := mustJSON(t, body); got != tc.rest {
				t.Errorf("REST body:\n got %s\nwant %s", got, tc.rest)
			}
			if got := apierror.Status(tc.err); got != tc.status {
				t.Errorf("Status = %d, want %d", got, tc.status)
			}
			checkLog(t, buf, tc)
		})
	}
}

// checkLog asserts that buf holds exactly the line tc expects, if any.
func checkLog(t *testing.T, buf *bytes.Buffer, tc presentCase) {
	t.Helper()
	got := lines(t, buf)
	if tc.logLevel == "" {
		if len(got) != 0 {
			t.Errorf("logged %d lines, want none: %s", len(got), buf)
		}
		return
	}
	if len(got) != 1 {
		t.Fatalf("logged %d lines, want 1: %s", len(got), buf)
	}
	line := got[0]
	for key, want := range map[string]any{
		"level":      tc.logLevel,
		"request_id": "req-1",
		"error":      tc.logError,
	} {
		if line[key] != want {
			t.Errorf("log %s = %v, want %v (line %v)", key, line[key], want, line)
		}
	}
	if line["code"] == nil || line["status"] == nil {
		t.Errorf("log line lacks code or status: %v", line)
	}
}

func TestPresenterLogsGraphQLPath(t *testing.T) {
	ctx, buf := logged(t)
	apierror.Presenter{}.GraphQL(ctx, gqlerror.WrapPath(pathPost, errDB))
	got := lines(t, buf)
	if len(got) != 1 {
		t.Fatalf("logged %d lines, want 1: %s", len(got), buf)
	}
	want := map[string]any{
		"level": "error", "request_id": "req-1", "error": "pq: connection refused",
		"code": "INTERNAL_SERVER_ERROR", "status": float64(500),
		"graphql_path": "posts[0].author", "message": "internal server error",
	}
	if g, w := mustJSON(t, got[0]), mustJSON(t, want); g != w {
		t.Errorf("log line:\n got %s\nwant %s", g, w)
	}
}

func TestPresenterPanic(t *testing.T) {
	err := func() (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = errcode.Recovered(v)
			}
		}()
		explode()
		return nil
	}()

	var pe *errcode.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Recovered gave %T, want *errcode.PanicError", err)
	}
	if pe.Value != "boom" {
		t.Errorf("Value = %v, want boom", pe.Value)
	}

	ctx, buf := logged(t)
	got := apierror.Presenter{}.GraphQL(ctx, gqlerror.WrapPath(ast.Path{ast.PathName("posts")}, err))
	if g, w := mustJSON(t, got), `{"message":"Internal server error.","path":["posts"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}`; g != w {
		t.Errorf("GraphQL JSON:\n got %s\nwant %s", g, w)
	}
	logs := lines(t, buf)
	if len(logs) != 1 {
		t.Fatalf("logged %d lines, want 1: %s", len(logs), buf)
	}
	line := logs[0]
	if line["error"] != "panic: boom" || line["panic"] != "boom" || line["request_id"] != "req-1" || line["level"] != "error" {
		t.Errorf("log line = %v, want error, panic boom, request_id req-1, level error", line)
	}
	stack, _ := line["stack"].(string)
	if !strings.Contains(stack, "errors_test.explode") {
		t.Errorf("logged stack does not show the panicking function:\n%s", stack)
	}
}

func explode() { panic("boom") }

func TestPresenterDebug(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{name: "unknown", err: fmt.Errorf("load: %w", errDB), want: `{"message":"load: pq: connection refused","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`},
		{name: "panic", err: &errcode.PanicError{Value: "boom"}, want: `{"message":"panic: boom","extensions":{"code":"INTERNAL_SERVER_ERROR"}}`},
		{name: "engine wrapper", err: gqlerror.WrapPath(ast.Path{ast.PathName("a")}, errDB), want: `{"message":"pq: connection refused","path":["a"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}`},
		{name: "known unchanged", err: errcode.NotFound(""), want: `{"message":"Not found.","extensions":{"code":"NOT_FOUND"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, buf := logged(t)
			p := apierror.Presenter{Debug: true}
			if got := mustJSON(t, p.GraphQL(ctx, tc.err)); got != tc.want {
				t.Errorf("GraphQL JSON:\n got %s\nwant %s", got, tc.want)
			}
			var want apierror.Body
			if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if _, body := p.REST(ctx, tc.err); body.(apierror.Body).Message != want.Message {
				t.Errorf("REST message = %q, want %q", body.(apierror.Body).Message, want.Message)
			}
			if n := len(lines(t, buf)); tc.name != "known unchanged" && n != 2 {
				t.Errorf("logged %d lines for two presentations, want 2", n)
			}
		})
	}
}

func TestPresenterIsIdempotent(t *testing.T) {
	ctx, buf := logged(t)
	p := apierror.Presenter{}
	first := p.GraphQL(ctx, gqlerror.WrapPath(pathPost, errDB))
	second := p.GraphQL(ctx, first)
	if g, w := mustJSON(t, second), mustJSON(t, first); g != w {
		t.Errorf("presenting twice:\n got %s\nwant %s", g, w)
	}
	if n := len(lines(t, buf)); n != 1 {
		t.Errorf("logged %d lines, want 1", n)
	}
}

func TestPresenterNil(t *testing.T) {
	if got := (apierror.Presenter{}).GraphQL(context.Background(), nil); got != nil {
		t.Errorf("GraphQL(nil) = %v, want nil", got)
	}
}

// TestPresenterLoggerFallback checks the kit's one logging rule: the
// configured logger, else the request's reqlog logger, else slog.Default()
// (ctxlog's own test covers the last).
func TestPresenterLoggerFallback(t *testing.T) {
	var buf bytes.Buffer
	l := logbuf.Logger(&buf)
	p := apierror.Presenter{Logger: l}

	p.GraphQL(context.Background(), errDB)
	if got := lines(t, &buf); len(got) != 1 || got[0]["error"] != errDB.Error() {
		t.Errorf("without a context logger, Presenter.Logger got %v, want one line for %q", got, errDB)
	}

	buf.Reset()
	ctx, ctxBuf := logged(t)
	p.GraphQL(ctx, errDB)
	if got := lines(t, &buf); len(got) != 1 {
		t.Errorf("with a context logger too, Presenter.Logger got %v, want one line", got)
	}
	if ctxBuf.Len() != 0 {
		t.Errorf("the context logger was used although Presenter.Logger is set: %s", ctxBuf)
	}

	apierror.Presenter{}.GraphQL(ctx, errDB)
	if n := len(lines(t, ctxBuf)); n != 1 {
		t.Errorf("without Presenter.Logger, the context logger got %d lines, want 1", n)
	}
}
