package articles_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
)

// seed stores Ada's and Bob's articles for the read tests and returns the
// JSON of each by name. Published newest first: fourth, third, first.
func seed(e *env) map[string]string {
	e.t.Helper()
	ada, _ := e.user("Ada")
	bob, _ := e.user("Bob")
	at := func(s string) time.Time {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			e.t.Fatal(err)
		}
		return t
	}
	out := make(map[string]string)
	for _, a := range []struct {
		name      string
		user      int64
		author    string
		published bool
		created   string
		want      string // created_at as shown
	}{
		{name: "first", user: ada, author: `"Ada"`, published: true, created: "2025-01-01T11:00:00.000001999+01:00", want: "2025-01-01T10:00:00.000001Z"},
		{name: "draft", user: ada, author: `"Ada"`, created: "2025-01-01T11:00:00Z", want: "2025-01-01T11:00:00.000000Z"},
		{name: "third", user: bob, author: `"Bob"`, published: true, created: "2025-01-01T12:00:00.5Z", want: "2025-01-01T12:00:00.500000Z"},
		{name: "fourth", user: ada, author: `"Ada"`, published: true, created: "2025-01-01T13:00:00Z", want: "2025-01-01T13:00:00.000000Z"},
	} {
		got := e.article(articles.NewArticle{
			UserID: a.user, Title: "The " + a.name, Body: "Body <b>&</b> of " + a.name,
			Published: a.published, CreatedAt: at(a.created),
		})
		out[a.name] = articleJSON(got.ID, a.user, `"The `+a.name+`"`, `"Body <b>&</b> of `+a.name+`"`, a.published, a.want, a.author)
	}
	return out
}

// fill replaces {P} with the collection URL and {name} with the JSON of
// the article name.
func fill(e *env, s string, arts map[string]string) string {
	s = strings.ReplaceAll(s, "{P}", e.srv.URL+"/api/articles")
	for name, js := range arts {
		s = strings.ReplaceAll(s, "{"+name+"}", js)
	}
	return s
}

func TestListEmpty(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		got := e.do(request{method: "GET", path: "/api/articles"})
		expect(t, "GET /api/articles", got, http.StatusOK, fill(e,
			`{"data":[],"links":{"first":"{P}?page=1&per_page=15","last":"{P}?page=1&per_page=15","prev":null,"next":null},`+
				`"meta":{"current_page":1,"from":null,"last_page":1,"path":"{P}","per_page":15,"to":null,"total":0}}`, nil))
	})
}

func TestList(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		arts := seed(e)
		cases := []struct {
			path string
			want string
		}{
			{
				path: "/api/articles",
				want: `{"data":[{fourth},{third},{first}],"links":{"first":"{P}?page=1&per_page=15","last":"{P}?page=1&per_page=15","prev":null,"next":null},` +
					`"meta":{"current_page":1,"from":1,"last_page":1,"path":"{P}","per_page":15,"to":3,"total":3}}`,
			},
			{
				path: "/api/articles?per_page=2",
				want: `{"data":[{fourth},{third}],"links":{"first":"{P}?page=1&per_page=2","last":"{P}?page=2&per_page=2","prev":null,"next":"{P}?page=2&per_page=2"},` +
					`"meta":{"current_page":1,"from":1,"last_page":2,"path":"{P}","per_page":2,"to":2,"total":3}}`,
			},
			{
				path: "/api/articles?page=2&per_page=2",
				want: `{"data":[{first}],"links":{"first":"{P}?page=1&per_page=2","last":"{P}?page=2&per_page=2","prev":"{P}?page=1&per_page=2","next":null},` +
					`"meta":{"current_page":2,"from":3,"last_page":2,"path":"{P}","per_page":2,"to":3,"total":3}}`,
			},
			{
				path: "/api/articles?per_page=1&page=2",
				want: `{"data":[{third}],"links":{"first":"{P}?page=1&per_page=1","last":"{P}?page=3&per_page=1","prev":"{P}?page=1&per_page=1","next":"{P}?page=3&per_page=1"},` +
					`"meta":{"current_page":2,"from":2,"last_page":3,"path":"{P}","per_page":1,"to":2,"total":3}}`,
			},
			{
				// Past the end: 200, empty data, from and to null.
				path: "/api/articles?page=3&per_page=2",
				want: `{"data":[],"links":{"first":"{P}?page=1&per_page=2","last":"{P}?page=2&per_page=2","prev":"{P}?page=2&per_page=2","next":null},` +
					`"meta":{"current_page":3,"from":null,"last_page":2,"path":"{P}","per_page":2,"to":null,"total":3}}`,
			},
			{
				path: "/api/articles?page=9223372036854775807&per_page=100",
				want: `{"data":[],"links":{"first":"{P}?page=1&per_page=100","last":"{P}?page=1&per_page=100","prev":"{P}?page=9223372036854775806&per_page=100","next":null},` +
					`"meta":{"current_page":9223372036854775807,"from":null,"last_page":1,"path":"{P}","per_page":100,"to":null,"total":3}}`,
			},
			{
				// A trailing slash, other parameters, a repeated one (the
				// last wins, as in PHP): links keep only page and per_page.
				path: "/api/articles/?per_page=3&sort=title&page=x&page=1",
				want: `{"data":[{fourth},{third},{first}],"links":{"first":"{P}?page=1&per_page=3","last":"{P}?page=1&per_page=3","prev":null,"next":null},` +
					`"meta":{"current_page":1,"from":1,"last_page":1,"path":"{P}","per_page":3,"to":3,"total":3}}`,
			},
		}
		for _, c := range cases {
			expect(t, "GET "+c.path, e.do(request{method: "GET", path: c.path}), http.StatusOK, fill(e, c.want, arts))
		}

		head := e.do(request{method: "HEAD", path: "/api/articles"})
		expect(t, "HEAD /api/articles", head, http.StatusOK, "")
		if ct := head.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("HEAD /api/articles: Content-Type = %q, want application/json", ct)
		}
	})
}

func TestListValidation(t *testing.T) {
	integer := func(field, attr string) string {
		return fmt.Sprintf(`{"message":"The %s field must be an integer.","errors":{"%s":["The %s field must be an integer."]}}`, attr, field, attr)
	}
	atLeast := func(field, attr string) string {
		return fmt.Sprintf(`{"message":"The %s field must be at least 1.","errors":{"%s":["The %s field must be at least 1."]}}`, attr, field, attr)
	}
	const tooBig = `{"message":"The per page field must not be greater than 100.","errors":{"per_page":["The per page field must not be greater than 100."]}}`
	cases := []struct {
		query  string
		status int
		want   string
	}{
		{query: "per_page=0", status: 422, want: atLeast("per_page", "per page")},
		{query: "per_page=-1", status: 422, want: atLeast("per_page", "per page")},
		{query: "per_page=101", status: 422, want: tooBig},
		{query: "per_page=9223372036854775807", status: 422, want: tooBig},
		{query: "per_page=abc", status: 422, want: integer("per_page", "per page")},
		{query: "per_page=", status: 422, want: integer("per_page", "per page")},
		{query: "per_page=1.5", status: 422, want: integer("per_page", "per page")},
		{query: "per_page=1e2", status: 422, want: integer("per_page", "per page")},
		{query: "per_page=%2B5", status: 422, want: integer("per_page", "per page")},
		{query: "per_page=%205", status: 422, want: integer("per_page", "per page")},
		{query: "per_page=05", status: 422, want: integer("per_page", "per page")},
		{query: "per_page=0x10", status: 422, want: integer("per_page", "per page")},
		{query: "per_page[]=5", status: 200, want: ""}, // another parameter's name: ignored
		{query: "page=0", status: 422, want: atLeast("page", "page")},
		{query: "page=-3", status: 422, want: atLeast("page", "page")},
		{query: "page=abc", status: 422, want: integer("page", "page")},
		{query: "page=", status: 422, want: integer("page", "page")},
		{query: "page=99999999999999999999", status: 422, want: integer("page", "page")},
		{query: "page=%EF%BC%91", status: 422, want: integer("page", "page")}, // fullwidth digit one
		{query: "page=1&page=x", status: 422, want: integer("page", "page")},
		{
			query: "page=0&per_page=500", status: 422,
			want: `{"message":"The page field must be at least 1. (and 1 more error)","errors":{"page":["The page field must be at least 1."],"per_page":["The per page field must not be greater than 100."]}}`,
		},
		{query: "page=%zz", status: 400, want: `{"message":"The query string is malformed."}`},
		{query: "page=1;per_page=2", status: 400, want: `{"message":"The query string is malformed."}`},
	}
	forEachStore(t, func(t *testing.T, e *env) {
		for _, c := range cases {
			got := e.do(request{method: "GET", path: "/api/articles?" + c.query})
			if c.want == "" {
				if got.status != c.status {
					t.Errorf("GET ?%s: status = %d, want %d (body %s)", c.query, got.status, c.status, got.body)
				}
				continue
			}
			expect(t, "GET ?"+c.query, got, c.status, c.want)
		}
	})
}

// TestListQueryCount shows that a list over HTTP costs at most three
// queries whatever the page size.
func TestListQueryCount(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		var users []int64
		for _, name := range []string{"Ada", "Bob", "Cy", "Di"} {
			id, _ := e.user(name)
			users = append(users, id)
		}
		for i := range 130 {
			e.article(articles.NewArticle{
				UserID: users[i%len(users)], Title: fmt.Sprint("t", i), Body: "b",
				Published: i%13 != 0, CreatedAt: now.Add(time.Duration(i) * time.Minute),
			})
		}
		for _, perPage := range []int{1, 15, 100} {
			for _, page := range []int{1, 2} {
				path := fmt.Sprintf("/api/articles?per_page=%d&page=%d", perPage, page)
				before := e.counter.Queries()
				got := e.do(request{method: "GET", path: path})
				n := e.counter.Queries() - before
				if got.status != http.StatusOK || !strings.Contains(got.body, `"total":120}`) {
					t.Fatalf("GET %s: %d %.200s", path, got.status, got.body)
				}
				if n > 3 {
					t.Errorf("GET %s cost %d queries, want at most 3", path, n)
				}
				t.Logf("GET %s: %d queries", path, n)
			}
		}
	})
}
