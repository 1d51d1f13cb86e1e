package graphqlhttp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/graphqlhttp"
)

// TestOneTimeDocumentsReuseMemory: a document the cache does not keep is
// parsed on the memory of the documents answered before it, and an
// operation a resolver kept from one of them still runs as it was written
// once that memory has served many other documents.
func TestOneTimeDocumentsReuseMemory(t *testing.T) {
	var mu sync.Mutex
	var kept *graphql.Operation
	in := &graphql.InputObject{Name: "In", Fields: []graphql.InputField{
		{Name: "a", Type: graphql.NewList(graphql.Int)},
		{Name: "b", Type: graphql.String},
	}}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "show", Type: graphql.String, Args: []graphql.Argument{
			{Name: "v", Type: graphql.NewList(graphql.NewList(graphql.Int))}, {Name: "in", Type: in}, {Name: "w", Type: graphql.Int},
		}, Resolve: func(_ context.Context, _ any, args graphql.Args, info graphql.ResolveInfo) (any, error) {
			mu.Lock()
			if kept == nil {
				kept = info.Operation()
			}
			mu.Unlock()
			b, err := args.MarshalJSON()
			return string(b), err
		}},
	}}})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	nop := zerolog.Nop()
	h, err := graphqlhttp.New(schema, graphqlhttp.Config{Logger: &nop})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	post := func(body string) string {
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
	mu.Lock()
	op := kept
	mu.Unlock()
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
