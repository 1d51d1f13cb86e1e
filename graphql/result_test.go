package graphql_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

func TestResultJSON(t *testing.T) {
	tests := []struct {
		name string
		res  graphql.Result
		want string
	}{
		{name: "data", res: graphql.Result{Data: []byte(`{"a":1}`)}, want: `{"data":{"a":1}}`},
		{name: "null data", res: graphql.Result{Data: []byte(`null`), Errors: gqlerror.List{{Message: "m", Path: ast.Path{ast.PathName("a")}}}},
			want: `{"data":null,"errors":[{"message":"m","path":["a"]}]}`},
		{name: "errors only", res: graphql.Result{Errors: gqlerror.List{{Message: "bad"}, {Message: "worse", Locations: []gqlerror.Location{{Line: 2, Column: 5}}}}},
			want: `{"errors":[{"message":"bad"},{"message":"worse","locations":[{"line":2,"column":5}]}]}`},
		{name: "member order", res: graphql.Result{Data: []byte(`{}`), Errors: gqlerror.List{{
			Extensions: map[string]any{"code": "X", "a": 1}, Path: ast.Path{ast.PathName("p"), ast.PathIndex(0)},
			Locations: []gqlerror.Location{{Line: 1, Column: 2}}, Message: "it failed", Rule: "ignored", Err: errors.New("hidden")}}},
			want: `{"data":{},"errors":[{"message":"it failed","locations":[{"line":1,"column":2}],"path":["p",0],"extensions":{"a":1,"code":"X"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.res.MarshalJSON()
			if err != nil || string(got) != tt.want {
				t.Errorf("MarshalJSON:\n got %s, %v\nwant %s", got, err, tt.want)
			}
			got = tt.res.AppendJSON([]byte("x"), nil)
			if string(got) != "x"+tt.want {
				t.Errorf("AppendJSON:\n got %s\nwant x%s", got, tt.want)
			}
		})
	}
}

// TestDoMasksByDefault: Do presents errors as the endpoint does unless the
// caller asks otherwise, so a plain error's text (a database password,
// say) does not reach the caller.
func TestDoMasksByDefault(t *testing.T) {
	secret := errors.New("dial postgres://app:hunter2@db: refused")
	s := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "plain", Type: graphql.String, Resolve: failing(secret)},
		graphql.Field{Name: "coded", Type: graphql.String, Resolve: failing(errcode.Forbidden("No."))},
	)})
	ctx := context.Background() // Do's masking logs nothing
	masked := s.Do(ctx, graphql.Request{Query: `{ plain coded }`})
	want := `{"data":{"plain":null,"coded":null},"errors":[` +
		`{"message":"Internal server error.","locations":[{"line":1,"column":3}],"path":["plain"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}},` +
		`{"message":"No.","locations":[{"line":1,"column":9}],"path":["coded"],"extensions":{"code":"FORBIDDEN"}}]}`
	if got, _ := masked.MarshalJSON(); string(got) != want {
		t.Errorf("masked:\n got %s\nwant %s", got, want)
	}
	for _, tt := range []struct{ query, want string }{
		{`{ plain(`, `{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>","locations":[{"line":1,"column":9}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}`},
		{`{ nope }`, `{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`},
		{`query($v: Boolean!) { plain @skip(if: $v) }`, `{"errors":[{"message":"Variable \"$v\" of required type \"Boolean!\" was not provided.","locations":[{"line":1,"column":7}],"extensions":{"code":"BAD_USER_INPUT"}}]}`},
	} {
		if got, _ := s.Do(ctx, graphql.Request{Query: tt.query}).MarshalJSON(); string(got) != tt.want {
			t.Errorf("request error of %s:\n got %s\nwant %s", tt.query, got, tt.want)
		}
	}
	raw := s.Do(ctx, graphql.Request{Query: `{ plain }`, Present: graphql.Unmasked})
	if len(raw.Errors) != 1 || !errors.Is(raw.Errors[0], secret) || raw.Errors[0].Message != secret.Error() {
		t.Errorf("unmasked: %v, want the resolver's error", raw.Errors)
	}
}
