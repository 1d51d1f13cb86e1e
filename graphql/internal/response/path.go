package response

import "github.com/vektah/gqlparser/v2/ast"

// PathSeg is one step of the response path the executor is at: a response
// key, or (Index >= 0) an index in a list.
type PathSeg struct {
	Key   string
	Index int // -1 for a key
}

// ASTPath returns path as a response path, for an error.
func ASTPath(path []PathSeg) ast.Path {
	out := make(ast.Path, len(path))
	for i, p := range path {
		if p.Index >= 0 {
			out[i] = ast.PathIndex(p.Index)
		} else {
			out[i] = ast.PathName(p.Key)
		}
	}
	return out
}

// PathIndexes holds the list indexes on a field's path, outermost first:
// the field names come from the plan, so only the indexes need keeping.
// Up to three are kept inline; a deeper path keeps all of them in far.
type PathIndexes struct {
	n    int32
	near [3]int32
	far  []int
}

// At returns the index at i, outermost first.
func (p *PathIndexes) At(i int) int {
	if p.far != nil {
		return p.far[i]
	}
	return int(p.near[i])
}

// IndexesOf collects the list indexes of an executor's current path.
func IndexesOf(path []PathSeg) PathIndexes {
	var p PathIndexes
	for _, s := range path {
		if s.Index < 0 {
			continue
		}
		if p.n < int32(len(p.near)) && p.far == nil && s.Index <= 1<<31-1 {
			p.near[p.n] = int32(s.Index)
		} else {
			if p.far == nil {
				p.far = make([]int, p.n, len(path))
				for i := range p.n {
					p.far[i] = int(p.near[i])
				}
			}
			p.far = append(p.far, s.Index)
		}
		p.n++
	}
	return p
}

// Len returns the number of indexes.
func (p *PathIndexes) Len() int { return int(p.n) }
