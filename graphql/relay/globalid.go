package relay

import (
	"encoding/base64"
	"errors"
	"strings"
	"unicode/utf8"
)

// MaxGlobalIDLength is the longest global ID [ParseGlobalID] reads, in
// characters; a longer string is refused before it is decoded.
const MaxGlobalIDLength = 1024

// ErrInvalidID is the error of [ParseGlobalID] for a string that is not a
// global ID.
var ErrInvalidID = errors.New("relay: not a global ID")

// idEncoding is unpadded base64url, refusing non-zero trailing bits, so
// that every global ID has one spelling.
var idEncoding = base64.RawURLEncoding.Strict()

// GlobalID returns the global ID of the object of type typeName whose own
// ID (its key in its store) is localID: the unpadded base64url form of
// "typeName:localID" ("Book:42" is "Qm9vazo0Mg"). Clients must treat it as
// opaque. localID may hold any text, colons included; an empty one makes
// an ID that [ParseGlobalID] refuses.
func GlobalID(typeName, localID string) string {
	var small [96]byte // most IDs: "Type:id" is assembled without an allocation
	raw := append(append(append(small[:0], typeName...), ':'), localID...)
	return idEncoding.EncodeToString(raw)
}

// ParseGlobalID returns the type name and local ID of a global ID made by
// [GlobalID], or an error wrapping [ErrInvalidID] when s is not one: longer
// than [MaxGlobalIDLength], not unpadded base64url (padding, line breaks,
// the standard alphabet's + and /, or stray trailing bits are refused),
// without a colon,
// with a type name that is not a GraphQL name, or with an empty local ID or
// one that is not UTF-8. Whether the type is one of the schema's is the
// caller's question ([Nodes] answers it for node and nodes).
func ParseGlobalID(s string) (typeName, localID string, err error) {
	if len(s) == 0 || len(s) > MaxGlobalIDLength || !isBase64URL(s) {
		return "", "", ErrInvalidID
	}
	raw, err := idEncoding.DecodeString(s)
	if err != nil {
		return "", "", ErrInvalidID
	}
	typeName, localID, ok := strings.Cut(string(raw), ":")
	if !ok || !isName(typeName) || localID == "" || !utf8.ValidString(localID) {
		return "", "", ErrInvalidID
	}
	return typeName, localID, nil
}

// isBase64URL reports whether s holds only characters of the base64url
// alphabet: the decoder would skip line breaks, which would give an ID
// two spellings.
func isBase64URL(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isName reports whether s is a GraphQL name: /[_A-Za-z][_0-9A-Za-z]*/.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
