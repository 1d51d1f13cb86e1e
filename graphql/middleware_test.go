package graphql_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
)

// recording returns middleware that records name before and after the
// rest of the chain.
func recording(c *calls, name string) graphql.FieldMiddleware {
	return func(next graphql.ResolveFunc) graphql.ResolveFunc {
		return func(ctx context.Context, parent any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			c.add(name + ">" + info.ParentType().Name + "." + info.FieldName())
			v, err := next(ctx, parent, args, info)
			c.add("<" + name)
			return v, err
		}
	}
}

func TestMiddlewareOrder(t *testing.T) {
	var c calls
	type item struct{ Name string }
	itemType := &graphql.Object{Name: "Item", Fields: graphql.Fields{
		{Name: "name", Type: graphql.String}, // no resolver: not wrapped by the schema-wide list
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "item", Type: itemType, Middleware: []graphql.FieldMiddleware{recording(&c, "c"), recording(&c, "d")},
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				c.add("resolve")
				return item{Name: "x"}, nil
			}},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: query,
		FieldMiddleware: []graphql.FieldMiddleware{recording(&c, "a"), recording(&c, "b")}})
	if got, want := response(t, s, `{ item { name } }`, "", ""), `{"data":{"item":{"name":"x"}}}`; got != want {
		t.Fatalf("response = %s, want %s", got, want)
	}
	want := "a>Query.item b>Query.item c>Query.item d>Query.item resolve <d <c <b <a"
	if got := strings.Join(c.list(), " "); got != want {
		t.Errorf("calls = %s\nwant    %s", got, want)
	}
}

func TestMiddlewareOnDefaultFields(t *testing.T) {
	type item struct {
		Name  string
		Price int
	}
	upper := func(next graphql.ResolveFunc) graphql.ResolveFunc {
		return func(ctx context.Context, parent any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			v, err := next(ctx, parent, args, info)
			if s, ok := v.(string); ok {
				return strings.ToUpper(s), err
			}
			return v, err
		}
	}
	build := func(onDefault bool, own []graphql.FieldMiddleware) *graphql.Schema {
		itemType := &graphql.Object{Name: "Item", Fields: graphql.Fields{
			{Name: "name", Type: graphql.String, Middleware: own},
			{Name: "price", Type: graphql.Int},
		}}
		query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
			{Name: "item", Type: itemType, Resolve: constant(&item{Name: "tea", Price: 3})},
			{Name: "label", Type: graphql.String, Resolve: constant("green")},
		}}
		return newSchema(t, graphql.SchemaConfig{Query: query, FieldMiddleware: []graphql.FieldMiddleware{upper},
			MiddlewareOnDefaultFields: onDefault})
	}
	for _, tt := range []struct {
		name      string
		onDefault bool
		own       []graphql.FieldMiddleware
		want      string
	}{
		{"resolver fields only", false, nil, `{"data":{"item":{"name":"tea","price":3},"label":"GREEN"}}`},
		{"default fields too", true, nil, `{"data":{"item":{"name":"TEA","price":3},"label":"GREEN"}}`},
		{"a field's own middleware wraps its default resolution", false, []graphql.FieldMiddleware{upper}, `{"data":{"item":{"name":"TEA","price":3},"label":"GREEN"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := build(tt.onDefault, tt.own)
			if got := response(t, s, `{ item { name price } label }`, "", ""); got != tt.want {
				t.Errorf("response = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestMiddlewarePanicIsAMaskedFieldError(t *testing.T) {
	boom := func(next graphql.ResolveFunc) graphql.ResolveFunc {
		return func(ctx context.Context, parent any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			if info.FieldName() == "bad" {
				panic("middleware failed")
			}
			return next(ctx, parent, args, info)
		}
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "good", Type: graphql.String, Resolve: constant("ok")},
		{Name: "bad", Type: graphql.String, Resolve: constant("never")},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: query, FieldMiddleware: []graphql.FieldMiddleware{boom}})
	// Present masks as graphqlhttp does: the panic's text is not shown.
	nop := slog.New(slog.DiscardHandler)
	res := s.Do(context.Background(), graphql.Request{Query: `{ good bad }`, Present: apierror.Presenter{Logger: nop}.GraphQL})
	out, err := res.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"good":"ok","bad":null},"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":8}],"path":["bad"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`
	if string(out) != want {
		t.Errorf("response = %s\nwant       %s", out, want)
	}
}

func TestMiddlewareCanRefuse(t *testing.T) {
	var called bool
	adminOnly := func(next graphql.ResolveFunc) graphql.ResolveFunc {
		return func(ctx context.Context, parent any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			if ctx.Value(adminKey{}) == nil {
				return nil, errors.New("forbidden")
			}
			return next(ctx, parent, args, info)
		}
	}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "secret", Type: graphql.String, Middleware: []graphql.FieldMiddleware{adminOnly},
			Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				called = true
				return "s3cret", nil
			}},
	}}
	s := newSchema(t, graphql.SchemaConfig{Query: query})
	want := `{"data":{"secret":null},"errors":[{"message":"forbidden","locations":[{"line":1,"column":3}],"path":["secret"]}]}`
	if got := response(t, s, `{ secret }`, "", ""); got != want || called {
		t.Errorf("response = %s (resolver called: %v), want %s", got, called, want)
	}
	ctx := context.WithValue(context.Background(), adminKey{}, true)
	if got := responseCtx(t, ctx, s, `{ secret }`, "", ""); got != `{"data":{"secret":"s3cret"}}` {
		t.Errorf("as admin: response = %s", got)
	}
}

type adminKey struct{}

func TestMiddlewareSchemaErrors(t *testing.T) {
	identity := func(next graphql.ResolveFunc) graphql.ResolveFunc { return next }
	for _, tt := range []struct {
		name string
		mw   graphql.FieldMiddleware
		want string
	}{
		{"nil middleware", nil, "graphql: field Query.a: middleware 1 is nil"},
		{"returns nil", func(graphql.ResolveFunc) graphql.ResolveFunc { return nil }, "graphql: field Query.a: middleware 1 returned a nil resolver"},
		{"panics", func(graphql.ResolveFunc) graphql.ResolveFunc { panic("no") }, "graphql: field Query.a: middleware 1: panicked: no"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
				{Name: "a", Type: graphql.String, Resolve: constant("a")},
			}}
			_, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, FieldMiddleware: []graphql.FieldMiddleware{identity, tt.mw}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("NewSchema error = %v, want %q", err, tt.want)
			}
		})
	}
}

// Introspection fields are never wrapped, whatever the settings.
func TestMiddlewareSkipsIntrospection(t *testing.T) {
	var c calls
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{{Name: "a", Type: graphql.String, Resolve: constant("a")}}}
	s := newSchema(t, graphql.SchemaConfig{Query: query, FieldMiddleware: []graphql.FieldMiddleware{recording(&c, "m")},
		MiddlewareOnDefaultFields: true})
	got := response(t, s, `{ __schema { queryType { name fields { name } } } __typename a }`, "", "")
	if want := `{"data":{"__schema":{"queryType":{"name":"Query","fields":[{"name":"a"}]}},"__typename":"Query","a":"a"}}`; got != want {
		t.Fatalf("response = %s, want %s", got, want)
	}
	if got := strings.Join(c.list(), " "); got != "m>Query.a <m" {
		t.Errorf("calls = %s, want only Query.a's", got)
	}
}
