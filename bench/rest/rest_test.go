package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
)

// TestStatementsMatchKit checks that the bare handler's statements are
// still, word for word, those of the kit's stores.
func TestStatementsMatchKit(t *testing.T) {
	src, err := os.ReadFile("../../sqlstore/articlequeries.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, text string }{
		{name: "countPublished", text: countPublished},
		{name: "listPublished", text: listPublished},
	} {
		if decl := tt.name + " = `" + tt.text + "`"; !bytes.Contains(src, []byte(decl)) {
			t.Errorf("sqlstore/articlequeries.go has no\n%s", decl)
		}
	}
}

// extra are articles that TestSameBody adds to the workload: unpublished
// ones newer than everything (which must not show), text that JSON has to
// escape or must leave alone, two with the same timestamp (id breaks the
// tie), a whole second and a time given in another zone.
func extra(users [2]int64) []articles.NewArticle {
	newest := seedEpoch.Add(Articles * time.Minute)
	paris := time.FixedZone("CET", 3600)
	return []articles.NewArticle{
		{UserID: users[0], Title: "Draft", Body: "unpublished", CreatedAt: newest.Add(time.Hour)},
		{UserID: users[1], Title: `<b>Tom & Jerry</b> "quoted" back\slash`, Body: "line\nbreak\ttab \x01 \u2028 \u2029 é 😀 </script>", Published: true, CreatedAt: newest.Add(time.Second)},
		{UserID: users[0], Title: "Same time, lower id", Body: "b", Published: true, CreatedAt: newest.Add(2 * time.Second)},
		{UserID: users[1], Title: "Same time, higher id", Body: "c", Published: true, CreatedAt: newest.Add(2 * time.Second)},
		{UserID: users[1], Title: "Whole second", Body: "d", Published: true, CreatedAt: newest.Add(3 * time.Second).Truncate(time.Second)},
		{UserID: users[0], Title: "In Paris", Body: "e", Published: true, CreatedAt: newest.Add(4 * time.Second).In(paris)},
		{UserID: users[0], Title: "Another draft", Body: "unpublished", CreatedAt: newest.Add(2 * time.Hour)},
	}
}

// TestSameBody serves the same requests from the kit's handler and the bare
// one, each on a real server on loopback, and checks that the status, the
// headers and the body bytes are the same, on every kind of database.
func TestSameBody(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			db := fresh(t, kind)
			if err := Seed(ctx, db.Store); err != nil {
				t.Fatal(err)
			}
			var odd [2]int64
			for i, name := range []string{"Ådá Łovelace <ada@example>", `Grace "Amazing" Hopper`} {
				id, err := db.Store.CreateUser(ctx, name, "odd"+strconv.Itoa(i)+"@bench.test", []byte("x"))
				if err != nil {
					t.Fatal(err)
				}
				odd[i] = id
			}
			published := int64(Articles)
			for _, a := range extra(odd) {
				if _, err := db.Store.CreateArticle(ctx, a); err != nil {
					t.Fatal(err)
				}
				if a.Published {
					published++
				}
			}

			kitHandler, err := db.Kit()
			if err != nil {
				t.Fatal(err)
			}
			kit := httptest.NewServer(kitHandler)
			defer kit.Close()
			bare := httptest.NewServer(db.Bare())
			defer bare.Close()

			for _, query := range []string{
				"",
				"?per_page=15",
				"?per_page=15&page=1",
				"?page=2",
				"?per_page=1&page=3",
				"?per_page=100",
				"?per_page=100&page=3",      // past the end: empty data, null from and to
				"?per_page=7&page=30",       // the last page, short
				"?page=2&page=1",            // the last value counts
				"?page=999999999999999",     // far past the end
				"?per_page=15&page=1&x=%20", // other parameters are ignored
			} {
				t.Run(query, func(t *testing.T) {
					want := get(t, kit.URL+Path+query)
					got := get(t, bare.URL+Path+query)
					if got.status != http.StatusOK || want.status != http.StatusOK {
						t.Fatalf("status: bare %d, kit %d; want 200 from both\nkit: %s", got.status, want.status, want.body)
					}
					if g, w := got.header.Get("Content-Type"), want.header.Get("Content-Type"); g != w {
						t.Errorf("Content-Type: bare %q, kit %q", g, w)
					}
					// Both send every answer whole, with its length.
					if g, w := got.header.Get("Content-Length"), want.header.Get("Content-Length"); g != w || w == "" {
						t.Errorf("Content-Length: bare %q, kit %q (%d bytes); want the same length", g, w, len(want.body))
					}
					if !bytes.Equal(got.body, want.body) {
						t.Errorf("body:\nbare: %s\n kit: %s", got.body, want.body)
					}
				})
			}

			// The answers compared above are the right ones, not merely equal.
			var page struct {
				Data []struct {
					ID        int64  `json:"id"`
					Title     string `json:"title"`
					CreatedAt string `json:"created_at"`
					Author    struct {
						Name string `json:"name"`
					} `json:"author"`
				} `json:"data"`
				Links map[string]*string `json:"links"`
				Meta  struct {
					From, To, Total *int64
				} `json:"meta"`
			}
			r := get(t, bare.URL+Target)
			if err := json.Unmarshal(r.body, &page); err != nil {
				t.Fatalf("%v in %s", err, r.body)
			}
			var titles []string
			for _, a := range page.Data {
				titles = append(titles, a.Title)
			}
			wantTitles := []string{"In Paris", "Whole second", "Same time, higher id", "Same time, lower id", `<b>Tom & Jerry</b> "quoted" back\slash`, "Article 200: "}
			if len(titles) != 15 {
				t.Fatalf("%d articles, want 15: %q", len(titles), titles)
			}
			for i, w := range wantTitles {
				if !strings.HasPrefix(titles[i], w) {
					t.Errorf("article %d is %q, want %q…", i, titles[i], w)
				}
			}
			if got, want := page.Data[0].CreatedAt, "2026-01-05T12:20:04.000000Z"; got != want {
				t.Errorf("created_at %q, want %q", got, want)
			}
			if got, want := page.Data[4].Author.Name, `Grace "Amazing" Hopper`; got != want {
				t.Errorf("author %q, want %q", got, want)
			}
			if m := page.Meta; m.From == nil || *m.From != 1 || m.To == nil || *m.To != 15 || m.Total == nil || *m.Total != published {
				t.Errorf("meta %s, want from 1, to 15, total %d", r.body[bytes.Index(r.body, []byte(`"meta"`)):], published)
			}
			if next, want := page.Links["next"], "http://api.bench.test"+Path+"?page=2&per_page=15"; next == nil || *next != want {
				t.Errorf("next link %v, want %s", next, want)
			}
			if !bytes.Contains(r.body, []byte(`"body":"line\nbreak\ttab \u0001 \u2028 \u2029 é 😀 </script>"`)) {
				t.Errorf("the odd body is not as encoding/json writes it without HTML escaping: %s", r.body)
			}
		})
	}
}

// TestBareRefusesBadRequests checks the bare handler's own answers to what
// the benchmarks never send.
func TestBareRefusesBadRequests(t *testing.T) {
	srv := httptest.NewServer(fresh(t, "sqlite").Bare())
	defer srv.Close()
	for _, tt := range []struct {
		method, query string
		status        int
		body          string
	}{
		{method: http.MethodGet, query: "?per_page=0", status: http.StatusUnprocessableEntity, body: `{"message":"Bad per_page."}`},
		{method: http.MethodGet, query: "?per_page=101", status: http.StatusUnprocessableEntity, body: `{"message":"Bad per_page."}`},
		{method: http.MethodGet, query: "?page=0", status: http.StatusUnprocessableEntity, body: `{"message":"Bad page."}`},
		{method: http.MethodGet, query: "?page=x", status: http.StatusUnprocessableEntity, body: `{"message":"Bad page."}`},
		{method: http.MethodPost, query: "", status: http.StatusMethodNotAllowed, body: `{"message":"Method not allowed."}`},
		{method: http.MethodGet, query: "?page=2", status: http.StatusOK, body: `{"data":[],"links":{"first":"` + srv.URL + Path + `?page=1&per_page=15","last":"` + srv.URL + Path + `?page=1&per_page=15","prev":"` + srv.URL + Path + `?page=1&per_page=15","next":null},"meta":{"current_page":2,"from":null,"last_page":1,"path":"` + srv.URL + Path + `","per_page":15,"to":null,"total":0}}`},
	} {
		req, err := http.NewRequest(tt.method, srv.URL+Path+tt.query, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != tt.status || string(body) != tt.body {
			t.Errorf("%s %s: %d %s, want %d %s", tt.method, tt.query, resp.StatusCode, body, tt.status, tt.body)
		}
	}
}

// TestSeed checks the workload and that Seed refuses a database that holds
// articles already.
func TestSeed(t *testing.T) {
	ctx := context.Background()
	db := fresh(t, "sqlite")
	if err := Seed(ctx, db.Store); err != nil {
		t.Fatal(err)
	}
	authors := map[int64]bool{}
	var newest string
	var page articles.Page
	if err := db.Store.ListPublished(ctx, 100, 0, &page); err != nil {
		t.Fatal(err)
	}
	for _, a := range page.Articles {
		if newest == "" {
			newest = a.Title
		}
		authors[a.UserID] = true
		if n := len(a.Body); n < 600 || n > 700 {
			t.Errorf("article %d: body of %d bytes, want 600 to 700", a.ID, n)
		}
	}
	if page.Total != Articles || len(authors) != Authors {
		t.Errorf("%d articles by %d authors, want %d by %d", page.Total, len(authors), Articles, Authors)
	}
	if got, want := newest, "Article 200: "; !strings.HasPrefix(got, want) {
		t.Errorf("newest title %q, want %q…", got, want)
	}
	if err := Seed(ctx, db.Store); err == nil || !strings.Contains(err.Error(), "already holds") {
		t.Errorf("second Seed: %v, want an error saying the database already holds articles", err)
	}
}

// answer is a response read in full.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// get sends GET url with the Host header "api.bench.test", so that the
// links of two servers on different ports compare equal.
func get(t *testing.T, url string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "api.bench.test"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: body}
}
