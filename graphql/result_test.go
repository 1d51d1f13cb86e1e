package graphql_test

import (
	"errors"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

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
			got, err = tt.res.AppendJSON([]byte("x"))
			if err != nil || string(got) != "x"+tt.want {
				t.Errorf("AppendJSON:\n got %s, %v\nwant x%s", got, err, tt.want)
			}
		})
	}
}
