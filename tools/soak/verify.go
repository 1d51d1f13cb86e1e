package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
)

// verification is what reading back the writes found.
type verification struct {
	readBack       int // acknowledged writes read back
	lostCreates    int // acknowledged creates that are missing
	lostDeletes    int // acknowledged deletes whose row is back
	duplicateIDs   int // ids the server handed out more than once
	listDuplicates int // ids listed twice: across the pages, or in posts
	listMissing    int // live published articles the list does not hold

	totalBefore, totalAfter int64 // meta.total before the load and after the checks
	listed                  int64 // articles seen walking every page
	livePublished           int64 // published articles the soak left behind
	uncertainPublished      int64 // published article writes of unknown outcome

	pages pageTally // the pages of the final walks, checked for agreement

	internal int // 5xx answers (or INTERNAL_SERVER_ERRORs) while checking
	failed   int // other answers that made a check impossible
	problems []string
}

// lost is the number of lost writes.
func (v *verification) lost() int { return v.lostCreates + v.lostDeletes }

// duplicates is the number of rows seen twice.
func (v *verification) duplicates() int { return v.duplicateIDs + v.listDuplicates }

// totalOK reports whether the list holds what the soak left behind: its
// total grew by the published articles the soak created and did not delete
// (give or take the writes of unknown outcome), and the pages hold exactly
// that many articles.
func (v *verification) totalOK() bool {
	growth := v.totalAfter - v.totalBefore
	return v.listMissing == 0 && v.listed == v.totalAfter &&
		growth >= v.livePublished && growth <= v.livePublished+v.uncertainPublished
}

// checker collects the findings of the clients' read-backs.
type checker struct {
	c  *client
	mu sync.Mutex
	v  verification
}

// problem records a finding; kind points at the counter it adds to.
func (ch *checker) problem(counter *int, format string, args ...any) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	*counter++
	if len(ch.v.problems) < maxSamples {
		ch.v.problems = append(ch.v.problems, fmt.Sprintf(format, args...))
	}
}

// broken records an answer that made a check impossible.
func (ch *checker) broken(what string, a answer) {
	counter := &ch.v.failed
	if a.status >= 500 {
		counter = &ch.v.internal
	}
	ch.problem(counter, "%s: %s", what, a)
}

func (ch *checker) readBack(n int) {
	ch.mu.Lock()
	ch.v.readBack += n
	ch.mu.Unlock()
}

// verify reads back every write of every client, then walks the list.
func verify(c *client, workers []*worker, totalBefore int64) verification {
	ch := &checker{c: c}
	ch.v.totalBefore = totalBefore
	ch.countDuplicateIDs(workers)
	for _, w := range workers {
		for _, a := range w.led.liveArticles {
			if a.published {
				ch.v.livePublished++
			}
		}
		ch.v.uncertainPublished += int64(w.led.uncertainPublished)
	}

	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() { ch.readBackLedger(w) })
	}
	wg.Wait()

	ch.walkList(workers)
	ch.probeListEnd()
	ch.checkPostList()
	return ch.v
}

// countDuplicateIDs counts the ids acknowledged more than once.
func (ch *checker) countDuplicateIDs(workers []*worker) {
	articleIDs, postIDs := map[int64]int{}, map[string]int{}
	for _, w := range workers {
		for _, a := range w.led.createdArticles {
			articleIDs[a.id]++
		}
		for _, p := range w.led.createdPosts {
			postIDs[p.id]++
		}
	}
	for id, n := range articleIDs {
		if n > 1 {
			ch.problem(&ch.v.duplicateIDs, "article id %d handed out %d times", id, n)
		}
	}
	for id, n := range postIDs {
		if n > 1 {
			ch.problem(&ch.v.duplicateIDs, "post id %s handed out %d times", id, n)
		}
	}
}

// readBackLedger checks one client's writes. Its drafts can only be seen
// by deleting them: a 204 proves that the draft was there (and removes it).
func (ch *checker) readBackLedger(w *worker) {
	led := &w.led
	for _, a := range led.liveArticles {
		if a.published {
			switch got, ok := ch.showArticle(a.id); {
			case !ok:
			case got == nil:
				ch.problem(&ch.v.lostCreates, "article %d (created, 201) is missing", a.id)
			case got.Title != a.title || got.UserID != w.user.id:
				ch.problem(&ch.v.lostCreates, "article %d differs: title %q, user %d", a.id, got.Title, got.UserID)
			}
		} else if there, ok := ch.deleteArticle(w, a.id); ok && !there {
			ch.problem(&ch.v.lostCreates, "draft %d (created, 201) is missing", a.id)
		}
	}
	for _, a := range led.deletedArticles {
		if a.published {
			if got, ok := ch.showArticle(a.id); ok && got != nil {
				ch.problem(&ch.v.lostDeletes, "article %d (deleted, 204) is back", a.id)
			}
		} else if there, ok := ch.deleteArticle(w, a.id); ok && there {
			ch.problem(&ch.v.lostDeletes, "draft %d (deleted, 204) was back", a.id)
		}
	}
	for _, p := range led.livePosts {
		switch got, ok := ch.findPost(p.id); {
		case !ok:
		case got == nil:
			ch.problem(&ch.v.lostCreates, "post %s (created) is missing", p.id)
		case got.Title != p.title:
			ch.problem(&ch.v.lostCreates, "post %s differs: title %q", p.id, got.Title)
		}
	}
	for _, p := range led.deletedPosts {
		if got, ok := ch.findPost(p.id); ok && got != nil {
			ch.problem(&ch.v.lostDeletes, "post %s (deleted) is back", p.id)
		}
	}
	ch.readBack(len(led.liveArticles) + len(led.deletedArticles) + len(led.livePosts) + len(led.deletedPosts))
}

// showArticle reads a published article: nil when it is missing. ok is
// false when the answer was neither.
func (ch *checker) showArticle(id int64) (*articleFields, bool) {
	what := "GET /api/articles/" + strconv.FormatInt(id, 10)
	a := ch.c.do(request{method: http.MethodGet, path: "/api/articles/" + strconv.FormatInt(id, 10)})
	switch {
	case a.err == nil && a.status == http.StatusNotFound:
		return nil, true
	case a.err == nil && a.status == http.StatusOK:
		var got struct{ Data articleFields }
		if err := json.Unmarshal(a.body, &got); err != nil || got.Data.ID != id {
			ch.broken(what, a)
			return nil, false
		}
		return &got.Data, true
	}
	ch.broken(what, a)
	return nil, false
}

// deleteArticle deletes one of w's articles and reports whether it was
// there (204) or not (404).
func (ch *checker) deleteArticle(w *worker, id int64) (there, ok bool) {
	path := "/api/articles/" + strconv.FormatInt(id, 10)
	a := ch.c.do(request{method: http.MethodDelete, path: path, token: w.user.token})
	switch {
	case a.err == nil && a.status == http.StatusNoContent:
		return true, true
	case a.err == nil && a.status == http.StatusNotFound:
		return false, true
	}
	ch.broken("DELETE "+path, a)
	return false, false
}

// findPost reads a post: nil when it is missing.
func (ch *checker) findPost(id string) (*postFields, bool) {
	what := "post(id: " + id + ")"
	a := ch.c.do(graphql(`query ($id: ID!) { post(id: $id) { id title } }`, map[string]any{"id": id}, ""))
	var res gqlResult
	if a.err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &res) != nil || len(res.Errors) > 0 {
		if len(res.Errors) > 0 && res.Errors[0].Extensions["code"] == "INTERNAL_SERVER_ERROR" {
			a.status = http.StatusInternalServerError
		}
		ch.broken(what, a)
		return nil, false
	}
	var got *postFields
	if err := json.Unmarshal(res.Data["post"], &got); err != nil || got != nil && got.ID != id {
		ch.broken(what, a)
		return nil, false
	}
	return got, true
}

// walkList reads every page of the list, 100 articles at a time, checks
// that each agrees with itself, that no article is on it twice and that
// the soak's live published articles are all on it.
func (ch *checker) walkList(workers []*worker) {
	seen := map[int64]bool{}
	for page, last := int64(1), int64(1); page <= last; page++ {
		got, ok := ch.listPage(page, 100)
		if !ok {
			ch.v.listed = -1 // the walk is incomplete
			return
		}
		if page == 1 {
			ch.v.totalAfter, last = got.Meta.Total, got.Meta.LastPage
		}
		for _, art := range got.Data {
			if seen[art.ID] {
				ch.problem(&ch.v.listDuplicates, "article %d listed twice", art.ID)
			}
			seen[art.ID] = true
			ch.v.listed++
		}
	}
	for _, w := range workers {
		for _, a := range w.led.liveArticles {
			if a.published && !seen[a.id] {
				ch.problem(&ch.v.listMissing, "article %d is not on any page of the list", a.id)
			}
		}
	}
}

// probeListEnd reads the pages around the end of the list with a few page
// sizes, now that nothing writes, and checks that each agrees with itself.
func (ch *checker) probeListEnd() {
	for _, perPage := range []int64{1, 7, 15, 100} {
		lastPage := max(1, (ch.v.totalAfter+perPage-1)/perPage)
		for page := max(1, lastPage-1); page <= lastPage+1; page++ {
			if _, ok := ch.listPage(page, perPage); !ok {
				return
			}
		}
	}
}

// listPage reads one page of the list and checks that it agrees with
// itself.
func (ch *checker) listPage(page, perPage int64) (*listPage, bool) {
	req := listRequest(page, perPage)
	a := ch.c.do(req)
	var got listPage
	if a.err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &got) != nil {
		ch.broken("GET "+req.path, a)
		return nil, false
	}
	ch.v.pages.check(ch.c.base+"/api/articles", page, perPage, &got)
	return &got, true
}

// checkPostList checks that the newest posts hold no post twice.
func (ch *checker) checkPostList() {
	a := ch.c.do(graphql(`{ posts(first: 50) { id } }`, nil, ""))
	var res gqlResult
	var posts []postFields
	if a.err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &res) != nil || len(res.Errors) > 0 ||
		json.Unmarshal(res.Data["posts"], &posts) != nil {
		ch.broken("posts(first: 50)", a)
		return
	}
	seen := map[string]bool{}
	for _, p := range posts {
		if seen[p.ID] {
			ch.problem(&ch.v.listDuplicates, "post %s listed twice", p.ID)
		}
		seen[p.ID] = true
	}
}
