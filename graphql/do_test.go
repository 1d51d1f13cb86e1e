package graphql_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

// TestDoKeepsTheCauseOfMaskedErrors: Do's default presentation masks a
// resolver's plain error for the caller's eyes but keeps it as the
// presented error's cause, never written in JSON, for the caller to log
// (the engine has no logger).
func TestDoKeepsTheCauseOfMaskedErrors(t *testing.T) {
	secret := errors.New("dial postgres://app:hunter2@db: refused")
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "plain", Type: graphql.String, Resolve: failing(secret)},
	)})
	res := s.Do(context.Background(), graphql.Request{Query: `{ plain }`})
	if len(res.Errors) != 1 {
		t.Fatalf("errors: %v", res.Errors)
	}
	e := res.Errors[0]
	if e.Message != "Internal server error." || !errors.Is(e, secret) {
		t.Errorf("error %q (cause %v); want the masked message with the resolver's error as its cause", e.Message, e.Err)
	}
	want := `{"data":{"plain":null},"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":3}],"path":["plain"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`
	if got, _ := res.MarshalJSON(); string(got) != want {
		t.Errorf("JSON:\n got %s\nwant %s", got, want)
	}
}
