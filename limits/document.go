package limits

import (
	"math"

	"github.com/vektah/gqlparser/v2/ast"
)

// DocStats is what [Config.CheckDocument] and [Config.CheckOperation]
// measured in a parsed document.
type DocStats struct {
	// Depth is the deepest field selection of any operation (or unused
	// fragment) checked.
	Depth int
	// Nodes is the field node count of what was checked, after fragment
	// expansion: for CheckDocument, the sum over the operations (and
	// unused fragments) checked so far. It saturates at math.MaxInt.
	Nodes int
}

// CheckDocument checks the depth and node limits on a parsed document and
// stops at the first limit crossed with an [*Error]. Depth is checked on
// every operation on its own; nodes on the whole document: the field nodes
// of every operation, each with the fragments it spreads expanded, are
// added up, because the validator walks every operation of the document
// with what it spreads, whichever operation a request runs (600
// operations each spreading one fragment of 450 fields stand for 270,000
// nodes of validation, and a document cannot hide them from the limit by
// spreading them over operations). Operations are checked in document
// order, depth before nodes, and the nodes are reported at the end of the
// operation that takes the sum over the maximum. Fragments that no
// operation spreads (directly or through other fragments) are checked
// last, as if each were an operation, because the validator still walks
// them. It is the check to run on a document that is cached and later
// executed under any operation name.
//
// The document must come from the parser but need not have been
// validated: spreads of unknown fragments count as nothing, and so does a
// spread that would re-enter a fragment already being expanded (a cycle);
// validation rejects such documents afterwards. Each fragment is expanded
// once and its counts reused, so the cost is linear in the size of the
// document whatever it spreads.
//
// Fields named __schema or __type, and everything below them, do not count
// towards the depth limit but do count as nodes; see the package
// documentation.
//
// The DocStats returned hold the largest depth of the operations (and
// unused fragments) checked so far, and the sum of their node counts. A
// nil document has none.
func (c Config) CheckDocument(doc *ast.QueryDocument) (DocStats, error) {
	var stats DocStats
	if doc == nil {
		return stats, nil
	}
	var w walker
	w.init(doc, c)
	for _, op := range doc.Operations {
		if op == nil {
			continue
		}
		if err := w.check(op.SelectionSet, &stats); err != nil {
			return stats, err
		}
	}
	for i := range w.frags {
		if f := &w.frags[i]; f.state == unexpanded {
			if err := w.check(f.def.SelectionSet, &stats); err != nil {
				return stats, err
			}
		}
	}
	return stats, nil
}

// CheckOperation checks the depth and node limits on one operation of doc,
// with the fragments it spreads, as [Config.CheckDocument] does. It looks
// at nothing else in doc: gqlparser's validator still walks the other
// operations and every fragment, so use CheckDocument before validating a
// document from an untrusted source, and CheckOperation to check an
// operation of a document already checked or trusted, under other limits.
// Its node count is that operation's alone. A nil operation has no depth
// and no nodes.
func (c Config) CheckOperation(doc *ast.QueryDocument, op *ast.OperationDefinition) (DocStats, error) {
	var stats DocStats
	if op == nil {
		return stats, nil
	}
	var w walker
	w.init(doc, c)
	err := w.check(op.SelectionSet, &stats)
	return stats, err
}

// walker measures selection sets of one document.
type walker struct {
	maxDepth, maxNodes int
	// frags holds the document's fragment definitions, nil ones left out,
	// in document order.
	frags []fragment
	// byName indexes frags by name (the first definition of a name wins,
	// as in ast.FragmentDefinitionList.ForName); nil for small documents,
	// which are searched in order.
	byName map[string]*fragment
}

// fragment is one fragment definition and, once expanded, its counts.
type fragment struct {
	def *ast.FragmentDefinition
	// state is unexpanded, expanding (on the current expansion path) or
	// expanded (depth and nodes are set). A fragment still unexpanded once
	// every operation is measured is unused.
	state        uint8
	depth, nodes int
}

const (
	unexpanded uint8 = iota
	expanding
	expanded
)

// indexFrom is the number of fragment definitions from which the walker
// indexes them in a map rather than searching them in order.
const indexFrom = 16

// init prepares w to measure doc under the limits of c.
func (w *walker) init(doc *ast.QueryDocument, c Config) {
	w.maxDepth = bound(c.MaxDepth, DefaultMaxDepth)
	w.maxNodes = bound(c.MaxNodes, DefaultMaxNodes)
	if doc == nil || len(doc.Fragments) == 0 {
		return
	}
	w.frags = make([]fragment, 0, len(doc.Fragments))
	for _, def := range doc.Fragments {
		if def != nil {
			w.frags = append(w.frags, fragment{def: def})
		}
	}
	if len(w.frags) >= indexFrom {
		w.byName = make(map[string]*fragment, len(w.frags))
		for i := range w.frags {
			f := &w.frags[i]
			if _, dup := w.byName[f.def.Name]; !dup {
				w.byName[f.def.Name] = f
			}
		}
	}
}

// lookup returns the fragment definition named name, or nil.
func (w *walker) lookup(name string) *fragment {
	if w.byName != nil {
		return w.byName[name]
	}
	for i := range w.frags {
		if w.frags[i].def.Name == name {
			return &w.frags[i]
		}
	}
	return nil
}

// check measures the selection set of an operation (or of an unused
// fragment), adds its nodes to those already in stats, keeps the deepest
// depth there, and reports the first limit crossed: its depth, or the sum
// of nodes, located where the sum went over the maximum.
func (w *walker) check(set ast.SelectionSet, stats *DocStats) error {
	t := tally{maxDepth: w.maxDepth, maxNodes: w.maxNodes, nodes: stats.Nodes}
	w.walk(set, 0, false, &t)
	stats.Depth = max(stats.Depth, t.depth)
	stats.Nodes = t.nodes
	switch {
	case t.depth > w.maxDepth:
		line, column := lineColumn(t.depthAt)
		return &Error{Limit: Depth, Max: w.maxDepth, Found: t.depth, Line: line, Column: column}
	case t.nodes > w.maxNodes:
		line, column := lineColumn(t.nodesAt)
		return &Error{Limit: Nodes, Max: w.maxNodes, Found: t.nodes, Line: line, Column: column}
	}
	return nil
}

// tally accumulates the depth and node count of one selection set and
// remembers where each first went over its maximum.
type tally struct {
	maxDepth, maxNodes int
	depth, nodes       int
	// depthOver and nodesOver are set at the first selection that takes
	// depth or nodes over the maximum; depthAt and nodesAt are its
	// position (nil when the document has none).
	depthOver, nodesOver bool
	depthAt, nodesAt     *ast.Position
}

// add records a selection reaching depth and adding nodes field nodes.
func (t *tally) add(depth, nodes int, at *ast.Position) {
	if depth > t.depth {
		t.depth = depth
		if depth > t.maxDepth && !t.depthOver {
			t.depthOver, t.depthAt = true, at
		}
	}
	t.nodes = addSaturating(t.nodes, nodes)
	if t.nodes > t.maxNodes && !t.nodesOver {
		t.nodesOver, t.nodesAt = true, at
	}
}

// walk adds the fields of set, which sits depth fields deep, to t. In an
// introspection sub-tree (exempt) fields count as nodes but not as depth.
func (w *walker) walk(set ast.SelectionSet, depth int, exempt bool, t *tally) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s == nil {
				continue
			}
			if exempt || isIntrospection(s.Name) {
				t.add(0, 1, s.Position)
				w.walk(s.SelectionSet, depth, true, t)
				continue
			}
			t.add(depth+1, 1, s.Position)
			w.walk(s.SelectionSet, depth+1, false, t)
		case *ast.InlineFragment:
			if s != nil {
				w.walk(s.SelectionSet, depth, exempt, t)
			}
		case *ast.FragmentSpread:
			if s == nil {
				continue
			}
			if f := w.expand(s.Name); f != nil {
				reach := depth + f.depth
				if exempt {
					reach = 0
				}
				t.add(reach, f.nodes, s.Position)
			}
		}
	}
}

// expand returns the fragment named name with its counts, expanding it the
// first time. It returns nil for an unknown fragment and for one already
// being expanded, which only a cycle can reach. A fragment's counts do not
// depend on where it is spread: its depth is measured from its own top, and
// a spread in an introspection sub-tree ignores it.
func (w *walker) expand(name string) *fragment {
	f := w.lookup(name)
	if f == nil || f.state == expanding {
		return nil
	}
	if f.state == unexpanded {
		f.state = expanding
		t := tally{maxDepth: math.MaxInt, maxNodes: math.MaxInt}
		w.walk(f.def.SelectionSet, 0, false, &t)
		f.depth, f.nodes = t.depth, t.nodes
		f.state = expanded
	}
	return f
}

// isIntrospection reports whether a field named name roots an introspection
// sub-tree. __typename is an ordinary leaf field.
func isIntrospection(name string) bool {
	return name == "__schema" || name == "__type"
}

func addSaturating(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

func lineColumn(p *ast.Position) (line, column int) {
	if p == nil {
		return 0, 0
	}
	return p.Line, p.Column
}
