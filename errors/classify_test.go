package errors_test

import (
	"database/sql"
	"errors"
	"fmt"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
)

func TestCodeOf(t *testing.T) {
	tests := []struct {
		err  error
		want errcode.Code
	}{
		{err: nil, want: errcode.CodeInternal},
		{err: errors.New("x"), want: errcode.CodeInternal},
		{err: fmt.Errorf("x: %w", sql.ErrNoRows), want: errcode.CodeNotFound},
		{err: errcode.ValidationFailed("", nil), want: errcode.CodeValidationFailed},
		{err: httpError{409, "c"}, want: "CONFLICT"},
	}
	for _, tc := range tests {
		if got := apierror.CodeOf(tc.err); got != tc.want {
			t.Errorf("CodeOf(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
