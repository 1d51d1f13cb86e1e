package articles_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
)

// TestCreateInvalidUTF8 checks that a body that is not UTF-8 is refused
// with a 400 and stores nothing, instead of being stored with U+FFFD.
func TestCreateInvalidUTF8(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		_, ada := e.user("Ada")
		for _, body := range []string{"{\"title\":\"t\xff\",\"body\":\"b\"}", "{\"title\":\"t\",\"body\":\"\xed\xa0\x80\"}"} {
			got := e.do(request{method: "POST", path: "/api/articles", token: ada, body: body})
			expect(t, "invalid UTF-8", got, http.StatusBadRequest, `{"message":"The request body is not valid UTF-8."}`)
		}
		var page articles.Page
		if err := e.store.ListPublished(context.Background(), 10, 0, &page); err != nil || page.Total != 0 {
			t.Errorf("after refused bodies the store lists %d articles (error %v), want none", page.Total, err)
		}
	})
}

// userKey carries the user id of TestConfigUserID's authentication scheme.
type userKey struct{}

// TestConfigUserID checks that the handler reads the user through
// Config.UserID, so that another authentication scheme than auth's works.
func TestConfigUserID(t *testing.T) {
	s, c := storeOpeners[0].open(t)
	e := newEnv(t, s, c, articles.Config{UserID: func(ctx context.Context) (int64, bool) {
		id, ok := ctx.Value(userKey{}).(int64)
		return id, ok
	}})
	ada, token := e.user("Ada")
	// An auth token alone no longer makes a user: the scheme is another.
	got := e.do(request{method: "POST", path: "/api/articles", token: token, body: `{"title":"t","body":"b","published":true}`})
	expect(t, "auth token under another scheme", got, http.StatusUnauthorized, `{"message":"Unauthenticated."}`)
	if got.header.Get("WWW-Authenticate") != "Bearer" {
		t.Errorf("WWW-Authenticate = %q, want Bearer", got.header.Get("WWW-Authenticate"))
	}

	h, err := articles.NewHandler(s, articles.Config{UserID: func(ctx context.Context) (int64, bool) {
		id, ok := ctx.Value(userKey{}).(int64)
		return id, ok
	}})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/api/articles", strings.NewReader(`{"title":"Mine","body":"b","published":true}`))
	req.Header.Set("Content-Type", "application/json")
	req = req.WithContext(context.WithValue(req.Context(), userKey{}, ada))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create under the custom scheme: status %d, body %s; want 201", rec.Code, rec.Body)
	}
	var listed articles.Page
	err = s.ListPublished(context.Background(), 10, 0, &listed)
	if err != nil || len(listed.Articles) != 1 || listed.Articles[0].UserID != ada {
		t.Errorf("store holds %+v (error %v), want one article by user %d", listed.Articles, err, ada)
	}
}
