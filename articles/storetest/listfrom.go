package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
)

// testListFrom checks keyset pages, forward and backward, around ties of
// created_at, drafts and the ends of the list.
func testListFrom(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()
	s := newStore(t)
	seek := func(sk articles.Seek) ([]int64, error) {
		var p articles.Page
		err := s.ListPublishedFrom(ctx, sk, &p)
		if p.Total != 0 {
			t.Errorf("ListPublishedFrom(%+v) set Total %d, want 0", sk, p.Total)
		}
		return ids(p.Articles), err
	}
	if got, err := seek(articles.Seek{Limit: 5}); err != nil || len(got) != 0 {
		t.Errorf("ListPublishedFrom on an empty store = %v, %v; want none", got, err)
	}

	ada := addUser(t, s, "Ada")
	var list []articles.Article // newest first
	for i, sec := range []int{-100, 5, 10, 10, 10, 20} {
		a := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "t", Body: "b", Published: true, CreatedAt: at(sec)})
		list = append(list, a)
		if i == 2 {
			addArticle(t, s, articles.NewArticle{UserID: ada, Title: "draft", Body: "b", CreatedAt: at(10)})
		}
	}
	sub := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "t", Body: "b", Published: true, CreatedAt: at(10).Add(time.Microsecond)})
	list = append(list, sub)
	slices.SortFunc(list, func(a, b articles.Article) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	all := ids(list)
	pos := func(i int) *articles.Position { p := articles.PositionOf(list[i]); return &p }
	cases := []struct {
		name string
		seek articles.Seek
		want []int64
	}{
		{"top", articles.Seek{Limit: 3}, all[:3]},
		{"top, all", articles.Seek{Limit: 100}, all},
		{"after the first", articles.Seek{From: pos(0), Limit: 2}, all[1:3]},
		{"after a tie", articles.Seek{From: pos(3), Limit: 3}, all[4:7]},
		{"into a tie", articles.Seek{From: pos(1), Limit: 2}, all[2:4]},
		{"after the last", articles.Seek{From: pos(6), Limit: 2}, nil},
		{"before the last", articles.Seek{From: pos(6), Backward: true, Limit: 2}, all[4:6]},
		{"before a tie", articles.Seek{From: pos(4), Backward: true, Limit: 2}, all[2:4]},
		{"before the second", articles.Seek{From: pos(1), Backward: true, Limit: 5}, all[:1]},
		{"before the first", articles.Seek{From: pos(0), Backward: true, Limit: 5}, nil},
		{"a position of no article", articles.Seek{From: &articles.Position{CreatedAt: at(10), ID: list[3].ID + 1000}, Limit: 2}, all[2:4]},
	}
	for _, c := range cases {
		got, err := seek(c.seek)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: ListPublishedFrom = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	var p articles.Page
	if err := s.ListPublishedFrom(ctx, articles.Seek{Limit: 2}, &p); err != nil || len(p.Articles) != 2 {
		t.Fatalf("ListPublishedFrom: %v", err)
	}
	if diff := sameArticle(p.Articles[0], list[0]); diff != "" {
		t.Errorf("ListPublishedFrom's first article: %s", diff)
	}
	for _, bad := range []articles.Seek{{Limit: 0}, {Limit: -1}, {Backward: true, Limit: 1}} {
		if _, err := seek(bad); err == nil {
			t.Errorf("ListPublishedFrom(%+v) error = nil, want an error", bad)
		}
	}
}
