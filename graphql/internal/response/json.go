package response

import (
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// The helpers in this file append JSON to a byte slice the way JavaScript's
// JSON.stringify does, so that responses match graphql-js byte for byte.

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Like JSON.stringify it escapes
// only '"', '\\' and control characters; invalid UTF-8 becomes U+FFFD.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	// Eight bytes at a time while none needs a second look: the common
	// case, plain ASCII, is then copied in one append.
	i := 0
	if len(s) >= 8 {
		b := unsafe.Slice(unsafe.StringData(s), len(s))
		for i+8 <= len(b) && plain8(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
	}
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if plainByte[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"':
				dst = append(dst, '\\', '"')
			case '\\':
				dst = append(dst, '\\', '\\')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainByte[c]: the ASCII byte c stands for itself in a JSON string.
var plainByte = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plain8 reports whether none of the eight bytes of x is a control
// character, '"', '\\' or a byte of a multi-byte UTF-8 sequence. Each test
// is the classic "some byte is below n" word trick, exact as to whether
// one is (not which), which is all that is asked.
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, slash := x^(ones*'"'), x^(ones*'\\')
	return ((x-ones*0x20)&^x|(quote-ones)&^quote|(slash-ones)&^slash|x)&highs == 0
}

// AppendFloat appends f as JavaScript prints a number. f must be finite.
func AppendFloat(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0') // also -0, as JSON.stringify does
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		n := len(dst)
		dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
		// Go writes e-07 where JavaScript writes e-7.
		if m := len(dst); m-n >= 4 && dst[m-4] == 'e' && dst[m-3] == '-' && dst[m-2] == '0' {
			dst[m-2] = dst[m-1]
			dst = dst[:m-1]
		}
		return dst
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}

// FormatFloat returns f as JavaScript's String(f) would.
func FormatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	return string(AppendFloat(nil, f))
}
