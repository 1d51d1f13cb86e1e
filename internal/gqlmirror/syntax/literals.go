package syntax

import (
	"unsafe"

	"github.com/vektah/gqlparser/v2/ast"
)

// This file holds the memory of what list and object literals hold: their
// items, their fields and the slices of their children. It is most of a
// document's memory when the document is mostly values (the largest
// document the default limits accept has 9,994 list items, 1.8 MB of
// nodes), and graphql's Parser reuses it from one document to the next once
// the document is released, so that documents seen once leave no garbage.
//
// Reuse is safe because nothing reads inside a released document's
// literals: the caller of Release reads the document no more, and the
// graphql Operations prepared from it read only the top node of each
// argument value. The top nodes themselves, and everything else of the
// document (fields, selection sets, positions of top nodes, comments,
// decoded strings), are never reused: an Operation keeps them.

// listItem is an item of a list value, allocated as one.
type listItem struct {
	ch  ast.ChildValue
	v   ast.Value
	pos ast.Position
}

// objectField is a field of an object value, allocated as one.
type objectField struct {
	ch    ast.ChildValue
	chPos ast.Position
	v     ast.Value
	vPos  ast.Position
}

// LiteralMemory hands out the nodes of what literals hold.
type LiteralMemory struct {
	items    reusable[listItem]
	fields   reusable[objectField]
	children reusable[*ast.ChildValue]
}

// maxKept bounds the bytes of chunks a LiteralMemory keeps for reuse; a
// released document's chunks past it are left to the garbage collector.
// The largest document the default limits accept needs about 2 MB.
const maxKept = 4 << 20

// Release makes the chunks of the document parsed last reusable.
func (m *LiteralMemory) Release() {
	kept := m.items.release(maxKept)
	kept += m.fields.release(maxKept - kept)
	m.children.release(maxKept - kept)
}

// Forget leaves the chunks of the document parsed last to that document.
func (m *LiteralMemory) Forget() {
	m.items.forget()
	m.fields.forget()
	m.children.forget()
}

// reusable hands out elements of T from chunks, as slab does, and keeps
// the chunks it handed out so that they can be reused: an element of a
// chunk used before is cleared as it is handed out again, so that every
// element starts as a new one would (clearing it there, rather than the
// whole chunk when it is taken, writes its memory once).
type reusable[T any] struct {
	cur   []T   // the chunk being filled
	dirty bool  // cur was used before: clear what it hands out
	used  [][]T // the full chunks of the current document
	free  [][]T // chunks to fill again
}

func (r *reusable[T]) new() *T {
	if len(r.cur) == cap(r.cur) {
		r.grow(1)
	}
	r.cur = r.cur[:len(r.cur)+1]
	e := &r.cur[len(r.cur)-1]
	if r.dirty {
		var zero T
		*e = zero
	}
	return e
}

// take returns n consecutive elements, a slice of capacity n.
func (r *reusable[T]) take(n int) []T {
	if cap(r.cur)-len(r.cur) < n {
		r.grow(n)
	}
	r.cur = r.cur[:len(r.cur)+n]
	out := r.cur[len(r.cur)-n : len(r.cur) : len(r.cur)]
	if r.dirty {
		clear(out)
	}
	return out
}

// grow starts a chunk with room for at least n elements: the smallest
// free one that has it (so that a large chunk, kept for the children of a
// long list, is not spent on a short one), else a new one, twice the size
// of the one before up to chunkBytes (or n elements, if more).
func (r *reusable[T]) grow(n int) {
	if cap(r.cur) > 0 {
		r.used = append(r.used, r.cur)
	}
	best := -1
	for i, c := range r.free {
		if cap(c) >= n && (best < 0 || cap(c) < cap(r.free[best])) {
			best = i
		}
	}
	if best >= 0 {
		last := len(r.free) - 1
		r.cur, r.dirty = r.free[best][:0], true
		r.free[best] = r.free[last]
		r.free[last] = nil
		r.free = r.free[:last]
		return
	}
	var zero T
	r.cur, r.dirty = make([]T, 0, chunkLen(cap(r.cur), n, int(unsafe.Sizeof(zero)), 8)), false
}

// Release makes the chunks of the current document free, up to budget
// bytes of them, and returns the bytes kept.
func (r *reusable[T]) release(budget int) int {
	if cap(r.cur) > 0 {
		r.used = append(r.used, r.cur)
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	kept := 0
	for _, c := range r.free {
		kept += cap(c) * size
	}
	for i, c := range r.used {
		if kept+cap(c)*size <= budget {
			r.free = append(r.free, c[:0])
			kept += cap(c) * size
		}
		r.used[i] = nil
	}
	r.used, r.cur = r.used[:0], nil
	return kept
}

// forget drops the chunks of the current document, which keeps them.
func (r *reusable[T]) forget() {
	clear(r.used)
	r.used, r.cur = r.used[:0], nil
}
