package graphqlhttp_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// uuidAuth is a service's own Authenticator whose users are UUIDs:
// "Bearer <uuid>" authenticates the UUID, any other Authorization is a
// bad credential.
type uuidAuth struct{}

func (uuidAuth) AuthenticateContext(r *http.Request) (context.Context, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return r.Context(), nil
	}
	id, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || len(id) != 36 || strings.Count(id, "-") != 4 {
		return nil, errors.New("not a UUID bearer")
	}
	return auth.WithSubject(r.Context(), id), nil
}

func (uuidAuth) Subject(ctx context.Context) (string, bool) { return auth.Subject(ctx) }

const aliceUUID = "3f0c6a52-8a7e-4c39-9d1e-4b1f3c2a9e10"

// newPublicServer serves a schema whose mutation signUp is public and
// whose mutation me needs a user (it answers the UUID its resolver
// reads), authenticated by uuidAuth. ran counts the resolvers that ran.
func newPublicServer(t *testing.T, ran *atomic.Int64) *testServer {
	t.Helper()
	type signUpArgs struct{ Email string }
	schema, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
			{Name: "hello", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return "world", nil }},
		}},
		Mutation: &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
			{Name: "signUp", Type: graphql.NewNonNull(graphql.String), Public: true,
				Args: []graphql.Argument{{Name: "email", Type: graphql.NewNonNull(graphql.String)}},
				Typed: graphql.Resolver(func(_ context.Context, _ any, a signUpArgs) (string, error) {
					ran.Add(1)
					return "welcome " + a.Email, nil
				})},
			{Name: "me", Type: graphql.NewNonNull(graphql.ID),
				Typed: graphql.Resolver(func(ctx context.Context, _ any, _ graphql.NoArgs) (string, error) {
					ran.Add(1)
					id, ok := auth.Subject(ctx)
					if !ok {
						return "", errors.New("me ran without a user")
					}
					return id, nil
				})},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Auth: uuidAuth{}, Presenter: apierror.Presenter{Logger: nopLogger()}})
	if err != nil {
		t.Fatal(err)
	}
	return &testServer{Server: newServer(t, h), handler: h}
}

// TestPublicMutations checks the mutation gate over real HTTP with a
// service's own identity (UUIDs): an unauthenticated mutation passes only
// when every field it may select is public, a field under a variable
// @include counting as selected, and resolvers read the UUID with
// auth.Subject.
func TestPublicMutations(t *testing.T) {
	var ran atomic.Int64
	ts := newPublicServer(t, &ran)
	unauthenticated := want{status: 401, wwwAuth: "Bearer", body: errorsBody(msgUnauthenticated, "UNAUTHENTICATED")}
	tests := []struct {
		name          string
		body          string
		authorization string
		want          want
		runs          int64
	}{
		{name: "a public field without a token",
			body: jsonBody(`mutation { signUp(email: "a@example.com") }`, "", ""),
			want: want{status: 200, body: `{"data":{"signUp":"welcome a@example.com"}}`}, runs: 1},
		{name: "public fields through a fragment and an inline fragment",
			body: jsonBody(`mutation { ...F ... on Mutation { again: signUp(email: "c") } __typename } fragment F on Mutation { signUp(email: "b") }`, "", ""),
			want: want{status: 200, body: `{"data":{"signUp":"welcome b","again":"welcome c","__typename":"Mutation"}}`}, runs: 2},
		{name: "a gated field skipped by a literal",
			body: jsonBody(`mutation { signUp(email: "d") me @skip(if: true) other: me @include(if: false) }`, "", ""),
			want: want{status: 200, body: `{"data":{"signUp":"welcome d"}}`}, runs: 1},
		{name: "a gated fragment skipped by a literal",
			body: jsonBody(`mutation { signUp(email: "e") ... @include(if: false) { me } }`, "", ""),
			want: want{status: 200, body: `{"data":{"signUp":"welcome e"}}`}, runs: 1},
		{name: "a public and a gated field without a token",
			body: jsonBody(`mutation { signUp(email: "f") me }`, "", ""),
			want: unauthenticated},
		{name: "a gated field under a variable @include counts as selected",
			body: jsonBody(`mutation($x: Boolean!) { signUp(email: "g") me @include(if: $x) }`, `{"x":false}`, ""),
			want: unauthenticated},
		{name: "a gated field in a fragment without a token",
			body: jsonBody(`mutation { ...F } fragment F on Mutation { signUp(email: "h") me }`, "", ""),
			want: unauthenticated},
		{name: "a gated field with a UUID",
			body: jsonBody(`mutation { signUp(email: "i") me }`, "", ""), authorization: "Bearer " + aliceUUID,
			want: want{status: 200, body: `{"data":{"signUp":"welcome i","me":"` + aliceUUID + `"}}`}, runs: 2},
		{name: "a public field with a bad credential",
			body: jsonBody(`mutation { signUp(email: "j") }`, "", ""), authorization: "Bearer nope",
			want: unauthenticated},
		{name: "a query without a token",
			body: jsonBody(`{ hello }`, "", ""),
			want: want{status: 200, body: `{"data":{"hello":"world"}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Twice: the second time from the prepared operation's cache.
			for range 2 {
				before := ran.Load()
				req := request{body: tt.body, contentType: "application/json", authorization: tt.authorization}
				check(t, req, ts.send(t, req), tt.want)
				if n := ran.Load() - before; n != tt.runs {
					t.Errorf("%d resolvers ran, want %d", n, tt.runs)
				}
			}
		})
	}
}

// *auth.Verifier is an Authenticator.
var _ graphqlhttp.Authenticator = (*auth.Verifier)(nil)
