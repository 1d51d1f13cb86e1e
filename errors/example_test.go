package errors_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
)

func ExamplePresenter_GraphQL() {
	// Log lines go to stdout here (without their time, which varies); a
	// server's also carry the request id, from reqlog.
	logger := slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	ctx := context.Background()
	p := apierror.Presenter{Logger: logger}

	// A resolver's error, wrapped by the engine with the field's path.
	missing := fmt.Errorf("post 7: %w", sql.ErrNoRows)
	broken := errors.New("pq: connection refused")
	for _, err := range []error{
		gqlerror.WrapPath(ast.Path{ast.PathName("post")}, missing),
		gqlerror.WrapPath(ast.Path{ast.PathName("deletePost")}, errcode.Forbidden("You can only delete your own posts.")),
		gqlerror.WrapPath(ast.Path{ast.PathName("createPost")}, errcode.ValidationFailed("", map[string][]string{
			"input.title": {"The title field is required."},
		})),
		gqlerror.WrapPath(ast.Path{ast.PathName("posts")}, broken),
	} {
		out, _ := json.Marshal(p.GraphQL(ctx, err))
		fmt.Println(string(out))
	}
	// Output:
	// {"message":"Not found.","path":["post"],"extensions":{"code":"NOT_FOUND"}}
	// {"message":"You can only delete your own posts.","path":["deletePost"],"extensions":{"code":"FORBIDDEN"}}
	// {"message":"The title field is required.","path":["createPost"],"extensions":{"code":"VALIDATION_FAILED","validation":{"input.title":["The title field is required."]}}}
	// {"level":"ERROR","msg":"internal server error","error":"pq: connection refused","code":"INTERNAL_SERVER_ERROR","status":500,"graphql_path":"posts"}
	// {"message":"Internal server error.","path":["posts"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}
}

func ExamplePresenter_WriteREST() {
	deleteArticle := func(userID, authorID int64) error {
		if userID != authorID {
			return errcode.Forbidden("You can only delete your own articles.")
		}
		return nil
	}

	p := apierror.Presenter{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := deleteArticle(1, 2); err != nil {
			p.WriteREST(w, r, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodDelete, "/api/articles/7", nil))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Println(rec.Body)
	// Output:
	// 403 application/json
	// {"message":"You can only delete your own articles."}
}

func ExamplePresenter_REST() {
	err := errcode.ValidationFailed("", map[string][]string{
		"title": {"The title field is required."},
		"body":  {"The body field is required."},
	})
	status, body := apierror.Presenter{}.REST(context.Background(), err)
	out, _ := json.Marshal(body)
	fmt.Println(status, string(out))
	// Output:
	// 422 {"message":"The body field is required. (and 1 more error)","errors":{"body":["The body field is required."],"title":["The title field is required."]}}
}

func ExamplePresenter_GraphQL_panic() {
	resolve := func() (v any, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = errcode.Recovered(r)
			}
		}()
		panic(errors.New("index out of range")) // a bug somewhere below
	}

	_, err := resolve()
	nop := slog.New(slog.DiscardHandler) // a program would log the panic and its stack
	out, _ := json.Marshal(apierror.Presenter{Debug: true, Logger: nop}.GraphQL(context.Background(), err))
	fmt.Println(string(out))
	// Output:
	// {"message":"panic: index out of range","extensions":{"code":"INTERNAL_SERVER_ERROR"}}
}

// uniqueError is what a store might return when an insert breaks a unique
// index; it knows nothing of package errors.
type uniqueError struct{ column string }

func (e *uniqueError) Error() string { return "UNIQUE constraint failed: users." + e.column }

func ExampleHooks() {
	hooks := apierror.Hooks{
		// One place turns domain errors into coded ones, for GraphQL and
		// REST alike; the original stays the cause, for the log.
		Map: func(_ context.Context, err error) error {
			var u *uniqueError
			if errors.As(err, &u) {
				e := errcode.ValidationFailed("", map[string][]string{
					u.column: {"The " + u.column + " has already been taken."},
				})
				e.Err = err
				return e
			}
			return err
		},
		// Masked errors go to an error tracker; here, to stdout.
		Report: func(_ context.Context, r apierror.Report) {
			fmt.Printf("report: %s %d path=%v err=%q\n", r.Code, r.Status, r.Path, r.Err)
		},
	}
	nop := slog.New(slog.DiscardHandler) // a server would log to the request's logger
	p := apierror.Presenter{Logger: nop, Hooks: hooks}
	ctx := context.Background()

	taken := fmt.Errorf("creating user: %w", &uniqueError{column: "email"})
	status, body := p.REST(ctx, taken)
	out, _ := json.Marshal(body)
	fmt.Println(status, string(out))

	// A resolver's error, wrapped by the engine with the field's path.
	field := gqlerror.WrapPath(ast.Path{ast.PathName("register")}, taken)
	out, _ = json.Marshal(p.GraphQL(ctx, field))
	fmt.Println(string(out))

	broken := gqlerror.WrapPath(ast.Path{ast.PathName("users")}, errors.New("pq: connection refused"))
	out, _ = json.Marshal(p.GraphQL(ctx, broken))
	fmt.Println(string(out))
	// Output:
	// 422 {"message":"The email has already been taken.","errors":{"email":["The email has already been taken."]}}
	// {"message":"The email has already been taken.","path":["register"],"extensions":{"code":"VALIDATION_FAILED","validation":{"email":["The email has already been taken."]}}}
	// report: INTERNAL_SERVER_ERROR 500 path=users err="pq: connection refused"
	// {"message":"Internal server error.","path":["users"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}
}
