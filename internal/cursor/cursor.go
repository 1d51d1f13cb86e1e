// Package cursor encodes the opaque cursors of the kit's keyset pages
// (graphql/relay's connections, the articles list's cursor pages): a
// version, the key of a row as its list packs it, and a tag that binds the
// cursor to its list.
//
// A cursor is the unpadded base64url form of
//
//	version (1 byte) | payload | tag (12 bytes)
//
// where tag is the first 12 bytes of HMAC-SHA256 over the list's binding
// and the version and payload, keyed by the list's secret (empty by
// default). A cursor changed by one bit, made for another list, or of
// another version, fails [Codec.Decode]. Without a secret the tag is a
// checksum: it catches tampering and foreign cursors, not a client that
// forges a cursor on purpose (which can only choose where its page
// starts); with one, cursors cannot be forged without it.
package cursor

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// Version is the version byte of the cursors this package writes.
const Version = 1

// tagSize is the length of a cursor's tag.
const tagSize = 12

// MaxLength is the longest cursor Decode reads, in characters; a longer
// string is refused before it is decoded.
const MaxLength = 1024

// ErrInvalid is the error of Decode for a string that is not a cursor of
// the codec's list: malformed, too long, of another version or list, or
// changed.
var ErrInvalid = errors.New("cursor: not a cursor of this list")

// Codec encodes and checks the cursors of one list. The zero Codec has an
// empty binding and secret. A Codec is safe for concurrent use.
type Codec struct {
	binding string
	secret  []byte
}

// New returns the codec of the list called binding ("Query.posts",
// "GET /api/articles"), with tags keyed by secret (nil for none). secret
// is copied.
func New(binding string, secret []byte) Codec {
	return Codec{binding: binding, secret: append([]byte(nil), secret...)}
}

// Encode returns the cursor of payload.
func (c Codec) Encode(payload []byte) string {
	raw := make([]byte, 0, 1+len(payload)+tagSize)
	raw = append(raw, Version)
	raw = append(raw, payload...)
	raw = append(raw, c.tag(raw)...)
	return base64.RawURLEncoding.EncodeToString(raw)
}

// Decode returns the payload of cursor s, or an error that wraps
// [ErrInvalid].
func (c Codec) Decode(s string) ([]byte, error) {
	if len(s) == 0 || len(s) > MaxLength {
		return nil, ErrInvalid
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) < 1+tagSize || raw[0] != Version {
		return nil, ErrInvalid
	}
	body, tag := raw[:len(raw)-tagSize], raw[len(raw)-tagSize:]
	if !hmac.Equal(tag, c.tag(body)) {
		return nil, ErrInvalid
	}
	return body[1:], nil
}

// tag returns the tag of body (the version and payload).
func (c Codec) tag(body []byte) []byte {
	m := hmac.New(sha256.New, c.secret)
	m.Write([]byte("gqlkit cursor\x00"))
	m.Write([]byte(c.binding))
	m.Write([]byte{0})
	m.Write(body)
	return m.Sum(nil)[:tagSize]
}
