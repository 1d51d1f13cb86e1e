package limits

import "unicode/utf8"

// Stats is what [Config.Scan] measured in the raw query text.
type Stats struct {
	// Length is the size of the query in bytes.
	Length int
	// Tokens is the number of lexical tokens, comments included.
	Tokens int
	// Nesting is the largest number of brackets ({, [, ( together) open at
	// once.
	Nesting int
	// Depth is a lower bound of the depth [Config.CheckDocument] finds: the
	// deepest field written in an operation, or in a fragment definition
	// unless the text spreads a fragment inside an introspection field
	// (which may drop a fragment's depth). Fragment spreads are not
	// expanded.
	Depth int
	// Fields is a lower bound of the node count CheckDocument finds: the
	// fields written in the document's operations and fragment
	// definitions, fragment spreads not expanded.
	Fields int
	// UndefinedVariable is the first reference, in the body of an
	// operation, to a variable its header does not declare; its zero value
	// when there is none. References in fragment definitions are not
	// looked at: which variables they may use depends on the operations
	// that spread them. This is no limit: Scan never fails for it, but
	// validation would.
	UndefinedVariable VariableRef
}

// VariableRef is a reference to a variable in a query text.
type VariableRef struct {
	// Name is the variable's name, without the $.
	Name string
	// Operation is the name of the operation that holds the reference,
	// empty for an anonymous operation.
	Operation string
	// Line and Column locate the $ of the reference, counting from 1.
	Line, Column int
}

// Scan checks the raw query text, before it is parsed, against the length
// limit, then against the token and nesting limits and, as far as the text
// shows them, the depth and node limits. It stops at the first limit
// crossed with an [*Error]. It reads the text at most once, byte by byte,
// and does not allocate unless it returns an error or an operation
// declares more than 32 variables, so its cost is linear
// in the length of the text and bounded by MaxLength. A query over
// MaxLength is rejected without being read at all.
//
// Scan tokenises the way gqlparser's lexer does, but never fails: text that
// is not GraphQL is counted as best it can and left for the parser to
// reject. Brackets inside strings, block strings and comments are not
// counted. See the package documentation for the counting rules.
//
// Depth and nodes are counted on the fields written in the text, without
// expanding fragment spreads: depth in each operation and fragment
// definition, nodes in all of them together. Both are lower bounds of what
// [Config.CheckDocument] finds, so that Scan rejects a document for depth
// or nodes only if CheckDocument would reject it too. Like CheckDocument,
// Scan reports a definition over a limit once it has read the whole
// definition, depth before nodes: the definition's depth, or the fields
// written so far, placed at the first field over the maximum; for a
// document without fragments its error is the one CheckDocument would
// return. A fragment definition too deep is reported only once the whole
// text is read, when no later fragment spread can drop its depth.
//
// The Stats returned with an error hold the counts up to where the scan
// stopped. With every limit set to [NoLimit], Scan measures the whole text
// and never fails.
func (c Config) Scan(query string) (Stats, error) {
	stats := Stats{Length: len(query)}
	if maxLength := bound(c.MaxLength, DefaultMaxLength); len(query) > maxLength {
		return stats, &Error{Limit: Length, Max: maxLength, Found: len(query)}
	}
	s := scanner{
		q:          query,
		maxTokens:  bound(c.MaxTokens, DefaultMaxTokens),
		maxNesting: bound(c.MaxNesting, DefaultMaxNesting),
		outline:    newOutline(query, bound(c.MaxDepth, DefaultMaxDepth), bound(c.MaxNodes, DefaultMaxNodes)),
	}
	crossed := s.scan()
	stats.Tokens, stats.Nesting = s.tokens, s.nesting
	stats.Depth, stats.Fields = s.outline.depthBound(), s.outline.fields
	if u := s.outline.vars.undefined; u.nameEnd > 0 {
		line, column := position(query, u.at)
		stats.UndefinedVariable = VariableRef{Name: query[u.nameStart:u.nameEnd],
			Operation: query[u.opStart:u.opEnd], Line: line, Column: column}
	}
	if crossed.limit == "" {
		return stats, nil
	}
	var maxValue int
	switch crossed.limit {
	case Tokens:
		maxValue = s.maxTokens
	case Nesting:
		maxValue = s.maxNesting
	case Depth:
		maxValue = s.outline.maxDepth
	case Nodes:
		maxValue = s.outline.maxNodes
	}
	line, column := position(query, crossed.at)
	return stats, &Error{Limit: crossed.limit, Max: maxValue, Found: crossed.found, Line: line, Column: column}
}

// scanner reads a query text once.
type scanner struct {
	q                     string
	maxTokens, maxNesting int
	tokens, nesting       int
	outline               outline
}

// scan counts the tokens of s.q and the deepest bracket nesting, and feeds
// the tokens to the outline. It stops at the first token that makes the
// count exceed maxTokens (found is then maxTokens+1), the first bracket
// that makes the nesting exceed maxNesting (maxNesting+1), or the end of
// the first operation or fragment definition over the depth or node limit,
// and returns the limit crossed: none when the text is within every limit.
func (s *scanner) scan() crossing {
	q := s.q
	open := 0
	n := len(q)
	for i := 0; i < n; {
		c := q[i]

		// Ignored tokens: white space, line terminators, commas and the
		// byte order mark.
		switch c {
		case ' ', '\t', '\n', '\r', ',':
			i++
			continue
		case 0xEF:
			if i+2 < n && q[i+1] == 0xBB && q[i+2] == 0xBF {
				i += 3
				continue
			}
		}

		s.tokens++
		if s.tokens > s.maxTokens {
			return crossing{limit: Tokens, found: s.tokens, at: i}
		}

		// The brackets of list values, nearly all the tokens of the
		// largest documents, are read here first: inside parentheses the
		// outline needs of them only that they are no variable's name
		// after a $ (see valueToken).
		if s.outline.parens > 0 && (c == '[' || c == ']') {
			s.outline.vars.dollar = 0
			if c == '[' {
				open++
				if over, ok := s.deeper(open, i); ok {
					return over
				}
			} else if open > 0 {
				open--
			}
			i++
			continue
		}

		start, kind := i, tokOther
		switch {
		case isNameStart(c):
			i++
			for i < n && isNameContinue(q[i]) {
				i++
			}
			kind = tokName
		case c == '{' || c == '[' || c == '(':
			open++
			if over, ok := s.deeper(open, i); ok {
				return over
			}
			i++
			switch c {
			case '{':
				kind = tokBraceL
			case '(':
				kind = tokParenL
			}
		case c == '}' || c == ']' || c == ')':
			if open > 0 {
				open--
			}
			i++
			switch c {
			case '}':
				kind = tokBraceR
			case ')':
				kind = tokParenR
			}
		case c == '"':
			if i+2 < n && q[i+1] == '"' && q[i+2] == '"' {
				i = skipBlockString(q, i+3)
			} else {
				i = skipString(q, i+1)
			}
			kind = tokString
		case c == '#':
			i = skipComment(q, i+1)
			continue // a comment is no part of the grammar
		case c == '-' || isDigit(c):
			i = skipNumber(q, i)
		case c == '.':
			if i+2 < n && q[i+1] == '.' && q[i+2] == '.' {
				i += 3
				kind = tokSpread
			} else {
				i++ // not GraphQL; the parser rejects it
			}
		default:
			// Any other punctuator (!, $, :, =, @, &, |) is one token. So is
			// a character that is not GraphQL, with the continuation bytes
			// of its UTF-8 encoding; the parser rejects it.
			switch c {
			case ':':
				kind = tokColon
			case '@':
				kind = tokAt
			case '$':
				kind = tokDollar
			}
			i++
			for i < n && q[i]&0xC0 == 0x80 {
				i++
			}
		}
		if s.outline.parens > 0 && valueToken(kind, s.outline.vars.dollar) {
			s.outline.vars.dollar = 0 // as next would: see the brackets above
			continue
		}
		if s.outline.next(kind, start, i) {
			return s.outline.crossed
		}
	}
	return s.outline.finish()
}

// deeper records that open brackets are open after the one at offset at,
// and returns the crossing of the nesting limit, with ok, when that is one
// too many.
func (s *scanner) deeper(open, at int) (over crossing, ok bool) {
	if open > s.nesting {
		s.nesting = open
		if s.nesting > s.maxNesting {
			return crossing{limit: Nesting, found: s.nesting, at: at}, true
		}
	}
	return crossing{}, false
}

// valueToken reports whether, inside parentheses (arguments and variable
// definitions), a token of this kind changes nothing in the outline but
// that it ends a $ that no name followed: any token but a $, a
// parenthesis and a name right after a $ (dollar, the outline's, is then
// not 0). Inside parentheses the outline counts no field and follows no
// selection; it only pairs parentheses and reads variable names.
func valueToken(kind token, dollar int) bool {
	switch kind {
	case tokDollar, tokParenL, tokParenR:
		return false
	case tokName:
		return dollar == 0
	}
	return true
}

func isNameStart(c byte) bool {
	l := c | 0x20 // lower case for letters
	return 'a' <= l && l <= 'z' || c == '_'
}

func isNameContinue(c byte) bool {
	l := c | 0x20
	return 'a' <= l && l <= 'z' || '0' <= c && c <= '9' || c == '_'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skipString returns the offset just past the string whose body starts at
// i. A string that is not closed on its line ends at the line terminator
// (where gqlparser reports an error).
func skipString(q string, i int) int {
	for i < len(q) {
		switch q[i] {
		case '"':
			return i + 1
		case '\n', '\r':
			return i
		case '\\':
			// An escape: the next character, if any on this line, cannot
			// close the string.
			if i+1 < len(q) && q[i+1] != '\n' && q[i+1] != '\r' {
				i += 2
				continue
			}
		}
		i++
	}
	return i
}

// skipBlockString returns the offset just past the block string whose body
// starts at i. A run of three or more quotes closes it (the last three are
// the delimiter), \""" is an escaped delimiter, and nothing else is
// special. An unclosed block string runs to the end of the text.
func skipBlockString(q string, i int) int {
	for i < len(q) {
		switch q[i] {
		case '"':
			j := i + 1
			for j < len(q) && q[j] == '"' {
				j++
			}
			if j-i >= 3 {
				return j
			}
			i = j
			continue
		case '\\':
			if i+3 < len(q) && q[i+1] == '"' && q[i+2] == '"' && q[i+3] == '"' {
				i += 4
				continue
			}
		}
		i++
	}
	return i
}

// skipComment returns the offset of the line terminator that ends the
// comment whose body starts at i, or the end of the text.
func skipComment(q string, i int) int {
	for i < len(q) && q[i] != '\n' && q[i] != '\r' {
		i++
	}
	return i
}

// skipNumber returns the offset just past the number that starts at i:
// -?digits(.digits)?([eE][+-]?digits)?. It is lenient about missing digits;
// the parser reports those.
func skipNumber(q string, i int) int {
	n := len(q)
	if q[i] == '-' {
		i++
	}
	for i < n && isDigit(q[i]) {
		i++
	}
	if i < n && q[i] == '.' {
		i++
		for i < n && isDigit(q[i]) {
			i++
		}
	}
	if i < n && (q[i] == 'e' || q[i] == 'E') {
		i++
		if i < n && (q[i] == '+' || q[i] == '-') {
			i++
		}
		for i < n && isDigit(q[i]) {
			i++
		}
	}
	return i
}

// position returns the line and column, counting from 1, of offset off in
// q. Lines end at \n, \r or \r\n; columns count runes as gqlparser's lexer
// decodes them: a multi-byte character is one column, and so is each byte
// that is not valid UTF-8. It runs only when an error is reported.
func position(q string, off int) (line, column int) {
	line, column = 1, 1
	for i := 0; i < off; {
		switch c := q[i]; {
		case c == '\n':
			line, column = line+1, 1
			i++
		case c == '\r':
			line, column = line+1, 1
			i++
			if i < off && q[i] == '\n' {
				i++
			}
		default:
			_, size := utf8.DecodeRuneInString(q[i:])
			column++
			i += size
		}
	}
	return line, column
}
