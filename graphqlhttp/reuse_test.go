package graphqlhttp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	apierror "github.com/gqlkit/gqlkit/errors"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// TestOneTimeDocumentsReuseMemory: a document the cache does not keep is
// parsed on the memory of the documents answered before it, and an
// operation a resolver kept from one of them still runs as it was written
// once that memory has served many other documents.
func TestOneTimeDocumentsReuseMemory(t *testing.T) {
	var kept keptOperation
	in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{
		{Name: "a", Type: graphql.NewList(graphql.Int)},
		{Name: "b", Type: graphql.String},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "show", Type: graphql.String, Args: []graphql.Argument{
			{Name: "v", Type: graphql.NewList(graphql.NewList(graphql.Int))}, {Name: "in", Type: in}, {Name: "w", Type: graphql.Int},
		}, Resolve: func(_ context.Context, _ any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			kept.keep(info)
			b, err := args.MarshalJSON()
			return string(b), err
		}},
	}}})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	post := poster(t, schema)
	const want = `{"data":{"show":"{\"in\":{\"a\":[4],\"b\":\"x\"},\"v\":[[1,2],[3]],\"w\":5}"}}`
	if got := post(jsonBody(`query Keep($w: Int) { show(v: [[1, 2], [3]], in: {a: [4], b: "x"}, w: $w) }`, `{"w": 5}`, "")); got != want {
		t.Fatalf("first answer = %s, want %s", got, want)
	}
	// Documents seen once, each with other values in lists and objects of
	// the same shapes, and more of them.
	for i := range 50 {
		items := strings.Repeat(fmt.Sprintf("[%d, %d], ", 90+i, 91+i), 40)
		post(jsonBody(fmt.Sprintf(`query P%d { show(v: [%s], in: {a: [%d], b: "other"}) }`, i, items, 90+i), "", ""))
	}
	op := kept.get()
	for _, w := range []int{5, 6} {
		res, err := op.Execute(context.Background(), graphql.ExecParams{Variables: map[string]any{"w": w}})
		if err != nil {
			t.Fatalf("Execute: %v", err)
		}
		got, _ := res.MarshalJSON()
		if want := fmt.Sprintf(`{"data":{"show":"{\"in\":{\"a\":[4],\"b\":\"x\"},\"v\":[[1,2],[3]],\"w\":%d}"}}`, w); string(got) != want {
			t.Errorf("the kept operation with w=%d = %s, want %s", w, got, want)
		}
	}
}

// TestOneTimeDocumentsReuseMemoryDeepFragments: within the default limits
// (64 brackets open, depth 10, 64 nested spreads), a chain of fragments of
// 60 nested inline fragments each puts a field's list argument under a
// conditional field more than 1256 fragments and fields deep. An operation
// a resolver kept from that document must still plan the field, in an
// execution where the condition holds, from its own copy of the argument,
// not from the document's memory, which later documents reused.
func TestOneTimeDocumentsReuseMemoryDeepFragments(t *testing.T) {
	var kept keptOperation
	var node *graphql.Object
	node = &graphql.Object{Name: "Node", Fields: graphql.FieldsFunc(func() graphql.Fields {
		return graphql.Fields{
			{Name: "show", Type: graphql.String, Args: []graphql.Argument{{Name: "v", Type: graphql.NewList(graphql.NewList(graphql.Int))}},
				Resolve: func(_ context.Context, _ any, args graphql.Args, _ graphql.ResolveInfo) (any, error) {
					b, err := args.MarshalJSON()
					return string(b), err
				}},
			{Name: "child", Type: node, Resolve: func(context.Context, any, graphql.Args, graphql.ResolveInfo) (any, error) {
				return struct{}{}, nil
			}},
			{Name: "keep", Type: graphql.Boolean, Resolve: func(_ context.Context, _ any, _ graphql.Args, info graphql.ResolveInfo) (any, error) {
				kept.keep(info)
				return true, nil
			}},
		}
	})}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: node})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	post := poster(t, schema)
	// 6 fields deep, 4 fragments a field, 60 inline fragments a fragment.
	const groups, perGroup, nest = 6, 4, 60
	var b strings.Builder
	b.WriteString("query Deep($c: Boolean!) { keep child @include(if: $c) { ...F0 } }\n")
	n := groups * perGroup
	for i := range n {
		fmt.Fprintf(&b, "fragment F%d on Node {%s ", i, strings.Repeat("...{", nest))
		switch {
		case i == n-1:
			b.WriteString("show(v: [[1, 2], [3]])")
		case i%perGroup == perGroup-1:
			fmt.Fprintf(&b, "child { ...F%d }", i+1)
		default:
			fmt.Fprintf(&b, "...F%d", i+1)
		}
		b.WriteString(strings.Repeat("}", nest) + "}\n")
	}
	query := b.String()
	if got, want := post(jsonBody(query, `{"c": false}`, "")), `{"data":{"keep":true}}`; got != want {
		t.Fatalf("first answer = %s, want %s", got, want)
	}
	for i := range 50 {
		items := strings.Repeat(fmt.Sprintf("[%d, %d], ", 90+i, 91+i), 40)
		post(jsonBody(fmt.Sprintf(`query P%d { show(v: [%s]) }`, i, items), "", ""))
	}
	op := kept.get()
	res, err := op.Execute(context.Background(), graphql.ExecParams{Variables: map[string]any{"c": true}})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	got, _ := res.MarshalJSON()
	if !strings.Contains(string(got), `"show":"{\"v\":[[1,2],[3]]}"`) {
		t.Errorf("the kept operation with c=true = %s", got)
	}
}

// keptOperation is the operation a resolver kept, as a batch loader
// might, from the first request that ran it.
type keptOperation struct {
	mu sync.Mutex
	op *graphql.Operation
}

func (k *keptOperation) keep(info graphql.ResolveInfo) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.op == nil {
		k.op = info.Operation()
	}
}

func (k *keptOperation) get() *graphql.Operation {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.op
}

// poster serves schema with the default config and returns a function
// that POSTs a JSON body to it and returns the answer, which must be a
// 200.
func poster(t *testing.T, schema *graphql.Schema) func(body string) string {
	t.Helper()
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Presenter: apierror.Presenter{Logger: nopLogger()}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := newServer(t, h)
	return func(body string) string {
		t.Helper()
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatalf("POST: %v", err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("answer = %d %s", resp.StatusCode, b)
		}
		return string(b)
	}
}
