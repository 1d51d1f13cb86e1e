package syntax

import (
	"strconv"
	"sync"
	"unsafe"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	gqlparser "github.com/vektah/gqlparser/v2/parser"
)

// This file is the parser. It reads an executable document
// exactly as gqlparser v2.5.64's parser.ParseQueryWithTokenLimit does, into
// the very same AST, node for node and position for position: comments
// attached where gqlparser attaches them, descriptions, escapes, block
// strings, its token limit (comments count, the end does not) and its
// nesting bound. On text gqlparser refuses it fails with gqlparser's
// message at gqlparser's location: the parser reports the token it stops
// on ("Expected Name, found <EOF>", "Unexpected <Invalid>" where the lexer
// stopped), since gqlparser never consumes an invalid token and so never
// shows the lexer's own message. gqlparser's parser allocates a position,
// a closure or a slice for almost every token (a 20,000-token document
// made 60,000 allocations); this one takes its nodes from a few slabs.
// FuzzQuickParse holds it to gqlparser's documents and errors.

// maxNesting is gqlparser's: selection sets, list and object values and
// list types nest at most this deep, all counted together.
const maxNesting = gqlparser.MaxNestingDepth

// parser reads a document a token ahead: kind, val and tpos are the token
// gqlparser's parser would peek at.
type parser struct {
	lexer
	// comment is the comments just before the current token, nil if none.
	comment *ast.CommentGroup
	count   int // tokens consumed, comments included
	max     int // the token limit; 0: none
	depth   int
	err     *gqlerror.Error // the first error: the parse stops there

	positions slab[ast.Position]
	fields    slab[ast.Field]
	values    slab[ast.Value]
	args      slab[ast.Argument]
	// lits holds what list and object literals hold (literals.go).
	lits     *LiteralMemory
	comments slab[ast.Comment]
	groups   slab[ast.CommentGroup]
	lists    slab[*ast.Comment] // the comments of the groups
	// stack holds the children of the lists and objects being read, so
	// that each gets a slice of its exact length.
	stack []*ast.ChildValue
	sels  []ast.Selection // the same for selection sets
	notes []*ast.Comment  // and for a group of comments
}

// slab hands out pointers into chunks of T, allocated a chunk at a time:
// small chunks first, growing to about 16 KB (kept below the size where Go
// allocates a span of its own, which must be zeroed and given back).
type slab[T any] struct{ buf []T }

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.grow(1)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// take returns n consecutive elements, a slice of capacity n.
func (s *slab[T]) take(n int) []T {
	if cap(s.buf)-len(s.buf) < n {
		s.grow(n)
	}
	s.buf = s.buf[:len(s.buf)+n]
	return s.buf[len(s.buf)-n : len(s.buf) : len(s.buf)]
}

// grow starts a new chunk with room for at least n elements.
func (s *slab[T]) grow(n int) {
	var zero T
	s.buf = make([]T, 0, chunkLen(cap(s.buf), n, int(unsafe.Sizeof(zero)), 8))
}

// chunkBytes is the size of the largest chunk of a slab.
const chunkBytes = 16 << 10

// chunkLen is the capacity of the chunk of elements of size bytes that
// follows one of capacity prev: twice as large, at least least elements
// and at most chunkBytes, or n elements when more.
func chunkLen(prev, n, size, least int) int {
	return max(min(max(2*prev, least), max(chunkBytes/size, 1)), n)
}

// parseScratch is a parser's working space: the stacks of children,
// selections and comments being read and the buffer of a value being
// decoded. Nothing of the document points into it, so it is reused from
// parse to parse (a list of 10,000 items grew it, a copy at a time, by
// 300 KB on every parse).
type parseScratch struct {
	stack []*ast.ChildValue
	sels  []ast.Selection
	notes []*ast.Comment
	buf   []byte
}

var parseScratches = sync.Pool{New: func() any { return new(parseScratch) }}

// Parse parses query as gqlparser's ParseQueryWithTokenLimit does,
// stopping after maxTokens tokens (0: no limit), with what its literals
// hold taken from lits. Its error has the message and location of
// gqlparser's, with "Syntax Error: " before the message (but for the token
// limit).
func Parse(query string, maxTokens int, lits *LiteralMemory) (*ast.QueryDocument, *gqlerror.Error) {
	scratch := parseScratches.Get().(*parseScratch)
	src := &ast.Source{Input: query}
	p := &parser{lexer: lexer{tpos: ast.Position{Src: src}, in: query, line: 1, buf: scratch.buf},
		max: maxTokens, stack: scratch.stack, sels: scratch.sels, notes: scratch.notes, lits: lits}
	defer func() {
		// A failed parse leaves its partial stacks behind: clear them so
		// the pool holds no part of a document.
		clear(p.stack)
		clear(p.sels)
		clear(p.notes)
		scratch.stack, scratch.sels, scratch.notes, scratch.buf = p.stack[:0], p.sels[:0], p.notes[:0], p.buf[:0]
		parseScratches.Put(scratch)
	}()
	p.advance()
	doc := p.document()
	if p.err != nil {
		return nil, p.err
	}
	return doc, nil
}

// position returns a new copy of the current token's position.
func (p *parser) position() *ast.Position {
	pos := p.positions.new()
	*pos = p.tpos
	return pos
}

// next consumes the current token and reads the following one. It is
// called on a token of a kind the grammar allows, so never after a failure
// (which leaves an end of text as the current token).
func (p *parser) next() {
	if !p.consume() {
		return
	}
	p.lex() // advance, written out: next runs for every token
	p.comment = nil
	if p.kind == tokComment {
		p.commentGroup()
	}
}

// consume counts the current token as consumed, and fails the parse when
// that is one past the token limit.
func (p *parser) consume() bool {
	p.count++
	if p.max != 0 && p.count > p.max {
		p.failTokens()
		return false
	}
	return true
}

// advance reads the next token, consuming the comments before it as
// gqlparser does: each is a token, and together they are the group the
// next node may take.
func (p *parser) advance() {
	p.lex()
	p.comment = nil
	if p.kind == tokComment {
		p.commentGroup()
	}
}

// commentGroup consumes the comments from the current token on and makes
// them the current group.
func (p *parser) commentGroup() {
	base := len(p.notes)
	for p.kind == tokComment {
		c := p.comments.new()
		c.Value, c.Position = p.val, p.position()
		p.notes = append(p.notes, c)
		if !p.consume() {
			return
		}
		p.lex()
	}
	g := p.groups.new()
	g.List = p.lists.take(len(p.notes) - base)
	copy(g.List, p.notes[base:])
	clear(p.notes[base:])
	p.notes = p.notes[:base]
	p.comment = g
}

// joinComments returns the comments before a description followed by those
// between it and its definition.
func (p *parser) joinComments(before, after *ast.CommentGroup) *ast.CommentGroup {
	switch {
	case before == nil:
		return after
	case after == nil:
		return before
	}
	g := p.groups.new()
	g.List = p.lists.take(len(before.List) + len(after.List))
	copy(g.List[copy(g.List, before.List):], after.List)
	return g
}

// failAt stops the parse with a syntax error located at line and column.
func (p *parser) failAt(line, column int, msg string) {
	if p.err == nil {
		p.err = &gqlerror.Error{Message: "Syntax Error: " + msg,
			Locations: []gqlerror.Location{{Line: line, Column: column}}, Err: ErrSyntax}
	}
	p.kind, p.val = tokEOF, ""
}

// fail stops the parse with a syntax error at the current token.
func (p *parser) fail(msg string) { p.failAt(p.tpos.Line, p.tpos.Column, msg) }

// failTokens stops the parse at the token limit.
func (p *parser) failTokens() {
	if p.err == nil {
		p.err = &gqlerror.Error{Message: "exceeded token limit of " + strconv.Itoa(p.max), Err: ErrTokenLimit}
	}
	p.kind, p.val = tokEOF, ""
}

// unexpected fails on the current token.
func (p *parser) unexpected() {
	if p.err == nil {
		p.fail("Unexpected " + tokenText(p.kind, p.val))
	}
}

// expected fails on the current token, which is not what the grammar
// expects there.
func (p *parser) expected(what string) {
	if p.err == nil {
		p.fail("Expected " + what + ", found " + kindName(p.kind))
	}
}

// expectedDefinition fails on the end of an empty list of variable
// definitions, arguments or selections.
func (p *parser) expectedDefinition() {
	if p.err == nil {
		p.fail("expected at least one definition, found " + kindName(p.kind))
	}
}

// expect consumes the current token if it is kind; otherwise the parse
// fails.
func (p *parser) expect(kind byte) {
	if p.kind != kind {
		p.expected(kindName(kind))
		return
	}
	p.next()
}

// name consumes a name and returns it.
func (p *parser) name() string {
	if p.kind != tokName {
		p.expected("Name")
		return ""
	}
	v := p.val
	p.next()
	return v
}

// enter goes one nesting level deeper, or fails at the current token.
func (p *parser) enter() bool {
	if p.depth >= maxNesting {
		if p.err == nil {
			p.fail("exceeded maximum nesting depth of " + strconv.Itoa(maxNesting))
		}
		return false
	}
	p.depth++
	return true
}
