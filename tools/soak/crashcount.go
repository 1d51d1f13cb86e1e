package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
)

// crashCount is what the database holds after a crash run, set against
// what the clients sent.
type crashCount struct {
	stored       map[string][]string // the ids stored under each title of the run
	articlesSeen int                 // articles on the pages of the list
	postsProbed  int                 // post ids read with post(id)
	pages        pageTally           // the pages of the list, checked for agreement

	duplicates    int // rows beyond the first under one title
	duplicated    int // creates whose title is stored more than once
	lost          int // creates acknowledged whose title is not stored
	idMismatch    int // creates acknowledged with an id that does not hold their title
	storedUnacked int // creates never acknowledged whose title is stored
	strays        int // titles of the run that no create sent

	failed   string // why the count could not be made, or ""
	problems []string
}

// problem adds n to counter and keeps a description of the first few.
func (cnt *crashCount) problem(counter *int, n int, format string, args ...any) {
	*counter += n
	if len(cnt.problems) < maxSamples {
		cnt.problems = append(cnt.problems, fmt.Sprintf(format, args...))
	}
}

// postBatch is the number of post(id) fields in one request: 3 nodes each,
// within the server's limit of 500.
const postBatch = 100

// countCreates reads every article of the list and every post by id, and
// sets what is stored under the titles of run against creates.
func countCreates(c *client, run string, creates []*keyedCreate) crashCount {
	cnt := crashCount{stored: map[string][]string{}}
	prefix := "crash " + run + " "
	if !cnt.walkArticles(c, prefix) || !cnt.scanPosts(c, prefix, creates) {
		return cnt
	}
	sent := map[string]bool{}
	for _, k := range creates {
		sent[k.title] = true
		ids := cnt.stored[k.title]
		if len(ids) > 1 {
			slices.SortFunc(ids, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b)) })
			cnt.duplicated++
			cnt.problem(&cnt.duplicates, len(ids)-1, "%q (key %q, %d attempts) is stored %d times: ids %v",
				k.title, k.key, k.attempts, len(ids), ids)
		}
		switch {
		case k.acked && len(ids) == 0:
			cnt.problem(&cnt.lost, 1, "%q was acknowledged as id %s and is not stored", k.title, k.id)
		case k.acked && !slices.Contains(ids, k.id):
			cnt.problem(&cnt.idMismatch, 1, "%q was acknowledged as id %s and is stored as %v", k.title, k.id, ids)
		case !k.acked && len(ids) > 0:
			cnt.storedUnacked++
		}
	}
	for title := range cnt.stored {
		if !sent[title] {
			cnt.problem(&cnt.strays, 1, "%q is stored but no client sent it", title)
		}
	}
	return cnt
}

// walkArticles reads every page of the list, 100 articles a page.
func (cnt *crashCount) walkArticles(c *client, prefix string) bool {
	for page, last := int64(1), int64(1); page <= last; page++ {
		req := listRequest(page, 100)
		a := c.do(req)
		var got listPage
		if a.err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &got) != nil {
			cnt.failed = "GET " + req.path + ": " + a.String()
			return false
		}
		cnt.pages.check(c.base+"/api/articles", page, 100, &got)
		if page == 1 {
			last = got.Meta.LastPage
		}
		for _, art := range got.Data {
			cnt.articlesSeen++
			if strings.HasPrefix(art.Title, prefix) {
				cnt.stored[art.Title] = append(cnt.stored[art.Title], strconv.FormatInt(art.ID, 10))
			}
		}
	}
	return true
}

// scanPosts reads posts by id, from 1 up to the highest id known (the
// newest posts and the acknowledged ones), and on while the last batch
// read still held posts: the schema lists only the newest 50 posts.
func (cnt *crashCount) scanPosts(c *client, prefix string, creates []*keyedCreate) bool {
	hi, ok := cnt.highestPostID(c, creates)
	if !ok {
		return false
	}
	for lo := int64(1); lo <= hi; lo += postBatch {
		posts, ok := cnt.readPosts(c, lo)
		if !ok {
			return false
		}
		for _, p := range posts {
			if strings.HasPrefix(p.Title, prefix) {
				cnt.stored[p.Title] = append(cnt.stored[p.Title], p.ID)
			}
		}
		if lo+postBatch > hi && len(posts) > 0 {
			hi += postBatch
		}
	}
	return true
}

// highestPostID is the highest id among the newest posts and the posts
// acknowledged.
func (cnt *crashCount) highestPostID(c *client, creates []*keyedCreate) (int64, bool) {
	var hi int64
	for _, k := range creates {
		if id, err := strconv.ParseInt(k.id, 10, 64); k.post && err == nil {
			hi = max(hi, id)
		}
	}
	a := c.do(graphql(`{ posts(first: 50) { id } }`, nil, ""))
	var res gqlResult
	var newest []postFields
	if a.err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &res) != nil || len(res.Errors) > 0 ||
		json.Unmarshal(res.Data["posts"], &newest) != nil {
		cnt.failed = "posts(first: 50): " + a.String()
		return 0, false
	}
	for _, p := range newest {
		if id, err := strconv.ParseInt(p.ID, 10, 64); err == nil {
			hi = max(hi, id)
		}
	}
	return hi, true
}

// readPosts reads the posts of ids lo to lo+postBatch-1 in one request,
// one aliased post(id) field each, and returns those that exist.
func (cnt *crashCount) readPosts(c *client, lo int64) ([]postFields, bool) {
	var params, fields strings.Builder
	vars := map[string]any{}
	for i := range postBatch {
		fmt.Fprintf(&params, "$i%d: ID!, ", i)
		fmt.Fprintf(&fields, "p%d: post(id: $i%d) { id title } ", i, i)
		vars["i"+strconv.Itoa(i)] = strconv.FormatInt(lo+int64(i), 10)
	}
	query := "query (" + strings.TrimSuffix(params.String(), ", ") + ") { " + fields.String() + "}"
	a := c.do(graphql(query, vars, ""))
	var res gqlResult
	if a.err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &res) != nil || len(res.Errors) > 0 {
		cnt.failed = fmt.Sprintf("post(id) for ids %d to %d: %s", lo, lo+postBatch-1, a)
		return nil, false
	}
	var posts []postFields
	for _, raw := range res.Data {
		var p *postFields
		if err := json.Unmarshal(raw, &p); err != nil {
			cnt.failed = "post(id): " + a.String()
			return nil, false
		}
		if p != nil {
			posts = append(posts, *p)
		}
	}
	cnt.postsProbed += postBatch
	return posts, true
}

// logSummary is what the server's output held.
type logSummary struct {
	lines, errors int
	samples       []string // the first few lines at error level
	err           string   // the log could not be read
}

// summarizeLog counts the lines of the server's output in the file at
// path from offset on, and those at error level or above.
func summarizeLog(path string, offset int64) logSummary {
	var s logSummary
	r, err := os.Open(path)
	if err == nil {
		_, err = r.Seek(offset, io.SeekStart)
	}
	if err != nil {
		s.err = err.Error()
		return s
	}
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		s.lines++
		line := sc.Text()
		if strings.Contains(line, `"level":"error"`) || strings.Contains(line, `"level":"fatal"`) ||
			strings.Contains(line, `"level":"panic"`) {
			s.errors++
			if len(s.samples) < 3 {
				s.samples = append(s.samples, truncate(line, 400))
			}
		}
	}
	if err := sc.Err(); err != nil {
		s.err = err.Error()
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
