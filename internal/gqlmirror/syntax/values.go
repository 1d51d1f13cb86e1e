package syntax

import (
	"math"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// This file reads and prints the values of a document: the text of an Int
// literal, and literals and strings as graphql-js prints them.

// PrintValue prints a literal as graphql-js's printer does.
func PrintValue(v *ast.Value) string {
	var b strings.Builder
	WriteValue(&b, v)
	return b.String()
}

// WriteValue writes v to b as PrintValue prints it.
func WriteValue(b *strings.Builder, v *ast.Value) {
	switch v.Kind {
	case ast.StringValue, ast.BlockValue:
		b.WriteString(PrintString(v.Raw))
	case ast.ListValue:
		b.WriteByte('[')
		for i, c := range v.Children {
			if i > 0 {
				b.WriteString(", ")
			}
			WriteValue(b, c.Value)
		}
		b.WriteByte(']')
	case ast.ObjectValue:
		b.WriteByte('{')
		for i, c := range v.Children {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.Name)
			b.WriteString(": ")
			WriteValue(b, c.Value)
		}
		b.WriteByte('}')
	case ast.Variable:
		b.WriteString("$" + v.Raw)
	default:
		b.WriteString(v.Raw)
	}
}

// PrintString quotes s as graphql-js's printString does.
func PrintString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			const hex = "0123456789ABCDEF"
			b.WriteString(`\u00`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ShortInt reads s when it is an integer of at most nine digits, with a
// leading minus or not: such an integer always fits in 32 bits, and reading
// it takes no more than a loop (a list literal may hold thousands).
func ShortInt(s string) (int, bool) {
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if len(digits) < len(s) {
		n = -n
	}
	return n, true
}

// Int32Literal reads s, the text of an Int literal, when its value fits
// in 32 bits.
func Int32Literal(s string) (int, bool) {
	if n, ok := ShortInt(s); ok {
		return n, true
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
		return 0, false
	}
	return int(n), true
}

// HasVariables reports whether v is a variable or holds one.
func HasVariables(v *ast.Value) bool {
	if v.Kind == ast.Variable {
		return true
	}
	for _, c := range v.Children {
		if HasVariables(c.Value) {
			return true
		}
	}
	return false
}
