package articles

import (
	"math"
	"net/url"
	"strconv"

	"github.com/gqlkit/gqlkit/internal/httpjson"
	"github.com/gqlkit/gqlkit/internal/jsonnum"
	"github.com/gqlkit/gqlkit/validate"
)

// Pagination defaults and bounds.
const (
	// DefaultPerPage is the page size when per_page is absent.
	DefaultPerPage = 15
	// MaxPerPage is the largest per_page accepted.
	MaxPerPage = 100
)

// paging is a validated page request.
type paging struct {
	page    int64
	perPage int
}

// offset is the number of articles before the page, saturated at
// math.MaxInt64 (a page that far is past the end of any list).
func (p paging) offset() int64 {
	if p.page-1 > math.MaxInt64/int64(p.perPage) {
		return math.MaxInt64
	}
	return (p.page - 1) * int64(p.perPage)
}

// readPaging validates page and per_page like Laravel's rules
// 'page' => 'integer|min:1' and 'per_page' => 'integer|min:1|max:100',
// with one difference: only plain decimal integers count as integers (no
// sign other than "-", no leading zeros, no surrounding space). A repeated
// parameter takes its last value, as PHP does.
func readPaging(q url.Values) (paging, validate.Failures) {
	p := paging{page: 1, perPage: DefaultPerPage}
	var problems validate.Failures
	if vs, ok := q["page"]; ok {
		n, msg := integerParam(vs[len(vs)-1], "page", 1, math.MaxInt64)
		if msg != "" {
			problems.Add("page", msg)
		}
		p.page = n
	}
	if vs, ok := q["per_page"]; ok {
		n, msg := integerParam(vs[len(vs)-1], "per page", 1, MaxPerPage)
		if msg != "" {
			problems.Add("per_page", msg)
		}
		p.perPage = int(n)
	}
	return p, problems
}

// integerParam parses s as a plain decimal integer in [lo, hi]. It returns
// the value or the Laravel message of the first failing rule; attr is the
// field name as messages spell it ("per page").
func integerParam(s, attr string, lo, hi int64) (int64, string) {
	if !jsonnum.IsInteger(s) {
		return 0, "The " + attr + " field must be an integer."
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil { // out of int64 range: PHP's FILTER_VALIDATE_INT fails too
		return 0, "The " + attr + " field must be an integer."
	}
	if n < lo {
		return 0, "The " + attr + " field must be at least " + strconv.FormatInt(lo, 10) + "."
	}
	if n > hi {
		return 0, "The " + attr + " field must not be greater than " + strconv.FormatInt(hi, 10) + "."
	}
	return n, ""
}

// parseID parses an article id from a path: a positive int64 in plain
// decimal, without sign or leading zeros.
func parseID(s string) (int64, bool) {
	if s == "" || s[0] == '0' || s[0] == '-' || !jsonnum.IsInteger(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// A list answer is Laravel's paginated resource collection, without
// meta.links: {"data":[…],"links":{…},"meta":{…}}. The articles are
// appended as the store reads them (see listAnswer); the links and meta,
// which need the total, follow them.

type linksJSON struct {
	First string  `json:"first"`
	Last  string  `json:"last"`
	Prev  *string `json:"prev"`
	Next  *string `json:"next"`
}

type metaJSON struct {
	CurrentPage int64  `json:"current_page"`
	From        *int64 `json:"from"`
	LastPage    int64  `json:"last_page"`
	Path        string `json:"path"`
	PerPage     int    `json:"per_page"`
	To          *int64 `json:"to"`
	Total       int64  `json:"total"`
}

// appendListTail appends what follows the articles of page p of a list of
// total articles, served at path (an absolute URL without query), of
// which the page held n: `],"links":{…},"meta":{…}}`.
func appendListTail(dst []byte, path string, p paging, total int64, n int) ([]byte, error) {
	links, meta := pagination(path, p, total, n)
	lj, err := httpjson.Marshal(links)
	if err != nil {
		return nil, err
	}
	mj, err := httpjson.Marshal(meta)
	if err != nil {
		return nil, err
	}
	dst = append(dst, `],"links":`...)
	dst = append(dst, lj...)
	dst = append(dst, `,"meta":`...)
	dst = append(dst, mj...)
	return append(dst, '}'), nil
}

// pagination returns the links and meta of page p of a list of total
// articles, served at path, of which the page held n.
func pagination(path string, p paging, total int64, n int) (linksJSON, metaJSON) {
	perPage := int64(p.perPage)
	lastPage := max((total+perPage-1)/perPage, 1)
	link := func(n int64) string {
		return path + "?page=" + strconv.FormatInt(n, 10) + "&per_page=" + strconv.Itoa(p.perPage)
	}
	links := linksJSON{First: link(1), Last: link(lastPage)}
	meta := metaJSON{CurrentPage: p.page, LastPage: lastPage, Path: path, PerPage: p.perPage, Total: total}
	if p.page > 1 {
		prev := link(p.page - 1)
		links.Prev = &prev
	}
	if p.page < lastPage {
		next := link(p.page + 1)
		links.Next = &next
	}
	if n > 0 {
		from, to := p.offset()+1, p.offset()+int64(n)
		meta.From, meta.To = &from, &to
	}
	return links, meta
}
