package validation

import (
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// This file replaces gqlparser's OverlappingFieldsCanBeMerged rule, whose
// cost grows with the square of the fields sharing a response key and which
// reports every conflicting pair without limit: 3 KB of aliases kept it busy
// for a tenth of a second. The rule here follows graphql-js's
// (fields that share a response key must be the same field with the same
// arguments and compatible types, recursively through their sub-selections),
// but never compares two identical fields (same name, arguments, parent
// type and sub-selection), and stops after maxOverlapErrors conflicts.
//
// Termination: every pair of field nodes is compared at most once (pairs
// memo). A pair met again while its own comparison is still under way can
// only be reached through a fragment cycle (NoFragmentCycles reports it);
// it adds nothing new on that lap and counts as no conflict, as graphql-js's
// memo of compared fragment pairs does. The document is finite, so the walk
// is too, whatever its fragments spread.

const (
	maxOverlapErrors = 100
	// maxOverlapComparisons bounds the pairs of distinct fields compared in
	// one document; only documents far beyond the kit's node limit reach it.
	maxOverlapComparisons = 1 << 20
)

// overlapRule returns the rule for one run of the rules: it compares the
// list items set aside for the walk too. It checks the whole document when
// the walker leaves the first operation or fragment.
func overlapRule(run ruleRun) core.RuleFunc {
	return func(observers *core.Events, addError core.AddErrFunc) {
		done := false
		check := func(w *core.Walker) {
			if done {
				return
			}
			done = true
			c := &overlapChecker{schema: w.Schema, doc: w.Document, trimmed: run.trimmed, addError: addError,
				errors: maxOverlapErrors, comparisons: maxOverlapComparisons, shapes: map[*ast.Field]string{}, sigs: map[*ast.Field]string{},
				pairs: map[pairKey]*conflict{}, reported: map[fieldPair]bool{}}
			c.checkDocument()
		}
		observers.OnOperation(func(w *core.Walker, _ *ast.OperationDefinition) { check(w) })
		observers.OnFragment(func(w *core.Walker, _ *ast.FragmentDefinition) { check(w) })
	}
}

type overlapChecker struct {
	schema      *ast.Schema
	doc         *ast.QueryDocument
	trimmed     *trimmed // list items set aside during the walk
	addError    core.AddErrFunc
	errors      int // conflicts still to report
	comparisons int // pair comparisons still allowed
	shapes      map[*ast.Field]string
	sigs        map[*ast.Field]string
	fragments   FragmentIndex
	// pairs memoises the comparison of two field nodes: its conflict, nil
	// for none or while the comparison is under way. reported holds the
	// pairs already reported, so that a conflict found again from another
	// selection set (the other field first) is reported once.
	pairs    map[pairKey]*conflict
	reported map[fieldPair]bool
}

// fieldPair is two field nodes in a canonical order.
type fieldPair struct{ a, b *ast.Field }

// pairKey is a comparison of two field nodes: under parents that are
// known to be different object types (exclusive) only their types must
// agree, so the same pair compares differently (graphql-js's PairSet).
type pairKey struct {
	pair      fieldPair
	exclusive bool
}

func pairOf(a, b *ast.Field) fieldPair {
	if fieldBefore(b, a) {
		a, b = b, a
	}
	return fieldPair{a, b}
}

// fieldBefore orders field nodes by their place in the document.
func fieldBefore(a, b *ast.Field) bool {
	pa, pb := a.Position, b.Position
	switch {
	case pa == nil || pb == nil:
		return pa == nil && pb != nil
	case pa.Line != pb.Line:
		return pa.Line < pb.Line
	case pa.Column != pb.Column:
		return pa.Column < pb.Column
	}
	return pa.Start < pb.Start
}

// ofield is a field found in a selection set, with its parent type.
type ofield struct {
	node   *ast.Field
	parent *ast.Definition      // nil when unknown
	def    *ast.FieldDefinition // nil when unknown
}

// conflict is a reason two fields cannot be merged.
type conflict struct {
	key     string
	reason  string
	subs    []*conflict
	fields1 []*ast.Field
	fields2 []*ast.Field
}

func (c *overlapChecker) exhausted() bool { return c.errors <= 0 || c.comparisons <= 0 }

func (c *overlapChecker) checkDocument() {
	for _, op := range c.doc.Operations {
		var root *ast.Definition
		switch op.Operation {
		case ast.Query:
			root = c.schema.Query
		case ast.Mutation:
			root = c.schema.Mutation
		case ast.Subscription:
			root = c.schema.Subscription
		}
		c.visit(op.SelectionSet, root)
	}
	for _, f := range c.doc.Fragments {
		c.visit(f.SelectionSet, c.schema.Types[f.TypeCondition])
	}
}

// visit checks a selection set and every selection set below it.
func (c *overlapChecker) visit(set ast.SelectionSet, parent *ast.Definition) {
	if len(set) == 0 || c.exhausted() {
		return
	}
	c.checkWithin(set, parent)
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			c.visit(x.SelectionSet, c.returnDef(parent, x.Name))
		case *ast.InlineFragment:
			t := parent
			if x.TypeCondition != "" {
				t = c.schema.Types[x.TypeCondition]
			}
			c.visit(x.SelectionSet, t)
		}
	}
}

// fieldDef returns the definition of field name of parent, nil when
// there is none. As in graphql-js's OverlappingFieldsCanBeMerged, the
// meta-field __typename has none (it is not among the type's fields), so
// its type is compared with no other: aliased under one object and a
// nullable String field under another (parents that exclude each
// other), it does not conflict.
func (c *overlapChecker) fieldDef(parent *ast.Definition, name string) *ast.FieldDefinition {
	if parent == nil || name == "__typename" {
		return nil
	}
	return parent.Fields.ForName(name)
}

func (c *overlapChecker) returnDef(parent *ast.Definition, name string) *ast.Definition {
	if d := c.fieldDef(parent, name); d != nil {
		return c.schema.Types[d.Type.Name()]
	}
	return nil
}

// collect lists the fields of a selection set by response key, in order,
// following fragments (each once) and inline fragments.
func (c *overlapChecker) collect(set ast.SelectionSet, parent *ast.Definition) (keys []string, byKey map[string][]ofield) {
	byKey = map[string][]ofield{}
	seen := map[string]bool{}
	var walk func(set ast.SelectionSet, parent *ast.Definition)
	walk = func(set ast.SelectionSet, parent *ast.Definition) {
		for _, sel := range set {
			switch x := sel.(type) {
			case *ast.Field:
				key := ResponseKey(x)
				if _, ok := byKey[key]; !ok {
					keys = append(keys, key)
				}
				dup := false
				for _, f := range byKey[key] {
					if f.node == x {
						dup = true
						break
					}
				}
				if !dup {
					byKey[key] = append(byKey[key], ofield{node: x, parent: parent, def: c.fieldDef(parent, x.Name)})
				}
			case *ast.InlineFragment:
				t := parent
				if x.TypeCondition != "" {
					t = c.schema.Types[x.TypeCondition]
				}
				walk(x.SelectionSet, t)
			case *ast.FragmentSpread:
				if seen[x.Name] {
					continue
				}
				seen[x.Name] = true
				if frag := c.fragments.Get(c.doc, x.Name); frag != nil {
					walk(frag.SelectionSet, c.schema.Types[frag.TypeCondition])
				}
			}
		}
	}
	walk(set, parent)
	return keys, byKey
}

// checkWithin reports the conflicts between fields of one selection set.
func (c *overlapChecker) checkWithin(set ast.SelectionSet, parent *ast.Definition) {
	keys, byKey := c.collect(set, parent)
	for _, key := range keys {
		fields := byKey[key]
		class := c.classes(fields, nil)
		for i := 0; i < len(fields) && !c.exhausted(); i++ {
			for j := i + 1; j < len(fields) && !c.exhausted(); j++ {
				if class[i] == class[j] {
					continue // the same field, arguments and sub-selection
				}
				if cf := c.findConflict(key, fields[i], fields[j], false); cf != nil {
					c.report(pairOf(fields[i].node, fields[j].node), cf)
				}
			}
		}
	}
}

// findConflict compares two fields with the same response key, once per
// pair of nodes.
func (c *overlapChecker) findConflict(key string, a, b ofield, exclusive bool) *conflict {
	if a.node == b.node || c.sig(a) == c.sig(b) && (len(a.node.SelectionSet) == 0 || c.shape(a.node) == c.shape(b.node)) {
		return nil // the same field, arguments and sub-selection: nothing to compare
	}
	p := pairKey{fieldPair{a.node, b.node}, exclusive}
	if cf, seen := c.pairs[p]; seen {
		return cf // nil while under way: a fragment cycle closed here
	}
	c.pairs[p] = nil
	cf := c.compare(key, a, b, exclusive)
	c.pairs[p] = cf
	return cf
}

func (c *overlapChecker) compare(key string, a, b ofield, exclusive bool) *conflict {
	c.comparisons--
	exclusive = exclusive || a.parent != nil && b.parent != nil && a.parent != b.parent &&
		a.parent.Kind == ast.Object && b.parent.Kind == ast.Object
	if !exclusive {
		if a.node.Name != b.node.Name {
			return &conflict{key: key, reason: `"` + a.node.Name + `" and "` + b.node.Name + `" are different fields`,
				fields1: []*ast.Field{a.node}, fields2: []*ast.Field{b.node}}
		}
		if c.argumentsKey(a.node.Arguments) != c.argumentsKey(b.node.Arguments) {
			return &conflict{key: key, reason: "they have differing arguments",
				fields1: []*ast.Field{a.node}, fields2: []*ast.Field{b.node}}
		}
	}
	if a.def != nil && b.def != nil && c.typesConflict(a.def.Type, b.def.Type) {
		return &conflict{key: key, reason: `they return conflicting types "` + a.def.Type.String() + `" and "` + b.def.Type.String() + `"`,
			fields1: []*ast.Field{a.node}, fields2: []*ast.Field{b.node}}
	}
	if len(a.node.SelectionSet) > 0 && len(b.node.SelectionSet) > 0 {
		subs := c.between(a.node.SelectionSet, c.returnDef(a.parent, a.node.Name), b.node.SelectionSet, c.returnDef(b.parent, b.node.Name), exclusive)
		if len(subs) > 0 {
			cf := &conflict{key: key, subs: subs, fields1: []*ast.Field{a.node}, fields2: []*ast.Field{b.node}}
			for _, s := range subs {
				cf.fields1 = append(cf.fields1, s.fields1...)
				cf.fields2 = append(cf.fields2, s.fields2...)
			}
			return cf
		}
	}
	return nil
}

// between finds the conflicts between the fields of two sub-selections.
func (c *overlapChecker) between(set1 ast.SelectionSet, parent1 *ast.Definition, set2 ast.SelectionSet, parent2 *ast.Definition, exclusive bool) []*conflict {
	keys1, by1 := c.collect(set1, parent1)
	_, by2 := c.collect(set2, parent2)
	var out []*conflict
	for _, key := range keys1 {
		side1, side2 := by1[key], by2[key]
		if len(side2) == 0 {
			continue
		}
		class := c.classes(side1, side2)
		for i, a := range side1 {
			for j, b := range side2 {
				if class[i] == class[len(side1)+j] {
					continue
				}
				if c.comparisons <= 0 {
					return out
				}
				if cf := c.findConflict(key, a, b, exclusive); cf != nil {
					out = append(out, cf)
				}
			}
		}
	}
	return out
}

// classes numbers the fields of a and then b so that fields with the same
// number are the same field, with the same arguments and the same
// sub-selection: such a pair never conflicts, and is not compared. A
// thousand copies of one field thus cost a thousand signatures, not half a
// million comparisons.
func (c *overlapChecker) classes(a, b []ofield) []int {
	out := make([]int, 0, len(a)+len(b))
	if len(a)+len(b) < 2 {
		return out[:len(a)+len(b)] // nothing to tell apart
	}
	ids := make(map[string]int, len(a)+len(b))
	for _, side := range [2][]ofield{a, b} {
		for _, f := range side {
			key := c.sig(f)
			if len(f.node.SelectionSet) > 0 {
				key += "\x00" + c.shape(f.node)
			}
			id, ok := ids[key]
			if !ok {
				id = len(ids)
				ids[key] = id
			}
			out = append(out, id)
		}
	}
	return out
}

// sig is a field's name, arguments and parent type, printed once and only
// for fields that share a response key with another (a document's one
// field with a 20 KB argument is never printed).
func (c *overlapChecker) sig(f ofield) string {
	if s, ok := c.sigs[f.node]; ok {
		return s
	}
	parentName := ""
	if f.parent != nil {
		parentName = f.parent.Name
	}
	s := f.node.Name + "(" + c.argumentsKey(f.node.Arguments) + ")@" + parentName
	c.sigs[f.node] = s
	return s
}

// shape is the printed sub-selection of a field, to tell identical ones.
func (c *overlapChecker) shape(f *ast.Field) string {
	if s, ok := c.shapes[f]; ok {
		return s
	}
	var b strings.Builder
	c.writeSelection(&b, f.SelectionSet, 0)
	s := b.String()
	c.shapes[f] = s
	return s
}

func (c *overlapChecker) writeSelection(b *strings.Builder, set ast.SelectionSet, depth int) {
	if depth > 64 {
		b.WriteString("…")
		return
	}
	b.WriteByte('{')
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			b.WriteString(x.Alias + ":" + x.Name + "(" + c.argumentsKey(x.Arguments) + ")")
			c.writeDirectives(b, x.Directives)
			if len(x.SelectionSet) > 0 {
				c.writeSelection(b, x.SelectionSet, depth+1)
			}
		case *ast.FragmentSpread:
			b.WriteString("..." + x.Name)
			c.writeDirectives(b, x.Directives)
		case *ast.InlineFragment:
			b.WriteString("... on " + x.TypeCondition)
			c.writeDirectives(b, x.Directives)
			c.writeSelection(b, x.SelectionSet, depth+1)
		}
		b.WriteByte(' ')
	}
	b.WriteByte('}')
}

func (c *overlapChecker) writeDirectives(b *strings.Builder, ds ast.DirectiveList) {
	for _, d := range ds {
		b.WriteString("@" + d.Name + "(" + c.argumentsKey(d.Arguments) + ")")
	}
}

// argumentsKey prints arguments in a canonical form: sorted by name, object
// fields sorted, so that equal arguments print equal. Lists print with the
// items trimValues set aside.
func (c *overlapChecker) argumentsKey(args ast.ArgumentList) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, len(args))
	for i, a := range args {
		var b strings.Builder
		b.WriteString(a.Name + ":")
		c.writeCanonical(&b, a.Value)
		parts[i] = b.String()
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func (c *overlapChecker) writeCanonical(b *strings.Builder, v *ast.Value) {
	if v == nil {
		return
	}
	switch v.Kind {
	case ast.ObjectValue:
		children := make([]*ast.ChildValue, len(v.Children))
		copy(children, v.Children)
		sort.SliceStable(children, func(i, j int) bool { return children[i].Name < children[j].Name })
		b.WriteByte('{')
		for i, ch := range children {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(ch.Name + ":")
			c.writeCanonical(b, ch.Value)
		}
		b.WriteByte('}')
	case ast.ListValue:
		b.WriteByte('[')
		for i, ch := range c.trimmed.original(v) {
			if i > 0 {
				b.WriteByte(',')
			}
			c.writeCanonical(b, ch.Value)
		}
		b.WriteByte(']')
	default:
		syntax.WriteValue(b, v)
	}
}

// typesConflict follows graphql-js's doTypesConflict.
func (c *overlapChecker) typesConflict(a, b *ast.Type) bool {
	aList := !a.NonNull && a.Elem != nil
	bList := !b.NonNull && b.Elem != nil
	switch {
	case aList:
		return !bList || c.typesConflict(a.Elem, b.Elem)
	case bList:
		return true
	case a.NonNull:
		if !b.NonNull {
			return true
		}
		na, nb := *a, *b
		na.NonNull, nb.NonNull = false, false
		return c.typesConflict(&na, &nb)
	case b.NonNull:
		return true
	}
	return a.NamedType != b.NamedType && (c.isLeaf(a.NamedType) || c.isLeaf(b.NamedType))
}

// isLeaf reports a scalar or enum; an unknown type counts as one.
func (c *overlapChecker) isLeaf(name string) bool {
	d := c.schema.Types[name]
	return d == nil || d.IsLeafType()
}

func (c *overlapChecker) report(p fieldPair, cf *conflict) {
	if c.reported[p] {
		return
	}
	c.reported[p] = true
	c.errors--
	var locs []gqlerror.Location
	for _, f := range append(append([]*ast.Field{}, cf.fields1...), cf.fields2...) {
		if f.Position != nil {
			locs = append(locs, gqlerror.Location{Line: f.Position.Line, Column: f.Position.Column})
		}
	}
	msg := `Fields "` + cf.key + `" conflict because ` + reasonText(cf) + ". Use different aliases on the fields to fetch both if this was intentional."
	c.addError(core.Message("%s", msg), func(e *gqlerror.Error) { e.Locations = append(e.Locations, locs...) })
}

func reasonText(cf *conflict) string {
	if len(cf.subs) == 0 {
		return cf.reason
	}
	parts := make([]string, len(cf.subs))
	for i, s := range cf.subs {
		parts[i] = `subfields "` + s.key + `" conflict because ` + reasonText(s)
	}
	return strings.Join(parts, " and ")
}
