package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
)

// listPage is the body of a page of the articles list.
type listPage struct {
	Data  []articleFields `json:"data"`
	Links struct {
		First string  `json:"first"`
		Last  string  `json:"last"`
		Prev  *string `json:"prev"`
		Next  *string `json:"next"`
	} `json:"links"`
	Meta struct {
		CurrentPage int64  `json:"current_page"`
		From        *int64 `json:"from"`
		LastPage    int64  `json:"last_page"`
		Path        string `json:"path"`
		PerPage     int64  `json:"per_page"`
		To          *int64 `json:"to"`
		Total       int64  `json:"total"`
	} `json:"meta"`
}

// pageDisagreements lists the ways in which page of the list, asked for
// with perPage articles a page, disagrees with itself: every page is one
// snapshot, so its rows, from, to, last_page and links must all follow
// from its total. path is where the list is served (meta.path).
func pageDisagreements(path string, page, perPage int64, got *listPage) []string {
	var bad []string
	disagree := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	m := &got.Meta
	offset, rows, total := (page-1)*perPage, int64(len(got.Data)), m.Total
	if m.CurrentPage != page || m.PerPage != perPage || m.Path != path {
		disagree("current_page %d, per_page %d, path %q: not the page asked for", m.CurrentPage, m.PerPage, m.Path)
	}
	if want := max(0, min(perPage, total-offset)); rows != want {
		disagree("%d rows, want %d (total %d, offset %d)", rows, want, total, offset)
	}
	switch {
	case rows > 0 && (m.From == nil || m.To == nil || *m.From != offset+1 || *m.To != offset+rows):
		disagree("from %s, to %s with %d rows at offset %d", optInt(m.From), optInt(m.To), rows, offset)
	case rows == 0 && (m.From != nil || m.To != nil):
		disagree("from %s, to %s on an empty page", optInt(m.From), optInt(m.To))
	}
	lastPage := max(1, (total+perPage-1)/perPage)
	if m.LastPage != lastPage {
		disagree("last_page %d, want %d (total %d)", m.LastPage, lastPage, total)
	}
	link := func(n int64) string { return pageLink(path, n, perPage) }
	if got.Links.First != link(1) || got.Links.Last != link(lastPage) {
		disagree("links first %q, last %q, want pages 1 and %d", got.Links.First, got.Links.Last, lastPage)
	}
	if want := optLink(page > 1, link(page-1)); optStr(got.Links.Prev) != want {
		disagree("links.prev %s, want %s", optStr(got.Links.Prev), want)
	}
	if want := optLink(page < lastPage, link(page+1)); optStr(got.Links.Next) != want {
		disagree("links.next %s, want %s (last_page %d)", optStr(got.Links.Next), want, lastPage)
	}
	return bad
}

// pageLink is the link to page n of the list served at path.
func pageLink(path string, n, perPage int64) string {
	return path + "?page=" + strconv.FormatInt(n, 10) + "&per_page=" + strconv.FormatInt(perPage, 10)
}

func optLink(present bool, link string) string {
	if !present {
		return "null"
	}
	return strconv.Quote(link)
}

func optStr(s *string) string {
	if s == nil {
		return "null"
	}
	return strconv.Quote(*s)
}

func optInt(n *int64) string {
	if n == nil {
		return "null"
	}
	return strconv.FormatInt(*n, 10)
}

// pageTally counts the pages checked for agreement and those that
// disagreed with themselves.
type pageTally struct {
	checked       int
	nearEnd       int // the last page or the one before it
	pastEnd       int // after the last page
	perPage       map[int64]bool
	disagreements int
	samples       []string // the first few disagreements
}

// check checks one page and counts it. It reports whether the page agreed
// with itself.
func (t *pageTally) check(path string, page, perPage int64, got *listPage) bool {
	t.checked++
	if t.perPage == nil {
		t.perPage = map[int64]bool{}
	}
	t.perPage[perPage] = true
	switch last := got.Meta.LastPage; {
	case page > last:
		t.pastEnd++
	case page >= last-1:
		t.nearEnd++
	}
	bad := pageDisagreements(path, page, perPage, got)
	if len(bad) == 0 {
		return true
	}
	t.disagreements++
	if len(t.samples) < 3 {
		t.samples = append(t.samples, fmt.Sprintf("page %d per_page %d (total %d, %d rows): %v",
			page, perPage, got.Meta.Total, len(got.Data), bad))
	}
	return false
}

// add adds the counts of other to t.
func (t *pageTally) add(other *pageTally) {
	t.checked += other.checked
	t.nearEnd += other.nearEnd
	t.pastEnd += other.pastEnd
	t.disagreements += other.disagreements
	for n := range other.perPage {
		if t.perPage == nil {
			t.perPage = map[int64]bool{}
		}
		t.perPage[n] = true
	}
	for _, s := range other.samples {
		if len(t.samples) < 3 {
			t.samples = append(t.samples, s)
		}
	}
}

// summary describes the tally in one line of the report.
func (t *pageTally) summary() string {
	return fmt.Sprintf("%s disagreements in %s pages (page sizes used: %d; on the last two pages: %s; past the end: %s)",
		count(t.disagreements), count(t.checked), len(t.perPage), count(t.nearEnd), count(t.pastEnd))
}

// listPerPage are page sizes the list is read with besides random ones:
// the least, the default, odd ones and the largest.
var listPerPage = []int64{1, 2, 7, 15, 50, 99, 100}

// listChoice picks the page a client reads: a random page size, and
// mostly pages at the end of the list as the client last saw it (the
// total moves under the other clients' writes, which is where a page
// could disagree with itself), else one of the first pages or one far
// past the end.
func listChoice(rng *rand.Rand, lastTotal int64) (page, perPage int64) {
	perPage = 1 + rng.Int64N(100)
	if rng.IntN(2) == 0 {
		perPage = listPerPage[rng.IntN(len(listPerPage))]
	}
	lastPage := max(1, (lastTotal+perPage-1)/perPage)
	switch n := rng.IntN(10); {
	case n < 5:
		page = max(1, lastPage-1+rng.Int64N(3)) // the one before the last, the last, the one after
	case n < 9:
		page = 1 + rng.Int64N(5)
	default:
		page = 100_000
	}
	return page, perPage
}

// listArticlesPath is the path of page of the list.
func listArticlesPath(page, perPage int64) string {
	return fmt.Sprintf("/api/articles?page=%d&per_page=%d", page, perPage)
}

// listRequest is the request for a page of the list.
func listRequest(page, perPage int64) request {
	return request{method: http.MethodGet, path: listArticlesPath(page, perPage)}
}
