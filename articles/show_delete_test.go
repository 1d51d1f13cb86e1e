package articles_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
)

func TestShow(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		arts := seed(e)
		// Ids 1 to 4 in seed order; 2 is the draft.
		expect(t, "GET a published article", e.do(request{method: "GET", path: "/api/articles/3"}),
			http.StatusOK, `{"data":`+arts["third"]+`}`)
		expect(t, "GET with a trailing query", e.do(request{method: "GET", path: "/api/articles/1?x=1"}),
			http.StatusOK, `{"data":`+arts["first"]+`}`)
		for _, id := range []string{"2", "5", "0", "-1", "007", "1.0", "1e0", "%2B1", "abc", "9223372036854775807", "9223372036854775808", "99999999999999999999999"} {
			expect(t, "GET /api/articles/"+id, e.do(request{method: "GET", path: "/api/articles/" + id}), http.StatusNotFound, notFound)
		}
		// A token changes nothing for reads: drafts stay hidden from
		// their author too.
		_, ada := e.user("Ada2")
		expect(t, "GET a draft with a token", e.do(request{method: "GET", path: "/api/articles/2", token: ada}), http.StatusNotFound, notFound)
		// A deeper path is no route.
		expect(t, "GET /api/articles/1/comments", e.do(request{method: "GET", path: "/api/articles/1/comments"}), http.StatusNotFound, notFound)
	})
}

func TestDelete(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		adaID, ada := e.user("Ada")
		bobID, bob := e.user("Bob")
		goneID, gone := e.user("Gone")
		published := e.article(articles.NewArticle{UserID: adaID, Title: "p", Body: "b", Published: true})
		draft := e.article(articles.NewArticle{UserID: adaID, Title: "d", Body: "b"})
		bobs := e.article(articles.NewArticle{UserID: bobID, Title: "b", Body: "b", Published: true})
		if err := e.store.DeleteUser(t.Context(), goneID); err != nil {
			t.Fatal(err)
		}
		path := func(id int64) string { return "/api/articles/" + strconv.FormatInt(id, 10) }

		cases := []struct {
			name   string
			path   string
			token  string
			status int
			body   string
		}{
			{name: "no token", path: path(published.ID), status: http.StatusUnauthorized, body: unauthenticated},
			{name: "bad token", path: path(published.ID), token: "not.a.token", status: http.StatusUnauthorized, body: unauthenticated},
			{name: "no token, bad id", path: "/api/articles/abc", status: http.StatusUnauthorized, body: unauthenticated},
			{name: "deleted user", path: path(published.ID), token: gone, status: http.StatusUnauthorized, body: unauthenticated},
			{name: "deleted user, missing article", path: path(999), token: gone, status: http.StatusUnauthorized, body: unauthenticated},
			{name: "another's article", path: path(published.ID), token: bob, status: http.StatusForbidden, body: forbidden},
			{name: "another's draft", path: path(draft.ID), token: bob, status: http.StatusForbidden, body: forbidden},
			{name: "missing article", path: path(999), token: ada, status: http.StatusNotFound, body: notFound},
			{name: "id zero", path: "/api/articles/0", token: ada, status: http.StatusNotFound, body: notFound},
			{name: "negative id", path: "/api/articles/-1", token: ada, status: http.StatusNotFound, body: notFound},
			{name: "leading zero", path: "/api/articles/0" + strconv.FormatInt(published.ID, 10), token: ada, status: http.StatusNotFound, body: notFound},
			{name: "not a number", path: "/api/articles/abc", token: ada, status: http.StatusNotFound, body: notFound},
			{name: "own draft", path: path(draft.ID), token: ada, status: http.StatusNoContent},
			{name: "own article", path: path(published.ID), token: ada, status: http.StatusNoContent},
			{name: "own article again", path: path(published.ID), token: ada, status: http.StatusNotFound, body: notFound},
		}
		for _, c := range cases {
			got := e.do(request{method: "DELETE", path: c.path, token: c.token})
			expect(t, c.name, got, c.status, c.body)
			if c.status == http.StatusUnauthorized {
				if h := got.header.Get("WWW-Authenticate"); h != "Bearer" {
					t.Errorf("%s: WWW-Authenticate = %q, want Bearer", c.name, h)
				}
			}
		}

		expect(t, "GET the deleted article", e.do(request{method: "GET", path: path(published.ID)}), http.StatusNotFound, notFound)
		expect(t, "GET bob's article", e.do(request{method: "GET", path: path(bobs.ID)}), http.StatusOK,
			`{"data":`+articleJSON(bobs.ID, bobID, `"b"`, `"b"`, true, bobs.CreatedAt.Format(articles.TimeFormat), `"Bob"`)+`}`)
	})
}

func TestMethodNotAllowed(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		_, ada := e.user("Ada")
		for _, c := range []struct {
			method, path, allow string
		}{
			{method: "PUT", path: "/api/articles", allow: "GET, HEAD, POST"},
			{method: "PATCH", path: "/api/articles", allow: "GET, HEAD, POST"},
			{method: "DELETE", path: "/api/articles", allow: "GET, HEAD, POST"},
			{method: "OPTIONS", path: "/api/articles", allow: "GET, HEAD, POST"},
			{method: "POST", path: "/api/articles/1", allow: "GET, HEAD, DELETE"},
			{method: "PUT", path: "/api/articles/1", allow: "GET, HEAD, DELETE"},
			{method: "PATCH", path: "/api/articles/abc", allow: "GET, HEAD, DELETE"},
		} {
			got := e.do(request{method: c.method, path: c.path, token: ada, body: `{"title":"t","body":"b"}`})
			expect(t, c.method+" "+c.path, got, http.StatusMethodNotAllowed, notAllowed)
			if a := got.header.Get("Allow"); a != c.allow {
				t.Errorf("%s %s: Allow = %q, want %q", c.method, c.path, a, c.allow)
			}
		}
	})
}
