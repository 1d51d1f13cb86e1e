package storetest

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/errcode"
)

func testCreate(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()

	t.Run("RoundTrip", func(t *testing.T) {
		s := newStore(t)
		ada := addUser(t, s, "Ada Lovelace")
		cases := []articles.NewArticle{
			{UserID: ada, Title: "Hello", Body: "World", Published: true, CreatedAt: base},
			{UserID: ada, Title: "Ünïcödé 世界 👋🏽", Body: "line 1\nline 2\t\"quoted\" \\ <b>&amp;</b> 'single'", Published: true, CreatedAt: at(1)},
			{UserID: ada, Title: strings.Repeat("😀", articles.MaxTitleLength), Body: strings.Repeat("x", 100_000), Published: true, CreatedAt: at(2)},
			{UserID: ada, Title: "Exact microseconds", Body: "b", Published: true, CreatedAt: time.Date(2030, 12, 31, 23, 59, 59, 999999000, time.UTC)},
		}
		for _, in := range cases {
			got := addArticle(t, s, in)
			want := articles.Article{
				ID: got.ID, UserID: ada, Title: in.Title, Body: in.Body, Published: true,
				CreatedAt: stored(in.CreatedAt), UpdatedAt: stored(in.CreatedAt),
				Author: articles.Author{ID: ada, Name: "Ada Lovelace"},
			}
			if diff := sameArticle(got, want); diff != "" {
				t.Errorf("CreateArticle(%.20q): %s", in.Title, diff)
			}
			found, err := s.FindPublished(ctx, got.ID)
			if err != nil {
				t.Fatalf("FindPublished(%d) error: %v", got.ID, err)
			}
			if diff := sameArticle(found, want); diff != "" {
				t.Errorf("FindPublished(%d) after CreateArticle: %s", got.ID, diff)
			}
		}
	})

	t.Run("ZeroTimeIsNow", func(t *testing.T) {
		s := newStore(t)
		ada := addUser(t, s, "ada")
		before := time.Now().Truncate(time.Microsecond)
		a := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "t", Body: "b"})
		after := time.Now()
		if a.CreatedAt.Before(before) || a.CreatedAt.After(after) || !a.UpdatedAt.Equal(a.CreatedAt) ||
			a.CreatedAt.Location() != time.UTC || a.CreatedAt.Nanosecond()%1000 != 0 {
			t.Errorf("CreateArticle without CreatedAt stamped %v and %v, want equal UTC microsecond times between %v and %v",
				a.CreatedAt, a.UpdatedAt, before, after)
		}
	})

	t.Run("UnknownUser", func(t *testing.T) {
		s := newStore(t)
		ada := addUser(t, s, "ada")
		gone := addUser(t, s, "gone")
		if err := s.DeleteUser(ctx, gone); err != nil {
			t.Fatalf("DeleteUser error: %v", err)
		}
		for _, userID := range []int64{gone, 987654, 0, -1} {
			a, err := s.CreateArticle(ctx, articles.NewArticle{UserID: userID, Title: "t", Body: "b", Published: true, CreatedAt: base})
			if !errors.Is(err, articles.ErrUnknownUser) {
				t.Errorf("CreateArticle for user %d error = %v, want ErrUnknownUser", userID, err)
			}
			if a != (articles.Article{}) {
				t.Errorf("CreateArticle for user %d = %+v, want the zero Article", userID, a)
			}
		}
		if n := total(t, s); n != 0 {
			t.Errorf("after refused creates there are %d published articles, want 0", n)
		}
		addArticle(t, s, articles.NewArticle{UserID: ada, Title: "t", Body: "b", Published: true})
	})
}

func testFind(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()
	s := newStore(t)
	ada := addUser(t, s, "ada")
	draft := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "draft", Body: "b", CreatedAt: base})
	for _, id := range []int64{draft.ID, draft.ID + 1000, 0, -1, math.MaxInt64} {
		a, err := s.FindPublished(ctx, id)
		if !errors.Is(err, errcode.ErrNotFound) {
			t.Errorf("FindPublished(%d) error = %v, want ErrNotFound", id, err)
		}
		if a != (articles.Article{}) {
			t.Errorf("FindPublished(%d) = %+v, want the zero Article", id, a)
		}
	}
}

func testList(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()
	s := newStore(t)

	empty, err := listPage(ctx, s, 15, 0)
	if err != nil {
		t.Fatalf("ListPublished on an empty store error: %v", err)
	}
	if empty.Total != 0 || empty.Articles == nil || len(empty.Articles) != 0 {
		t.Errorf("ListPublished on an empty store = %#v, want total 0 and an empty, non-nil slice", empty)
	}

	ada := addUser(t, s, "Ada")
	bob := addUser(t, s, "Bob")
	// Insertion order differs from time order; two share a time.
	old := addArticle(t, s, articles.NewArticle{UserID: bob, Title: "old", Body: "b", Published: true, CreatedAt: at(-100)})
	mid := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "mid", Body: "b", Published: true, CreatedAt: at(5)})
	tieA := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "tie a", Body: "b", Published: true, CreatedAt: at(10)})
	draft := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "draft", Body: "b", CreatedAt: at(20)})
	tieB := addArticle(t, s, articles.NewArticle{UserID: bob, Title: "tie b", Body: "b", Published: true, CreatedAt: at(10)})
	sub := addArticle(t, s, articles.NewArticle{UserID: bob, Title: "sub-second", Body: "b", Published: true, CreatedAt: at(10).Add(time.Microsecond)})
	_ = draft

	newestFirst := []articles.Article{sub, tieB, tieA, mid, old}
	cases := []struct {
		limit  int
		offset int64
		want   []articles.Article
	}{
		{limit: 15, offset: 0, want: newestFirst},
		{limit: 2, offset: 0, want: newestFirst[:2]},
		{limit: 2, offset: 2, want: newestFirst[2:4]},
		{limit: 2, offset: 4, want: newestFirst[4:]},
		{limit: 2, offset: 5, want: nil},
		{limit: 1, offset: math.MaxInt64, want: nil},
		{limit: 100, offset: 1, want: newestFirst[1:]},
	}
	for _, c := range cases {
		p, err := listPage(ctx, s, c.limit, c.offset)
		if err != nil {
			t.Fatalf("ListPublished(%d, %d) error: %v", c.limit, c.offset, err)
		}
		if p.Total != 5 {
			t.Errorf("ListPublished(%d, %d) total = %d, want 5", c.limit, c.offset, p.Total)
		}
		if p.Articles == nil {
			t.Errorf("ListPublished(%d, %d) articles = nil, want a non-nil slice", c.limit, c.offset)
		}
		if got, want := ids(p.Articles), ids(c.want); !slices.Equal(got, want) {
			t.Errorf("ListPublished(%d, %d) ids = %v, want %v", c.limit, c.offset, got, want)
			continue
		}
		for i, a := range p.Articles {
			if diff := sameArticle(a, c.want[i]); diff != "" {
				t.Errorf("ListPublished(%d, %d)[%d]: %s", c.limit, c.offset, i, diff)
			}
		}
	}

	for _, bad := range []struct {
		limit  int
		offset int64
	}{{0, 0}, {-1, 0}, {1, -1}} {
		if _, err := listPage(ctx, s, bad.limit, bad.offset); err == nil {
			t.Errorf("ListPublished(%d, %d) error = nil, want an error", bad.limit, bad.offset)
		}
	}
}

func testDelete(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()
	s := newStore(t)
	ada := addUser(t, s, "ada")
	bob := addUser(t, s, "bob")
	gone := addUser(t, s, "gone")
	if err := s.DeleteUser(ctx, gone); err != nil {
		t.Fatalf("DeleteUser error: %v", err)
	}
	published := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "p", Body: "b", Published: true, CreatedAt: at(1)})
	draft := addArticle(t, s, articles.NewArticle{UserID: ada, Title: "d", Body: "b", CreatedAt: at(2)})
	bobs := addArticle(t, s, articles.NewArticle{UserID: bob, Title: "b", Body: "b", Published: true, CreatedAt: at(3)})

	cases := []struct {
		name   string
		id     int64
		userID int64
		want   error // nil, ErrNotAuthor, ErrUnknownUser or errcode.ErrNotFound
	}{
		{name: "another's published article", id: published.ID, userID: bob, want: articles.ErrNotAuthor},
		{name: "another's draft", id: draft.ID, userID: bob, want: articles.ErrNotAuthor},
		{name: "missing article", id: bobs.ID + 1000, userID: bob, want: errcode.ErrNotFound},
		{name: "deleted user, published article", id: published.ID, userID: gone, want: articles.ErrUnknownUser},
		{name: "deleted user, missing article", id: bobs.ID + 1000, userID: gone, want: articles.ErrUnknownUser},
		{name: "unknown user", id: bobs.ID, userID: 987654, want: articles.ErrUnknownUser},
		{name: "own draft", id: draft.ID, userID: ada, want: nil},
		{name: "own published article", id: published.ID, userID: ada, want: nil},
		{name: "own article again", id: published.ID, userID: ada, want: errcode.ErrNotFound},
	}
	for _, c := range cases {
		err := s.DeleteArticle(ctx, c.id, c.userID)
		switch {
		case c.want == nil && err != nil:
			t.Errorf("%s: DeleteArticle(%d, %d) error = %v, want nil", c.name, c.id, c.userID, err)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("%s: DeleteArticle(%d, %d) error = %v, want one matching %v", c.name, c.id, c.userID, err, c.want)
		}
	}

	p, err := listPage(ctx, s, 10, 0)
	if err != nil {
		t.Fatalf("ListPublished error: %v", err)
	}
	if got, want := ids(p.Articles), []int64{bobs.ID}; !slices.Equal(got, want) || p.Total != 1 {
		t.Errorf("after the deletes ListPublished ids = %v (total %d), want %v (total 1)", got, p.Total, want)
	}
	if err := s.DeleteArticle(ctx, bobs.ID, bob); err != nil {
		t.Errorf("DeleteArticle of bob's article by bob error = %v, want nil", err)
	}
}
