package errors_test

import (
	"database/sql"
	"errors"
	"fmt"
	"testing"

	apierror "github.com/gqlkit/gqlkit/errors"
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
			if got := apierror.Summarize(tc.fields, tc.order); got != tc.want {
				t.Errorf("Summarize(%v, %v) = %q, want %q", tc.fields, tc.order, got, tc.want)
			}
		})
	}
}

func TestCodeForStatus(t *testing.T) {
	tests := []struct {
		status int
		want   apierror.Code
	}{
		{400, "BAD_REQUEST"},
		{401, apierror.CodeUnauthenticated},
		{403, apierror.CodeForbidden},
		{404, apierror.CodeNotFound},
		{409, "CONFLICT"},
		{413, "REQUEST_ENTITY_TOO_LARGE"},
		{414, "REQUEST_URI_TOO_LONG"},
		{418, "IM_A_TEAPOT"},
		{422, apierror.CodeValidationFailed},
		{429, "TOO_MANY_REQUESTS"},
		{499, "BAD_REQUEST"},
		{500, apierror.CodeInternal},
		{503, apierror.CodeInternal},
	}
	for _, tc := range tests {
		if got := apierror.CodeForStatus(tc.status); got != tc.want {
			t.Errorf("CodeForStatus(%d) = %q, want %q", tc.status, got, tc.want)
		}
	}
}

func TestCodeStatus(t *testing.T) {
	tests := []struct {
		code apierror.Code
		want int
	}{
		{apierror.CodeParseFailed, 400},
		{apierror.CodeGraphQLValidation, 400},
		{apierror.CodeBadUserInput, 400},
		{apierror.CodeQueryLimitExceeded, 400},
		{apierror.CodeUnauthenticated, 401},
		{apierror.CodeForbidden, 403},
		{apierror.CodeNotFound, 404},
		{apierror.CodeValidationFailed, 422},
		{apierror.CodeInternal, 500},
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
		{err: apierror.NotFound(""), want: `NOT_FOUND "Not found."`},
		{err: &apierror.Error{Code: apierror.CodeNotFound, Message: "Post not found.", Err: sql.ErrNoRows}, want: `NOT_FOUND "Post not found.": sql: no rows in result set`},
		{err: &apierror.Error{Code: apierror.CodeForbidden}, want: `FORBIDDEN "This action is unauthorized."`},
		{err: (*apierror.Error)(nil), want: "<nil>"},
		{err: &apierror.PanicError{Value: 42}, want: "panic: 42"},
	}
	for _, tc := range tests {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func TestErrorIdentity(t *testing.T) {
	cause := errors.New("row 7 missing")
	e := &apierror.Error{Code: apierror.CodeNotFound, Err: cause}
	if !errors.Is(fmt.Errorf("x: %w", e), cause) {
		t.Error("errors.Is does not reach the cause")
	}
	if !errors.Is(apierror.NotFound("Post not found."), apierror.ErrNotFound) {
		t.Error("errors.Is(NotFound(...), ErrNotFound) = false, want true")
	}
	if errors.Is(apierror.Forbidden(""), apierror.ErrNotFound) {
		t.Error("errors.Is(Forbidden(...), ErrNotFound) = true, want false")
	}
	var sc apierror.StatusCoder
	if !errors.As(fmt.Errorf("x: %w", apierror.Forbidden("")), &sc) || sc.StatusCode() != 403 {
		t.Errorf("an *Error is not a StatusCoder with 403")
	}
}

func TestConstructors(t *testing.T) {
	fields := map[string][]string{"title": {"The title field is required."}}
	tests := []struct {
		err  *apierror.Error
		want apierror.Error
	}{
		{err: apierror.Forbidden(""), want: apierror.Error{Code: apierror.CodeForbidden, Message: "This action is unauthorized."}},
		{err: apierror.Forbidden("No."), want: apierror.Error{Code: apierror.CodeForbidden, Message: "No."}},
		{err: apierror.NotFound(""), want: apierror.Error{Code: apierror.CodeNotFound, Message: "Not found."}},
		{err: apierror.Unauthenticated(""), want: apierror.Error{Code: apierror.CodeUnauthenticated, Message: "Unauthenticated."}},
		{err: apierror.New(apierror.CodeQueryLimitExceeded, ""), want: apierror.Error{Code: apierror.CodeQueryLimitExceeded, Message: "The query exceeds a limit."}},
		{err: apierror.ValidationFailed("", fields), want: apierror.Error{Code: apierror.CodeValidationFailed, Message: "The title field is required.", Fields: fields}},
	}
	for _, tc := range tests {
		got := tc.err
		if got.Code != tc.want.Code || got.Message != tc.want.Message || got.Status != 0 || got.Err != nil || fmt.Sprint(got.Fields) != fmt.Sprint(tc.want.Fields) {
			t.Errorf("got %+v, want %+v", *got, tc.want)
		}
	}
}

func TestCodeOf(t *testing.T) {
	tests := []struct {
		err  error
		want apierror.Code
	}{
		{err: nil, want: apierror.CodeInternal},
		{err: errors.New("x"), want: apierror.CodeInternal},
		{err: fmt.Errorf("x: %w", sql.ErrNoRows), want: apierror.CodeNotFound},
		{err: apierror.ValidationFailed("", nil), want: apierror.CodeValidationFailed},
		{err: httpError{409, "c"}, want: "CONFLICT"},
	}
	for _, tc := range tests {
		if got := apierror.CodeOf(tc.err); got != tc.want {
			t.Errorf("CodeOf(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
