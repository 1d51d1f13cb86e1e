package articles_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
)

// cursorPage is a cursor page's answer.
type cursorPage struct {
	Data []struct {
		ID        int64  `json:"id"`
		CreatedAt string `json:"created_at"`
	} `json:"data"`
	Path        string  `json:"path"`
	PerPage     int     `json:"per_page"`
	NextCursor  *string `json:"next_cursor"`
	NextPageURL *string `json:"next_page_url"`
	PrevCursor  *string `json:"prev_cursor"`
	PrevPageURL *string `json:"prev_page_url"`
}

// getCursorPage GETs path (with query) and decodes a 200 cursor page.
func (e *env) getCursorPage(path string) (cursorPage, string) {
	e.t.Helper()
	got := e.do(request{method: "GET", path: path})
	var p cursorPage
	if got.status != http.StatusOK {
		e.t.Fatalf("GET %s: %d %s", path, got.status, got.body)
	}
	if err := json.Unmarshal([]byte(got.body), &p); err != nil {
		e.t.Fatalf("GET %s: %v in %s", path, err, got.body)
	}
	return p, got.body
}

// pathOf returns the path and query of one of the answer's URLs.
func (e *env) pathOf(u string) string {
	e.t.Helper()
	p, ok := strings.CutPrefix(u, e.srv.URL)
	if !ok {
		e.t.Fatalf("URL %s is not on the server %s", u, e.srv.URL)
	}
	return p
}

func (p cursorPage) ids() []int64 {
	var out []int64
	for _, a := range p.Data {
		out = append(out, a.ID)
	}
	return out
}

// seedMany stores n published articles and a draft, several created in
// the same microsecond, and returns the published ids in list order.
func seedMany(e *env, n int) []int64 {
	e.t.Helper()
	ada, _ := e.user("Ada")
	base := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	var ids []int64
	for i := range n {
		a := e.article(articles.NewArticle{UserID: ada, Title: fmt.Sprint("A", i), Body: "b", Published: true,
			CreatedAt: base.Add(time.Duration(i/3) * time.Second)})
		ids = append(ids, a.ID)
	}
	e.article(articles.NewArticle{UserID: ada, Title: "draft", Body: "b", CreatedAt: base.Add(time.Second)})
	slices.Reverse(ids) // newest first; ties by id descending
	return ids
}

func TestCursorPages(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		want := seedMany(e, 7)
		for _, size := range []int{1, 2, 3, 7, 100} {
			// Forward from cursor= to the end.
			var got []int64
			var last cursorPage
			path := fmt.Sprintf("/api/articles?cursor=&per_page=%d", size)
			for n := 0; n < 20; n++ {
				p, body := e.getCursorPage(path)
				got = append(got, p.ids()...)
				if p.PerPage != size || p.Path != e.srv.URL+"/api/articles" {
					t.Fatalf("per_page %d: %s", size, body)
				}
				if n == 0 && (p.PrevCursor != nil || p.PrevPageURL != nil) {
					t.Fatalf("first page has a previous page: %s", body)
				}
				if n > 0 && (p.PrevCursor == nil || *p.PrevPageURL != e.srv.URL+"/api/articles?cursor="+*p.PrevCursor+fmt.Sprintf("&per_page=%d", size)) {
					t.Fatalf("page %d has no previous page: %s", n, body)
				}
				last = p
				if p.NextPageURL == nil {
					if p.NextCursor != nil {
						t.Fatalf("next_cursor without next_page_url: %s", body)
					}
					break
				}
				path = e.pathOf(*p.NextPageURL)
			}
			if !slices.Equal(got, want) {
				t.Errorf("per_page %d forward: %v, want %v", size, got, want)
			}
			// Backward from the last page to the first.
			got = last.ids()
			p := last
			for n := 0; p.PrevPageURL != nil && n < 20; n++ {
				var body string
				p, body = e.getCursorPage(e.pathOf(*p.PrevPageURL))
				if p.NextCursor == nil {
					t.Fatalf("a page read backward has no next page: %s", body)
				}
				got = append(p.ids(), got...)
			}
			if !slices.Equal(got, want) {
				t.Errorf("per_page %d backward: %v, want %v", size, got, want)
			}
		}
	})
}

func TestCursorPageShape(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		expect(t, "empty list", e.do(request{method: "GET", path: "/api/articles?cursor="}), http.StatusOK, fill(e,
			`{"data":[],"path":"{P}","per_page":15,"next_cursor":null,"next_page_url":null,"prev_cursor":null,"prev_page_url":null}`, nil))
		arts := seed(e)
		got := e.do(request{method: "GET", path: "/api/articles?cursor&per_page=2"})
		var p cursorPage
		if err := json.Unmarshal([]byte(got.body), &p); err != nil || p.NextCursor == nil {
			t.Fatalf("first page: %d %s", got.status, got.body)
		}
		next := *p.NextCursor
		expect(t, "first page", got, http.StatusOK, fill(e,
			`{"data":[{fourth},{third}],"path":"{P}","per_page":2,"next_cursor":"`+next+`","next_page_url":"{P}?cursor=`+next+
				`&per_page=2","prev_cursor":null,"prev_page_url":null}`, arts))
		got = e.do(request{method: "GET", path: "/api/articles?per_page=2&cursor=" + next})
		if err := json.Unmarshal([]byte(got.body), &p); err != nil || p.PrevCursor == nil {
			t.Fatalf("second page: %d %s", got.status, got.body)
		}
		prev := *p.PrevCursor
		expect(t, "second page", got, http.StatusOK, fill(e,
			`{"data":[{first}],"path":"{P}","per_page":2,"next_cursor":null,"next_page_url":null,"prev_cursor":"`+prev+
				`","prev_page_url":"{P}?cursor=`+prev+`&per_page=2"}`, arts))
		// Back from the second page: the first two, and no page before them.
		got = e.do(request{method: "GET", path: "/api/articles?per_page=2&cursor=" + prev})
		if err := json.Unmarshal([]byte(got.body), &p); err != nil || p.NextCursor == nil {
			t.Fatalf("back to the first page: %d %s", got.status, got.body)
		}
		expect(t, "back to the first page", got, http.StatusOK, fill(e,
			`{"data":[{fourth},{third}],"path":"{P}","per_page":2,"next_cursor":"`+*p.NextCursor+`","next_page_url":"{P}?cursor=`+*p.NextCursor+
				`&per_page=2","prev_cursor":null,"prev_page_url":null}`, arts))
		if *p.NextCursor != next {
			t.Errorf("the next cursor of the first page read backward is %s, want %s as read forward", *p.NextCursor, next)
		}
		// Without cursor, page and per_page as before.
		got = e.do(request{method: "GET", path: "/api/articles?per_page=2"})
		if !strings.HasPrefix(got.body, fill(e, `{"data":[{fourth},{third}],"links":{`, arts)) {
			t.Errorf("offset page: %s", got.body)
		}
		head := e.do(request{method: "HEAD", path: "/api/articles?cursor="})
		expect(t, "HEAD", head, http.StatusOK, "")
	})
}

func TestCursorRefusals(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		seedMany(e, 3)
		p, _ := e.getCursorPage("/api/articles?cursor=&per_page=1")
		good := *p.NextCursor
		flipped := []byte(good)
		flipped[5] ^= 1 // letters and digits stay base64url characters
		raw, err := base64.RawURLEncoding.DecodeString(good)
		if err != nil {
			t.Fatal(err)
		}
		raw[10]++ // the id, with the tag unchanged
		const bad = `{"message":"The selected cursor is invalid.","errors":{"cursor":["The selected cursor is invalid."]}}`
		for name, c := range map[string]struct {
			query string
			want  string
		}{
			"flipped":   {"cursor=" + string(flipped), bad},
			"new id":    {"cursor=" + base64.RawURLEncoding.EncodeToString(raw), bad},
			"truncated": {"cursor=" + good[:len(good)-3], bad},
			"padded":    {"cursor=" + good + "%3D%3D", bad},
			"garbage":   {"cursor=%00%FF%22", bad},
			"json":      {"cursor=eyJpZCI6MSwiX3BvaW50c1RvTmV4dEl0ZW1zIjp0cnVlfQ", bad}, // a Laravel cursor
			"long":      {"cursor=" + strings.Repeat("A", 4000), bad},
			"with page": {"cursor=&page=2", `{"message":"The cursor field prohibits page from being present.","errors":{"cursor":["The cursor field prohibits page from being present."]}}`},
			"per_page":  {"cursor=" + good + "&per_page=0", `{"message":"The per page field must be at least 1.","errors":{"per_page":["The per page field must be at least 1."]}}`},
			"both": {"cursor=x&per_page=101", `{"message":"The per page field must not be greater than 100. (and 1 more error)",` +
				`"errors":{"per_page":["The per page field must not be greater than 100."],"cursor":["The selected cursor is invalid."]}}`},
		} {
			expect(t, name, e.do(request{method: "GET", path: "/api/articles?" + c.query}), http.StatusUnprocessableEntity, c.want)
		}
	})
}

// TestCursorConcurrentInserts pages through the list while articles are
// created, at the top of the list and among the articles being paged:
// every article that was there at the start is seen once, in order, and
// nothing is seen twice.
func TestCursorConcurrentInserts(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		want := seedMany(e, 60)
		ada, _ := e.user("Writer")
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var inserted atomic.Int64
		base := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				at := time.Now() // the top of the list
				if i%2 == 1 {
					at = base.Add(time.Duration(i%20) * time.Second) // among the seeded articles
				}
				if _, err := e.store.CreateArticle(context.Background(), articles.NewArticle{UserID: ada, Title: "new", Body: "b", Published: true, CreatedAt: at}); err != nil {
					t.Errorf("CreateArticle: %v", err)
					return
				}
				inserted.Add(1)
			}
		})
		seen := map[int64]bool{}
		var got []int64
		var prev *struct {
			at string
			id int64
		}
		path := "/api/articles?cursor=&per_page=4"
		for n := 0; n < 200; n++ {
			p, body := e.getCursorPage(path)
			for _, a := range p.Data {
				if seen[a.ID] {
					t.Fatalf("article %d seen twice (page %s)", a.ID, body)
				}
				seen[a.ID] = true
				if prev != nil && (a.CreatedAt > prev.at || a.CreatedAt == prev.at && a.ID > prev.id) {
					t.Fatalf("article %d (%s) after %d (%s): out of order", a.ID, a.CreatedAt, prev.id, prev.at)
				}
				prev = &struct {
					at string
					id int64
				}{a.CreatedAt, a.ID}
				if slices.Contains(want, a.ID) {
					got = append(got, a.ID)
				}
			}
			if p.NextPageURL == nil {
				break
			}
			path = e.pathOf(*p.NextPageURL)
		}
		close(stop)
		wg.Wait()
		if !slices.Equal(got, want) {
			t.Errorf("the seeded articles paged as %v, want %v", got, want)
		}
		if inserted.Load() == 0 {
			t.Error("no article was inserted while paging")
		}
	})
}
