package plan

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/validation"
)

// This file bounds the shape of an operation before it is planned: how
// deep its fields nest once fragments are expanded, and how many
// selections it expands to.

// MaxDepth bounds how many fields deep an operation may nest once its
// fragments are expanded, and how many fragment spreads may nest. Parsing
// bounds a document's own nesting, and validation refuses fragment cycles
// and long spread chains; Prepare checks again, so that planning and
// execution end on any document, validated or not.
const MaxDepth = 1000

// MaxSelections bounds the field selections an operation expands to,
// every spread of a fragment counted (as the limits package counts nodes).
// Planning de-duplicates spreads only where no @skip/@include variable
// decides them, so fragments that spread the next one twice under two
// conditions expand to 2^n selections: Prepare refuses them up front.
const MaxSelections = 100_000

// NestingGuard bounds the fragment and inline-fragment nesting that
// collecting one selection set follows. Prepare refuses fragment cycles,
// documents deeper than MaxDepth and selection sets that nest more
// fragments than this between two fields (CheckShape) first, so collection
// is never cut; the guard is there for a plan built otherwise.
const NestingGuard = 256

// CheckShape reports a fragment spread within itself (directly or through
// other fragments), nesting past MaxDepth or an expansion past
// MaxSelections in the operation whose selection set is set. Each
// fragment is measured once.
func CheckShape(doc *ast.QueryDocument, set ast.SelectionSet) (selections int, err *gqlerror.Error) {
	c := shapeChecker{doc: doc}
	sh, err := c.measure(set, 0)
	if err == nil && sh.nest > NestingGuard && len(set) > 0 {
		err = c.nestedTooDeep(set[0])
	}
	if err == nil && sh.selections > MaxSelections {
		err = &gqlerror.Error{Message: fmt.Sprintf("The operation expands to more than %d field selections.", MaxSelections)}
	}
	return sh.selections, err
}

type shapeChecker struct {
	doc   *ast.QueryDocument
	frags validation.FragmentIndex
	sizes map[string]shape // each fragment's; depth -1 while it is measured
}

// shape is how deep a selection set nests, in fields, how many field
// selections it expands to (saturating), and how many fragments (inline or
// spread) it nests before a field, at the most.
type shape struct{ depth, selections, nest int }

func (c *shapeChecker) measure(set ast.SelectionSet, spreads int) (shape, *gqlerror.Error) {
	var out shape
	for _, sel := range set {
		var sh shape
		var err *gqlerror.Error
		switch x := sel.(type) {
		case *ast.Field:
			if sh, err = c.measure(x.SelectionSet, spreads); err == nil {
				if sh.nest > NestingGuard {
					return shape{}, c.nestedTooDeep(x)
				}
				sh.depth++
				sh.selections = addSaturating(sh.selections, 1)
				sh.nest = 0
			}
		case *ast.InlineFragment:
			sh, err = c.measure(x.SelectionSet, spreads)
			sh.nest++
		case *ast.FragmentSpread:
			sh, err = c.fragment(x, spreads+1)
			sh.nest++
		}
		if err != nil {
			return shape{}, err
		}
		out.selections = addSaturating(out.selections, sh.selections)
		out.nest = max(out.nest, sh.nest)
		if out.depth = max(out.depth, sh.depth); out.depth > MaxDepth {
			return shape{}, c.errorAt(sel, fmt.Sprintf("The operation nests more than %d fields deep.", MaxDepth))
		}
	}
	return out, nil
}

// nestedTooDeep reports a selection set, sel's (a field's or, for the
// operation's, its first selection), that nests more than NestingGuard
// fragments before a field: planning would not follow them all.
func (c *shapeChecker) nestedTooDeep(sel ast.Selection) *gqlerror.Error {
	return c.errorAt(sel, fmt.Sprintf("The operation nests more than %d fragments between two fields.", NestingGuard))
}

func addSaturating(a, b int) int {
	if a > MaxSelections*2-b {
		return MaxSelections * 2
	}
	return a + b
}

func (c *shapeChecker) fragment(spread *ast.FragmentSpread, spreads int) (shape, *gqlerror.Error) {
	sh, seen := c.sizes[spread.Name]
	switch {
	case seen && sh.depth < 0:
		return shape{}, c.errorAt(spread, fmt.Sprintf("Cannot spread fragment %q within itself.", spread.Name))
	case seen:
		return sh, nil
	case spreads > MaxDepth:
		return shape{}, c.errorAt(spread, fmt.Sprintf("Fragment spreads are nested more than %d levels deep.", MaxDepth))
	}
	f := c.frags.Get(c.doc, spread.Name)
	if f == nil {
		return shape{}, nil // an unknown fragment spreads nothing
	}
	if c.sizes == nil {
		c.sizes = make(map[string]shape, len(c.doc.Fragments))
	}
	c.sizes[spread.Name] = shape{depth: -1}
	sh, err := c.measure(f.SelectionSet, spreads)
	if err != nil {
		return shape{}, err
	}
	c.sizes[spread.Name] = sh
	return sh, nil
}

func (c *shapeChecker) errorAt(sel ast.Selection, msg string) *gqlerror.Error {
	e := &gqlerror.Error{Message: msg}
	if p := sel.GetPosition(); p != nil {
		e.Locations = []gqlerror.Location{{Line: p.Line, Column: p.Column}}
	}
	return e
}
