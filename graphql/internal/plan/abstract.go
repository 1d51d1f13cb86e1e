package plan

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

// This file plans the fields of interface and union types. Such a field's
// value is of one of the abstract type's possible objects, known only once
// it is resolved, so its sub-selection is planned for each of them: the
// fields selected directly and under the fragments whose type condition
// the object satisfies (the object itself, an interface it implements, a
// union it belongs to: graphql-js's doesFragmentConditionMatch), merged
// in the order graphql-js's CollectFields gives them. Each per-object plan
// is an ordinary selection plan, with the object's own resolvers, direct
// reads and batched fields.
//
// Prepare plans them all, as it plans object fields, so that executions
// and the operation's cost find them ready. Nested abstract fields
// multiply the plans by the possible objects at each level; cousins share
// theirs (sharedPlanKey), and Prepare counts what it builds
// (abstractPrep.planned) and refuses an operation past
// MaxSelections, so planning stays bounded on any document. Fields
// planned later, below a field whose sub-selection depends on a
// variable's @skip or @include (for an execution, or for the cost), are
// planned the same way, sharing plans with their cousins, within a budget
// of their own (abstractPrep.late); past it, they are planned for one
// object at a time, when a value of it comes.

// AbstractChild is the sub-selection of a field of an interface or union
// type, for each of its possible objects.
type AbstractChild struct {
	Info *schema.Abstract
	// fields are the field's nodes, planned for each object; nil for a
	// field whose nodes that count depend on the variables
	// (Field.Dynamic), which is planned for each execution.
	fields []*ast.Field
	// Plans holds the plan for Info.Possible[i] at i, once made.
	Plans []atomic.Pointer[Selection]
}

// conditionMatches reports whether a fragment with type condition cond
// applies to values of obj other than by naming it: cond is an interface
// obj implements or a union obj belongs to.
func (p *planner) conditionMatches(cond string, obj *schema.Object) bool {
	if !p.s.Abstract {
		return false
	}
	t := p.s.Named[cond]
	return t != nil && t.Abstract != nil && t.Abstract.ByName[obj.Name] == obj
}

// abstractField readies fp, a field being planned, when its type is an
// interface or a union: its AbstractChild, and whether its lists gather
// objects with batched fields.
func (p *planner) abstractField(fp *Field) {
	if fp.Type == nil {
		return
	}
	ai := fp.Type.Named().Abstract
	if ai == nil {
		return
	}
	fp.Abs = &AbstractChild{Info: ai}
	if !fp.Dynamic {
		fp.Abs.Plans = make([]atomic.Pointer[Selection], len(ai.Possible))
	}
	if fp.Lists > 0 {
		for _, o := range ai.Possible {
			if o.Batched {
				fp.BatchList = true
				break
			}
		}
	}
}

// planObjects plans fp's sub-selection for each possible object of its
// abstract type, fp being a field whose every occurrence counts. Once
// Prepare has returned, past the budget of plans kept for sharing, the
// plans are made one at a time as values come (ObjectPlan).
func (p *planner) planObjects(fp *Field) {
	a := fp.Abs
	a.fields = make([]*ast.Field, len(fp.Occ))
	for i, o := range fp.Occ {
		a.fields[i] = o.Field
	}
	if !p.preparing && !p.prep.sharing() {
		return
	}
	path, nodes := responsePath(fp), nodesKey(a.fields)
	for i, o := range a.Info.Possible {
		a.Plans[i].Store(p.sharedPlan(sharedPlanKey{path: path, obj: o, first: a.fields[0], rest: nodes}, a.fields, fp))
	}
}

// abstractPrep is what the planner keeps for an operation of a schema
// with abstract types.
type abstractPrep struct {
	// planned counts the field plans Prepare builds: past
	// MaxSelections, Prepare refuses the operation. Fields of
	// interface and union types are planned for each of their possible
	// objects, which multiplies the plans where cousins do not share
	// them; without such fields, it never passes the selections
	// CheckShape counted.
	planned int
	// shared holds the per-object plans made, for the cousins that share
	// them (see sharedPlanKey): by Prepare, and after it, under mu, by
	// executions and the cost, for fields below a conditional one. late
	// counts the field plans those later ones hold; past
	// MaxSelections, no more are kept.
	mu     sync.Mutex
	shared map[sharedPlanKey]*Selection
	late   int
}

// sharing reports whether plans made after Prepare may still be kept
// for sharing.
func (a *abstractPrep) sharing() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.late < MaxSelections
}

// sharedPlan returns the plan of nodes for key.obj, fp being one of the
// fields of key: the one made for key already, or a new one, kept for
// the others (after Prepare, within the budget).
func (p *planner) sharedPlan(key sharedPlanKey, nodes []*ast.Field, fp *Field) *Selection {
	a := p.prep
	if p.preparing { // one goroutine
		sp := a.shared[key]
		if sp == nil {
			sp = p.plan(key.obj, nodes, fp)
			if a.shared == nil {
				a.shared = make(map[sharedPlanKey]*Selection)
			}
			a.shared[key] = sp
		}
		return sp
	}
	a.mu.Lock()
	sp := a.shared[key]
	a.mu.Unlock()
	if sp != nil {
		return sp
	}
	// Planned without the lock: planning it plans the fields below,
	// which share plans too. Two executions may plan the same key at
	// once; the first one kept serves both.
	sp = p.plan(key.obj, nodes, fp)
	n := planSize(sp, 0)
	a.mu.Lock()
	defer a.mu.Unlock()
	if kept := a.shared[key]; kept != nil {
		return kept
	}
	if a.late+n <= MaxSelections {
		a.late += n
		if a.shared == nil {
			a.shared = make(map[sharedPlanKey]*Selection)
		}
		a.shared[key] = sp
	}
	return sp
}

// planSize counts the field plans of sp and of the sub-plans of its
// object fields (those of abstract fields are kept, and counted, on
// their own).
func planSize(sp *Selection, depth int) int {
	if sp == nil || depth > MaxDepth {
		return 0
	}
	n := len(sp.Fields)
	for _, fp := range sp.Fields {
		n += planSize(fp.Child, depth+1)
	}
	return n
}

// sharedPlanKey identifies a per-object plan Prepare made: the object,
// the field nodes planned (first, and the others as nodesKey gives them)
// and the response keys of the abstract field and of the fields above it
// (responsePath). Two abstract fields with the same key are the same
// field of the response reached through different objects (cousins: the
// next field of every implementation of an interface whose next field
// returns it), so they share their plans: a plan's content depends only
// on its object and nodes, and what it reads of its place (the keys of
// ResolveInfo.Path) is the same. Without it, a document nesting abstract
// fields n deep would have possible^n plans; with it, n × possible for
// the same nodes at each level. Documents that make the nodes differ
// between cousins are bounded by abstractPrep.planned (and late).
type sharedPlanKey struct {
	path  string
	obj   *schema.Object
	first *ast.Field
	rest  string
}

// responsePath returns the response keys from the root down to fp, each
// followed by a NUL (keys are names, without one).
func responsePath(fp *Field) string {
	n := 0
	for f := fp; f != nil; f = f.ParentField() {
		n += len(f.Key) + 1
	}
	b := make([]byte, n)
	for f := fp; f != nil; f = f.ParentField() {
		n -= len(f.Key) + 1
		copy(b[n:], f.Key)
	}
	return string(b)
}

// nodesKey returns the identities of nodes past the first as a string, ""
// for one node.
func nodesKey(nodes []*ast.Field) string {
	if len(nodes) < 2 {
		return ""
	}
	b := make([]byte, 0, 8*(len(nodes)-1))
	for _, n := range nodes[1:] {
		b = binary.LittleEndian.AppendUint64(b, uint64(uintptr(unsafe.Pointer(n))))
	}
	return string(b)
}

// ObjectPlan returns the plan of fp's sub-selection for the i-th possible
// object of its abstract type, planning it when it is not yet.
//
// A field whose occurrences that count depend on the variables keeps its
// plans by the set of occurrences that count, as ChildPlan does for
// object fields, up to MaxDynPlans sets, each with a slot for every
// possible object; past them, in perExec, for one execution.
func (fp *Field) ObjectPlan(i int, c *Conditions, perExec *map[ObjectPlanKey]*Selection) *Selection {
	a := fp.Abs
	obj := a.Info.Possible[i]
	if !fp.Dynamic {
		if sp := a.Plans[i].Load(); sp != nil {
			return sp
		}
		sp := fp.planner.plan(obj, a.fields, fp)
		if !a.Plans[i].CompareAndSwap(nil, sp) {
			sp = a.Plans[i].Load()
		}
		return sp
	}
	if set := fp.objectPlanSet(c); set != nil {
		if sp := set[i].Load(); sp != nil {
			return sp
		}
		sp := fp.planner.plan(obj, fp.countingFields(c), fp)
		if !set[i].CompareAndSwap(nil, sp) {
			sp = set[i].Load()
		}
		return sp
	}
	key := ObjectPlanKey{fp: fp, obj: i}
	if perExec != nil {
		if sp, ok := (*perExec)[key]; ok {
			return sp
		}
	}
	sp := fp.planner.plan(obj, fp.countingFields(c), fp)
	if perExec != nil {
		if *perExec == nil {
			*perExec = make(map[ObjectPlanKey]*Selection)
		}
		(*perExec)[key] = sp
	}
	return sp
}

// objectPlanSet returns the slots of the per-object plans of fp, a
// conditional abstract field, for the occurrences that count under c:
// kept in fp.dynCache by the bitmask of those occurrences, for fields
// with at most 64 occurrences, up to MaxDynPlans masks; nil past them.
func (fp *Field) objectPlanSet(c *Conditions) []atomic.Pointer[Selection] {
	if len(fp.Occ) > 64 {
		return nil
	}
	mask := fp.counted(c)
	if v, ok := fp.dynCache.Load(mask); ok {
		return v.(*objectPlanSet).plans
	}
	if fp.dynCount.Load() >= MaxDynPlans {
		return nil
	}
	v, loaded := fp.dynCache.LoadOrStore(mask, &objectPlanSet{plans: make([]atomic.Pointer[Selection], len(fp.Abs.Info.Possible))})
	if !loaded {
		fp.dynCount.Add(1)
	}
	return v.(*objectPlanSet).plans
}

// objectPlanSet is what a conditional abstract field keeps for one set of
// occurrences that count: the plan for possible object i at i, once made.
type objectPlanSet struct {
	plans []atomic.Pointer[Selection]
}

// ObjectPlanKey keeps a plan of a conditional abstract field for one
// object, for one execution, past the field's MaxDynPlans sets.
type ObjectPlanKey struct {
	fp  *Field
	obj int
}

// ObjectPlans returns the plans of fp's sub-selection, one for each
// possible object, planning those not yet planned; for a conditional
// field, over all its occurrences, whatever their conditions (for the
// cost, an upper bound), shared with the cousins of fp as Prepare shares
// the plans of fields whose every occurrence counts.
func (fp *Field) ObjectPlans() []*Selection {
	a := fp.Abs
	out := make([]*Selection, len(a.Info.Possible))
	if fp.Dynamic {
		fields := make([]*ast.Field, len(fp.Occ))
		for i, o := range fp.Occ {
			fields[i] = o.Field
		}
		p := fp.planner
		path, nodes := responsePath(fp), nodesKey(fields)
		for i, o := range a.Info.Possible {
			out[i] = p.sharedPlan(sharedPlanKey{path: path, obj: o, first: fields[0], rest: nodes}, fields, fp)
		}
		return out
	}
	for i := range out {
		out[i] = fp.ObjectPlan(i, nil, nil)
	}
	return out
}

// Batched reports whether some possible object's plan has batched
// fields: for a conditional field, whether some possible object has
// batched fields at all.
func (a *AbstractChild) Batched() bool {
	if a.Plans == nil {
		for _, o := range a.Info.Possible {
			if o.Batched {
				return true
			}
		}
		return false
	}
	for i := range a.Plans {
		if sp := a.Plans[i].Load(); sp != nil && sp.Batched {
			return true
		}
	}
	return false
}
