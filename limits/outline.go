package limits

// This file holds the part of [Config.Scan] that follows the selection
// sets of the raw text, token by token, to bound the depth and node count
// that [Config.CheckDocument] will find once the text is parsed.
//
// # What is counted
//
// For each top-level definition (an operation or a fragment definition)
// the outline counts the fields written in its selection sets, nested ones
// included, and the depth of each such field: the number of fields whose
// selection sets enclose it, plus one. Inline fragments add no depth; the
// definition's own selection set is where depth 1 starts. A field named
// __schema or __type, and every field below it, adds no depth but counts
// as a field, as in CheckDocument. Fragment spreads count nothing: the
// outline never looks a fragment up.
//
// Which Name token is a field follows gqlparser's grammar (parser/query.go
// of v2.5.64) for executable documents:
//
//   - Inside parentheses there are only arguments and variable
//     definitions, whose values hold every { and [ a document can have
//     outside selection sets; nothing there is a field.
//   - Before a definition's first {, every token belongs to its header
//     (query Name, fragment F on T, directives): nothing is a field.
//   - In a selection set, a selection is a field (Name, or Name : Name for
//     an alias, then arguments, directives and a selection set, each
//     optional), a spread (... Name then directives) or an inline fragment
//     (... then on Name or nothing, directives, and a selection set). The
//     Name after @ is a directive's. gqlparser takes any token whose value
//     is "on" after ... as the keyword, so a string there ("on", """on""")
//     is read as on too; no other string can follow ... in a document that
//     parses.
//
// The field is placed at its first Name, the alias if there is one, which
// is where gqlparser places an ast.Field; its name, which decides whether
// it roots an introspection sub-tree, is the Name after the colon.
//
// # Why the counts are lower bounds
//
// For a document that gqlparser parses, the outline reads exactly the
// fields of the AST, with the depth walker.walk gives them when it walks
// their definition from the top (the fuzz target FuzzScanBounds checks that
// the counts are equal for documents without fragments). What remains is to
// show that every definition's counts reach the DocStats of CheckDocument.
//
// Nodes. CheckDocument walks every operation, adding one node per field
// written in it, so an operation's written fields are at most its node
// count. A fragment definition is either expanded or not. If it is, its
// whole selection set is walked once (a spread that re-enters it during
// that walk counts nothing, but the walk itself goes on), giving a node
// count of at least its written fields, and that count is added to the
// tally of the walk that spread it, which is an operation's, an unused
// fragment's, or another fragment's expansion, itself added to the walk
// that spread that one, and so on up to a checked operation or unused
// fragment. Nodes are added whether or not the spread sits in an
// introspection sub-tree, and additions saturate but never decrease. If it
// is not expanded (no walk spread it, or another definition of the same
// name is the one spreads find), CheckDocument checks it as if it were an
// operation. Either way some checked definition has at least as many nodes
// as the fragment has written fields. Unknown fragments and cycles only
// make a spread count nothing, which the outline never counted.
//
// Depth. An operation's written depth is at most its depth, as above. A
// fragment's depth is measured from its own top and added to the depth of
// each spread, like its nodes, except at a spread inside an introspection
// sub-tree, where it is dropped. So a fragment's written depth is a lower
// bound only if no spread of it, direct or through other fragments, sits in
// such a sub-tree. The outline therefore remembers whether any spread of
// the document is written inside an introspection sub-tree; when none is,
// no walk is ever in one at a spread, and the argument for nodes holds for
// depth too. When one is (the standard introspection query spreads its
// fragments under __schema), fragment depths are left out, and a fragment
// deeper than MaxDepth is left to CheckDocument.
//
// So if Scan rejects a document that parses for depth or nodes, that
// document has an operation or unused fragment over the same maximum, and
// CheckDocument, which checks them all until one crosses a limit, rejects
// it too.
//
// # When the counts are reported
//
// A definition's counts are reported when its selection set closes, as
// CheckDocument reports an operation's once it is measured: depth before
// nodes, each found for the whole definition and placed at its first
// field over the maximum. For a document without fragments this is
// exactly CheckDocument's error. A fragment too deep is reported only once
// the whole text is read, since a later spread can still drop its depth.

// trackedLevels is the number of nested selection sets whose kind the
// outline remembers. gqlparser fails any document nested deeper than 1000
// levels (parser.MaxNestingDepth), selection sets included, so this is
// only reached by text that does not parse; past it the outline stops
// counting depth for the rest of the definition, which keeps the count a
// lower bound whatever the parser accepts.
const trackedLevels = 1024

// token is the kind of a lexical token, as far as the outline needs it.
type token uint8

const (
	tokOther  token = iota // anything else: numbers, ! = [ ] & |, stray characters
	tokName                // a name
	tokString              // a string or block string
	tokBraceL              // {
	tokBraceR              // }
	tokParenL              // (
	tokParenR              // )
	tokColon               // :
	tokAt                  // @
	tokSpread              // ...
	tokDollar              // $
)

// Where the outline is in the grammar, outside parentheses.
const (
	atTop       uint8 = iota // between definitions
	atHeader                 // in a definition, before its selection set
	atSelection              // in a selection set, between tokens of selections
	atFieldName              // after a field's first name: an alias if : follows
	atAlias                  // after alias :, before the field's name
	atSpread                 // after ...
	atTypeCond               // after ... on, before the type
	atDirective              // after @, before the directive's name
)

// What the previous selection was, which decides what a { opens.
const (
	afterNone   uint8 = iota // nothing that takes a selection set
	afterField               // a field: { opens its selection set
	afterInline              // an inline fragment's head: { opens its selection set
)

// crossing is a depth or node limit crossed: the limit, the value found
// and the offset of the first field over the maximum. The zero crossing
// is none.
type crossing struct {
	limit Name
	found int
	at    int
}

// outline follows the selection sets of a text and bounds its depth and
// node count; see the comment at the top of this file.
type outline struct {
	q                  string
	maxDepth, maxNodes int

	parens int   // parentheses open; inside them nothing is a selection
	state  uint8 // at…
	after  uint8 // after…

	// The definition being read.
	fragment bool // it is a fragment definition
	level    int  // selection sets open in it
	depth    int  // depth of the fields directly in the innermost set
	// exemptFrom is the level of the outermost selection set of an
	// introspection field, or 0 when the innermost set is not in one.
	exemptFrom int
	// untracked is set when the sets nest deeper than trackedLevels; depth
	// is not counted again in the definition.
	untracked bool
	// addsDepth has bit l-1 set when the selection set at level l is a
	// field's that added one to depth.
	addsDepth [trackedLevels / 64]uint64
	defDepth  int // its deepest field so far
	// depthAt is the offset of its first field over maxDepth, nodesAt that
	// of its field that took the document's fields over maxNodes; or -1.
	depthAt, nodesAt int

	// The field being read: where its first name starts and ends, and,
	// once read, whether it roots an introspection sub-tree.
	fieldAt, fieldEnd int
	introspection     bool

	// The document so far.
	fields    int // fields written in it, in every definition
	opDepth   int // deepest field of an operation
	fragDepth int // deepest field of a fragment definition
	// fragTooDeep is the first fragment definition too deep.
	fragTooDeep crossing
	// crossed is the limit crossed by the last definition read.
	crossed crossing
	// exemptSpread is set once a fragment spread is written inside an
	// introspection sub-tree (or where the outline lost track): fragment
	// depths are then no lower bound.
	exemptSpread bool

	vars variables
}

func newOutline(q string, maxDepth, maxNodes int) outline {
	return outline{q: q, maxDepth: maxDepth, maxNodes: maxNodes, depthAt: -1, nodesAt: -1}
}

// next reads the token q[start:end] of the given kind, which is not a
// comment. It reports whether the token ends a definition that crosses a
// limit, which is then o.crossed.
func (o *outline) next(kind token, start, end int) bool {
	o.variable(kind, start, end)
	if o.parens > 0 {
		switch kind {
		case tokParenL:
			o.parens++
		case tokParenR:
			o.parens--
		}
		return false
	}

	// Finish what the previous tokens started; return when this token is
	// part of it.
	switch o.state {
	case atFieldName:
		if kind == tokColon {
			o.state = atAlias
			return false
		}
		o.field(o.fieldAt, o.fieldEnd)
	case atAlias:
		if kind == tokName {
			o.field(start, end)
			return false
		}
		o.field(o.fieldAt, o.fieldEnd)
	case atSpread:
		o.state, o.after = atSelection, afterInline
		switch {
		case kind == tokName && o.q[start:end] != "on":
			// A fragment spread.
			o.after = afterNone
			if o.exemptFrom > 0 || o.untracked {
				o.exemptSpread = true
			}
			return false
		case kind == tokName || kind == tokString:
			o.state = atTypeCond
			return false
		}
	case atTypeCond:
		o.state = atSelection
		if kind == tokName {
			return false
		}
	case atDirective:
		o.state = atSelection
		if kind == tokName {
			return false
		}
	}

	switch kind {
	case tokParenL:
		o.parens++
	case tokBraceL:
		o.open()
	case tokBraceR:
		return o.close()
	case tokName:
		switch o.state {
		case atTop:
			o.fragment = o.q[start:end] == "fragment"
			o.state = atHeader
		case atSelection:
			o.state, o.fieldAt, o.fieldEnd = atFieldName, start, end
		}
	case tokSpread:
		if o.state == atSelection {
			o.state = atSpread
		}
	case tokAt:
		if o.state == atSelection {
			o.state = atDirective
		}
	}
	return false
}

// finish ends the text and returns the limit crossed by what remains: a
// field or a definition the text leaves open (only in text that does not
// parse), or a fragment definition too deep.
func (o *outline) finish() crossing {
	if o.parens == 0 && (o.state == atFieldName || o.state == atAlias) {
		o.field(o.fieldAt, o.fieldEnd)
	}
	if o.level > 0 && o.endDefinition() {
		return o.crossed
	}
	if !o.exemptSpread {
		return o.fragTooDeep
	}
	return crossing{}
}

// field counts the field that starts at fieldAt and is named
// q[nameStart:nameEnd].
func (o *outline) field(nameStart, nameEnd int) {
	o.state, o.after = atSelection, afterField
	o.fields++
	if o.fields > o.maxNodes && o.nodesAt < 0 {
		o.nodesAt = o.fieldAt
	}
	o.introspection = isIntrospection(o.q[nameStart:nameEnd])
	if o.exemptFrom > 0 || o.introspection || o.untracked {
		return
	}
	depth := o.depth + 1
	if depth > o.defDepth {
		o.defDepth = depth
		if depth > o.maxDepth && o.depthAt < 0 {
			o.depthAt = o.fieldAt
		}
	}
	if o.fragment {
		o.fragDepth = max(o.fragDepth, depth)
	} else {
		o.opDepth = max(o.opDepth, depth)
	}
}

// open reads a {: a definition's selection set, a field's or an inline
// fragment's.
func (o *outline) open() {
	if o.level == 0 {
		o.state, o.after, o.level = atSelection, afterNone, 1
		o.addsDepth[0] &^= 1
		return
	}
	fieldSet := o.after == afterField
	o.after = afterNone
	o.level++
	if o.level > trackedLevels {
		o.untracked = true
		return
	}
	word, bit := levelBit(o.level)
	o.addsDepth[word] &^= bit
	switch {
	case !fieldSet || o.exemptFrom > 0:
	case o.introspection:
		o.exemptFrom = o.level
	default:
		o.addsDepth[word] |= bit
		o.depth++
	}
}

// levelBit locates the bit of addsDepth for level, from 1 to trackedLevels.
func levelBit(level int) (word int, bit uint64) {
	l := uint(level - 1)
	return int(l / 64), 1 << (l % 64)
}

// close reads a }, which may end the definition; it reports whether the
// definition crosses a limit.
func (o *outline) close() bool {
	o.after = afterNone
	if o.level == 0 {
		return false // not GraphQL; the parser rejects it
	}
	if o.level <= trackedLevels {
		if word, bit := levelBit(o.level); o.addsDepth[word]&bit != 0 {
			o.depth--
		}
		if o.level == o.exemptFrom {
			o.exemptFrom = 0
		}
	}
	o.level--
	if o.level > 0 {
		return false
	}
	return o.endDefinition()
}

// endDefinition ends the definition being read and reports whether it
// crosses a limit, which it sets in o.crossed: depth before nodes, as
// CheckDocument checks them. A fragment too deep is only remembered.
func (o *outline) endDefinition() bool {
	var c crossing
	switch {
	case o.depthAt < 0:
	case !o.fragment:
		c = crossing{limit: Depth, found: o.defDepth, at: o.depthAt}
	case o.fragTooDeep.limit == "":
		o.fragTooDeep = crossing{limit: Depth, found: o.defDepth, at: o.depthAt}
	}
	if c.limit == "" && o.nodesAt >= 0 {
		c = crossing{limit: Nodes, found: o.fields, at: o.nodesAt}
	}
	o.crossed = c
	o.state, o.fragment, o.level, o.depth, o.exemptFrom, o.untracked = atTop, false, 0, 0, 0, false
	o.defDepth, o.depthAt, o.nodesAt = 0, -1, -1
	return c.limit != ""
}

// depthBound returns the depth the document is known to reach: that of
// its operations, and of its fragment definitions unless a spread in an
// introspection sub-tree may drop theirs.
func (o *outline) depthBound() int {
	if o.exemptSpread {
		return o.opDepth
	}
	return max(o.opDepth, o.fragDepth)
}

// inlineVariables is the number of variables an operation may declare
// before the outline allocates a map to look them up.
const inlineVariables = 32

// variables follows the variables of the operations of a text: those the
// header of the operation being read declares and the first reference, in
// the body of any operation, to one not declared.
//
// In gqlparser's grammar an operation's header is its keyword, its name,
// its variable definitions in parentheses and its directives, before its
// selection set. Every $ Name inside the variable definitions is a
// declaration: default values and directives there are constant and
// cannot refer to variables. Every other $ Name of an operation, in the
// arguments of its directives, fields and their directives, is a
// reference. A $ and its name are two tokens, which white space and
// comments may separate; strings and comments are never tokens here.
type variables struct {
	dollar  int  // one past the offset of the $ just read, or 0
	header  int  // tokens read in the header of the operation
	afterAt int  // 1 after @ in the header, 2 after @ Name, else 0
	inDefs  bool // inside the variable definitions
	// opStart and opEnd delimit the operation's name, if any.
	opStart, opEnd int
	// declared holds the first inlineVariables variables the operation
	// declares, as offsets of their names; overflow holds the others.
	n        int
	declared [inlineVariables][2]int
	overflow map[string]struct{}
	// undefined is the first reference to an undeclared variable, zero
	// while there is none.
	undefined undefinedRef
}

// undefinedRef is the place of a reference to an undeclared variable: the
// $, the name and the operation's name.
type undefinedRef struct {
	at, nameStart, nameEnd, opStart, opEnd int
}

// variable reads the token q[start:end] for the variables of operations;
// it runs before the rest of next, which it leaves unchanged.
func (o *outline) variable(kind token, start, end int) {
	v := &o.vars
	if o.parens == 0 && o.state == atTop && (kind == tokName || kind == tokBraceL) {
		// A new definition: an operation declares nothing until its
		// variable definitions.
		v.n, v.header, v.afterAt, v.inDefs, v.opStart, v.opEnd = 0, 0, 0, false, 0, 0
		if v.overflow != nil {
			clear(v.overflow)
		}
		return
	}
	if o.fragment || o.state == atTop {
		v.dollar = 0
		return
	}
	if o.state == atHeader && o.parens == 0 {
		v.header++
		switch {
		case v.header == 1 && kind == tokName:
			v.opStart, v.opEnd = start, end
		case kind == tokAt:
			v.afterAt = 1
			return
		case kind == tokName && v.afterAt == 1:
			v.afterAt = 2
			return
		case kind == tokParenL:
			v.inDefs = v.afterAt != 2
		}
		v.afterAt = 0
	}
	if v.inDefs && o.parens == 1 && kind == tokParenR {
		v.inDefs = false
	}
	if kind == tokDollar {
		v.dollar = start + 1
		return
	}
	at := v.dollar - 1
	v.dollar = 0
	if at < 0 || kind != tokName {
		return
	}
	if v.inDefs {
		v.declare(o.q, start, end)
	} else if v.undefined.nameEnd == 0 && !v.isDeclared(o.q, o.q[start:end]) {
		v.undefined = undefinedRef{at: at, nameStart: start, nameEnd: end, opStart: v.opStart, opEnd: v.opEnd}
	}
}

// declare adds the variable named q[start:end] to the operation's.
func (v *variables) declare(q string, start, end int) {
	if v.n < inlineVariables {
		v.declared[v.n] = [2]int{start, end}
		v.n++
		return
	}
	if v.overflow == nil {
		v.overflow = make(map[string]struct{})
	}
	v.overflow[q[start:end]] = struct{}{}
}

// isDeclared reports whether the operation declares the variable name.
func (v *variables) isDeclared(q, name string) bool {
	for _, d := range v.declared[:v.n] {
		if q[d[0]:d[1]] == name {
			return true
		}
	}
	_, ok := v.overflow[name]
	return ok
}
