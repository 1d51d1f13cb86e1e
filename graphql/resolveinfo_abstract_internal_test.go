package graphql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// ResolveInfo.IsSelected below nested fields of an interface: the plans of
// the possible objects, shared by cousins, are each looked in once per
// level.

// TestIsSelectedNestedAbstract: answers of IsSelected on a field of an
// interface with 10 implementations, through fragments on one of them,
// and ten levels deep (where a walk of every possible object's plan at
// every level would take 10^10 steps).
func TestIsSelectedNestedAbstract(t *testing.T) {
	s := chainSchema(t, 10)
	op := prepareCost(t, s, "{ root { id next { id next { __typename ... on O3 { id } } } } }")
	info := ResolveInfo{schema.Info{Field: op.p.Root.Fields[0], Op: op}}
	for path, want := range map[string]bool{"next.next.id": true, "next.next.nope": false, "next.id": true, "id": true, "next.next.next": false, "next.": false, "": false} {
		if got := info.IsSelected(path); got != want {
			t.Errorf("IsSelected(%q) = %v, want %v", path, got, want)
		}
	}
	const depth = 10
	deep := prepareCost(t, s, "{ root { "+chainBody(depth)+"} }")
	info = ResolveInfo{schema.Info{Field: deep.p.Root.Fields[0], Op: deep}}
	for path, want := range map[string]bool{
		strings.Repeat("next.", depth) + "id":        true,
		strings.Repeat("next.", depth) + "nope":      false,
		strings.Repeat("next.", depth-1) + "next":    true,
		strings.Repeat("next.", depth) + "next":      false,
		strings.Repeat("next.", depth-3) + "nope.id": false,
	} {
		if got := info.IsSelected(path); got != want {
			t.Errorf("IsSelected(%q) = %v, want %v", path, got, want)
		}
	}
}

// BenchmarkIsSelectedNestedAbstract: IsSelected of a path as deep as the
// document, not selected, below a field of an interface with 10
// implementations: about the same cost per level at every depth (it was
// ten times more per level: 1.3 s at depth 7).
func BenchmarkIsSelectedNestedAbstract(b *testing.B) {
	s := chainSchema(b, 10)
	for _, depth := range []int{3, 5, 10} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			op := prepareCost(b, s, "{ root { "+chainBody(depth)+"} }")
			info := ResolveInfo{schema.Info{Field: op.p.Root.Fields[0], Op: op}}
			path := strings.Repeat("next.", depth) + "nope"
			for b.Loop() {
				if info.IsSelected(path) {
					b.Fatal("selected")
				}
			}
		})
	}
}
