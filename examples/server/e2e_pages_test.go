package main

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// testPages pages the articles by cursor and the posts by
// postsConnection through the running server, and checks that both
// refuse a changed cursor: a 422 and a BAD_USER_INPUT.
func (s *service) testPages(t *testing.T) {
	for _, title := range []string{"Paged 1", "Paged 2", "Paged 3"} {
		s.createArticle(t, s.adaToken, title, true)
	}
	// The offset list's first page of 100 is every article (the test
	// writes fewer): the cursor pages must list the same, in order.
	var all struct {
		Data []struct{ ID int64 }
		Meta struct{ Total int }
	}
	send(t, http.MethodGet, s.url("/api/articles?per_page=100"), "").decode(t, &all)
	var want, got []int64
	for _, a := range all.Data {
		want = append(want, a.ID)
	}
	next := s.url("/api/articles?cursor=&per_page=2")
	var cursor string
	for n := 0; next != "" && n < 100; n++ {
		r := send(t, http.MethodGet, next, "")
		var page struct {
			Data        []struct{ ID int64 }
			NextCursor  *string `json:"next_cursor"`
			NextPageURL *string `json:"next_page_url"`
		}
		r.decode(t, &page)
		if r.status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", next, r.status, r.body)
		}
		for _, a := range page.Data {
			got = append(got, a.ID)
		}
		next = ""
		if page.NextPageURL != nil {
			next, cursor = *page.NextPageURL, *page.NextCursor
		}
	}
	if len(want) < 3 || len(want) != all.Meta.Total || !slices.Equal(got, want) {
		t.Errorf("cursor pages listed %v, want %v (total %d)", got, want, all.Meta.Total)
	}
	changed := strings.ToUpper(cursor[:4]) + strings.ToLower(cursor[4:])
	send(t, http.MethodGet, s.url("/api/articles?cursor="+changed), "").check(t, http.StatusUnprocessableEntity,
		`{"message":"The selected cursor is invalid.","errors":{"cursor":["The selected cursor is invalid."]}}`)

	// postsConnection lists what posts lists.
	var posts struct {
		Data struct{ Posts []struct{ ID string } }
	}
	s.graphql(t, "", `{ posts(first: 50) { id } }`, nil).decode(t, &posts)
	var wantPosts, gotPosts []string
	for _, p := range posts.Data.Posts {
		wantPosts = append(wantPosts, p.ID)
	}
	const query = `query($after: String) { postsConnection(first: 20, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`
	var after any
	for range 10 {
		var page struct {
			Data struct {
				PostsConnection struct {
					Edges    []struct{ Node struct{ ID string } }
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
		}
		s.graphql(t, "", query, map[string]any{"after": after}).decode(t, &page)
		for _, e := range page.Data.PostsConnection.Edges {
			gotPosts = append(gotPosts, e.Node.ID)
		}
		if !page.Data.PostsConnection.PageInfo.HasNextPage || len(gotPosts) >= len(wantPosts) {
			break
		}
		after = page.Data.PostsConnection.PageInfo.EndCursor
	}
	if len(wantPosts) == 0 || !slices.Equal(gotPosts[:min(len(gotPosts), len(wantPosts))], wantPosts) {
		t.Errorf("postsConnection listed %v, want %v first", gotPosts, wantPosts)
	}
	s.graphql(t, "", query, map[string]any{"after": changed}).check(t, http.StatusOK,
		`{"data":null,"errors":[{"message":"Argument \"after\" is not a cursor of this connection.","locations":[{"line":1,"column":25}],"path":["postsConnection"],"extensions":{"code":"BAD_USER_INPUT"}}]}`)
}
