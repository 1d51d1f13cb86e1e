package articles

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// TimeFormat is the layout of created_at and updated_at in JSON: UTC with
// exactly six fractional digits, as Laravel serializes Eloquent timestamps
// (for example "2025-01-02T03:04:05.123456Z"). It is valid RFC 3339.
const TimeFormat = "2006-01-02T15:04:05.000000Z"

// Article is one article with its author, as stores return it.
//
// Its JSON form is exactly
//
//	{"id", "user_id", "title", "body", "published", "created_at", "updated_at", "author": {"id", "name"}}
//
// in that order, with the timestamps in UTC as [TimeFormat].
type Article struct {
	ID        int64
	UserID    int64 // the author; Author.ID is the same id
	Title     string
	Body      string
	Published bool
	CreatedAt time.Time
	UpdatedAt time.Time
	Author    Author
}

// Author is the public face of an article's user: never its e-mail
// address or password.
type Author struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// articleJSON is the wire form of an Article; the field order is the key
// order.
type articleJSON struct {
	ID        int64  `json:"id"`
	UserID    int64  `json:"user_id"`
	Title     string `json:"title"`
	Body      string `json:"body"`
	Published bool   `json:"published"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	Author    Author `json:"author"`
}

// MarshalJSON implements [json.Marshaler]. Characters such as <, > and & are
// written as they are (as PHP's json_encode writes them), unlike
// [json.Marshal]'s own strings.
func (a Article) MarshalJSON() ([]byte, error) { return a.appendJSON(nil), nil }

// appendJSON appends the article's JSON to dst in one pass: lists of
// articles are the hot path of the API, and going through encoding/json
// (an encoder per article, then a re-scan of its output) cost more than
// the database queries.
func (a Article) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, a.ID, 10)
	dst = append(dst, `,"user_id":`...)
	dst = strconv.AppendInt(dst, a.UserID, 10)
	dst = append(dst, `,"title":`...)
	dst = appendJSONString(dst, a.Title)
	dst = append(dst, `,"body":`...)
	dst = appendJSONString(dst, a.Body)
	dst = append(dst, `,"published":`...)
	dst = strconv.AppendBool(dst, a.Published)
	dst = append(dst, `,"created_at":"`...)
	dst = a.CreatedAt.UTC().AppendFormat(dst, TimeFormat)
	dst = append(dst, `","updated_at":"`...)
	dst = a.UpdatedAt.UTC().AppendFormat(dst, TimeFormat)
	dst = append(dst, `","author":{"id":`...)
	dst = strconv.AppendInt(dst, a.Author.ID, 10)
	dst = append(dst, `,"name":`...)
	dst = appendJSONString(dst, a.Author.Name)
	return append(dst, '}', '}')
}

// appendJSONString appends s as encoding/json writes it without HTML
// escaping. Plain printable ASCII, the common case, is copied as it is;
// anything else goes through encoding/json, so the bytes are always the
// same as its.
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
