package articles

import (
	"encoding/binary"
	"net/url"
	"strconv"
	"time"

	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/validate"
)

// Cursor pages: GET /api/articles?cursor=… pages by keyset, in Laravel's
// cursorPaginate shape. A cursor is opaque to clients; inside, it is the
// position of an article (created_at to the microsecond, id) and whether
// it points to the articles after it (next) or before it (previous),
// tagged for this list by package internal/cursor.

// cursorBinding binds the list's cursors to it: a cursor of another list
// (a GraphQL connection, say) is refused.
const cursorBinding = "articles: published, newest first"

// Messages of the cursor parameter's validation.
const (
	// MessageBadCursor is the message of a cursor that is not one of this
	// list's (changed, truncated, from another list).
	MessageBadCursor = "The selected cursor is invalid."
	// MessageCursorWithPage answers a request with both cursor and page.
	MessageCursorWithPage = "The cursor field prohibits page from being present."
)

// cursorPaging is a validated cursor page request.
type cursorPaging struct {
	perPage int
	from    *Position // nil: the first page (cursor=)
	back    bool      // the cursor points to the articles before from
}

// cursorPayload is the length of a cursor's payload: the direction, the
// microseconds of created_at since the Unix epoch, and the id.
const cursorPayload = 1 + 8 + 8

// Directions of a cursor.
const (
	pointsNext byte = 0
	pointsPrev byte = 1
)

// readCursorPaging validates a cursor page request: per_page as for
// offset pages, page absent, and cursor empty (the first page) or one of
// the list's cursors.
func (h *Handler) readCursorPaging(q url.Values) (cursorPaging, validate.Failures) {
	p := cursorPaging{perPage: DefaultPerPage}
	var problems validate.Failures
	if vs, ok := q["per_page"]; ok {
		n, msg := integerParam(vs[len(vs)-1], "per page", 1, MaxPerPage)
		if msg != "" {
			problems.Add("per_page", msg)
		}
		p.perPage = int(n)
	}
	if _, ok := q["page"]; ok {
		problems.Add("cursor", MessageCursorWithPage)
		return p, problems
	}
	vs := q["cursor"]
	if s := vs[len(vs)-1]; s != "" {
		from, back, ok := h.decodeCursor(s)
		if !ok {
			problems.Add("cursor", MessageBadCursor)
		}
		p.from, p.back = &from, back
	}
	return p, problems
}

// decodeCursor returns the position and direction of cursor s, or false
// when s is not a cursor of this list.
func (h *Handler) decodeCursor(s string) (Position, bool, bool) {
	b, err := h.cursors.Decode(s)
	if err != nil || len(b) != cursorPayload || b[0] > pointsPrev {
		return Position{}, false, false
	}
	micros := int64(binary.BigEndian.Uint64(b[1:9]))
	id := int64(binary.BigEndian.Uint64(b[9:]))
	if id <= 0 || micros < minCursorMicros || micros > maxCursorMicros {
		return Position{}, false, false
	}
	return Position{CreatedAt: time.UnixMicro(micros).UTC(), ID: id}, b[0] == pointsPrev, true
}

// The times a cursor may hold: years 1 to 9999, which both databases
// store.
var (
	minCursorMicros = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	maxCursorMicros = time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC).UnixMicro()
)

// encodeCursor returns the cursor of position p pointing to the articles
// after it (prev false) or before it.
func (h *Handler) encodeCursor(p Position, prev bool) string {
	var b [cursorPayload]byte
	b[0] = pointsNext
	if prev {
		b[0] = pointsPrev
	}
	binary.BigEndian.PutUint64(b[1:9], uint64(p.CreatedAt.UnixMicro()))
	binary.BigEndian.PutUint64(b[9:], uint64(p.ID))
	return h.cursors.Encode(b[:])
}

// seek returns the store's request for p: one article more than the page,
// which tells that another page follows.
func (p cursorPaging) seek() Seek {
	return Seek{From: p.from, Backward: p.back, Limit: p.perPage + 1}
}

// cursorTailJSON is what follows the articles of a cursor page: the keys
// of Laravel's CursorPaginator::toArray after data, in its order.
type cursorTailJSON struct {
	Path        string  `json:"path"`
	PerPage     int     `json:"per_page"`
	NextCursor  *string `json:"next_cursor"`
	NextPageURL *string `json:"next_page_url"`
	PrevCursor  *string `json:"prev_cursor"`
	PrevPageURL *string `json:"prev_page_url"`
}

// cursorTail returns the tail of page p served at path, whose articles
// (once the extra one is dropped) are at positions, and more says whether
// the store read one more than the page. As Laravel's CursorPaginator:
// next_cursor, from the last article, unless the page is empty or,
// reading forward, nothing follows; prev_cursor, from the first, unless
// the page is empty, the first page, or, reading backward, nothing
// precedes it.
func (h *Handler) cursorTail(path string, p cursorPaging, positions []Position, more bool) cursorTailJSON {
	t := cursorTailJSON{Path: path, PerPage: p.perPage}
	if len(positions) == 0 {
		return t
	}
	link := func(c string) (*string, *string) {
		u := path + "?cursor=" + c + "&per_page=" + strconv.Itoa(p.perPage)
		return &c, &u
	}
	if more || p.back {
		t.NextCursor, t.NextPageURL = link(h.encodeCursor(positions[len(positions)-1], false))
	}
	if p.from != nil && (more || !p.back) {
		t.PrevCursor, t.PrevPageURL = link(h.encodeCursor(positions[0], true))
	}
	return t
}

// appendCursorTail appends `],` and the tail's keys and closes the
// answer.
func appendCursorTail(dst []byte, t cursorTailJSON) ([]byte, error) {
	b, err := httpjson.Marshal(t)
	if err != nil {
		return nil, err
	}
	dst = append(dst, "],"...)
	dst = append(dst, b[1:]...) // the tail's object without its {
	return dst, nil
}

// cursorTailBytes is what room reckons for a cursor page's tail besides
// the path it repeats three times: keys, two cursors of some 50
// characters each, twice.
const cursorTailBytes = 512
