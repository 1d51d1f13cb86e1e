package graphql

import (
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/vektah/gqlparser/v2/ast"
)

// This file is the fast path of [ParseQuery]. gqlparser's parser allocates
// a position, a closure or a slice for almost every token (a 20,000-token
// document made 60,000 allocations). quickParse reads the common subset of
// the language into the very same AST, node for node and position for
// position, with its nodes taken from a few slabs. On anything outside the
// subset (comments, descriptions, escapes and block strings, non-ASCII
// outside strings, a number run into a name, nesting past gqlparser's
// bound, more tokens than the limit) or any syntax error it gives up, and
// gqlparser parses the text: its errors and their positions stay exactly as
// they were. FuzzQuickParse checks that whatever quickParse returns is
// deeply equal to gqlparser's document.

// quickNesting is gqlparser's parser.MaxNestingDepth: deeper documents are
// left to gqlparser, which reports them.
const quickNesting = 1000

type quickParser struct {
	src   *ast.Source
	in    string
	pos   int // byte offset of the next unread byte
	runes int // rune offset of pos
	line  int
	// lineStart is the rune offset where the current line starts.
	lineStart int

	// the current token
	kind  byte // one of the tok* constants
	val   string
	tpos  ast.Position
	count int // tokens consumed
	max   int // 0: no limit
	depth int
	bad   bool

	positions slab[ast.Position]
	fields    slab[ast.Field]
	values    slab[ast.Value]
	children  slab[ast.ChildValue]
	items     slab[listItem]
	args      slab[ast.Argument]
	// stack holds the children of the lists and objects being read, so
	// that each gets a slice of its exact length.
	stack []*ast.ChildValue
	sels  []ast.Selection // the same for selection sets
}

// Token kinds: punctuators are themselves.
const (
	tokEOF    = 0
	tokName   = 'a'
	tokInt    = '1'
	tokFloat  = '.'
	tokString = '"'
	tokSpread = '*'
)

// slab hands out pointers into chunks of T, allocated a chunk at a time:
// small chunks first, growing to about 16 KB (kept below the size where Go
// allocates a span of its own, which must be zeroed and given back).
type slab[T any] struct{ buf []T }

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		var zero T
		n := min(max(2*cap(s.buf), 8), max(16<<10/int(unsafe.Sizeof(zero)), 1))
		s.buf = make([]T, 0, n)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// listItem is an item of a list value, allocated as one.
type listItem struct {
	ch  ast.ChildValue
	v   ast.Value
	pos ast.Position
}

// parseScratch is a parser's working space: the stacks of children and
// selections being read. Nothing of the document points into it, so it is
// reused from parse to parse (a list of 10,000 items grew it, a copy at a
// time, by 300 KB on every parse).
type parseScratch struct {
	stack []*ast.ChildValue
	sels  []ast.Selection
}

var parseScratches = sync.Pool{New: func() any { return new(parseScratch) }}

// quickParse parses query as gqlparser would, or returns nil when it leaves
// the document to gqlparser.
func quickParse(query string, maxTokens int) *ast.QueryDocument {
	scratch := parseScratches.Get().(*parseScratch)
	p := &quickParser{src: &ast.Source{Input: query}, in: query, line: 1, max: maxTokens,
		stack: scratch.stack, sels: scratch.sels}
	defer func() {
		// A failed parse leaves its partial stacks behind: clear them so
		// the pool holds no part of a document.
		clear(p.stack)
		clear(p.sels)
		scratch.stack, scratch.sels = p.stack[:0], p.sels[:0]
		parseScratches.Put(scratch)
	}()
	p.advance()
	doc := &ast.QueryDocument{}
	for p.kind != tokEOF && !p.bad {
		doc.Position = p.position()
		switch {
		case p.kind == '{':
			op := &ast.OperationDefinition{Position: p.position(), Operation: ast.Query}
			op.SelectionSet = p.selectionSet()
			doc.Operations = append(doc.Operations, op)
		case p.kind == tokName && (p.val == "query" || p.val == "mutation" || p.val == "subscription"):
			doc.Operations = append(doc.Operations, p.operation())
		case p.kind == tokName && p.val == "fragment":
			doc.Fragments = append(doc.Fragments, p.fragmentDefinition())
		default:
			return nil
		}
	}
	if p.bad || p.kind != tokEOF {
		return nil
	}
	return doc
}

// position returns a new copy of the current token's position.
func (p *quickParser) position() *ast.Position {
	pos := p.positions.new()
	*pos = p.tpos
	return pos
}

// next consumes the current token and reads the following one.
func (p *quickParser) next() {
	p.count++
	if p.max != 0 && p.count > p.max {
		p.fail()
		return
	}
	p.advance()
}

// expect consumes the current token if it is kind; otherwise the parse
// fails.
func (p *quickParser) expect(kind byte) {
	if p.kind != kind {
		p.fail()
		return
	}
	p.next()
}

func (p *quickParser) name() string {
	if p.kind != tokName {
		p.fail()
		return ""
	}
	v := p.val
	p.next()
	return v
}

// fail stops the parse.
func (p *quickParser) fail() {
	p.bad = true
	p.kind = tokEOF
}

// advance reads the next token into kind, val and tpos.
func (p *quickParser) advance() {
	in := p.in
	for p.pos < len(in) {
		switch in[p.pos] {
		case ' ', '\t', ',':
			p.pos++
			p.runes++
			continue
		case '\n', '\r':
			// a line break; \r\n is one
			crlf := in[p.pos] == '\r' && p.pos+1 < len(in) && in[p.pos+1] == '\n'
			p.pos++
			p.runes++
			p.line++
			p.lineStart = p.runes
			if crlf {
				p.pos++
				p.runes++
			}
			continue
		}
		break
	}
	p.tpos = ast.Position{Start: p.runes, End: p.runes, Line: p.line, Column: p.runes - p.lineStart + 1, Src: p.src}
	p.val = ""
	if p.pos >= len(in) {
		p.kind = tokEOF
		return
	}
	c := in[p.pos]
	switch c {
	case '!', '$', '(', ')', ':', '=', '@', '[', ']', '{', '}':
		p.kind = c
		p.pos++
		p.runes++
	case '.':
		if len(in)-p.pos < 3 || in[p.pos:p.pos+3] != "..." {
			p.fail()
			return
		}
		p.kind = tokSpread
		p.pos += 3
		p.runes += 3
	case '"':
		p.readString()
		return
	default:
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			start := p.pos
			for p.pos < len(in) && isNameByte(in[p.pos]) {
				p.pos++
			}
			p.kind, p.val = tokName, in[start:p.pos]
			p.runes += p.pos - start
		case c == '-' || c >= '0' && c <= '9':
			p.readNumber()
			return
		default:
			p.fail()
			return
		}
	}
	p.tpos.End = p.runes
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// readNumber reads an Int or a Float as gqlparser's lexer does, and gives
// up on what it would refuse or split (a number run into a name or a dot).
func (p *quickParser) readNumber() {
	in, start, i := p.in, p.pos, p.pos
	if in[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(in) && isDigit(in[i]) {
			i++
			n++
		}
		return n
	}
	if i < len(in) && in[i] == '0' {
		i++
		if i < len(in) && isDigit(in[i]) {
			p.fail()
			return
		}
	} else if digits() == 0 {
		p.fail()
		return
	}
	kind := byte(tokInt)
	if i < len(in) && in[i] == '.' {
		i++
		kind = tokFloat
		if digits() == 0 {
			p.fail()
			return
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		kind = tokFloat
		if i < len(in) && (in[i] == '-' || in[i] == '+') {
			i++
		}
		if digits() == 0 {
			p.fail()
			return
		}
	}
	if i < len(in) && (isNameByte(in[i]) || in[i] == '.') {
		p.fail()
		return
	}
	p.kind, p.val = kind, in[start:i]
	p.runes += i - start
	p.pos = i
	p.tpos.End = p.runes
}

// readString reads a string without escapes; its position covers the
// quotes while its column is that of the first character inside, as
// gqlparser's lexer has it.
func (p *quickParser) readString() {
	in := p.in
	if len(in)-p.pos >= 3 && in[p.pos:p.pos+3] == `"""` {
		p.fail() // block strings: gqlparser
		return
	}
	quoteRunes := p.runes
	p.pos++
	p.runes++
	start := p.pos
	for p.pos < len(in) {
		c := in[p.pos]
		switch {
		case c == '"':
			p.kind, p.val = tokString, in[start:p.pos]
			p.tpos = ast.Position{Start: quoteRunes, End: p.runes + 1, Line: p.line,
				Column: quoteRunes + 1 - p.lineStart + 1, Src: p.src}
			p.pos++
			p.runes++
			return
		case c == '\\' || c < 0x20 && c != '\t':
			p.fail() // escapes, line breaks, control characters: gqlparser
			return
		case c < utf8.RuneSelf:
			p.pos++
		default:
			_, w := utf8.DecodeRuneInString(in[p.pos:])
			p.pos += w
		}
		p.runes++
	}
	p.fail()
}

func (p *quickParser) enter() bool {
	if p.depth >= quickNesting {
		p.fail()
		return false
	}
	p.depth++
	return true
}

func (p *quickParser) operation() *ast.OperationDefinition {
	op := &ast.OperationDefinition{Position: p.position()}
	switch p.val {
	case "query":
		op.Operation = ast.Query
	case "mutation":
		op.Operation = ast.Mutation
	default:
		op.Operation = ast.Subscription
	}
	p.next()
	if p.kind == tokName {
		op.Name = p.name()
	}
	op.VariableDefinitions = p.variableDefinitions()
	op.Directives = p.directives(false)
	op.SelectionSet = p.selectionSet()
	return op
}

func (p *quickParser) variableDefinitions() ast.VariableDefinitionList {
	if p.kind != '(' {
		return nil
	}
	p.next()
	var defs ast.VariableDefinitionList
	for p.kind != ')' && !p.bad {
		if p.kind != '$' {
			p.fail() // a description, or an error: gqlparser
			return nil
		}
		def := &ast.VariableDefinition{Position: p.position()}
		p.next()
		def.Variable = p.name()
		p.expect(':')
		def.Type = p.typeReference()
		if p.kind == '=' {
			p.next()
			def.DefaultValue = p.value(true)
		}
		def.Directives = p.directives(false)
		defs = append(defs, def)
	}
	if len(defs) == 0 {
		p.fail()
		return nil
	}
	p.expect(')')
	return defs
}

func (p *quickParser) typeReference() *ast.Type {
	t := &ast.Type{}
	if p.kind == '[' {
		p.next()
		if !p.enter() {
			return nil
		}
		t.Position = p.position()
		t.Elem = p.typeReference()
		p.expect(']')
		p.depth--
	} else {
		t.Position = p.position()
		t.NamedType = p.name()
	}
	if p.kind == '!' {
		p.next()
		t.NonNull = true
	}
	return t
}

func (p *quickParser) selectionSet() ast.SelectionSet {
	if p.kind != '{' || !p.enter() {
		p.fail()
		return nil
	}
	p.next()
	base := len(p.sels)
	for p.kind != '}' && !p.bad {
		if p.kind == tokSpread {
			p.sels = append(p.sels, p.fragment())
		} else {
			p.sels = append(p.sels, p.field())
		}
	}
	if len(p.sels) == base {
		p.fail()
		return nil
	}
	set := make(ast.SelectionSet, len(p.sels)-base)
	copy(set, p.sels[base:])
	clear(p.sels[base:])
	p.sels = p.sels[:base]
	p.next()
	p.depth--
	return set
}

func (p *quickParser) field() *ast.Field {
	f := p.fields.new()
	f.Position = p.position()
	f.Alias = p.name()
	if p.kind == ':' {
		p.next()
		f.Name = p.name()
	} else {
		f.Name = f.Alias
	}
	f.Arguments = p.arguments(false)
	f.Directives = p.directives(false)
	if p.kind == '{' {
		f.SelectionSet = p.selectionSet()
	}
	return f
}

func (p *quickParser) arguments(isConst bool) ast.ArgumentList {
	if p.kind != '(' {
		return nil
	}
	p.next()
	var args ast.ArgumentList
	for p.kind != ')' && !p.bad {
		a := p.args.new()
		a.Position = p.position()
		a.Name = p.name()
		p.expect(':')
		a.Value = p.value(isConst)
		args = append(args, a)
	}
	if len(args) == 0 {
		p.fail()
		return nil
	}
	p.next()
	return args
}

func (p *quickParser) directives(isConst bool) ast.DirectiveList {
	var ds ast.DirectiveList
	for p.kind == '@' && !p.bad {
		p.next()
		d := &ast.Directive{Position: p.position()}
		d.Name = p.name()
		d.Arguments = p.arguments(isConst)
		ds = append(ds, d)
	}
	return ds
}

func (p *quickParser) fragment() ast.Selection {
	p.next() // ...
	if p.kind == tokName && p.val != "on" {
		s := &ast.FragmentSpread{Position: p.position()}
		s.Name = p.name()
		s.Directives = p.directives(false)
		return s
	}
	f := &ast.InlineFragment{Position: p.position()}
	if p.kind == tokName { // "on"
		p.next()
		f.TypeCondition = p.name()
	}
	f.Directives = p.directives(false)
	f.SelectionSet = p.selectionSet()
	return f
}

func (p *quickParser) fragmentDefinition() *ast.FragmentDefinition {
	f := &ast.FragmentDefinition{Position: p.position()}
	p.next() // fragment
	if p.kind == tokName && p.val == "on" {
		p.fail()
		return f
	}
	f.Name = p.name()
	f.VariableDefinition = p.variableDefinitions()
	if p.kind != tokName || p.val != "on" {
		p.fail()
		return f
	}
	p.next()
	f.TypeCondition = p.name()
	f.Directives = p.directives(false)
	f.SelectionSet = p.selectionSet()
	return f
}

func (p *quickParser) value(isConst bool) *ast.Value {
	v := p.values.new()
	if !p.valueInto(v, nil, isConst) {
		return nil
	}
	return v
}

// valueInto reads a value into v, with its position in pos (a new one
// when nil), and reports whether it could.
func (p *quickParser) valueInto(v *ast.Value, pos *ast.Position, isConst bool) bool {
	if pos == nil {
		pos = p.positions.new()
	}
	*pos = p.tpos
	v.Position = pos
	switch p.kind {
	case '[', '{':
		if !p.enter() {
			return false
		}
		open, close := p.kind, byte(']')
		v.Kind = ast.ListValue
		if open == '{' {
			close, v.Kind = '}', ast.ObjectValue
		}
		p.next()
		base := len(p.stack)
		for p.kind != close && !p.bad {
			if open == '{' {
				ch := p.children.new()
				ch.Position = p.position()
				ch.Name = p.name()
				p.expect(':')
				ch.Value = p.value(isConst)
				p.stack = append(p.stack, ch)
				continue
			}
			it := p.items.new()
			it.ch.Value = &it.v
			if !p.valueInto(&it.v, &it.pos, isConst) {
				return false
			}
			p.stack = append(p.stack, &it.ch)
		}
		if n := len(p.stack) - base; n > 0 {
			v.Children = make(ast.ChildValueList, n)
			copy(v.Children, p.stack[base:])
			clear(p.stack[base:])
			p.stack = p.stack[:base]
		}
		p.expect(close)
		p.depth--
		return !p.bad
	case '$':
		if isConst {
			p.fail()
			return false
		}
		v.Kind = ast.Variable
		p.next()
		v.Raw = p.name()
		return !p.bad
	case tokInt:
		v.Kind = ast.IntValue
	case tokFloat:
		v.Kind = ast.FloatValue
	case tokString:
		v.Kind = ast.StringValue
	case tokName:
		switch p.val {
		case "true", "false":
			v.Kind = ast.BooleanValue
		case "null":
			v.Kind = ast.NullValue
		default:
			v.Kind = ast.EnumValue
		}
	default:
		p.fail()
		return false
	}
	v.Raw = p.val
	p.next()
	return !p.bad
}
