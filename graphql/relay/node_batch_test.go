package relay_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql/relay"
)

// TestNodesBatch serves books through a batch fetcher: nodes calls it
// once with the book IDs, each once, in the order first asked; node calls
// it with one; its misses are null, its ErrNotFound nulls all its nodes,
// and a result of the wrong length or an error is a masked field error.
func TestNodesBatch(t *testing.T) {
	l := newLibrary()
	nt := newNodeTypes(t, l, relay.NodesConfig{})
	var calls []string
	fetch := func(ctx context.Context, ids []string) ([]*book, error) {
		calls = append(calls, strings.Join(ids, ","))
		out := make([]*book, len(ids))
		for i, id := range ids {
			switch id {
			case "short":
				return out[:i], nil
			case "gone":
				return nil, fmt.Errorf("books %v: %w", ids, errcode.ErrNotFound)
			}
			b, err := l.book(ctx, id)
			if err != nil {
				return nil, err
			}
			out[i] = b
		}
		return out, nil
	}
	if err := relay.RegisterBatch(nt.nodes, nt.book, (func(context.Context, []string) ([]*book, error))(nil)); err == nil ||
		err.Error() != "relay: RegisterBatch needs a Nodes, an object and a fetch function" {
		t.Errorf("RegisterBatch(nil fetch) error = %v", err)
	}
	schema, _ := buildNodeSchema(t, l, nt, relay.RegisterBatch(nt.nodes, nt.book, fetch))
	b := func(id string) any { return relay.GlobalID("Book", id) }
	austen, nobody := relay.GlobalID("Author", "austen"), relay.GlobalID("Author", "nobody")
	masked := func(field, data string) string {
		return fmt.Sprintf(`{"data":%s,"errors":[{"message":"Internal server error.","locations":[{"line":1,"column":%d}],"path":["%s"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`,
			data, strings.Index(nodesQuery, field+"(")+1, field)
	}
	cases := []struct {
		name  string
		ids   []any
		want  string
		calls []string
	}{
		{"mixed, missing and repeated", []any{b("4"), austen, b("1"), b("99"), b("4"), nobody},
			`{"data":{"nodes":[{"__typename":"Book","title":"Beloved"},{"__typename":"Author","name":"Jane Austen"},` +
				`{"__typename":"Book","title":"Dune"},null,{"__typename":"Book","title":"Beloved"},null]}}`, []string{"4,1,99"}},
		{"authors only", []any{austen}, `{"data":{"nodes":[{"__typename":"Author","name":"Jane Austen"}]}}`, nil},
		{"not found", []any{b("1"), b("gone"), austen}, `{"data":{"nodes":[null,null,{"__typename":"Author","name":"Jane Austen"}]}}`, []string{"1,gone"}},
		{"a result too short", []any{b("2"), b("short")}, masked("nodes", "null"), []string{"2,short"}},
		{"an error", []any{b("2"), b("13")}, masked("nodes", "null"), []string{"2,13"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls = nil
			if got := do(t, schema, nodesQuery, map[string]any{"ids": tc.ids}); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if !slices.Equal(calls, tc.calls) {
				t.Errorf("batch calls %q, want %q", calls, tc.calls)
			}
		})
	}
	calls = nil
	want := `{"data":{"node":{"__typename":"Book","id":"` + relay.GlobalID("Book", "3") + `","title":"Persuasion","author":{"id":"` +
		austen + `","name":"Jane Austen"}}}}`
	if got := do(t, schema, nodeQuery, map[string]any{"id": b("3")}); got != want || !slices.Equal(calls, []string{"3"}) {
		t.Errorf("node: got %s with calls %q\nwant %s with calls [3]", got, calls, want)
	}
}
