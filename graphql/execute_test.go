package graphql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
)

type hero struct {
	ID      string
	Name    string
	Age     int
	Friends []*hero
}

// heroSchema serves one hero with two friends, for field collection tests.
func heroSchema(t *testing.T) *graphql.Schema {
	t.Helper()
	luke := &hero{ID: "1", Name: "Luke", Age: 19}
	luke.Friends = []*hero{{ID: "2", Name: "Han", Age: 32}, {ID: "3", Name: "Leia", Age: 19}}
	var heroType *graphql.Object
	heroType = &graphql.Object{Name: "Hero", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "id", Type: graphql.NewNonNull(graphql.ID)},
			{Name: "name", Type: graphql.String},
			{Name: "age", Type: graphql.Int},
			{Name: "friends", Type: graphql.NewList(heroType)},
		}
	})}
	return newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "hero", Type: heroType, Resolve: constant(luke)},
		graphql.Field{Name: "version", Type: graphql.String, Resolve: constant("1.0")},
	)})
}

func TestOperationSelection(t *testing.T) {
	s := heroSchema(t)
	const two = `query A { version } query B { hero { name } }`
	tests := []struct {
		name      string
		query     string
		operation string
		want      string
	}{
		{name: "the only operation", query: `query Only { version }`, want: `{"data":{"version":"1.0"}}`},
		{name: "the only operation by name", query: `query Only { version }`, operation: "Only", want: `{"data":{"version":"1.0"}}`},
		{name: "by name", query: two, operation: "B", want: `{"data":{"hero":{"name":"Luke"}}}`},
		{name: "by name, the other", query: two, operation: "A", want: `{"data":{"version":"1.0"}}`},
		{name: "unknown name", query: two, operation: "C", want: `{"errors":[{"message":"Unknown operation named \"C\"."}]}`},
		{name: "name for an anonymous operation", query: `{ version }`, operation: "X", want: `{"errors":[{"message":"Unknown operation named \"X\"."}]}`},
		{name: "several operations, no name", query: two,
			want: `{"errors":[{"message":"Must provide operation name if query contains multiple operations."}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := s.Do(context.Background(), graphql.Request{Query: tt.query, OperationName: tt.operation, Variables: nil, Present: graphql.Unmasked})
			got, _ := res.MarshalJSON()
			if string(got) != tt.want {
				t.Errorf("response:\n got %s\nwant %s", got, tt.want)
			}
			if res.Data == nil {
				for _, e := range res.Errors {
					if !errors.Is(e, graphql.ErrInvalidOperation) {
						t.Errorf("error %q does not wrap ErrInvalidOperation", e.Message)
					}
				}
			}
		})
	}
}

func TestPrepare(t *testing.T) {
	s := heroSchema(t)
	if _, errs := s.Prepare(&ast.QueryDocument{}, ""); len(errs) != 1 || errs[0].Message != "Must provide an operation." || !errors.Is(errs[0], graphql.ErrInvalidOperation) {
		t.Errorf("Prepare(empty document) errors = %v", errs)
	}
	doc := parseValidated(t, s, `query Named { version }`)
	op, errs := s.Prepare(doc, "Named")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if op.Name() != "Named" || op.Kind() != ast.Query {
		t.Errorf("Name, Kind = %q, %q; want Named, query", op.Name(), op.Kind())
	}
	// A prepared operation runs any number of times, concurrently.
	done := make(chan string)
	for range 4 {
		go func() {
			res := execute(op, context.Background(), graphql.ExecParams{Variables: nil})
			b, _ := res.MarshalJSON()
			done <- string(b)
		}()
	}
	for range 4 {
		if got, want := <-done, `{"data":{"version":"1.0"}}`; got != want {
			t.Errorf("Execute: got %s, want %s", got, want)
		}
	}
}

func TestExecuteAppend(t *testing.T) {
	s := heroSchema(t)
	doc := parseValidated(t, s, `{ hero { name } version }`)
	op, errs := s.Prepare(doc, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	buf := []byte("prefix:")
	res := execute(op, context.Background(), graphql.ExecParams{Dst: buf, Variables: nil})
	if got, want := string(res.Data), `{"hero":{"name":"Luke"},"version":"1.0"}`; got != want {
		t.Errorf("Data = %s, want %s", got, want)
	}
	// The root value reaches root resolvers and the default resolver.
	root := newSchema(t, graphql.SchemaConfig{Query: queryWith(
		graphql.Field{Name: "greeting", Type: graphql.String},
		graphql.Field{Name: "parent", Type: graphql.String, Resolve: func(_ context.Context, p any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
			return fmt.Sprintf("%T", p), nil
		}},
	)})
	op, errs = root.Prepare(parseValidated(t, root, `{ greeting parent }`), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	res = execute(op, context.Background(), graphql.ExecParams{Dst: nil, Variables: nil, Root: map[string]any{"greeting": "hello"}})
	if got, want := string(res.Data), `{"greeting":"hello","parent":"map[string]interface {}"}`; got != want {
		t.Errorf("Data = %s, want %s", got, want)
	}
	res = execute(op, context.Background(), graphql.ExecParams{Dst: nil, Variables: nil})
	if got, want := string(res.Data), `{"greeting":null,"parent":"<nil>"}`; got != want {
		t.Errorf("Data with a nil root = %s, want %s", got, want)
	}
}

func TestFieldCollection(t *testing.T) {
	s := heroSchema(t)
	tests := []struct {
		name  string
		query string
		vars  string
		want  string
	}{
		{name: "fragment spread", query: `{ hero { ...F } } fragment F on Hero { name age }`,
			want: `{"data":{"hero":{"name":"Luke","age":19}}}`},
		{name: "fields keep selection order around fragments", query: `{ hero { age ...F id } } fragment F on Hero { name id }`,
			want: `{"data":{"hero":{"age":19,"name":"Luke","id":"1"}}}`},
		{name: "nested fragments", query: `{ ...Q } fragment Q on Query { hero { ...H } } fragment H on Hero { friends { ...N } } fragment N on Hero { name }`,
			want: `{"data":{"hero":{"friends":[{"name":"Han"},{"name":"Leia"}]}}}`},
		{name: "fragment spread twice", query: `{ hero { ...F name ...F } } fragment F on Hero { id }`,
			want: `{"data":{"hero":{"id":"1","name":"Luke"}}}`},
		{name: "inline fragments", query: `{ hero { ... on Hero { name } ... { age } } }`,
			want: `{"data":{"hero":{"name":"Luke","age":19}}}`},
		{name: "aliases", query: `{ a: hero { n: name } b: hero { name first: friends { name } } }`,
			want: `{"data":{"a":{"n":"Luke"},"b":{"name":"Luke","first":[{"name":"Han"},{"name":"Leia"}]}}}`},
		{name: "same field under two aliases", query: `{ hero { x: name y: name } }`,
			want: `{"data":{"hero":{"x":"Luke","y":"Luke"}}}`},
		{name: "__typename", query: `{ __typename hero { __typename t: __typename friends { __typename } } }`,
			want: `{"data":{"__typename":"Query","hero":{"__typename":"Hero","t":"Hero","friends":[{"__typename":"Hero"},{"__typename":"Hero"}]}}}`},
		{name: "merged selections", query: `{ hero { name friends { name } } hero { friends { age } id } }`,
			want: `{"data":{"hero":{"name":"Luke","friends":[{"name":"Han","age":32},{"name":"Leia","age":19}],"id":"1"}}}`},
		{name: "merged through fragments", query: `{ hero { friends { id } } ...F } fragment F on Query { hero { friends { name } } }`,
			want: `{"data":{"hero":{"friends":[{"id":"2","name":"Han"},{"id":"3","name":"Leia"}]}}}`},
		{name: "merged under an alias", query: `{ h: hero { name } h: hero { age } }`,
			want: `{"data":{"h":{"name":"Luke","age":19}}}`},

		{name: "@skip and @include literals", query: `{ hero { id @skip(if: true) name @skip(if: false) age @include(if: false) friends @include(if: true) { id } } }`,
			want: `{"data":{"hero":{"name":"Luke","friends":[{"id":"2"},{"id":"3"}]}}}`},
		{name: "@skip wins over @include", query: `{ hero { id @skip(if: true) @include(if: true) name @skip(if: false) @include(if: true) } }`,
			want: `{"data":{"hero":{"name":"Luke"}}}`},
		{name: "skipped once, selected again", query: `{ hero { name @skip(if: true) age name } }`,
			want: `{"data":{"hero":{"age":19,"name":"Luke"}}}`},
		{name: "directives on fragments", query: `{ hero { ...A @skip(if: true) ...B @include(if: true) ... @include(if: false) { age } ... on Hero @skip(if: false) { id } } } fragment A on Hero { name } fragment B on Hero { friends { name } }`,
			want: `{"data":{"hero":{"friends":[{"name":"Han"},{"name":"Leia"}],"id":"1"}}}`},
		{name: "every field skipped", query: `{ hero { name @skip(if: true) } }`,
			want: `{"data":{"hero":{}}}`},

		{name: "@skip from a variable, true", query: `query($s: Boolean!) { hero { id @skip(if: $s) name } }`, vars: `{"s": true}`,
			want: `{"data":{"hero":{"name":"Luke"}}}`},
		{name: "@skip from a variable, false", query: `query($s: Boolean!) { hero { id @skip(if: $s) name } }`, vars: `{"s": false}`,
			want: `{"data":{"hero":{"id":"1","name":"Luke"}}}`},
		{name: "@include from a variable default", query: `query($i: Boolean = false) { hero { id @include(if: $i) name } }`,
			want: `{"data":{"hero":{"name":"Luke"}}}`},
		{name: "@include from a variable on a fragment", query: `query($i: Boolean!) { hero { ...F @include(if: $i) age } } fragment F on Hero { name }`, vars: `{"i": true}`,
			want: `{"data":{"hero":{"name":"Luke","age":19}}}`},
		{name: "conditional key moves to its first counted place", query: `query($v: Boolean!) { hero { a: name @include(if: $v) age a: name } }`, vars: `{"v": false}`,
			want: `{"data":{"hero":{"age":19,"a":"Luke"}}}`},
		{name: "conditional key keeps its first place", query: `query($v: Boolean!) { hero { a: name @include(if: $v) age a: name } }`, vars: `{"v": true}`,
			want: `{"data":{"hero":{"a":"Luke","age":19}}}`},
		{name: "conditional sub-selections merge", query: `query($v: Boolean!) { hero { friends { name } friends @include(if: $v) { age } } }`, vars: `{"v": true}`,
			want: `{"data":{"hero":{"friends":[{"name":"Han","age":32},{"name":"Leia","age":19}]}}}`},
		{name: "conditional sub-selections left out", query: `query($v: Boolean!) { hero { friends { name } friends @include(if: $v) { age } } }`, vars: `{"v": false}`,
			want: `{"data":{"hero":{"friends":[{"name":"Han"},{"name":"Leia"}]}}}`},
		{name: "nested conditions", query: `query($a: Boolean!, $b: Boolean!) { hero { ... @include(if: $a) { name @skip(if: $b) age } } }`, vars: `{"a": true, "b": true}`,
			want: `{"data":{"hero":{"age":19}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := response(t, s, tt.query, "", tt.vars); got != tt.want {
				t.Errorf("response:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestPreparedOperationWithDifferentVariables(t *testing.T) {
	// One prepared operation, conditions decided per execution.
	s := heroSchema(t)
	op, errs := s.Prepare(parseValidated(t, s, `query($v: Boolean!) { hero { friends @include(if: $v) { name } friends { id } } }`), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, tt := range []struct {
		name string
		v    bool
		want string
	}{
		{name: "included", v: true, want: `{"hero":{"friends":[{"name":"Han","id":"2"},{"name":"Leia","id":"3"}]}}`},
		{name: "left out", v: false, want: `{"hero":{"friends":[{"id":"2"},{"id":"3"}]}}`},
		{name: "included again", v: true, want: `{"hero":{"friends":[{"name":"Han","id":"2"},{"name":"Leia","id":"3"}]}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := execute(op, context.Background(), graphql.ExecParams{Variables: map[string]any{"v": tt.v}})
			if string(res.Data) != tt.want || len(res.Errors) > 0 {
				t.Errorf("v=%v: got %s %v, want %s", tt.v, res.Data, res.Errors, tt.want)
			}
		})
	}
}

func TestNullPropagation(t *testing.T) {
	// Each row declares the types of item, items and the non-null leaf
	// field "bad" (which always resolves to null) and where the null lands.
	boom := errors.New("boom")
	leaf := &graphql.Object{Name: "Leaf", Fields: graphql.Fields{
		{Name: "ok", Type: graphql.String, Resolve: constant("fine")},
		{Name: "bad", Type: graphql.NewNonNull(graphql.String), Resolve: constant(nil)},
		{Name: "fails", Type: graphql.NewNonNull(graphql.String), Resolve: failing(boom)},
		{Name: "soft", Type: graphql.String, Resolve: failing(boom)},
	}}
	mid := &graphql.Object{Name: "Mid", Fields: graphql.Fields{
		{Name: "leaf", Type: leaf, Resolve: constant(struct{}{})},
		{Name: "leafNN", Type: graphql.NewNonNull(leaf), Resolve: constant(struct{}{})},
		{Name: "leaves", Type: graphql.NewList(graphql.NewNonNull(leaf)), Resolve: constant([]int{1, 2})},
		{Name: "leavesNN", Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(leaf))), Resolve: constant([]int{1, 2})},
		{Name: "leavesNullable", Type: graphql.NewList(leaf), Resolve: constant([]int{1, 2})},
		{Name: "nulls", Type: graphql.NewList(graphql.NewNonNull(graphql.Int)), Resolve: constant([]any{1, nil})},
	}}
	s := completionSchema(t,
		graphql.Field{Name: "mid", Type: mid, Resolve: constant(struct{}{})},
		graphql.Field{Name: "mids", Type: graphql.NewList(graphql.NewNonNull(mid)), Resolve: constant([]int{1, 2})},
		graphql.Field{Name: "midNN", Type: graphql.NewNonNull(mid), Resolve: constant(struct{}{})},
		graphql.Field{Name: "other", Type: graphql.String, Resolve: constant("still here")},
	)
	tests := []struct {
		name  string
		query string
		want  string
	}{
		{name: "nullable field", query: `{ mid { leaf { ok soft } } other }`,
			want: `{"data":{"mid":{"leaf":{"ok":"fine","soft":null}},"other":"still here"},"errors":[{"message":"boom","locations":[{"line":1,"column":19}],"path":["mid","leaf","soft"]}]}`},
		{name: "to the nullable parent object", query: `{ mid { leaf { ok bad } } other }`,
			want: `{"data":{"mid":{"leaf":null},"other":"still here"},"errors":[{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":19}],"path":["mid","leaf","bad"]}]}`},
		{name: "an error to the nullable parent object", query: `{ mid { leaf { fails } } }`,
			want: `{"data":{"mid":{"leaf":null}},"errors":[{"message":"boom","locations":[{"line":1,"column":16}],"path":["mid","leaf","fails"]}]}`},
		{name: "through a non-null object", query: `{ mid { leafNN { bad } } }`,
			want: `{"data":{"mid":null},"errors":[{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":18}],"path":["mid","leafNN","bad"]}]}`},
		{name: "list of non-null items", query: `{ mid { leaves { bad } } }`,
			want: `{"data":{"mid":{"leaves":null}},"errors":[{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":18}],"path":["mid","leaves",0,"bad"]}]}`},
		{name: "list of nullable items", query: `{ mid { leavesNullable { bad } } }`,
			want: `{"data":{"mid":{"leavesNullable":[null,null]}},"errors":[` +
				`{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":26}],"path":["mid","leavesNullable",0,"bad"]},` +
				`{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":26}],"path":["mid","leavesNullable",1,"bad"]}]}`},
		{name: "non-null list of non-null items", query: `{ mid { leavesNN { bad } } other }`,
			want: `{"data":{"mid":null,"other":"still here"},"errors":[{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":20}],"path":["mid","leavesNN",0,"bad"]}]}`},
		{name: "null item in a list of non-null", query: `{ mid { nulls } }`,
			want: `{"data":{"mid":{"nulls":null}},"errors":[{"message":"Cannot return null for non-nullable field Mid.nulls.","locations":[{"line":1,"column":9}],"path":["mid","nulls",1]}]}`},
		{name: "non-null field inside a nullable object inside a list of non-null items", query: `{ mids { leaf { bad } } }`,
			want: `{"data":{"mids":[{"leaf":null},{"leaf":null}]},"errors":[` +
				`{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":17}],"path":["mids",0,"leaf","bad"]},` +
				`{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":17}],"path":["mids",1,"leaf","bad"]}]}`},
		{name: "non-null all the way up to a list of non-null items", query: `{ mids { leafNN { bad } } other }`,
			want: `{"data":{"mids":null,"other":"still here"},"errors":[{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":19}],"path":["mids",0,"leafNN","bad"]}]}`},
		{name: "non-null all the way to the root", query: `{ other midNN { leafNN { bad } } }`,
			want: `{"data":null,"errors":[{"message":"Cannot return null for non-nullable field Leaf.bad.","locations":[{"line":1,"column":26}],"path":["midNN","leafNN","bad"]}]}`},
		{name: "the first error wins, later siblings are not completed", query: `{ mid { leafNN { fails bad } } }`,
			want: `{"data":{"mid":null},"errors":[{"message":"boom","locations":[{"line":1,"column":18}],"path":["mid","leafNN","fails"]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := response(t, s, tt.query, "", ""); got != tt.want {
				t.Errorf("response:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// codedError is an error that knows its GraphQL extensions.
type codedError struct{ code string }

func (e codedError) Error() string { return "coded " + e.code }

func TestResolverErrors(t *testing.T) {
	sentinel := errors.New("not found")
	s := completionSchema(t,
		graphql.Field{Name: "plain", Type: graphql.String, Resolve: failing(sentinel)},
		graphql.Field{Name: "wrapped", Type: graphql.String, Resolve: failing(fmt.Errorf("loading: %w", sentinel))},
		graphql.Field{Name: "gql", Type: graphql.String, Resolve: failing(&gqlerror.Error{Message: "custom", Extensions: map[string]any{"code": "TEAPOT"}})},
		graphql.Field{Name: "coded", Type: graphql.String, Resolve: failing(codedError{"X"})},
		graphql.Field{Name: "panics", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			panic("kaboom")
		}},
		graphql.Field{Name: "panicsErr", Type: graphql.String, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
			panic(sentinel)
		}},
		graphql.Field{Name: "list", Type: graphql.NewList(&graphql.Object{Name: "Item", Fields: graphql.Fields{
			{Name: "n", Type: graphql.Int, Resolve: func(_ context.Context, p any, _ graphql.Args, _ graphql.ResolveInfo) (any, error) {
				if p.(int) == 2 {
					panic("two")
				}
				return p, nil
			}},
		}}), Resolve: constant([]int{1, 2, 3})},
	)
	tests := []struct {
		name  string
		query string
		want  string
		cause error  // errors.Is(Errors[0], cause)
		panic string // Errors[0] wraps a *PanicError with this value
	}{
		{name: "error", query: `{ plain }`, cause: sentinel,
			want: `{"data":{"plain":null},"errors":[{"message":"not found","locations":[{"line":1,"column":3}],"path":["plain"]}]}`},
		{name: "wrapped error", query: `{ a: wrapped }`, cause: sentinel,
			want: `{"data":{"a":null},"errors":[{"message":"loading: not found","locations":[{"line":1,"column":3}],"path":["a"]}]}`},
		{name: "gqlerror keeps its extensions", query: "{\n  gql\n}",
			want: `{"data":{"gql":null},"errors":[{"message":"custom","locations":[{"line":2,"column":3}],"path":["gql"],"extensions":{"code":"TEAPOT"}}]}`},
		{name: "custom error type", query: `{ coded }`, cause: codedError{"X"},
			want: `{"data":{"coded":null},"errors":[{"message":"coded X","locations":[{"line":1,"column":3}],"path":["coded"]}]}`},
		{name: "panic", query: `{ plain panics }`, panic: "kaboom",
			want: `{"data":{"plain":null,"panics":null},"errors":[` +
				`{"message":"not found","locations":[{"line":1,"column":3}],"path":["plain"]},` +
				`{"message":"panic: kaboom","locations":[{"line":1,"column":9}],"path":["panics"]}]}`},
		{name: "panic with an error", query: `{ panicsErr }`, cause: sentinel, panic: "not found",
			want: `{"data":{"panicsErr":null},"errors":[{"message":"panic: not found","locations":[{"line":1,"column":3}],"path":["panicsErr"]}]}`},
		{name: "panic in a list item", query: `{ list { n } }`, panic: "two",
			want: `{"data":{"list":[{"n":1},{"n":null},{"n":3}]},"errors":[{"message":"panic: two","locations":[{"line":1,"column":10}],"path":["list",1,"n"]}]}`},
		{name: "locations of every occurrence", query: `{ plain ...F } fragment F on Query { plain }`, cause: sentinel,
			want: `{"data":{"plain":null},"errors":[{"message":"not found","locations":[{"line":1,"column":3},{"line":1,"column":38}],"path":["plain"]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := s.Do(context.Background(), graphql.Request{Query: tt.query, Present: graphql.Unmasked})
			got, _ := res.MarshalJSON()
			if string(got) != tt.want {
				t.Errorf("response:\n got %s\nwant %s", got, tt.want)
			}
			if len(res.Errors) == 0 {
				return
			}
			last := res.Errors[len(res.Errors)-1]
			if tt.cause != nil && !errors.Is(last, tt.cause) {
				t.Errorf("error %v does not wrap %v", last, tt.cause)
			}
			var pe *errcode.PanicError
			if tt.panic != "" {
				if !errors.As(last, &pe) {
					t.Fatalf("error %v does not wrap a *PanicError", last)
				}
				if got := fmt.Sprint(pe.Value); got != tt.panic {
					t.Errorf("PanicError.Value = %q, want %q", got, tt.panic)
				}
				if !strings.Contains(string(pe.StackTrace()), "execute_test.go") {
					t.Errorf("PanicError.StackTrace does not show the resolver:\n%s", pe.StackTrace())
				}
			} else if errors.As(last, &pe) {
				t.Errorf("error %v wraps a *PanicError", last)
			}
		})
	}
}

func TestMutationsRunInOrder(t *testing.T) {
	var rec calls
	counter := 0
	result := &graphql.Object{Name: "Result", Fields: graphql.Fields{
		{Name: "n", Type: graphql.Int, Resolve: func(_ context.Context, p any, _ graphql.Args, info graphql.ResolveInfo) (any, error) {
			rec.add(fmt.Sprintf("%v.n", info.Path()[0]))
			return p, nil
		}},
	}}
	step := func(name string, fail bool) graphql.Field {
		return graphql.Field{Name: name, Type: result, Args: []graphql.Argument{{Name: "by", Type: graphql.Int, Default: 1}},
			Resolve: func(_ context.Context, _ any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
				rec.add(fmt.Sprint(info.Path()[0]))
				if fail {
					return nil, errors.New(name + " failed")
				}
				by, err := args.Int("by")
				if err != nil {
					return nil, err
				}
				counter += by
				return counter, nil
			}}
	}
	s := newSchema(t, graphql.SchemaConfig{
		Query:    queryWith(graphql.Field{Name: "count", Type: graphql.Int, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) { return counter, nil }}),
		Mutation: &graphql.Object{Name: "Mutation", Fields: graphql.Fields{step("add", false), step("fail", true), step("double", false)}},
	})
	got := response(t, s, `mutation { first: add { n } broken: fail { n } second: add(by: 10) { n } third: double { n } }`, "", "")
	want := `{"data":{"first":{"n":1},"broken":null,"second":{"n":11},"third":{"n":12}},"errors":[{"message":"fail failed","locations":[{"line":1,"column":29}],"path":["broken"]}]}`
	if got != want {
		t.Errorf("response:\n got %s\nwant %s", got, want)
	}
	if got, want := strings.Join(rec.list(), " "), "first first.n broken second second.n third third.n"; got != want {
		t.Errorf("calls: got %s, want %s", got, want)
	}
}

func TestDataIsWrittenInSelectionOrder(t *testing.T) {
	// Keys come out in selection order, not alphabetically, and Data is
	// the bare JSON object.
	s := completionSchema(t,
		graphql.Field{Name: "zeta", Type: graphql.Int, Resolve: constant(1)},
		graphql.Field{Name: "alpha", Type: graphql.NewList(graphql.String), Resolve: constant([]string{"b", "a"})},
		graphql.Field{Name: "mid", Type: graphql.Boolean, Resolve: constant(true)},
	)
	res := s.Do(context.Background(), graphql.Request{Query: `{ mid zeta alpha m2: mid }`, Present: graphql.Unmasked})
	if got, want := string(res.Data), `{"mid":true,"zeta":1,"alpha":["b","a"],"m2":true}`; got != want || res.Errors != nil {
		t.Errorf("Data = %s, %v; want %s", got, res.Errors, want)
	}
}

func TestPrepareUnvalidatedDocument(t *testing.T) {
	// Prepare coerces literal arguments; on a document that skipped
	// validation, a bad literal is reported (not panicked on) before
	// anything runs.
	cs := newCoerceSchema(t)
	doc, perr := graphql.ParseQuery(`{ before echo(i: 2147483648) }`, 0)
	if perr != nil {
		t.Fatal(perr)
	}
	op, errs := cs.schema.Prepare(doc, "")
	if op != nil || len(errs) != 1 {
		t.Fatalf("Prepare = %v, %v; want one error", op, errs)
	}
	got := errs[0].Message
	if want := `Argument "i" has invalid value 2147483648: Int cannot represent non 32-bit signed integer value: 2147483648`; got != want {
		t.Errorf("error:\n got %s\nwant %s", got, want)
	}
	if !errors.Is(errs[0], graphql.ErrInvalidDocument) {
		t.Errorf("error does not wrap ErrInvalidDocument")
	}
	if c := cs.calls.list(); len(c) > 0 {
		t.Errorf("resolvers ran: %v", c)
	}
}

// TestExecuteCoercesThenCallsBeforeExecute: Execute coerces the
// variables (defaults, enums) before BeforeExecute runs; invalid ones are
// request errors, and then neither the hook nor any resolver runs.
func TestExecuteCoercesThenCallsBeforeExecute(t *testing.T) {
	cs := newCoerceSchema(t)
	op, errs := cs.schema.Prepare(parseValidated(t, cs.schema, `query($f: Filter = {name: "d"}, $c: Color!) { before echo(filter: $f, c: $c) }`), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	hooked := 0
	hook := func(_ context.Context, got *graphql.Operation) error {
		if got != op {
			t.Errorf("BeforeExecute got another operation")
		}
		hooked++
		return nil
	}
	res, err := op.Execute(context.Background(), graphql.ExecParams{Variables: map[string]any{"c": "BLUE"}, BeforeExecute: hook})
	if err != nil || string(res.Data) != `{"before":"ok","echo":"ok"}` || res.Errors != nil || hooked != 1 {
		t.Errorf("Execute = %s, %v, %v; hook ran %d times", res.Data, res.Errors, err, hooked)
	}
	if got, want := typedArgs(cs.args), `{"c":"graphql_test.color:3","filter":{"color":"graphql_test.color:2","limit":"int:10","name":"string:d"},"nn":"int:1"}`; got != want {
		t.Errorf("arguments:\n got %s\nwant %s", got, want)
	}
	res, err = op.Execute(context.Background(), graphql.ExecParams{Variables: map[string]any{"c": "blue", "f": map[string]any{"x": 1}}, BeforeExecute: hook})
	var msgs []string
	for _, e := range res.Errors {
		if !errors.Is(e, graphql.ErrInvalidVariables) {
			t.Errorf("%q does not wrap ErrInvalidVariables", e.Message)
		}
		msgs = append(msgs, e.Message)
	}
	want := `Variable "$f" got invalid value { x: 1 }; Field "x" is not defined by type "Filter".|` +
		`Variable "$c" got invalid value "blue"; Value "blue" does not exist in "Color" enum.`
	if got := strings.Join(msgs, "|"); got != want || err != nil || res.Data != nil || hooked != 1 {
		t.Errorf("invalid variables: data %s, error %v, hook ran %d times, errors:\n got %s\nwant %s", res.Data, err, hooked, got, want)
	}

	// A hook's error ends the execution before any resolver, and is
	// Execute's error.
	refused := errors.New("refused")
	cs.args = graphql.Args{}
	res, err = op.Execute(context.Background(), graphql.ExecParams{Variables: map[string]any{"c": "BLUE"},
		BeforeExecute: func(context.Context, *graphql.Operation) error { return refused }})
	if err != refused || res.Data != nil || res.Errors != nil || cs.args.Len() != 0 {
		t.Errorf("refused by the hook: %s, %v, %v; resolver args %s", res.Data, res.Errors, err, typedArgs(cs.args))
	}
}

func TestArgumentNullFromVariable(t *testing.T) {
	// A variable with a default may still be null; in a non-null argument
	// that is a field error located at the variable (as in graphql-js).
	cs := newCoerceSchema(t)
	tests := []struct {
		name, query, vars, want string
	}{
		{name: "null for a non-null argument", query: `query($v: Int = 5) { before echo(nn: $v) }`, vars: `{"v": null}`,
			want: `{"data":{"before":"ok","echo":null},"errors":[{"message":"Argument \"nn\" of non-null type \"Int!\" must not be null.","locations":[{"line":1,"column":38}],"path":["echo"]}]}`},
		{name: "default used when absent", query: `query($v: Int = 5) { before echo(nn: $v) }`, vars: `{}`,
			want: okResponse},
		{name: "absent variable in a list item", query: `query($x: Int) { before echo(matrix: [[$x]]) }`, vars: `{}`,
			want: okResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := response(t, cs.schema, tt.query, "", tt.vars); got != tt.want {
				t.Errorf("response:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}
