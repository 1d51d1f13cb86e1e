package otelgraphql_test

import (
	"context"
	"errors"
	"testing"

	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphqlhttp"
	"github.com/gqlkit/gqlkit/otelgraphql"
)

// TestFieldSpanRecordsThePresentedCode: the tracer is configured once, with
// no error hooks of its own; the endpoint's Presenter maps a domain error
// to VALIDATION_FAILED, and the field span records that code, the one the
// client sees, not INTERNAL_SERVER_ERROR with an Error status.
func TestFieldSpanRecordsThePresentedCode(t *testing.T) {
	hooks := apierror.Hooks{Map: func(_ context.Context, err error) error {
		if errors.Is(err, errDomain) {
			return errcode.ValidationFailed("", map[string][]string{"id": {"The post is locked."}})
		}
		return err
	}}
	r := newRigWith(t, otelgraphql.Config{}, graphqlhttp.Config{Presenter: apierror.Presenter{Hooks: hooks}})
	ss := r.query(t, 200, `{"query":"{ locked }"}`)
	field := ss.one(t, "graphql.resolve Query.locked")
	if got := attrs(field)[semconv.ErrorTypeKey].AsString(); got != string(errcode.CodeValidationFailed) {
		t.Errorf("field span error.type = %q, want %s", got, errcode.CodeValidationFailed)
	}
	if field.Status().Code != codes.Unset {
		t.Errorf("field span status = %v, want Unset: the client's error is no server error", field.Status())
	}
}
