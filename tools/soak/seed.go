package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// The large data the slow clients ask for, written before the warm-up.
//
// Posts are written through createPost, whose request the server caps at
// its GraphQL query length limit (20,000 bytes): a post's body is 19,800
// backslashes in a block string, which the answer writes as two bytes
// each, so post(id) { body } answers 39.6 KB, and largeAliases of them
// (twice as many field nodes: the limit is 500) answer about 9.9 MB.
//
// Articles are written through POST /api/articles (bodies up to 1 MiB),
// but a page of the list may hold at most the API's MaxListBytes (16 MiB)
// of them: 100 articles of 120,000 bytes answer about 12 MB. The list is
// newest first, and the other clients read its first five pages and its
// last two (up to 100 articles a page): the large articles are written
// between small ones, fillersBelow older and fillersAbove newer, so that
// only the slow clients' pages hold them.
const (
	largePosts       = 50
	largePostBody    = 19_800
	largeAliases     = 249
	largeArticles    = 300
	largeArticleBody = 120_000
	largePage        = 100 // per_page of a slow client's large page of the list
	fillersAbove     = 500 // the first five pages of 100
	// fillersBelow is the last two pages of 100, and 300 more for the
	// articles other clients write between a client's reading the total
	// and its asking for the last page.
	fillersBelow = 500
	seedWorkers  = 4
)

// largeData is what the seed wrote: where the slow clients find it.
type largeData struct {
	postIDs []string
	// below is the number of published articles older than the large
	// ones: the list's articles before the seed and the fillers below.
	// The large ones are at offsets total-below-largeArticles to
	// total-below-1 of the list, whatever is written after them.
	below int64
}

// graphQLQuery is the aliased query of largeAliases post(id) { body }
// fields over the large posts, in turn.
func (d *largeData) graphQLQuery() string {
	var b strings.Builder
	b.WriteString("{")
	for i := range largeAliases {
		fmt.Fprintf(&b, " p%d: post(id: %q) { body }", i, d.postIDs[i%len(d.postIDs)])
	}
	b.WriteString(" }")
	return b.String()
}

// largePageOf returns the page (of largePage articles) that lies inside
// the large articles when the list holds total articles: the first whose
// offset is at least 50 past the start of the large ones, so that 50
// articles written or deleted meanwhile keep it inside.
func (d *largeData) largePageOf(total int64) int64 {
	start := total - d.below - largeArticles // offset of the newest large article
	offset := (start + 50 + largePage - 1) / largePage * largePage
	return offset/largePage + 1
}

// seedLarge writes the large posts and articles, and the small articles
// around them, as u, and returns where they are.
func seedLarge(c *client, u user, logf func(format string, args ...any)) (*largeData, error) {
	before, err := listTotal(c)
	if err != nil {
		return nil, err
	}
	logf("seeding %d large posts, %d large articles and %d small ones around them",
		largePosts, largeArticles, fillersAbove+fillersBelow)
	small := []byte("Seeded by the soak.")
	big := []byte(strings.Repeat("Seeded by the soak to be read slowly. ", largeArticleBody/38+1)[:largeArticleBody])
	// In this order: the list is newest first, and each group is written
	// whole before the next begins.
	for _, group := range []struct {
		name string
		n    int
		body []byte
	}{{"filler below", fillersBelow, small}, {"large", largeArticles, big}, {"filler above", fillersAbove, small}} {
		if err := inParallel(group.n, func(i int) error {
			return seedArticle(c, u, fmt.Sprintf("soak seed: %s article %d", group.name, i), group.body)
		}); err != nil {
			return nil, err
		}
	}
	d := &largeData{below: before + fillersBelow, postIDs: make([]string, largePosts)}
	body := "seeded by the soak " + strings.Repeat(`\`, largePostBody) + " end"
	err = inParallel(largePosts, func(i int) error {
		id, err := seedPost(c, u, "soak seed: large post "+strconv.Itoa(i), body)
		d.postIDs[i] = id
		return err
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// inParallel runs do(0) to do(n-1) on seedWorkers goroutines and returns
// the first error.
func inParallel(n int, do func(i int) error) error {
	var (
		mu    sync.Mutex
		next  int
		first error
		wg    sync.WaitGroup
	)
	for range seedWorkers {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil || i >= n
				mu.Unlock()
				if stop {
					return
				}
				if err := do(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return first
}

// seedArticle writes a published article.
func seedArticle(c *client, u user, title string, body []byte) error {
	in, _ := json.Marshal(map[string]any{"title": title, "body": string(body), "published": true})
	a := c.do(request{method: http.MethodPost, path: "/api/articles", body: in, contentType: "application/json", token: u.token})
	if a.err != nil || a.status != http.StatusCreated {
		return fmt.Errorf("seeding %q: %s", title, a)
	}
	return nil
}

// seedPost writes a post whose body is sent in a block string, where a
// backslash stands for itself, and returns its id.
func seedPost(c *client, u user, title, body string) (string, error) {
	query := fmt.Sprintf(`mutation { createPost(input: {title: %q, body: """%s"""}) { id } }`, title, body)
	a := c.do(request{method: http.MethodPost, path: "/api/graphql", body: []byte(query),
		contentType: "application/graphql", token: u.token})
	var res struct {
		Data struct {
			CreatePost struct{ ID string }
		}
	}
	if a.err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &res) != nil || res.Data.CreatePost.ID == "" {
		return "", fmt.Errorf("seeding %q: %s", title, a)
	}
	return res.Data.CreatePost.ID, nil
}
