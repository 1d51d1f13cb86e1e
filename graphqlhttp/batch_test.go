package graphqlhttp_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// TestBatchOverHTTP: a batched field served by the endpoint makes one call
// for every item of a list, a failed item is null with its own error at
// its own path, and the second request (its document cached) batches the
// same way.
func TestBatchOverHTTP(t *testing.T) {
	type user struct{ ID, Name string }
	type post struct{ ID, AuthorID string }
	users := map[string]*user{"u1": {"u1", "Ada"}, "u2": {"u2", "Alan"}}
	var calls atomic.Int64
	userType := &graphql.Object{Name: "User", Fields: graphql.Fields{{Name: "name", Type: graphql.NewNonNull(graphql.String)}}}
	postType := &graphql.Object{Name: "Post", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
		{Name: "author", Type: graphql.NewNonNull(userType),
			Batch: graphql.Batch(func(_ context.Context, ps []*post, _ graphql.NoArgs) ([]*user, error) {
				calls.Add(1)
				out := make([]*user, len(ps))
				errs := make(graphql.ItemErrors, len(ps))
				for i, p := range ps {
					if out[i] = users[p.AuthorID]; out[i] == nil {
						errs[i] = errcode.New(errcode.CodeNotFound, "No such user.")
					}
				}
				return out, errs
			})},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "posts", Type: graphql.NewList(postType),
			Typed: graphql.Resolver(func(context.Context, any, graphql.NoArgs) ([]*post, error) {
				return []*post{{"p1", "u1"}, {"p2", "u9"}, {"p3", "u2"}, {"p4", "u1"}}, nil
			})},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: apierror.Presenter{Logger: slog.New(slog.DiscardHandler)}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for i := range 2 {
		res, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"query":"{ posts { id author { name } } }"}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		want := `{"data":{"posts":[{"id":"p1","author":{"name":"Ada"}},null,{"id":"p3","author":{"name":"Alan"}},{"id":"p4","author":{"name":"Ada"}}]},` +
			`"errors":[{"message":"No such user.","locations":[{"line":1,"column":14}],"path":["posts",1,"author"],"extensions":{"code":"NOT_FOUND"}}]}`
		if res.StatusCode != http.StatusOK || string(body) != want {
			t.Errorf("request %d: %d %s, want 200 %s", i, res.StatusCode, body, want)
		}
		if got := calls.Load(); got != int64(i+1) {
			t.Errorf("request %d: %d batch calls in all, want %d", i, got, i+1)
		}
	}
}
