package validate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Attribute returns the name messages show for the field at path, as
// Laravel's displayable attribute is made when no custom name is given:
// Str::snake, then every '_' replaced by a space. Exactly:
//
//  1. an ASCII lower-case letter at the start of path or right after a
//     space, tab, CR, LF, FF or VT is taken as upper case (PHP's ucwords);
//  2. white space ([unicode.IsSpace]) is dropped;
//  3. a space is put before every ASCII upper-case letter that has a
//     character before it (after step 2);
//  4. every letter is lower-cased ([unicode.ToLower]) and every '_' becomes
//     a space.
//
// So "createdAt" becomes "created at", "per_page" "per page", "first name"
// "first name", "userID" "user i d" (as in Laravel), and "input.tags.0" is
// left as it is. A path without upper-case letters, white space, '_' or
// non-ASCII characters is returned unchanged.
func Attribute(path string) string {
	if plain(path) {
		return path
	}
	var b strings.Builder
	b.Grow(len(path) + 4)
	wordStart, wrote := true, false
	for len(path) > 0 {
		r, size := utf8.DecodeRuneInString(path)
		raw := path[:size]
		path = path[size:]
		if r == utf8.RuneError && size == 1 { // not UTF-8: kept as it is
			b.WriteString(raw)
			wordStart, wrote = false, true
			continue
		}
		upper := 'A' <= r && r <= 'Z' || wordStart && 'a' <= r && r <= 'z'
		wordStart = strings.ContainsRune(" \t\r\n\f\v", r)
		if unicode.IsSpace(r) {
			continue
		}
		if upper && wrote {
			b.WriteByte(' ')
		}
		if r == '_' {
			b.WriteByte(' ')
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
		wrote = true
	}
	return b.String()
}

// plain reports whether Attribute leaves path as it is because it has no
// upper-case ASCII letter, white space, '_' or non-ASCII byte.
func plain(path string) bool {
	for i := 0; i < len(path); i++ {
		c := path[i]
		if 'A' <= c && c <= 'Z' || c == '_' || c == ' ' || '\t' <= c && c <= '\r' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
