package validation

import (
	"slices"

	"github.com/vektah/gqlparser/v2/ast"
)

// This file is the fast path's check of fields that share a response key
// (quick.go): what OverlappingFieldsCanBeMerged allows where every
// composite type is an object.

// quickKey is a field met while collecting a merged selection set.
type quickKey struct {
	key string
	f   *ast.Field
}

// overlaps checks each operation's merged selection sets: fields that share
// a response key must be the same field with the same arguments; their
// sub-selections are then merged and checked in turn. Every composite type
// is an object and every fragment is on the type where it is spread (both
// checked before), so this is what OverlappingFieldsCanBeMerged requires.
func (c *quickChecker) overlaps() bool {
	c.keys = make([]quickKey, 0, 16)
	c.sets = make([]ast.SelectionSet, 0, 16)
	for _, op := range c.doc.Operations {
		c.sets = append(c.sets[:0], op.SelectionSet)
		if !c.merged(0, 1, 0) {
			return false
		}
	}
	return true
}

// merged checks the union of the selection sets c.sets[lo:hi], which are
// selections on one type. The sub-selections to merge next are pushed on
// c.sets after hi, and popped again.
func (c *quickChecker) merged(lo, hi, depth int) bool {
	if depth > quickMaxDepth {
		return false
	}
	start := len(c.keys)
	defer func() { c.keys = c.keys[:start] }()
	var seen fragmentSet // fragments already collected into this set
	for i := lo; i < hi; i++ {
		if !c.collect(c.sets[i], 0, &seen) {
			return false
		}
	}
	keys := c.keys[start:]
	sameKey := c.sameKeyChains(keys)
	for i, k := range keys {
		if k.f == nil {
			continue // merged into an earlier field of its key
		}
		base := len(c.sets)
		if len(k.f.SelectionSet) > 0 {
			c.sets = append(c.sets, k.f.SelectionSet)
		}
		for j := sameKey.next(keys, i); j >= 0; j = sameKey.next(keys, j) {
			if !c.spend(1) {
				return false
			}
			o := keys[j]
			if o.f == nil {
				continue
			}
			if o.f.Name != k.f.Name || !c.sameArguments(o.f.Arguments, k.f.Arguments) {
				return false
			}
			if len(o.f.SelectionSet) > 0 {
				c.sets = append(c.sets, o.f.SelectionSet)
			}
			keys[j].f = nil
		}
		if len(c.sets) > base {
			ok := c.merged(base, len(c.sets), depth+1)
			c.sets = c.sets[:base]
			if !ok {
				return false
			}
		}
	}
	return true
}

// keyChains links the fields of a merged selection set that share a
// response key: each to the next, so that comparing each field with the
// later ones of its key costs a step a field, not a step a pair. Small
// sets are searched in place instead (nil links).
type keyChains []int32

// sameKeyChains returns the links of keys when it has more than
// smallScan fields.
func (c *quickChecker) sameKeyChains(keys []quickKey) keyChains {
	if len(keys) <= smallScan {
		return nil
	}
	links := make(keyChains, len(keys))
	last := make(map[string]int32, len(keys))
	for i := len(keys) - 1; i >= 0; i-- {
		links[i] = -1
		if j, ok := last[keys[i].key]; ok {
			links[i] = j
		}
		last[keys[i].key] = int32(i)
	}
	return links
}

// next returns the index of the next field after i with the response key
// of keys[i], or -1.
func (l keyChains) next(keys []quickKey, i int) int {
	if l != nil {
		return int(l[i])
	}
	for j := i + 1; j < len(keys); j++ {
		if keys[j].key == keys[i].key {
			return j
		}
	}
	return -1
}

// fragmentSet holds the names of the fragments collected into a selection
// set: a few in a slice, more in a map.
type fragmentSet struct {
	few  []string
	many map[string]bool
}

// add adds name and reports whether it was not in the set yet.
func (s *fragmentSet) add(name string) bool {
	switch {
	case s.many != nil:
		if s.many[name] {
			return false
		}
		s.many[name] = true
		return true
	case slices.Contains(s.few, name):
		return false
	case len(s.few) < smallScan:
		s.few = append(s.few, name)
		return true
	}
	s.many = make(map[string]bool, 4*smallScan)
	for _, n := range s.few {
		s.many[n] = true
	}
	s.many[name] = true
	return true
}

// collect appends the fields of set to c.keys, through inline fragments
// and the fragments it spreads, each fragment once (seen).
func (c *quickChecker) collect(set ast.SelectionSet, nest int, seen *fragmentSet) bool {
	if nest > quickMaxDepth || !c.spend(len(set)) {
		return false
	}
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			c.keys = append(c.keys, quickKey{key: ResponseKey(x), f: x})
		case *ast.InlineFragment:
			if !c.collect(x.SelectionSet, nest+1, seen) {
				return false
			}
		case *ast.FragmentSpread:
			if !seen.add(x.Name) {
				continue
			}
			if !c.collect(c.frags[x.Name].def.SelectionSet, nest+1, seen) {
				return false
			}
		}
	}
	return true
}

// ResponseKey is the key of a field in the response: its alias, or its
// name.
func ResponseKey(f *ast.Field) string {
	if f.Alias != "" {
		return f.Alias
	}
	return f.Name
}

// sameArguments reports whether a and b are the same arguments, written
// the same way apart from their order.
func (c *quickChecker) sameArguments(a, b ast.ArgumentList) bool {
	if len(a) != len(b) || !c.spend(len(a)*len(b)) {
		return false
	}
	for _, x := range a {
		y := b.ForName(x.Name)
		if y == nil || !c.sameValue(x.Value, y.Value, 0) {
			return false
		}
	}
	return true
}

// sameValue compares two literals exactly, object fields in order.
func (c *quickChecker) sameValue(a, b *ast.Value, depth int) bool {
	if a == nil || b == nil || depth > quickMaxDepth || !c.spend(1) {
		return false
	}
	if a.Kind != b.Kind || a.Raw != b.Raw || len(a.Children) != len(b.Children) {
		return false
	}
	for i, ch := range a.Children {
		if ch.Name != b.Children[i].Name || !c.sameValue(ch.Value, b.Children[i].Value, depth+1) {
			return false
		}
	}
	return true
}
