package syntax

import (
	"github.com/vektah/gqlparser/v2/ast"
)

// This file reads the grammar of an executable document, a production at
// a time, as gqlparser's parser does (parser.go holds the parser's state,
// its tokens, comments and errors).

// description is the string before a definition.
type description struct {
	text string
	// comment is the comments before the string.
	comment *ast.CommentGroup
	// the string's token, which the error on a query shorthand reports
	// (tokEOF: no description)
	kind         byte
	line, column int
}

// document reads the definitions up to the end of the text.
func (p *parser) document() *ast.QueryDocument {
	doc := &ast.QueryDocument{}
	for p.kind != tokEOF {
		doc.Position = p.position()
		d := p.description()
		switch {
		case p.kind == '{':
			doc.Operations = append(doc.Operations, p.shorthand(d))
		case p.kind == tokName && (p.val == "query" || p.val == "mutation" || p.val == "subscription"):
			doc.Operations = append(doc.Operations, p.operation(d))
		case p.kind == tokName && p.val == "fragment":
			doc.Fragments = append(doc.Fragments, p.fragmentDefinition(d))
		default:
			p.unexpected()
		}
	}
	return doc
}

// description consumes the description at the current token, if any.
func (p *parser) description() description {
	if p.kind != tokString && p.kind != tokBlock {
		return description{}
	}
	d := description{text: p.val, comment: p.comment, kind: p.kind, line: p.tpos.Line, column: p.tpos.Column}
	p.next()
	return d
}

// shorthand reads a query shorthand, a selection set. It takes no comment
// (gqlparser reads its comment after the selection set, when there is
// none) and no description: gqlparser then fails on the token before the
// selection set, the description or the last comment after it.
func (p *parser) shorthand(d description) *ast.OperationDefinition {
	if d.kind != tokEOF { // a description was read
		if p.comment != nil {
			c := p.comment.List[len(p.comment.List)-1]
			p.failAt(c.Position.Line, c.Position.Column, "Unexpected "+tokenText(tokComment, c.Value))
		} else {
			p.failAt(d.line, d.column, "Unexpected "+tokenText(d.kind, d.text))
		}
		return nil
	}
	op := &ast.OperationDefinition{Position: p.position(), Operation: ast.Query}
	op.SelectionSet = p.selectionSet()
	return op
}

// operation reads an operation that starts with its type.
func (p *parser) operation(d description) *ast.OperationDefinition {
	op := &ast.OperationDefinition{Description: d.text, Position: p.position(), Comment: p.joinComments(d.comment, p.comment)}
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
		op.Name = p.val
		p.next()
	}
	op.VariableDefinitions = p.variableDefinitions()
	op.Directives = p.directives(false)
	op.SelectionSet = p.selectionSet()
	return op
}

// opened consumes the token that opens a list which must not be empty,
// and reports whether the list has an item: on the closing token right
// away, it fails the parse.
func (p *parser) opened(closing byte) bool {
	p.next()
	if p.kind == closing {
		p.expectedDefinition()
		return false
	}
	return true
}

// variableDefinitions reads the variable definitions in parentheses, if
// any.
func (p *parser) variableDefinitions() ast.VariableDefinitionList {
	if p.kind != '(' || !p.opened(')') {
		return nil
	}
	var defs ast.VariableDefinitionList
	for p.kind != ')' && p.err == nil {
		defs = append(defs, p.variableDefinition())
	}
	p.expect(')')
	return defs
}

func (p *parser) variableDefinition() *ast.VariableDefinition {
	d := p.description()
	def := &ast.VariableDefinition{Description: d.text, Position: p.position(), Comment: p.joinComments(d.comment, p.comment)}
	p.expect('$')
	def.Variable = p.name()
	p.expect(':')
	def.Type = p.typeReference()
	if p.kind == '=' {
		p.next()
		def.DefaultValue = p.value(true)
	}
	def.Directives = p.directives(false)
	return def
}

// typeReference reads a type. Past the nesting bound it fails at the token
// after the "[".
func (p *parser) typeReference() *ast.Type {
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

// selectionSet reads a selection set, which the grammar requires here.
func (p *parser) selectionSet() ast.SelectionSet {
	if p.kind != '{' {
		p.expected("{")
		return nil
	}
	return p.selections()
}

// selections reads the selection set at the current "{"; it must have a
// selection.
func (p *parser) selections() ast.SelectionSet {
	if !p.enter() || !p.opened('}') {
		return nil
	}
	base := len(p.sels)
	for p.kind != '}' && p.err == nil {
		if p.kind == tokSpread {
			p.sels = append(p.sels, p.fragment())
		} else {
			p.sels = append(p.sels, p.field())
		}
	}
	var set ast.SelectionSet
	if p.err == nil {
		set = make(ast.SelectionSet, len(p.sels)-base)
		copy(set, p.sels[base:])
	}
	clear(p.sels[base:])
	p.sels = p.sels[:base]
	p.expect('}')
	p.depth--
	return set
}

func (p *parser) field() *ast.Field {
	f := p.fields.new()
	f.Position = p.position()
	f.Comment = p.comment
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
		f.SelectionSet = p.selections()
	}
	return f
}

// arguments reads the arguments in parentheses, if any.
func (p *parser) arguments(isConst bool) ast.ArgumentList {
	if p.kind != '(' || !p.opened(')') {
		return nil
	}
	var args ast.ArgumentList
	for p.kind != ')' && p.err == nil {
		a := p.args.new()
		a.Position = p.position()
		a.Comment = p.comment
		a.Name = p.name()
		p.expect(':')
		a.Value = p.value(isConst)
		args = append(args, a)
	}
	p.expect(')')
	return args
}

func (p *parser) directives(isConst bool) ast.DirectiveList {
	var ds ast.DirectiveList
	for p.kind == '@' {
		p.next()
		d := &ast.Directive{Position: p.position()}
		d.Name = p.name()
		d.Arguments = p.arguments(isConst)
		ds = append(ds, d)
	}
	return ds
}

// fragment reads a fragment spread or an inline fragment, which take the
// comments before the "...". Any token whose value is "on" (a string
// too) starts a type condition, as in gqlparser.
func (p *parser) fragment() ast.Selection {
	comment := p.comment
	p.next() // ...
	if p.kind == tokName && p.val != "on" {
		s := &ast.FragmentSpread{Position: p.position(), Comment: comment}
		s.Name = p.name()
		s.Directives = p.directives(false)
		return s
	}
	f := &ast.InlineFragment{Position: p.position(), Comment: comment}
	if p.val == "on" {
		p.next()
		f.TypeCondition = p.name()
	}
	f.Directives = p.directives(false)
	f.SelectionSet = p.selectionSet()
	return f
}

func (p *parser) fragmentDefinition(d description) *ast.FragmentDefinition {
	f := &ast.FragmentDefinition{Description: d.text, Position: p.position(), Comment: p.joinComments(d.comment, p.comment)}
	p.next() // fragment
	// A fragment cannot be named "on", nor, as gqlparser has it, "on" in
	// quotes.
	if p.val == "on" {
		p.unexpected()
		return f
	}
	f.Name = p.name()
	f.VariableDefinition = p.variableDefinitions()
	if p.kind != tokName || p.val != "on" {
		if p.err == nil {
			p.fail(`Expected "on", found ` + tokenText(p.kind, p.val))
		}
		return f
	}
	p.next()
	f.TypeCondition = p.name()
	f.Directives = p.directives(false)
	f.SelectionSet = p.selectionSet()
	return f
}

func (p *parser) value(isConst bool) *ast.Value {
	v := p.values.new()
	if !p.valueInto(v, nil, isConst) {
		return nil
	}
	return v
}

// valueInto reads a value into v, with its position in pos (a new one
// when nil), and reports whether it could. Lists and objects take the
// comments before them; other values none (gqlparser reads their comment
// after consuming them, when there is none).
func (p *parser) valueInto(v *ast.Value, pos *ast.Position, isConst bool) bool {
	if pos == nil {
		pos = p.position()
	} else {
		*pos = p.tpos
	}
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
		v.Comment = p.comment
		p.next()
		base := len(p.stack)
		for p.kind != close && p.err == nil {
			if open == '{' {
				f := p.lits.fields.new()
				f.chPos = p.tpos
				f.ch.Position, f.ch.Comment = &f.chPos, p.comment
				f.ch.Name = p.name()
				p.expect(':')
				f.ch.Value = &f.v
				if !p.valueInto(&f.v, &f.vPos, isConst) {
					break
				}
				p.stack = append(p.stack, &f.ch)
				continue
			}
			it := p.lits.items.new()
			it.ch.Value = &it.v
			if !p.valueInto(&it.v, &it.pos, isConst) {
				break
			}
			p.stack = append(p.stack, &it.ch)
		}
		if n := len(p.stack) - base; n > 0 && p.err == nil {
			v.Children = p.lits.children.take(n)
			copy(v.Children, p.stack[base:])
		}
		clear(p.stack[base:])
		p.stack = p.stack[:base]
		p.expect(close)
		p.depth--
		return p.err == nil
	case '$':
		if isConst {
			p.unexpected()
			return false
		}
		v.Kind = ast.Variable
		p.next()
		v.Raw = p.name()
		return p.err == nil
	case tokInt:
		v.Kind = ast.IntValue
	case tokFloat:
		v.Kind = ast.FloatValue
	case tokString:
		v.Kind = ast.StringValue
	case tokBlock:
		v.Kind = ast.BlockValue
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
		p.unexpected()
		return false
	}
	v.Raw = p.val
	p.next()
	return p.err == nil
}
