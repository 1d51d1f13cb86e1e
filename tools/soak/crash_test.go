package main

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/internal/testenv"
)

// TestCrash runs a short crash soak on each database: the server is killed
// twice under keyed creates, and every acknowledged create is stored
// exactly once. The same run without keys must lose nothing either; its
// duplicates are not asserted (they depend on where the kills land).
func TestCrash(t *testing.T) {
	testenv.SkipIfShort(t, "end-to-end: the example server killed with SIGKILL and restarted, on each database")
	for _, db := range databases {
		t.Run(db.name, func(t *testing.T) {
			t.Parallel() // see databases
			dir := t.TempDir()
			env := serverEnv(db.url(t, dir))
			logins := addUsers(t, env, dir)
			for _, keys := range []bool{true, false} {
				cfg := config{concurrency: 4, logins: logins, timeout: 10 * time.Second, seed: 1, label: db.name,
					crash: crashConfig{enabled: true, server: serverBinary(t), env: env, dir: dir, kills: 2,
						killMin: 300 * time.Millisecond, killMax: 600 * time.Millisecond, keys: keys,
						serverLog: filepath.Join(dir, "server.log")}}
				res, err := crashSoak(context.Background(), cfg, t.Logf)
				if err != nil {
					t.Fatalf("crash soak (keys %t): %v", keys, err)
				}
				checkCrashResult(t, res)
			}
		})
	}
}

// checkCrashResult checks the outcome of a crash run of TestCrash.
func checkCrashResult(t *testing.T, res *crashResult) {
	t.Helper()
	tot, cnt, keys := res.totals(), &res.count, res.cfg.crash.keys
	summary := res.markdown()
	if !res.passed() {
		t.Errorf("keys %t: %s", keys, res.verdicts())
	}
	if res.proc.kills != 2 || len(res.proc.starts) != 3 {
		t.Errorf("keys %t: %d kills and %d starts, want 2 and 3", keys, res.proc.kills, len(res.proc.starts))
	}
	if tot.acked < 20 || tot.ackedPosts == 0 || tot.retries == 0 || cnt.pages.checked == 0 {
		t.Errorf("keys %t: too little happened: %d creates acknowledged (%d posts), %d retries, %d pages checked",
			keys, tot.acked, tot.ackedPosts, tot.retries, cnt.pages.checked)
	}
	if cnt.lost != 0 || (keys && cnt.duplicates != 0) || (!keys && tot.replays != 0) {
		t.Errorf("keys %t: %d lost, %d duplicates, %d replays", keys, cnt.lost, cnt.duplicates, tot.replays)
	}
	want := []string{"| lost writes | 0 (", "| kills | 2 SIGKILLs, 3 starts", "| result | **PASS** |"}
	if keys {
		want = append(want, "| duplicates | 0 (")
	}
	for _, w := range want {
		if !strings.Contains(summary, w) {
			t.Errorf("the summary lacks %q", w)
		}
	}
	if t.Failed() {
		t.Logf("summary:\n%s", summary)
	}
}

// TestCountCreates checks that the count of a crash run catches a title
// stored twice, a create acknowledged under another id, one acknowledged
// and missing, and a title nobody sent.
func TestCountCreates(t *testing.T) {
	dir := t.TempDir()
	srv := startServer(t, databases[0].url(t, dir), dir)
	c := newClient(srv.base, 10*time.Second, 1)
	defer c.closeIdle()
	users, err := resolveUsers(c, config{logins: srv.logins})
	if err != nil {
		t.Fatal(err)
	}
	create := func(k *keyedCreate) {
		cl := &crashClient{c: c, user: users[0]}
		if a := c.do(cl.request(k)); a.err != nil || a.status >= 300 {
			t.Fatalf("creating %q: %s", k.title, a)
		}
	}
	twice := &keyedCreate{title: "crash test c0 1"}
	otherID := &keyedCreate{post: true, title: "crash test c0 2"}
	create(twice)
	create(twice)
	create(otherID)
	create(&keyedCreate{title: "crash test c0 4"}) // not among the creates below
	twice.acked, twice.id, twice.attempts = true, "1", 2
	otherID.acked, otherID.id = true, "999"
	missing := &keyedCreate{title: "crash test c0 3", acked: true, id: "5"}

	cnt := countCreates(c, "test", []*keyedCreate{twice, otherID, missing})
	if cnt.failed != "" || cnt.duplicates != 1 || cnt.duplicated != 1 || cnt.idMismatch != 1 || cnt.lost != 1 || cnt.strays != 1 {
		t.Errorf("count: failed %q, %d duplicates (%d titles), %d ids differing, %d lost, %d strays; want 1 of each\n%v",
			cnt.failed, cnt.duplicates, cnt.duplicated, cnt.idMismatch, cnt.lost, cnt.strays, cnt.problems)
	}
}

// goodPage is page 2 of 7 articles, 3 a page, served at path.
func goodPage(path string) *listPage {
	var p listPage
	p.Data = make([]articleFields, 3)
	from, to := int64(4), int64(6)
	prev, next := pageLink(path, 1, 3), pageLink(path, 3, 3)
	p.Links.First, p.Links.Last, p.Links.Prev, p.Links.Next = pageLink(path, 1, 3), pageLink(path, 3, 3), &prev, &next
	p.Meta.CurrentPage, p.Meta.From, p.Meta.To, p.Meta.LastPage = 2, &from, &to, 3
	p.Meta.Path, p.Meta.PerPage, p.Meta.Total = path, 3, 7
	return &p
}

func TestPageDisagreements(t *testing.T) {
	const path = "http://127.0.0.1:1/api/articles"
	if bad := pageDisagreements(path, 2, 3, goodPage(path)); len(bad) != 0 {
		t.Fatalf("a consistent page: %v", bad)
	}
	past := goodPage(path) // page 4, past the end: no rows, no from or to
	past.Data, past.Meta.From, past.Meta.To, past.Meta.CurrentPage, past.Links.Next = nil, nil, nil, 4, nil
	prev := pageLink(path, 3, 3)
	past.Links.Prev = &prev
	if bad := pageDisagreements(path, 4, 3, past); len(bad) != 0 {
		t.Fatalf("a consistent page past the end: %v", bad)
	}
	for name, spoil := range map[string]func(p *listPage){
		"a row short":         func(p *listPage) { p.Data = p.Data[:2] },
		"total of another":    func(p *listPage) { p.Meta.Total = 4 },
		"from off by one":     func(p *listPage) { *p.Meta.From = 5 },
		"to missing":          func(p *listPage) { p.Meta.To = nil },
		"last page":           func(p *listPage) { p.Meta.LastPage = 2 },
		"no next link":        func(p *listPage) { p.Links.Next = nil },
		"last link":           func(p *listPage) { p.Links.Last = pageLink(path, 2, 3) },
		"another page":        func(p *listPage) { p.Meta.CurrentPage = 1 },
		"from on empty page":  func(p *listPage) { p.Data = nil; p.Meta.Total = 3; p.Meta.LastPage = 1; p.Links.Next = nil },
		"another path":        func(p *listPage) { p.Meta.Path = "http://localhost/api/articles" },
		"prev link to page 2": func(p *listPage) { p.Links.Prev = p.Links.Next },
	} {
		p := goodPage(path)
		spoil(p)
		if bad := pageDisagreements(path, 2, 3, p); len(bad) == 0 {
			t.Errorf("%s: no disagreement found", name)
		}
	}

	var tally pageTally
	tally.check(path, 2, 3, goodPage(path))
	tally.check(path, 4, 3, past)
	spoilt := goodPage(path)
	spoilt.Meta.Total = 100
	tally.check(path, 2, 3, spoilt)
	if tally.checked != 3 || tally.disagreements != 1 || tally.nearEnd != 2 || tally.pastEnd != 1 || len(tally.samples) != 1 {
		t.Errorf("tally: %+v", tally)
	}
}

// TestCrashRequests checks that a crash run's creates are the requests the
// server documents: a published article, and a createPost mutation, with
// the key when there is one.
func TestCrashRequests(t *testing.T) {
	cl := &crashClient{user: user{token: "t"}}
	article := cl.request(&keyedCreate{title: "crash r c0 1", key: "k1"})
	var body map[string]any
	if err := json.Unmarshal(article.body, &body); err != nil || body["published"] != true || body["title"] != "crash r c0 1" ||
		article.method != http.MethodPost || article.path != "/api/articles" || article.idempotencyKey != "k1" {
		t.Errorf("article request: %+v %s", article, article.body)
	}
	post := cl.request(&keyedCreate{post: true, title: "crash r c0 2"})
	if post.path != "/api/graphql" || !strings.Contains(string(post.body), "createPost") || post.idempotencyKey != "" {
		t.Errorf("post request: %+v %s", post, post.body)
	}
}
