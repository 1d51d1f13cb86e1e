package syntax

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/vektah/gqlparser/v2/ast"
)

// This file is the lexer of the parser (parser.go). It reads the
// tokens gqlparser v2.5.64's lexer reads, with the same kinds, values and
// positions (offsets and columns in runes, its quirks included: a column
// after "\r\n" counts the "\n", a block string is on the line where it
// ends), and stops where that lexer stops on text it refuses. A name, a
// number, a comment, a string without escapes and most block strings are
// pieces of the text; the values of other strings are decoded into a few
// chunks of bytes per document.

// Token kinds: a punctuator is its own character.
const (
	tokEOF     = 0
	tokInvalid = 1 // text the lexer refuses, located where it stopped
	tokName    = 'a'
	tokInt     = '1'
	tokFloat   = '.'
	tokString  = '"'
	tokBlock   = '`' // a block string
	tokSpread  = '*'
	tokComment = '#'
)

// lexer reads a document a token at a time.
type lexer struct {
	in    string
	pos   int // byte offset of the next unread byte
	runes int // rune offset of pos
	line  int
	// lineStart is the rune offset where the current line starts.
	lineStart int

	// the token read last
	kind byte // one of the tok* constants
	val  string
	tpos ast.Position

	texts textSlab // decoded values
	buf   []byte   // a value being decoded
}

// textSlab holds decoded string values: each is copied into a chunk of
// bytes that is never written again, and read in place.
type textSlab struct{ buf []byte }

// keep returns a string of the bytes of b, copied into the slab.
func (t *textSlab) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(t.buf)-len(t.buf) < len(b) {
		t.buf = make([]byte, 0, chunkLen(cap(t.buf), len(b), 1, 64))
	}
	start := len(t.buf)
	t.buf = append(t.buf, b...)
	return unsafe.String(&t.buf[start], len(b))
}

// lex reads the next token, a comment included, into kind, val and tpos.
// It first skips white space, commas, line breaks and byte order marks.
func (l *lexer) lex() {
	in := l.in
	// A punctuator right after the last token (the brackets of list
	// values, most of the largest documents) needs none of what follows.
	if l.pos < len(in) && punctuator[in[l.pos]] {
		l.tpos.Start, l.tpos.End, l.tpos.Line, l.tpos.Column = l.runes, l.runes+1, l.line, l.runes-l.lineStart+1
		l.kind, l.val = in[l.pos], ""
		l.pos++
		l.runes++
		return
	}
ignored:
	for l.pos < len(in) {
		switch in[l.pos] {
		case ' ', '\t', ',':
			l.pos++
			l.runes++
		case '\n':
			l.pos++
			l.runes++
			l.line++
			l.lineStart = l.runes
		case '\r':
			// The line starts after the "\r", so that the "\n" of a "\r\n"
			// counts as a column of it.
			l.pos++
			l.runes++
			l.line++
			l.lineStart = l.runes
			if l.pos < len(in) && in[l.pos] == '\n' {
				l.pos++
				l.runes++
			}
		case 0xEF: // a byte order mark is one rune of three bytes
			if l.pos+2 >= len(in) || in[l.pos+1] != 0xBB || in[l.pos+2] != 0xBF {
				break ignored
			}
			l.pos += 3
			l.runes++
		default:
			break ignored
		}
	}
	// Field by field: a whole ast.Position built first and then copied is
	// read back before its halves are stored (a store-forwarding stall
	// that took most of the time of a token). Src stays what Parse set.
	l.tpos.Start, l.tpos.End, l.tpos.Line, l.tpos.Column = l.runes, l.runes, l.line, l.runes-l.lineStart+1
	l.val = ""
	if l.pos >= len(in) {
		l.kind = tokEOF
		return
	}
	switch c := in[l.pos]; c {
	case '!', '$', '&', '(', ')', ':', '=', '@', '[', ']', '{', '}', '|':
		l.kind = c
		l.pos++
		l.runes++
	case '.':
		if !strings.HasPrefix(in[l.pos:], "...") {
			l.invalidAt(l.runes)
			return
		}
		l.kind = tokSpread
		l.pos += 3
		l.runes += 3
	case '#':
		l.comment()
	case '"':
		if strings.HasPrefix(in[l.pos:], `"""`) {
			l.blockString()
		} else {
			l.string()
		}
		return
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		l.number()
	default:
		if !isNameStart(c) {
			l.invalidAt(l.runes)
			return
		}
		start := l.pos
		for l.pos++; l.pos < len(in) && isNameByte(in[l.pos]); l.pos++ {
		}
		l.kind, l.val = tokName, in[start:l.pos]
		l.runes += l.pos - start
	}
	l.tpos.End = l.runes
}

// invalidAt makes the token invalid, located at the rune offset at on the
// current line.
func (l *lexer) invalidAt(at int) {
	l.kind, l.val = tokInvalid, ""
	l.tpos.Line, l.tpos.Column = l.line, at-l.lineStart+1
}

// punctuator tells the bytes that are a token of their own.
var punctuator = [256]bool{'!': true, '$': true, '&': true, '(': true, ')': true, ':': true, '=': true,
	'@': true, '[': true, ']': true, '{': true, '}': true, '|': true}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameByte(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits skips the digits of s from i on and reports whether there was
// one.
func digits(s string, i int) (int, bool) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	return j, j > i
}

// comment reads a comment up to the end of its line; its value keeps the
// "#".
func (l *lexer) comment() {
	in, start := l.in, l.pos
	l.pos++
	l.runes++
	for l.pos < len(in) {
		if c := in[l.pos]; c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' {
				break
			}
			l.pos++
		} else {
			_, w := utf8.DecodeRuneInString(in[l.pos:])
			l.pos += w
		}
		l.runes++
	}
	l.kind, l.val = tokComment, in[start:l.pos]
}

// number reads an Int or a Float as gqlparser's lexer does: it ends at the
// first byte that cannot continue it, so that "1a" is an Int and a Name,
// and it is invalid where a digit is missing or follows a leading zero.
func (l *lexer) number() {
	in, i := l.in, l.pos
	if in[i] == '-' {
		i++
	}
	kind, ok := byte(tokInt), true
	if i < len(in) && in[i] == '0' {
		i++
		ok = i == len(in) || !isDigit(in[i])
	} else {
		i, ok = digits(in, i)
	}
	if ok && i < len(in) && in[i] == '.' {
		kind = tokFloat
		i, ok = digits(in, i+1)
	}
	if ok && i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		kind = tokFloat
		i++
		if i < len(in) && (in[i] == '-' || in[i] == '+') {
			i++
		}
		i, ok = digits(in, i)
	}
	if !ok {
		l.invalidAt(l.runes + i - l.pos)
		return
	}
	l.kind, l.val = kind, in[l.pos:i]
	l.runes += i - l.pos
	l.pos = i
}

// string reads a string; its position covers the quotes while its column
// is that of the first character inside, as gqlparser's lexer has it. Its
// value is a piece of the text unless it has an escape: from the first
// escape on it is decoded, and a byte that is not UTF-8 becomes U+FFFD.
func (l *lexer) string() {
	in, quote := l.in, l.runes
	l.pos++
	l.runes++
	start, decoding := l.pos, false
	for l.pos < len(in) {
		switch c := in[l.pos]; {
		case c == '"':
			l.kind, l.val = tokString, in[start:l.pos]
			if decoding {
				l.val = l.texts.keep(l.buf)
			}
			l.tpos.Start, l.tpos.End, l.tpos.Line, l.tpos.Column = quote, l.runes+1, l.line, quote+1-l.lineStart+1
			l.pos++
			l.runes++
			return
		case c < 0x20 && c != '\t':
			// a line break (the string is unterminated) or a control
			// character
			l.invalidAt(l.runes)
			return
		case c == '\\':
			if !decoding {
				l.buf, decoding = append(l.buf[:0], in[start:l.pos]...), true
			}
			if !l.escape() {
				return
			}
		case c < utf8.RuneSelf:
			if decoding {
				l.buf = append(l.buf, c)
			}
			l.pos++
			l.runes++
		default:
			r, w := utf8.DecodeRuneInString(in[l.pos:])
			if decoding {
				l.buf = utf8.AppendRune(l.buf, r)
			}
			l.pos += w
			l.runes++
		}
	}
	l.invalidAt(l.runes) // unterminated
}

// escape decodes the escape sequence at pos into buf and reports whether it
// is valid; if not, the token is invalid at the character after the
// backslash.
func (l *lexer) escape() bool {
	in, i := l.in, l.pos
	if i+1 >= len(in) {
		l.invalidAt(l.runes + 1)
		return false
	}
	switch e := in[i+1]; e {
	case '"', '/', '\\':
		l.buf = append(l.buf, e)
	case 'b':
		l.buf = append(l.buf, '\b')
	case 'f':
		l.buf = append(l.buf, '\f')
	case 'n':
		l.buf = append(l.buf, '\n')
	case 'r':
		l.buf = append(l.buf, '\r')
	case 't':
		l.buf = append(l.buf, '\t')
	case 'u':
		return l.unicodeEscape()
	default:
		l.invalidAt(l.runes + 1)
		return false
	}
	l.pos += 2
	l.runes += 2
	return true
}

// unicodeEscape decodes the \u escape at pos: braced (\u{1F600}, one to
// eight hex digits naming a Unicode scalar value) or of four hex digits. A
// leading surrogate followed by an escaped trailing one is one code point;
// a surrogate left alone becomes U+FFFD. As in gqlparser, four hex digits
// must be followed by at least one byte.
func (l *lexer) unicodeEscape() bool {
	in, i := l.in, l.pos
	if i+2 < len(in) && in[i+2] == '{' {
		r, n, ok := bracedHex(in[i+3:])
		if !ok {
			l.invalidAt(l.runes + 1)
			return false
		}
		l.buf = utf8.AppendRune(l.buf, r)
		l.pos += 3 + n
		l.runes += 3 + n
		return true
	}
	if i+6 >= len(in) {
		l.invalidAt(l.runes + 1)
		return false
	}
	v, ok := HexValue(in[i+2 : i+6])
	if !ok {
		l.invalidAt(l.runes + 1)
		return false
	}
	r, n := rune(v), 6
	if r >= 0xD800 && r < 0xDC00 && i+12 < len(in) && in[i+6] == '\\' && in[i+7] == 'u' {
		if w, ok := HexValue(in[i+8 : i+12]); ok && w >= 0xDC00 && w <= 0xDFFF {
			r, n = utf16.DecodeRune(r, rune(w)), 12
		}
	}
	l.buf = utf8.AppendRune(l.buf, r)
	l.pos += n
	l.runes += n
	return true
}

// bracedHex reads the digits and the closing brace of a braced escape from
// s, which starts after the opening brace, and returns the rune and the
// number of bytes read.
func bracedHex(s string) (r rune, n int, ok bool) {
	var v uint32
	for ; n < len(s) && n <= 8; n++ {
		c := s[n]
		if c == '}' {
			if n == 0 || !utf8.ValidRune(rune(v)) { // above MaxRune too: negative past 1<<31
				return 0, 0, false
			}
			return rune(v), n + 1, true
		}
		d, ok := hexDigit(c)
		if !ok {
			return 0, 0, false
		}
		v = v<<4 | uint32(d)
	}
	return 0, 0, false
}

// blockString reads a block string: its value has `\"""` unescaped, line
// breaks made "\n" and the indentation removed (blockValue). Its position
// covers the quotes (but not the extra quotes before the closing ones); its
// line is the one where it ends, its column counted from that line's start
// to the first character inside, as gqlparser's lexer has them.
func (l *lexer) blockString() {
	in := l.in
	l.pos += 3
	l.runes += 3
	start, startRunes := l.pos, l.runes
	// Until a byte differs from the text (an escape, a "\r", a byte that
	// is not UTF-8), the raw value is a piece of the text.
	clean := true
	unclean := func() {
		if clean {
			l.buf, clean = append(l.buf[:0], in[start:l.pos]...), false
		}
	}
	for l.pos < len(in) {
		c := in[l.pos]
		switch {
		case c == '"' && strings.HasPrefix(in[l.pos:], `"""`):
			quotes := 3
			for l.pos+quotes < len(in) && in[l.pos+quotes] == '"' {
				quotes++
			}
			// the quotes before the last three belong to the value
			extra := quotes - 3
			raw := in[start : l.pos+extra]
			if !clean {
				raw = l.texts.keep(append(l.buf, in[l.pos:l.pos+extra]...))
			}
			l.tpos.Start, l.tpos.End, l.tpos.Line, l.tpos.Column = startRunes-3, l.runes+3, l.line, startRunes-l.lineStart+1
			l.pos += quotes
			l.runes += quotes
			l.kind, l.val = tokBlock, l.blockValue(raw)
			return
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			l.invalidAt(l.runes)
			return
		case c == '\\' && strings.HasPrefix(in[l.pos:], `\"""`):
			unclean()
			l.buf = append(l.buf, `"""`...)
			l.pos += 4
			l.runes += 4
		case c == '\r':
			unclean()
			if l.pos+1 < len(in) && in[l.pos+1] == '\n' {
				l.pos++
				l.runes++
			}
			l.buf = append(l.buf, '\n')
			l.pos++
			l.runes++
			l.line++
			l.lineStart = l.runes
		case c < utf8.RuneSelf:
			if !clean {
				l.buf = append(l.buf, c)
			}
			l.pos++
			l.runes++
			if c == '\n' {
				l.line++
				l.lineStart = l.runes
			}
		default:
			r, w := utf8.DecodeRuneInString(in[l.pos:])
			if r == utf8.RuneError && w == 1 {
				unclean()
			}
			if !clean {
				l.buf = utf8.AppendRune(l.buf, r)
			}
			l.pos += w
			l.runes++
		}
	}
	l.invalidAt(l.runes) // unterminated
}

// blockValue returns the value of a block string from its raw text, as
// gqlparser computes it: the indentation common to its non-blank lines
// (the first included) is removed from every line but the first, then the
// blank lines at both ends are dropped. The value is a piece of raw when
// that changes no line within it.
func (l *lexer) blockValue(raw string) string {
	indent := -1            // common indentation of the non-blank lines
	first, last := -1, -1   // their first and last line
	from, to := 0, len(raw) // the bytes of those lines
	line := 0
	for s := 0; s <= len(raw); line++ {
		e := lineEnd(raw, s)
		if ws := leadingBlanks(raw[s:e]); ws < e-s {
			if indent < 0 || ws < indent {
				indent = ws
			}
			if first < 0 {
				first, from = line, s
			}
			last, to = line, e
		}
		s = e + 1
	}
	switch {
	case first < 0:
		return ""
	case indent == 0 || first == 0 && last == 0:
		return raw[from:to]
	case first == last:
		return raw[from+indent : to]
	}
	l.buf = l.buf[:0]
	line = 0
	for s := 0; line <= last; line++ {
		e := lineEnd(raw, s)
		if line >= first {
			text := raw[s:e]
			if line > 0 {
				text = text[min(indent, len(text)):]
			}
			if line > first {
				l.buf = append(l.buf, '\n')
			}
			l.buf = append(l.buf, text...)
		}
		s = e + 1
	}
	return l.texts.keep(l.buf)
}

// lineEnd returns the offset of the end of the line of s that starts at
// i.
func lineEnd(s string, i int) int {
	if e := strings.IndexByte(s[i:], '\n'); e >= 0 {
		return i + e
	}
	return len(s)
}

// leadingBlanks returns the number of spaces and tabs s starts with.
func leadingBlanks(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// kindName is how gqlparser's messages name a token kind.
func kindName(kind byte) string {
	switch kind {
	case tokEOF:
		return "<EOF>"
	case tokInvalid:
		return "<Invalid>"
	case tokName:
		return "Name"
	case tokInt:
		return "Int"
	case tokFloat:
		return "Float"
	case tokString:
		return "String"
	case tokBlock:
		return "BlockString"
	case tokSpread:
		return "..."
	case tokComment:
		return "Comment"
	}
	return string(rune(kind))
}

// tokenText is how gqlparser's messages show a token: its kind, then its
// value quoted if it has one.
func tokenText(kind byte, val string) string {
	if val == "" {
		return kindName(kind)
	}
	return kindName(kind) + " " + strconv.Quote(val)
}
