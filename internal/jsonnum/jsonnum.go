// Package jsonnum recognises numbers written as JSON writes them (RFC 8259
// section 6), for the kit's packages that take a number as text: the
// engine checks a custom scalar's json.Number before writing it into a
// response and keeps integers apart from other numbers in literals, and a
// REST handler can accept a query parameter only in plain decimal.
package jsonnum

// IsNumber reports whether s is a JSON number, with nothing around it:
//
//	-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
//
// It says nothing of the number's size: "1e400" is a JSON number.
func IsNumber(s string) bool {
	i := integerEnd(s)
	if i < 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		n := digits(s[i+1:])
		if n == 0 {
			return false
		}
		i += 1 + n
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := digits(s[i:])
		if n == 0 {
			return false
		}
		i += n
	}
	return i == len(s)
}

// IsInteger reports whether s is a JSON number without a fraction or an
// exponent, that is an optional "-" and then "0" or digits without a
// leading zero:
//
//	-?(0|[1-9][0-9]*)
//
// Its value may be of any size; "-0" is one.
func IsInteger(s string) bool { return integerEnd(s) == len(s) }

// integerEnd returns the length of the integer part that s starts with,
// -?(0|[1-9][0-9]*), or -1 when s does not start with one.
func integerEnd(s string) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		return i + 1
	}
	n := digits(s[i:])
	if n == 0 {
		return -1
	}
	return i + n
}

// digits returns how many ASCII digits s starts with.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
