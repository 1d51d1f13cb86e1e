package validation

import "github.com/vektah/gqlparser/v2/ast"

// This file shortens, for the walk of the rules only, the list literals
// whose items no rule can find fault with. The walker visits every node of
// every literal and calls each rule that watches values on it: a 20 KB
// list of correct items cost a millisecond before the one faulty field
// after it was reported. trimValues takes such items out of their lists
// before the walk, and restore puts them back after it.
//
// Why the errors stay the same, message for message and in the same order:
//
//   - An item is taken out only when it is clean at its type (see scan):
//     no rule that watches values reports anything on it or inside it, and
//     it changes nothing the rules remember: it holds no variable (whose
//     use the walker records), and the places whose reports
//     ValuesOfCorrectType drops are variables and Int literals beyond 64
//     bits, which are not clean. The rules would have said nothing while
//     visiting it, and they visit everything else as before, in the same
//     order.
//   - Only items of lists at list types are taken out, never the fields of
//     input objects, which the rules count and compare, and nothing under a
//     custom scalar, whose parser sees the literal whole. A list keeps its
//     kind and its type, and the rules judge a list at a list type by its
//     items; what they read of the items of a list they look at is whether
//     ast.Value.Value reads them, which clean items do.
//   - The rules that print a literal read the items set aside
//     (trimmed.original): ValuesOfCorrectType (values.go), in its
//     messages, and OverlappingFieldsCanBeMerged, which compares
//     arguments. GqlkitLiteralValues prints custom scalar literals, inside
//     which nothing is taken out.
//   - The walker writes types into the nodes it visits; the rules read
//     those of other nodes only through ast.Value.Value, for variables,
//     which clean items lack. Nothing reads them after validation:
//     planning and execution read the literals only.

// trimmed is what trimValues set aside: lists[i] had the items items[i].
// The zero value set nothing aside.
type trimmed struct {
	types map[string]*ast.Definition
	lists []*ast.Value
	items []ast.ChildValueList
	stack []*ast.ChildValue // the items kept of the lists being scanned
	keep  []*ast.ChildValue // the items kept of shortened lists
	opens []*ast.Value      // the clean fields of the objects being scanned
	index map[*ast.Value]ast.ChildValueList
}

// trimValues takes out of doc's list literals the items no rule can find
// fault with; restore puts them back.
func (s *Validator) trimValues(doc *ast.QueryDocument) *trimmed {
	t := &trimmed{types: s.ast.Types}
	s.eachArgValue(doc, t.root) // what lies too deep is left whole
	return t
}

// restore puts back the items trimValues took out.
func (t *trimmed) restore() {
	for i, l := range t.lists {
		l.Children = t.items[i]
	}
	t.lists, t.items, t.index = nil, nil, nil
}

// original returns the items of the list literal v before trimValues.
func (t *trimmed) original(v *ast.Value) ast.ChildValueList {
	if t == nil || len(t.lists) == 0 {
		return v.Children
	}
	if t.index == nil {
		t.index = make(map[*ast.Value]ast.ChildValueList, len(t.lists))
		for i, l := range t.lists {
			t.index[l] = t.items[i]
		}
	}
	if items, ok := t.index[v]; ok {
		return items
	}
	return v.Children
}

// shorten makes list keep only items.
func (t *trimmed) shorten(list *ast.Value, items ast.ChildValueList) {
	t.lists = append(t.lists, list)
	t.items = append(t.items, list.Children)
	list.Children = items
}

// root trims inside v, an argument value or a default of type typ.
func (t *trimmed) root(v *ast.Value, typ *ast.Type) {
	if t.scan(v, typ, t.types[typ.Name()], 0) {
		t.open(v, 0)
	}
}

// scan looks at v, walked at type typ (named type def), takes out of the
// lists inside it their clean items, and reports whether v is clean: no
// rule finds fault with it or inside it. The caller then takes v out of
// its list, or opens it (see open).
func (t *trimmed) scan(v *ast.Value, typ *ast.Type, def *ast.Definition, depth int) bool {
	switch {
	case v == nil || depth > maxWalkDepth || v.Kind == ast.Variable:
		return false
	case v.Kind == ast.NullValue:
		return !typ.NonNull
	case v.Kind == ast.ListValue:
		// At a place of another type, ValuesOfCorrectType prints the list
		// whole and the walker gives its items no type: nothing is taken
		// out.
		return typ.Elem != nil && t.list(v, typ.Elem, def, depth)
	case v.Kind == ast.ObjectValue:
		// A single value at a list place stands for a list of one, of the
		// named type def.
		return t.object(v, def, depth)
	}
	return def != nil && cleanLeaf(v, def)
}

// list scans the items of v, a list at a list type whose items are of
// type elem (named type def), and takes out the clean ones unless all are:
// then v's parent takes v out, or opens it.
func (t *trimmed) list(v *ast.Value, elem *ast.Type, def *ast.Definition, depth int) bool {
	// The items to keep go on t.stack from the first clean one on: until
	// then, they are all the items so far.
	base, firstClean := len(t.stack), -1
	clean := true
	for i, ch := range v.Children {
		c := t.scan(ch.Value, elem, def, depth+1)
		switch {
		case c && firstClean < 0:
			firstClean = i
			t.stack = append(t.stack, v.Children[:i]...)
		case !c:
			clean = false
			if firstClean >= 0 {
				t.stack = append(t.stack, ch)
			}
		}
	}
	if !clean && firstClean >= 0 {
		start := len(t.keep)
		t.keep = append(t.keep, t.stack[base:]...)
		t.shorten(v, t.keep[start:len(t.keep):len(t.keep)])
	}
	t.stack = t.stack[:base]
	return clean
}

// object scans v, an object literal walked at the named type def. Its
// fields stay; inside them, it opens the clean values unless v itself is
// clean (its parent then takes it out, or opens it).
func (t *trimmed) object(v *ast.Value, def *ast.Definition, depth int) bool {
	if def == nil || def.Kind != ast.InputObject {
		return false // the walker gives its fields no type
	}
	base := len(t.opens)
	clean := len(v.Children) <= 64
	for i, ch := range v.Children {
		fd := def.Fields.ForName(ch.Name)
		switch {
		case fd == nil:
			clean = false
		case t.scan(ch.Value, fd.Type, t.types[fd.Type.Name()], depth+1):
			t.opens = append(t.opens, ch.Value)
		default:
			clean = false
		}
		if clean {
			for _, other := range v.Children[:i] {
				if other.Name == ch.Name {
					clean = false // UniqueInputFieldNames
				}
			}
		}
	}
	for _, fd := range def.Fields {
		if clean && fd.Type.NonNull && fd.DefaultValue == nil && v.Children.ForName(fd.Name) == nil {
			clean = false // ValuesOfCorrectType: a required field is missing
		}
	}
	if !clean {
		for _, o := range t.opens[base:] {
			t.open(o, depth+1)
		}
	}
	t.opens = t.opens[:base]
	return clean
}

// open takes out the items of the lists in v, a clean value that stays
// where it is: all of a list's items, and those of the lists in an input
// object's fields.
func (t *trimmed) open(v *ast.Value, depth int) {
	if depth > maxWalkDepth {
		return
	}
	switch v.Kind {
	case ast.ListValue:
		if len(v.Children) > 0 {
			t.shorten(v, nil)
		}
	case ast.ObjectValue:
		for _, ch := range v.Children {
			t.open(ch.Value, depth+1)
		}
	}
}

// cleanLeaf reports whether no rule finds fault with v, a literal that is
// neither a list nor an object, at the named type def.
func cleanLeaf(v *ast.Value, def *ast.Definition) bool {
	switch def.Kind {
	case ast.Scalar:
		return builtinLiteral(def.Name, v) // a custom scalar's literal is never clean
	case ast.Enum:
		return v.Kind == ast.EnumValue && def.EnumValues.ForName(v.Raw) != nil
	}
	return false
}
