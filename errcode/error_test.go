package errcode_test

import (
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/validate"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name   string
		fields map[string][]string
		order  []string
		want   string
	}{
		{name: "nil", fields: nil, want: "The given data was invalid."},
		{name: "no messages", fields: map[string][]string{"title": {}}, want: "The given data was invalid."},
		{name: "one", fields: map[string][]string{"title": {"The title field is required."}}, want: "The title field is required."},
		{
			name:   "two in sorted order",
			fields: map[string][]string{"title": {"T."}, "body": {"B."}},
			want:   "B. (and 1 more error)",
		},
		{
			name:   "two in given order",
			fields: map[string][]string{"title": {"T."}, "body": {"B."}},
			order:  []string{"title", "body"},
			want:   "T. (and 1 more error)",
		},
		{
			name:   "order names a missing and a repeated field",
			fields: map[string][]string{"title": {"T1.", "T2."}, "body": {"B."}, "published": {"P."}},
			order:  []string{"nope", "published", "published"},
			want:   "P. (and 3 more errors)",
		},
		{
			name:   "first field without messages is skipped",
			fields: map[string][]string{"a": nil, "b": {"B1.", "B2."}},
			want:   "B1. (and 1 more error)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := errcode.Summarize(tc.fields, tc.order); got != tc.want {
				t.Errorf("Summarize(%v, %v) = %q, want %q", tc.fields, tc.order, got, tc.want)
			}
		})
	}
}

// TestSummarizeAgreesWithValidate: Summarize reads as
// validate.Failures.Summary does for the same failures.
func TestSummarizeAgreesWithValidate(t *testing.T) {
	for _, f := range []validate.Failures{
		nil,
		{{Path: "title", Messages: []string{"T."}}},
		{{Path: "title", Messages: []string{"T."}}, {Path: "body", Messages: []string{"B1.", "B2."}}},
		{{Path: "a"}, {Path: "b", Messages: []string{"B."}}, {Path: "c", Messages: []string{"C."}}},
	} {
		order := make([]string, len(f))
		for i, e := range f {
			order[i] = e.Path
		}
		if got, want := errcode.Summarize(f.Map(), order), f.Summary(); got != want {
			t.Errorf("Summarize(%v) = %q, want validate's %q", f, got, want)
		}
	}
}

func TestCodeForStatus(t *testing.T) {
	tests := []struct {
		status int
		want   errcode.Code
	}{
		{400, "BAD_REQUEST"},
		{401, errcode.CodeUnauthenticated},
		{403, errcode.CodeForbidden},
		{404, errcode.CodeNotFound},
		{409, "CONFLICT"},
		{413, "REQUEST_ENTITY_TOO_LARGE"},
		{414, "REQUEST_URI_TOO_LONG"},
		{418, "IM_A_TEAPOT"},
		{422, errcode.CodeValidationFailed},
		{429, "TOO_MANY_REQUESTS"},
		{499, "BAD_REQUEST"},
		{500, errcode.CodeInternal},
		{503, errcode.CodeInternal},
	}
	for _, tc := range tests {
		if got := errcode.CodeForStatus(tc.status); got != tc.want {
			t.Errorf("CodeForStatus(%d) = %q, want %q", tc.status, got, tc.want)
		}
	}
}

func TestCodeStatus(t *testing.T) {
	tests := []struct {
		code errcode.Code
		want int
	}{
		{errcode.CodeParseFailed, 400},
		{errcode.CodeGraphQLValidation, 400},
		{errcode.CodeBadUserInput, 400},
		{errcode.CodeQueryLimitExceeded, 400},
		{errcode.CodeUnauthenticated, 401},
		{errcode.CodeForbidden, 403},
		{errcode.CodeNotFound, 404},
		{errcode.CodeValidationFailed, 422},
		{errcode.CodeInternal, 500},
		{"SOMETHING_ELSE", 400},
	}
	for _, tc := range tests {
		if got := tc.code.Status(); got != tc.want {
			t.Errorf("%s.Status() = %d, want %d", tc.code, got, tc.want)
		}
	}
}

func TestErrorText(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{err: errcode.NotFound(""), want: `NOT_FOUND "Not found."`},
		{err: &errcode.Error{Code: errcode.CodeNotFound, Message: "Post not found.", Err: sql.ErrNoRows}, want: `NOT_FOUND "Post not found.": sql: no rows in result set`},
		{err: &errcode.Error{Code: errcode.CodeForbidden}, want: `FORBIDDEN "This action is unauthorized."`},
		{err: (*errcode.Error)(nil), want: "<nil>"},
		{err: &errcode.PanicError{Value: 42}, want: "panic: 42"},
	}
	for _, tc := range tests {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func TestErrorIdentity(t *testing.T) {
	cause := errors.New("row 7 missing")
	e := &errcode.Error{Code: errcode.CodeNotFound, Err: cause}
	if !errors.Is(fmt.Errorf("x: %w", e), cause) {
		t.Error("errors.Is does not reach the cause")
	}
	if !errors.Is(errcode.NotFound("Post not found."), errcode.ErrNotFound) {
		t.Error("errors.Is(NotFound(...), ErrNotFound) = false, want true")
	}
	if errors.Is(errcode.Forbidden(""), errcode.ErrNotFound) {
		t.Error("errors.Is(Forbidden(...), ErrNotFound) = true, want false")
	}
	var sc errcode.StatusCoder
	if !errors.As(fmt.Errorf("x: %w", errcode.Forbidden("")), &sc) || sc.StatusCode() != 403 {
		t.Errorf("an *Error is not a StatusCoder with 403")
	}
}

func TestConstructors(t *testing.T) {
	fields := map[string][]string{"title": {"The title field is required."}}
	tests := []struct {
		err  *errcode.Error
		want errcode.Error
	}{
		{err: errcode.Forbidden(""), want: errcode.Error{Code: errcode.CodeForbidden, Message: "This action is unauthorized."}},
		{err: errcode.Forbidden("No."), want: errcode.Error{Code: errcode.CodeForbidden, Message: "No."}},
		{err: errcode.NotFound(""), want: errcode.Error{Code: errcode.CodeNotFound, Message: "Not found."}},
		{err: errcode.Unauthenticated(""), want: errcode.Error{Code: errcode.CodeUnauthenticated, Message: "Unauthenticated."}},
		{err: errcode.New(errcode.CodeQueryLimitExceeded, ""), want: errcode.Error{Code: errcode.CodeQueryLimitExceeded, Message: "The query exceeds a limit."}},
		{err: errcode.ValidationFailed("", fields), want: errcode.Error{Code: errcode.CodeValidationFailed, Message: "The title field is required.", Fields: fields}},
	}
	for _, tc := range tests {
		got := tc.err
		if got.Code != tc.want.Code || got.Message != tc.want.Message || got.Status != 0 || got.Err != nil || fmt.Sprint(got.Fields) != fmt.Sprint(tc.want.Fields) {
			t.Errorf("got %+v, want %+v", *got, tc.want)
		}
	}
}

func TestPanicErrorUnwrap(t *testing.T) {
	err := errcode.Recovered(http.ErrAbortHandler)
	if !errors.Is(err, http.ErrAbortHandler) {
		t.Errorf("errors.Is(%v, http.ErrAbortHandler) = false, want true", err)
	}
	if got := errcode.Recovered(42).Unwrap(); got != nil {
		t.Errorf("Unwrap of a non-error panic = %v, want nil", got)
	}
}
