package plan

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/graphql/internal/coerce"
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
)

// Operation is one operation of a validated document, planned: fragments
// expanded, fields looked up and literal arguments coerced once. It is
// read-only once Prepare has returned, but for the plans of conditional
// fields, made and kept under its own synchronisation (see
// Field.ChildPlan), so that executions may share it.
type Operation struct {
	Def  *ast.OperationDefinition
	Root *Selection
	// Defaults are the operation's own copies of the variables' defaults
	// that hold a list or an object, by index; nil when none does.
	Defaults []*ast.Value
	// Public: every field the operation may select is a mutation field
	// marked Public (see public.go).
	Public  bool
	costs   costState // see opcost.go
	planner *planner  // kept for the plans executions make, and for Kept
}

// Prepare plans def, an operation of doc whose root object is root, into
// op (a zero Operation, which the caller may hold inside its own). The
// error, when there is one, carries no Err: the caller says what kind of
// problem it is (the document's), and op is then not to be used. A
// document that spreads a fragment within itself, nests more than
// MaxDepth fields deep or expands to more than MaxSelections field
// selections is refused.
func Prepare(op *Operation, s *schema.Schema, doc *ast.QueryDocument, def *ast.OperationDefinition, root *schema.Object) *gqlerror.Error {
	selections, err := CheckShape(doc, def.SelectionSet)
	if err != nil {
		return err
	}
	p := &planner{s: s, doc: doc, arena: newPlanArena(selections), preparing: true}
	if s.Abstract {
		p.prep = &abstractPrep{}
	}
	p.fragments.Get(doc, "") // built now: execution plans conditional fields concurrently
	op.Def, op.Root, op.planner = def, p.planRoot(root, def.SelectionSet), p
	op.Defaults = coerce.OwnDefaults(def.VariableDefinitions)
	op.Public = publicSelection(root, doc, def.SelectionSet, 0)
	if p.prep != nil && p.prep.planned > MaxSelections {
		return &gqlerror.Error{Message: fmt.Sprintf("The operation expands to more than %d field selections once planned for each possible type of its interface and union fields.", MaxSelections)}
	}
	if p.conditional {
		p.keepConditional(op.Root, map[string]bool{}, map[*Selection]bool{}, 0)
	}
	// Executions plan with memory of their own; p.prep stays, for the
	// per-object plans they share (abstract.go).
	p.arena, p.preparing = planArena{}, false
	return checkArguments(op.Root, 0, nil)
}

// checkArguments reports the first literal argument that could not be
// coerced, before anything runs. seen holds the per-object plans of
// abstract fields checked already, which cousins share (see
// sharedPlanKey): each is checked once.
func checkArguments(sp *Selection, depth int, seen map[*Selection]bool) *gqlerror.Error {
	if sp == nil || depth > 64 {
		return nil
	}
	for _, fp := range sp.Fields {
		if fp.ArgsErr != nil {
			return &gqlerror.Error{Message: fp.ArgsErr.Error(), Locations: fp.Locs[:1]}
		}
		if err := checkArguments(fp.Child, depth+1, seen); err != nil {
			return err
		}
		if fp.Abs != nil && !fp.Dynamic {
			if seen == nil {
				seen = map[*Selection]bool{}
			}
			for i := range fp.Abs.Plans {
				osp := fp.Abs.Plans[i].Load()
				if seen[osp] {
					continue
				}
				seen[osp] = true
				if err := checkArguments(osp, depth+1, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
